import { useState } from "react";
import { Form, Link, useFetcher, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";

import { FormAlert } from "~/components/Field";
import { RenderedFor } from "~/components/RenderedFor";
import { answerOr, submitted } from "~/lib/client-action";
import { ORDER_STATUS_MESSAGES, ORDER_STATUSES, type OrderStatus } from "~/lib/constants";
import type { orderStatusAction } from "~/lib/order-status-form.server";
import { cancelQuestion } from "~/lib/order-stock";
import type { OrderView } from "~/lib/schemas/order";

// The admin's status form: in the orders screen's Manage dialog and on an order's own page, each route's action being
// orderStatusAction. With JavaScript it posts through a fetcher (the page stays put) and asks before cancelling;
// without, the server asks that second question as a form of its own.

export type OrderStatusResult = Awaited<ReturnType<typeof orderStatusAction>>["data"];

/** A route's clientAction for the form: a lost answer says the update failed instead of showing the error page. */
export async function orderStatusClientAction(request: Request, serverAction: () => Promise<unknown>) {
  const form = await submitted(request);
  const failed = { kind: "error" as const, orderId: Number(form.get("orderId")) || null, status: null, message: ORDER_STATUS_MESSAGES.failed };
  return answerOr(serverAction, () => failed);
}

/**
 * A route's shouldRevalidate for the form: the page reads the order again after every answer to it, a refusal too.
 * React Router skips that after a 4xx, and a 409 ("changed meanwhile") left the page on the status it no longer has,
 * with a form that could only be refused again.
 */
export function revalidateAfterStatusForm({ formData, actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  // Not after a refusal for another account signed in since (app/lib/rendered-for.ts): reading the page again as that
  // account would replace it (a customer is sent to /) and its message with it.
  if (typeof actionResult === "object" && actionResult !== null && "renderedForRefused" in actionResult) return false;
  return formData?.get("intent") === "status" || defaultShouldRevalidate;
}

/**
 * The status the select starts on: the next step of the order's life. A delivered or cancelled order has none, so the
 * select starts on a prompt: one press of Update Status must not take a parcel back or reopen a cancelled order.
 */
function suggestedStatus(current: OrderStatus): OrderStatus | "" {
  const next = ORDER_STATUSES[ORDER_STATUSES.indexOf(current) + 1];
  return next && next !== "CANCELLED" ? next : "";
}

/**
 * A move back along the order's life that is no cancellation or reopening: putting right a wrong click (DELIVERED back
 * to CONFIRMED). Its e-mail would tell a customer who has their shoes that packing starts shortly, so the form leaves
 * "E-mail the customer" unticked for it (the admin may tick it).
 */
function isCorrection(from: OrderStatus, to: OrderStatus | ""): boolean {
  return to !== "" && from !== "CANCELLED" && to !== "CANCELLED" && ORDER_STATUSES.indexOf(to) < ORDER_STATUSES.indexOf(from);
}

export function OrderStatusForm({
  order,
  keepHref,
  noJsResult,
  autoFocus = false,
}: {
  /** Its lines too: the question before cancelling names those whose stock cannot be put back. */
  order: Pick<OrderView, "id" | "status" | "orderItems">;
  /** Where "Keep order" goes from the no-JavaScript confirmation: the same screen without the question. */
  keepHref: string;
  /** The action's answer to a plain form post (no JavaScript). */
  noJsResult: OrderStatusResult | undefined;
  /** In a dialog, the select takes the focus when it opens. */
  autoFocus?: boolean;
}) {
  const fetcher = useFetcher<OrderStatusResult>();
  const navigation = useNavigation();
  const result = fetcher.data ?? (noJsResult?.orderId === order.id ? noJsResult : undefined);
  const busy = fetcher.state !== "idle" || (navigation.state === "submitting" && navigation.formData?.get("orderId") === String(order.id));
  const others = ORDER_STATUSES.filter((status) => status !== order.status);
  const [chosen, setChosen] = useState<OrderStatus | "">(suggestedStatus(order.status));
  // Follows the chosen status until the admin ticks or unticks it.
  const [notifyChoice, setNotifyChoice] = useState<boolean | null>(null);
  // A new status (this form's update, or another admin's seen on revalidation) starts the choice again: the select
  // starts on its next step, and an untick made for the last move does not silence the next one.
  const [statusShown, setStatusShown] = useState(order.status);
  if (statusShown !== order.status) {
    setStatusShown(order.status);
    setChosen(suggestedStatus(order.status));
    setNotifyChoice(null);
  }
  const notify = notifyChoice ?? !isCorrection(order.status, chosen);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return; // the button stays focusable meanwhile (aria-disabled): a second press waits
    const formData = new FormData(event.currentTarget);
    if (formData.get("status") === "CANCELLED") {
      if (!window.confirm(cancelQuestion(order.orderItems))) return;
      formData.set("confirm", "yes");
    }
    fetcher.submit(formData, { method: "post" });
  }

  if (result?.kind === "confirm") {
    // The confirmation step without JavaScript: the same form again, with confirm=yes.
    return (
      <Form method="post" className="mt-5 space-y-4 rounded-2xl border border-red-200 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950/40">
        <p role="alert" className="text-sm font-medium text-red-900 dark:text-red-100">
          {cancelQuestion(order.orderItems)}
        </p>
        <input type="hidden" name="intent" value="status" />
        <input type="hidden" name="orderId" value={order.id} />
        <input type="hidden" name="statusWas" value={order.status} />
        <input type="hidden" name="status" value="CANCELLED" />
        {result.notifyCustomer === false && <input type="hidden" name="notify" value="no" />}
        <RenderedFor />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={keepHref} replace preventScrollReset className="btn-secondary">
            Keep order
          </Link>
          <button type="submit" name="confirm" value="yes" className="btn-danger" disabled={busy}>
            {busy ? "Cancelling..." : "Yes, cancel order"}
          </button>
        </div>
      </Form>
    );
  }
  return (
    <fetcher.Form method="post" onSubmit={submit} className="mt-5 space-y-3">
      {result && <FormAlert tone={result.kind !== "updated" ? "error" : result.stockNotReturned ? "warning" : "success"}>{result.message}</FormAlert>}
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="orderId" value={order.id} />
      <input type="hidden" name="statusWas" value={order.status} />
      <RenderedFor />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex-1">
          <label htmlFor={`status-${order.id}`} className="field-label">
            New status
          </label>
          <select
            key={order.status}
            id={`status-${order.id}`}
            name="status"
            defaultValue={suggestedStatus(order.status)}
            onChange={(event) => setChosen(event.currentTarget.value as OrderStatus)}
            required
            className="field-input"
            data-autofocus={autoFocus || undefined}
          >
            {suggestedStatus(order.status) === "" && (
              <option value="" disabled>
                Choose a status
              </option>
            )}
            {others.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
          {/* Unticked, the box sends nothing: the hidden "no" before it says so (the last value of a name wins). Before
              the button, so Tab reaches it first. */}
          <input type="hidden" name="notify" value="no" />
          <label className="mt-1 flex min-h-11 items-center gap-2 text-sm">
            <input type="checkbox" name="notify" value="yes" checked={notify} onChange={(event) => setNotifyChoice(event.currentTarget.checked)} className="size-4 accent-brand-600" />
            E-mail the customer about this change
          </label>
        </div>
        <button type="submit" className="btn-primary sm:mt-6 sm:w-44" aria-disabled={busy || undefined}>
          {busy ? "Updating..." : "Update Status"}
        </button>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Cancelling puts the order's stock back, for the sizes still sold; reopening a cancelled order takes it again. Untick the box to put a wrong status right without e-mailing the
        customer.
      </p>
    </fetcher.Form>
  );
}
