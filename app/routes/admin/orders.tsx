import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useActionData, useFetcher, useLoaderData, useLocation, useNavigation } from "react-router";

import { readFormData } from "~/lib/forms";
import { z } from "zod";

import { FormAlert } from "~/components/Field";
import { Modal } from "~/components/Modal";
import { OrderHistory, SizeNote } from "~/components/OrderSummary";
import { StatusBadge } from "~/components/StatusBadge";
import { ORDER_STATUSES, type OrderStatus } from "~/lib/constants";
import { filterPillClass } from "~/lib/filter-pill";
import { formatDateTime, formatLkr } from "~/lib/format";
import { HttpError, parseId } from "~/lib/http";
import { orderStatusSchema, type OrderView } from "~/lib/schemas/order";
import { changeOrderStatus, getOrder, listAllOrders } from "~/services/orders.server";
import { mailerFor } from "~/services/outbox.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/orders";

// The filter buttons of SPEC §2 (no button for DELIVERED or CANCELLED; the URL still accepts them).
const FILTERS = ["ALL", "PENDING", "CONFIRMED", "PROCESSING", "SHIPPED"] as const;

const CANCEL_CONFIRMATION = "Cancel this order? Its stock will be put back.";
const UPDATE_FAILED = "Failed to update order status";
const FETCH_FAILED = "Failed to fetch orders";
const SLIP_FAILED = "Failed to load bank slip";

const statusFormSchema = z.object({
  intent: z.literal("status", { error: "Unknown action" }),
  orderId: z.string({ error: "Order not found" }).regex(/^\d{1,15}$/, "Order not found").transform(Number).pipe(z.number().int().min(1, "Order not found")),
  status: orderStatusSchema,
  confirm: z.literal("yes").optional().catch(undefined),
});


type Lookup = { id: number; order: OrderView | null; failed: boolean } | null;

/** The order a modal shows: from the list when it is there, else read on its own (it may be filtered out, or gone). */
async function lookUp(id: number | null, list: OrderView[] | null, read: (id: number) => Promise<OrderView>): Promise<Lookup> {
  if (id === null) return null;
  const listed = list?.find((order) => order.id === id);
  if (listed) return { id, order: listed, failed: false };
  try {
    return { id, order: await read(id), failed: false };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return { id, order: null, failed: false };
    console.error(`Admin orders: reading order ${id} failed`, error);
    return { id, order: null, failed: true };
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const url = new URL(request.url);
  const status = orderStatusSchema.safeParse(url.searchParams.get("status")).data ?? null;
  let orders: OrderView[] | null = null;
  try {
    orders = await listAllOrders(context.db, status ?? undefined);
  } catch (error) {
    console.error("Admin orders: listing the orders failed", error);
  }
  const read = (id: number) => getOrder(context.db, id, admin);
  const [manage, slip] = await Promise.all([lookUp(parseId(url.searchParams.get("manage")), orders, read), lookUp(parseId(url.searchParams.get("slip")), orders, read)]);
  return { status, orders: orders ?? [], error: orders ? null : FETCH_FAILED, manage, slip };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const parsed = statusFormSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!parsed.success) {
    return data({ kind: "error" as const, orderId: null, status: null, message: `${UPDATE_FAILED}: ${parsed.error.issues[0]?.message ?? "invalid input"}` }, { status: 400 });
  }
  const { orderId, status, confirm } = parsed.data;
  // Cancelling puts the stock back: without JavaScript (no window.confirm) the form asks once more.
  if (status === "CANCELLED" && confirm !== "yes") return data({ kind: "confirm" as const, orderId, status, message: CANCEL_CONFIRMATION });
  try {
    const order = await changeOrderStatus(context.db, orderId, status, admin, mailerFor(request, context));
    return data({ kind: "updated" as const, orderId, status: order.status, message: `Order #${orderId} is now ${order.status}.` });
  } catch (error) {
    if (error instanceof HttpError) return data({ kind: "error" as const, orderId, status, message: `${UPDATE_FAILED}: ${error.message}` }, { status: error.status });
    console.error(`Admin orders: changing order ${orderId} to ${status} failed`, error);
    return data({ kind: "error" as const, orderId, status, message: UPDATE_FAILED }, { status: 500 });
  }
}

type ActionResult = NonNullable<ReturnType<typeof useActionData<typeof action>>>;

/** The list's URL (the filter kept) with one modal open, or none. */
function useListHref() {
  const location = useLocation();
  return (modal?: { manage?: number; slip?: number }) => {
    const params = new URLSearchParams(location.search);
    params.delete("manage");
    params.delete("slip");
    if (modal?.manage) params.set("manage", String(modal.manage));
    if (modal?.slip) params.set("slip", String(modal.slip));
    const search = params.toString();
    return `${location.pathname}${search ? `?${search}` : ""}`;
  };
}

/** The status the select starts on: the next step of the order's life (never CANCELLED by default). */
function suggestedStatus(current: OrderStatus): OrderStatus {
  const next = ORDER_STATUSES[ORDER_STATUSES.indexOf(current) + 1];
  if (next && next !== "CANCELLED") return next;
  return current === "PENDING" ? "CONFIRMED" : "PENDING";
}

function FilterBar({ active }: { active: OrderStatus | null }) {
  return (
    <nav aria-label="Filter orders by status" className="mt-6">
      <ul className="flex flex-wrap gap-2">
        {FILTERS.map((filter) => {
          const current = filter === "ALL" ? active === null : active === filter;
          return (
            <li key={filter}>
              <Link
                to={filter === "ALL" ? "/admin/orders" : `/admin/orders?status=${filter}`}
                aria-current={current ? "page" : undefined}
                preventScrollReset
                className={filterPillClass(current)}
              >
                {filter}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** An order's lines as a compact list (name × quantity, subtotal) and its total. */
function ItemList({ order }: { order: OrderView }) {
  return (
    <>
      <ul className="mt-1 divide-y divide-slate-100 dark:divide-slate-800">
        {order.orderItems.map((item, index) => (
          <li key={index} className="flex justify-between gap-3 py-1.5">
            <span className="min-w-0">
              {item.productName} <span className="whitespace-nowrap text-slate-500 dark:text-slate-400">× {item.quantity}</span>
              <SizeNote label={item.sizeLabel} />
            </span>
            <span className="shrink-0 whitespace-nowrap tabular-nums">{formatLkr(item.subtotal)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 flex justify-between gap-3 border-t border-slate-200 pt-2 font-bold dark:border-slate-700">
        <span>Total</span>
        <span className="whitespace-nowrap tabular-nums" data-testid="order-total">
          {formatLkr(order.totalAmount)}
        </span>
      </p>
    </>
  );
}

function OrderCard({ order, href }: { order: OrderView; href: ReturnType<typeof useListHref> }) {
  const headingId = `order-${order.id}-heading`;
  return (
    <li className="card overflow-hidden" data-testid="admin-order" data-order-id={order.id} data-status={order.status} aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 bg-slate-50 px-4 py-3 dark:border-slate-800 dark:bg-slate-900/60 sm:px-5">
        <h2 id={headingId} className="font-semibold">
          Order #{order.id}
        </h2>
        <time dateTime={order.orderDate} className="text-sm text-slate-600 dark:text-slate-400">
          {formatDateTime(order.orderDate)}
        </time>
        <span className="ml-auto">
          <StatusBadge status={order.status} />
        </span>
      </div>
      <div className="grid gap-5 p-4 sm:p-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.3fr)_auto] lg:gap-8">
        <section aria-label={`Customer of order #${order.id}`} className="min-w-0 text-sm">
          <h3 className="text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">Customer</h3>
          <p className="mt-1 font-medium">{order.customerName}</p>
          <p className="break-all">
            <a href={`mailto:${order.customerEmail}`} className="text-brand-700 hover:underline dark:text-brand-300">
              {order.customerEmail}
            </a>
          </p>
          <p>
            <a href={`tel:${order.customerPhone.replace(/\s/g, "")}`} className="hover:underline">
              {order.customerPhone}
            </a>
          </p>
          <h3 className="mt-3 text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">Ship to</h3>
          <p className="mt-1 whitespace-pre-line">{order.shippingAddress}</p>
        </section>
        <section aria-label={`Items of order #${order.id}`} className="min-w-0 text-sm">
          <h3 className="text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">Items</h3>
          <ItemList order={order} />
        </section>
        {/* Each name starts with the words its link shows (WCAG 2.5.3), then the order it is for. */}
        <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-row lg:flex-col lg:justify-start">
          <Link to={href({ manage: order.id })} preventScrollReset className="btn-primary" aria-label={`Manage order #${order.id}`}>
            Manage
          </Link>
          {order.hasBankSlip ? (
            <Link to={href({ slip: order.id })} preventScrollReset className="btn-secondary" aria-label={`View Slip of order #${order.id}`}>
              View Slip
            </Link>
          ) : (
            <span className="inline-flex min-h-11 items-center justify-center px-2 text-sm text-slate-500 dark:text-slate-400">No bank slip</span>
          )}
        </div>
      </div>
    </li>
  );
}

function ManageModal({
  order,
  closeTo,
  selfHref,
  slipHref,
  noJsResult,
}: {
  order: OrderView;
  closeTo: string;
  selfHref: string;
  slipHref: string;
  noJsResult: ActionResult | undefined;
}) {
  const fetcher = useFetcher<typeof action>();
  const navigation = useNavigation();
  const result = fetcher.data ?? (noJsResult?.orderId === order.id ? noJsResult : undefined);
  const busy = fetcher.state !== "idle" || (navigation.state === "submitting" && navigation.formData?.get("orderId") === String(order.id));
  const others = ORDER_STATUSES.filter((status) => status !== order.status);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    if (formData.get("status") === "CANCELLED") {
      if (!window.confirm(CANCEL_CONFIRMATION)) return;
      formData.set("confirm", "yes");
    }
    fetcher.submit(formData, { method: "post" });
  }

  return (
    <Modal
      title={`Manage order #${order.id}`}
      description={
        <>
          {order.customerName} · <span className="whitespace-nowrap">{formatLkr(order.totalAmount)}</span> · <span className="whitespace-nowrap">placed {formatDateTime(order.orderDate)}</span>
        </>
      }
      closeTo={closeTo}
      closeLabel="Close order"
      testId="manage-modal"
    >
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-slate-600 dark:text-slate-400">Current status</span>
        <span data-testid="manage-current-status">
          <StatusBadge status={order.status} />
        </span>
        {order.hasBankSlip && (
          <Link to={slipHref} replace preventScrollReset className="ml-auto inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline dark:text-brand-300">
            View bank slip
          </Link>
        )}
      </div>

      {result?.kind === "confirm" ? (
        // The confirmation step without JavaScript: the same form again, with confirm=yes.
        <Form method="post" className="mt-5 space-y-4 rounded-2xl border border-red-200 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950/40">
          <p role="alert" className="text-sm font-medium text-red-900 dark:text-red-100">
            {CANCEL_CONFIRMATION}
          </p>
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="orderId" value={order.id} />
          <input type="hidden" name="status" value="CANCELLED" />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to={selfHref} replace preventScrollReset className="btn-secondary">
              Keep order
            </Link>
            <button type="submit" name="confirm" value="yes" className="btn-danger" disabled={busy}>
              {busy ? "Cancelling..." : "Yes, cancel order"}
            </button>
          </div>
        </Form>
      ) : (
        <fetcher.Form method="post" onSubmit={submit} className="mt-5 space-y-3">
          {result && <FormAlert tone={result.kind === "updated" ? "success" : "error"}>{result.message}</FormAlert>}
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="orderId" value={order.id} />
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="flex-1">
              <label htmlFor={`status-${order.id}`} className="field-label">
                New status
              </label>
              <select key={order.status} id={`status-${order.id}`} name="status" defaultValue={suggestedStatus(order.status)} className="field-input" data-autofocus>
                {others.map((status) => (
                  <option key={status} value={status}>
                    {status}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn-primary sm:w-44" disabled={busy}>
              {busy ? "Updating..." : "Update Status"}
            </button>
          </div>
          <p className="text-xs text-slate-500 dark:text-slate-400">Cancelling puts the order's stock back; reopening a cancelled order takes it again.</p>
        </fetcher.Form>
      )}

      <div className="mt-6 grid gap-6 md:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)]">
        <section aria-labelledby={`manage-items-${order.id}`}>
          <h3 id={`manage-items-${order.id}`} className="text-sm font-semibold">
            Items
          </h3>
          <div className="text-sm">
            <ItemList order={order} />
          </div>
        </section>
        <section aria-labelledby={`manage-history-${order.id}`} data-testid="status-history">
          <h3 id={`manage-history-${order.id}`} className="text-sm font-semibold">
            Status history
          </h3>
          <div className="mt-3">
            <OrderHistory order={order} />
          </div>
        </section>
      </div>
    </Modal>
  );
}

function SlipImage({ src, alt }: { src: string; alt: string }) {
  const image = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  // An error before hydration fires no onError: look at the picture once React has it.
  useEffect(() => {
    const current = image.current;
    if (current?.complete && current.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return <FormAlert>{SLIP_FAILED}</FormAlert>;
  return (
    <div className="flex justify-center rounded-xl bg-slate-100 p-2 dark:bg-slate-800">
      <img ref={image} src={src} alt={alt} onError={() => setFailed(true)} data-testid="slip-image" className="max-h-[70vh] w-auto max-w-full rounded-lg object-contain" />
    </div>
  );
}

function SlipModal({ lookup, closeTo, manageHref }: { lookup: NonNullable<Lookup>; closeTo: string; manageHref: string }) {
  const { order } = lookup;
  const src = `/api/orders/${lookup.id}/bank-slip`;
  const isPdf = order?.bankSlipType === "application/pdf";
  return (
    <Modal
      title={`Bank slip · Order #${lookup.id}`}
      description={
        order ? (
          <>
            {order.customerName} · <span className="whitespace-nowrap">{formatLkr(order.totalAmount)}</span>
          </>
        ) : undefined
      }
      closeTo={closeTo}
      closeLabel="Close bank slip"
      size="xl"
      testId="slip-modal"
    >
      {lookup.failed ? (
        <FormAlert>{SLIP_FAILED}</FormAlert>
      ) : !order ? (
        <FormAlert>Order #{lookup.id} was not found.</FormAlert>
      ) : !order.hasBankSlip ? (
        <FormAlert>{`${SLIP_FAILED}: this order has no bank slip.`}</FormAlert>
      ) : isPdf ? (
        <iframe src={src} title={`Bank slip of order #${order.id} (PDF)`} data-testid="slip-pdf" className="h-[70vh] w-full rounded-xl border border-slate-200 bg-white dark:border-slate-700" />
      ) : (
        <SlipImage src={src} alt={`Bank slip of order #${order.id}`} />
      )}
      <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {order && (
          <Link to={manageHref} replace preventScrollReset className="btn-secondary">
            Manage order
          </Link>
        )}
        {order?.hasBankSlip && (
          <a href={src} target="_blank" rel="noopener" className="btn-primary">
            Open in a new tab
            <span className="sr-only"> (opens the slip on its own)</span>
          </a>
        )}
      </div>
    </Modal>
  );
}

export default function AdminOrdersPage() {
  const { status, orders, error, manage, slip } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const href = useListHref();
  const closeTo = href();
  const pending = orders.filter((order) => order.status === "PENDING").length;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <Link to="/admin/dashboard" className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
        ← Dashboard
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Orders</h1>
        {!error && (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="orders-count">
            {orders.length} {orders.length === 1 ? "order" : "orders"}
            {status ? ` ${status.toLowerCase()}` : pending ? `, ${pending} pending` : ""}
          </p>
        )}
      </div>
      <FilterBar active={status} />

      {error ? (
        <div className="mt-6">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : orders.length === 0 ? (
        <p className="mt-6 rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          {status ? `No ${status.toLowerCase()} orders` : "No orders yet"}
        </p>
      ) : (
        <ul className="mt-6 space-y-4" aria-label="Orders, newest first">
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} href={href} />
          ))}
        </ul>
      )}

      {manage &&
        (manage.order ? (
          <ManageModal key={manage.id} order={manage.order} closeTo={closeTo} selfHref={href({ manage: manage.id })} slipHref={href({ slip: manage.id })} noJsResult={actionData} />
        ) : (
          <Modal title={`Manage order #${manage.id}`} closeTo={closeTo} closeLabel="Close order" testId="manage-modal">
            <FormAlert>{manage.failed ? FETCH_FAILED : `Order #${manage.id} was not found.`}</FormAlert>
          </Modal>
        ))}
      {slip && !manage && <SlipModal key={slip.id} lookup={slip} closeTo={closeTo} manageHref={href({ manage: slip.id })} />}
    </div>
  );
}

export function meta() {
  return [{ title: "Orders | Stride admin" }, { name: "robots", content: "noindex" }];
}
