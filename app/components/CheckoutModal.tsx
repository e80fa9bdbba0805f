import { useEffect, useRef, useState } from "react";
import { Form, useNavigate, useRevalidator } from "react-router";

import { BANK_SLIP_MAX_BYTES, BANK_SLIP_MESSAGES, BANK_SLIP_TYPES, bankSlipType, sniffChosenFile, type SniffedType } from "~/lib/file-types";
import { formatLkr } from "~/lib/format";
import { BANK_SLIP_PICTURE, preparePicture } from "~/lib/prepare-picture";
import { nameWithSize } from "~/lib/sizes";
import type { CartLine } from "~/lib/schemas/cart";
import type { PublicUser } from "~/lib/schemas/auth";
import { checkoutCustomerSchema, IDEMPOTENCY_KEY_HEADER, type CheckoutValues } from "~/lib/schemas/order";
import { INVALID_TOKEN } from "~/lib/http";
import { keepForm } from "~/lib/kept-form";
import { RENDERED_FOR_HEADER, SIGNED_IN_AS_ANOTHER } from "~/lib/rendered-for";
import { BankTransferDetails, type Bank } from "./BankTransferDetails";
import { Field, FormAlert, useFocusOnRefusal } from "./Field";
import { KeptNote, useKeptForm } from "./KeptForm";
import { DialogCloseLink, Modal } from "./Modal";
import { RenderedFor, useRenderedFor } from "./RenderedFor";

export const CHECKOUT_CLOSE_MS = 2000;

/** The checkout's address, and where its contact fields are kept when the session ends under it. */
const CHECKOUT_KEPT = "/cart?checkout";

/** SPEC §8: the server's message if any, else one per status. */
async function failureMessage(response: Response | null): Promise<string> {
  if (!response) return "Cannot connect to server. Please check your internet connection and try again.";
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  if (response.status === 401) return "Authentication failed. Please try logging in again.";
  if (response.status === 403) return "Access denied. Please check your permissions.";
  if (body?.message) return body.message;
  return `Failed to place order. Error: ${response.status}.`;
}

/** The slip's field (its name, its id): its error line is `${SLIP_FIELD_ID}-error` (Field). */
const SLIP_FIELD_ID = "bankSlip";

const SLIP_PROBLEMS = new Set<string>(Object.values(BANK_SLIP_MESSAGES));

/** SPEC §5's slip checks, in its order, and the type the file's first bytes show (as the server reads it). */
async function checkSlip(file: File | null): Promise<{ problem: string | null; type: SniffedType | null }> {
  if (!file || file.size === 0) return { problem: BANK_SLIP_MESSAGES.missing, type: null };
  const type = await sniffChosenFile(file);
  if (!type || !BANK_SLIP_TYPES.includes(type)) return { problem: BANK_SLIP_MESSAGES.type, type };
  if (file.size >= BANK_SLIP_MAX_BYTES) return { problem: BANK_SLIP_MESSAGES.size, type };
  // Then the whole file, by the server's own rule: a picture cut off before its size, a PDF without its end, is refused.
  if (!bankSlipType(new Uint8Array(await file.arrayBuffer()))) return { problem: BANK_SLIP_MESSAGES.type, type };
  return { problem: null, type };
}

export function CheckoutModal({
  user,
  lines,
  checkoutKey,
  bank,
  deliveryNote,
  serverError,
  onCartRefusal,
}: {
  user: PublicUser;
  lines: CartLine[];
  /** This checkout's Idempotency-Key: every press sends it, so the server places at most one order for them all. */
  checkoutKey: string;
  bank: Bank;
  /** The shop's delivery terms (DELIVERY_NOTE), or null to say nothing. */
  deliveryNote: string | null;
  /** A refused checkout without JavaScript: its message, its fields at fault and what was typed in them. */
  serverError: { message: string; fieldErrors?: Record<string, string[]>; values?: CheckoutValues } | null;
  /** A refusal on the cart's contents (409), which reloads the cart: told to the cart page, which says it if the checkout closes with an empty cart. */
  onCartRefusal?: (message: string) => void;
}) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const renderedFor = useRenderedFor();
  // What the last Place Order refused, field by field: the focus goes to the first field at fault, else the message.
  const [refusal, setRefusal] = useState<{ fieldErrors: Record<string, string[]> } | null>(serverError ? { fieldErrors: serverError.fieldErrors ?? {} } : null);
  const form = useFocusOnRefusal(refusal);
  const [slip, setSlip] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [slipError, setSlipError] = useState<string | null>(null);
  /** What was done to the chosen photo before sending (prepare-picture.ts), in a quiet line. */
  const [slipNote, setSlipNote] = useState<string | null>(null);
  // While a chosen photo is being prepared, Place Order waits: its button stays focusable but says so (aria-disabled),
  // and a press or an Enter sends nothing, so a file not yet prepared is never sent. The ref is read by a press in
  // the same moment as the choice, before React has drawn the button again.
  const [preparing, setPreparing] = useState(false);
  const preparingNow = useRef(false);
  const [hydrated, setHydrated] = useState(false);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(serverError ? { tone: "error", text: serverError.message } : null);
  const [placing, setPlacing] = useState(false);
  const [placed, setPlaced] = useState(false);
  // The submission, taken before anything is awaited: a second press (a double click, a tap while a big photo is
  // checked) finds it taken and sends nothing. `placing` is state, seen only once React has drawn again, too late
  // for a press 60 ms after the first. Let go when the order is refused, kept once it is placed.
  const submitting = useRef(false);
  // A slip chosen and found wrong (its type, its size): Place Order is unavailable until another is chosen.
  const slipRefused = slip !== null && slipError !== null && !preparing;
  // Added up in cents, as the server does: a sum of rupee fractions drifts, and the total goes back as expectedTotal.
  const total = lines.reduce((sum, line) => sum + Math.round(line.unitPrice * 100) * line.quantity, 0) / 100;
  const shownLines = lines.map(({ productId, sizeId, quantity }) => ({ productId, sizeId, quantity }));
  useEffect(() => setHydrated(true), []);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  /**
   * A chosen slip is first prepared: a JPEG or PNG photo is scaled down to 2400 px, turned upright and re-encoded
   * without its metadata (a phone's GPS position); a PDF, or a photo the browser fails to prepare, stays as chosen.
   * The file to be sent is then checked at once: what Place Order would refuse says so now, and only a picture is
   * previewed.
   */
  const chosenSlip = useRef<File | null>(null);
  async function chooseSlip(file: File | null) {
    chosenSlip.current = file;
    preparingNow.current = file !== null;
    setPreparing(file !== null);
    // Nothing from an earlier choice is sent or shown meanwhile.
    setSlip(null);
    setSlipError(null);
    setSlipNote(null);
    setPreview(null);
    try {
      const prepared = file ? await preparePicture(file, BANK_SLIP_PICTURE) : null;
      const sent = prepared?.file ?? null;
      const { problem, type } = sent ? await checkSlip(sent) : { problem: null, type: null };
      // Another file chosen while this one was prepared: that one is the slip.
      if (chosenSlip.current !== file) return;
      setSlip(sent);
      setSlipError(problem);
      setSlipNote(problem ? null : (prepared?.note ?? null));
      setPreview(sent && !problem && type !== "application/pdf" ? URL.createObjectURL(sent) : null);
      // What the last Place Order said of the slip was about the file chosen then; its other messages still hold.
      setMessage((shown) => (shown?.tone === "error" && SLIP_PROBLEMS.has(shown.text) ? null : shown));
    } finally {
      // Never left waiting, whatever failed: the checks (and the server) judge what is sent.
      if (chosenSlip.current === file) {
        preparingNow.current = false;
        setPreparing(false);
      }
    }
  }

  async function placeOrder(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting.current || preparingNow.current) return; // the button stays focusable meanwhile (aria-disabled)
    // A slip found wrong when chosen holds the order back until another is chosen: the press sends nothing and takes
    // the shopper to the field, where its message is (and is read with it).
    if (slipRefused) return document.getElementById(SLIP_FIELD_ID)?.focus();
    submitting.current = true;
    setPlacing(true);
    let orderPlaced = false;
    try {
      orderPlaced = (await submitOrder(event.currentTarget)) === true;
    } finally {
      if (!orderPlaced) submitting.current = false;
      setPlacing(false);
    }
  }

  /** Checks the form and the slip, then sends the order: true once it is placed. */
  async function submitOrder(formElement: HTMLFormElement): Promise<boolean | void> {
    setMessage(null);
    const values = Object.fromEntries(new FormData(formElement));
    const customer = checkoutCustomerSchema.safeParse(values);
    if (!customer.success) {
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of customer.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
      setRefusal({ fieldErrors });
      return setMessage({ tone: "error", text: customer.error.issues[0].message });
    }
    const slipProblem = slip ? (await checkSlip(slip)).problem : BANK_SLIP_MESSAGES.missing;
    if (slipProblem || !slip) {
      setSlipError(slipProblem);
      setRefusal({ fieldErrors: {} });
      return setMessage({ tone: "error", text: slipProblem ?? BANK_SLIP_MESSAGES.missing });
    }

    const body = new FormData();
    // The lines shown, fromCart: refused (409) if another tab changed the cart since, rather than ordered.
    body.set("order", JSON.stringify({ ...customer.data, orderItems: shownLines, fromCart: true, expectedTotal: total }));
    body.set("bankSlip", slip);
    // Whom the checkout was shown for: another account logged in since in another tab is refused (409), not charged.
    const headers: Record<string, string> = { [IDEMPOTENCY_KEY_HEADER]: checkoutKey };
    if (renderedFor !== null) headers[RENDERED_FOR_HEADER] = String(renderedFor);
    const response = await fetch("/api/orders", { method: "POST", body, headers }).catch(() => null);
    if (response?.status === 401) {
      // The session ended (a logout elsewhere, a new password, an expired token): on to the login page (SPEC §8), and
      // back here after it with the contact fields as typed (the slip must be chosen again).
      const { message } = ((await response.json().catch(() => null)) ?? {}) as { message?: string };
      if (form.current) keepForm(CHECKOUT_KEPT, new FormData(form.current));
      const login = new URLSearchParams({ redirect: CHECKOUT_KEPT });
      if (message === INVALID_TOKEN) login.set("expired", "1");
      return navigate(`/login?${login}`);
    }
    if (!response?.ok) {
      const text = await failureMessage(response);
      // A refusal on the cart's contents (a price changed, a size sold out, another tab changed the cart) shows the
      // cart as it now is; not one for another account signed in since (reading the page again would show that
      // account's cart under what this one typed).
      if (response?.status === 409 && text !== SIGNED_IN_AS_ANOTHER) {
        onCartRefusal?.(text);
        revalidator.revalidate();
      }
      setRefusal({ fieldErrors: {} });
      return setMessage({ tone: "error", text });
    }

    const order = (await response.json()) as { id: number };
    form.current?.reset();
    chooseSlip(null);
    setPlaced(true);
    setMessage({ tone: "success", text: `Order #${order.id} placed! It is pending payment verification; we will confirm it once your slip is checked.` });
    setTimeout(() => {
      // The modal closes onto the order's page, where the checkout without JavaScript ends too (the action's
      // redirect), rather than onto an empty cart. The navigation reloads the root's data (the URL's query changes),
      // so the bar shows the cart the server emptied with the order. Replacing ?checkout keeps Back on the cart.
      navigate(`/orders/${order.id}?placed=1`, { replace: true });
      window.alert(`Thank you! Your order #${order.id} has been placed. You can follow it under My Orders.`);
    }, CHECKOUT_CLOSE_MS);
    return true;
  }

  const errors = refusal?.fieldErrors;
  // What was typed before the session ended, back once after the login (app/lib/kept-form.ts).
  const kept = useKeptForm(CHECKOUT_KEPT);
  // The fields are prefilled from the profile; after a refusal they show what was sent (the shopper may have changed
  // the address for this order).
  const typed = serverError?.values;
  const noteText = preparing ? "Preparing your slip..." : slip && !slipError ? slipNote : null;
  return (
    <Modal title="Checkout" closeTo="/cart" closeLabel="Close checkout" size="xl" testId="checkout">
      <section aria-labelledby="bank-title" className="rounded-2xl bg-brand-50 p-5 text-sm dark:bg-slate-800">
        <h3 id="bank-title" className="font-semibold">
          Pay by bank transfer
        </h3>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-slate-700 dark:text-slate-300">
          <li>Transfer the amount below to our account.</li>
          <li>Upload a photo or PDF of the bank slip here and place your order.</li>
          <li>We check the slip and confirm your order, usually within one working day.</li>
        </ol>
        <BankTransferDetails bank={bank} amount={total} />
      </section>

      <div className="mt-5 rounded-2xl border border-slate-200 p-4 text-sm dark:border-slate-800">
        <ul className="space-y-1">
          {lines.map((line) => (
            <li key={`${line.productId}-${line.sizeId}`} className="flex justify-between gap-4">
              <span>
                {nameWithSize(line.productName, line.sizeLabel)} × {line.quantity}
              </span>
              <span className="whitespace-nowrap">{formatLkr(line.unitPrice * line.quantity)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 flex justify-between border-t border-slate-200 pt-3 text-base font-bold dark:border-slate-800">
          <span>Total</span>
          <span data-testid="checkout-total">{formatLkr(total)}</span>
        </p>
        {deliveryNote && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{deliveryNote}</p>}
      </div>

      {/* Without JavaScript this form posts to the cart's action, which places the same order. */}
      <Form ref={form} method="post" action="/cart?checkout" encType="multipart/form-data" onSubmit={placeOrder} className="mt-6 space-y-4" noValidate>
        <input type="hidden" name="intent" value="checkout" />
        <input type="hidden" name="expectedTotal" value={total} />
        <input type="hidden" name="idempotencyKey" value={checkoutKey} />
        <input type="hidden" name="cartLines" value={JSON.stringify(shownLines)} />
        <RenderedFor />
        <KeptNote kept={kept} />
        {message && <FormAlert tone={message.tone}>{message.text}</FormAlert>}
        {/* Drawn again with what was kept once it is read (after the first render): a field's value follows its
            defaultValue only until the field is drawn. */}
        <div key={kept ? "kept" : "loaded"} className="grid gap-4 sm:grid-cols-2">
          <Field name="customerName" label="Full name" autoComplete="name" defaultValue={typed?.customerName ?? kept?.get("customerName") ?? user.name} errors={errors?.customerName} />
          <Field
            name="customerEmail"
            label="Email"
            type="email"
            autoComplete="email"
            defaultValue={typed?.customerEmail ?? kept?.get("customerEmail") ?? user.email}
            errors={errors?.customerEmail}
            hint={`Order e-mails go to your account's address, ${user.email}`}
          />
          <Field name="customerPhone" label="Phone" type="tel" autoComplete="tel" defaultValue={typed?.customerPhone ?? kept?.get("customerPhone") ?? user.phone} errors={errors?.customerPhone} />
          <Field name="shippingAddress" label="Shipping address" autoComplete="street-address" rows={2} className="sm:col-span-2" defaultValue={typed?.shippingAddress ?? kept?.get("shippingAddress") ?? user.address} errors={errors?.shippingAddress} />
        </div>
        <div aria-busy={preparing || undefined}>
          <Field
            name={SLIP_FIELD_ID}
            label="Bank slip"
            type="file"
            accept="image/jpeg,image/png,application/pdf"
            hint={
              <>
                A photo (JPEG or PNG) or a PDF, less than 10MB
                {kept && !slip && (
                  <strong className="mt-1 block font-semibold text-amber-800 dark:text-amber-300" data-testid="slip-lost">
                    Choose the bank slip again: it cannot be kept across a login.
                  </strong>
                )}
              </>
            }
            errors={slipError ? [slipError] : errors?.bankSlip}
            // A slip is judged once chosen, while the focus stays on the field: what is wrong with it is read out then.
            liveError
            onChange={(event) => void chooseSlip(event.currentTarget.files?.[0] ?? null)}
          />
          {/* What is being done, then what was done, to the chosen photo: read out politely. Always there (empty
              when there is nothing to say), so that a screen reader hears what is put into it. */}
          <p aria-live="polite" className={`text-xs text-slate-600 dark:text-slate-400 ${noteText ? "mt-2" : ""}`} data-testid="slip-note">
            {noteText}
          </p>
          {slip &&
            !slipError &&
            (preview ? (
              <img src={preview} alt="Preview of your bank slip" className="mt-3 max-h-[500px] w-auto rounded-xl border border-slate-200 dark:border-slate-700" />
            ) : (
              <p className="mt-3 rounded-xl border border-slate-200 px-4 py-3 text-sm dark:border-slate-700">
                PDF selected: <span className="font-medium">{slip.name}</span>
              </p>
            ))}
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <DialogCloseLink to="/cart" className="btn-secondary">
            Cancel
          </DialogCloseLink>
          {/* Disabled until a slip is chosen (before hydration the server checks it instead); while the slip is
              prepared and while placing, aria-disabled only, so the focus stays on it. A slip found wrong makes it
              unavailable too, aria-disabled so that it can still be reached and says why (the slip's message). */}
          <button
            type="submit"
            className="btn-primary"
            disabled={hydrated && !slip && !preparing && !placing && !placed}
            aria-disabled={preparing || placing || placed || slipRefused || undefined}
            aria-describedby={slipRefused ? `${SLIP_FIELD_ID}-error` : undefined}
          >
            {preparing ? "Preparing slip..." : placing ? "Placing order..." : `Place Order · ${formatLkr(total)}`}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
