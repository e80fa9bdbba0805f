import { useEffect, useState, type FormEvent } from "react";
import { data, Link, redirect, useFetcher, useLoaderData, useRouteLoaderData, useSearchParams } from "react-router";

import { queueCartWrite } from "~/components/cartWrites";
import { CheckoutModal } from "~/components/CheckoutModal";
import { SizeNote } from "~/components/OrderSummary";
import { FormAlert } from "~/components/Field";
import { ProductImage } from "~/components/ProductImage";
import { RenderedFor } from "~/components/RenderedFor";
import { readBoundedForm } from "~/lib/api.server";
import { answerOr } from "~/lib/client-action";
import { ABOVE_STOCK, CHECKOUT_BLOCKED, cartLineProblem, isPurchasable } from "~/lib/availability";
import { BANK_SLIP_MAX_BYTES, BANK_SLIP_MESSAGES, chooseSlipAgain } from "~/lib/file-types";
import { postedValues } from "~/lib/form-values";
import { formNumber, parseForm, readSizeId } from "~/lib/forms";
import { formatPrice } from "~/lib/format";
import type { CartLineGoneReason } from "~/lib/constants";
import { nameWithSize, ONE_SIZE } from "~/lib/sizes";
import { HttpError } from "~/lib/http";
import { cartSetQuerySchema, type CartLine } from "~/lib/schemas/cart";
import { CHECKOUT_FIELDS, checkoutCustomerSchema, idempotencyKeySchema, orderInputSchema, type CheckoutValues, type OrderInput } from "~/lib/schemas/order";
import {
  cartLinesGonePlan,
  clearServerCart,
  forgetCartLinesGone,
  getServerCart,
  serverCartPlan,
  removeFromServerCart,
  setGuestCartQuantity,
  setServerCartQuantity,
  toGuestLines,
} from "~/services/cart.server";
import { placeOrder, readBankSlip, recentOrderPlan, type BankSlip } from "~/services/orders.server";
import { readTogether } from "~/services/db.server";
import { bankDetails, deliveryNoteOf, mailerFor } from "~/services/outbox.server";
import { formUser, guestCartNow, guestCartOf, requireFormUser, userWhileReading, writeGuestCart } from "~/services/session.server";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/cart";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { db } = context;
  // A customer's cart, the lines the shop took out of it since it was last shown and the order placed in the last few
  // minutes (an empty cart says where it went), in one batch.
  const { user, result } = await userWhileReading(request, context, (userId) =>
    readTogether(db, { cart: serverCartPlan(db, userId), gone: cartLinesGonePlan(db, userId), recent: recentOrderPlan(db, userId) }),
  );
  const saved = result ? await result : null;
  const lines = saved ? saved.cart : await guestCartNow(request, context);
  // Said once: forgotten after the answer is sent (a failure only says them again on the next page).
  const gone = saved?.gone ?? [];
  if (user && gone.length) {
    context.cloudflare.ctx.waitUntil(forgetCartLinesGone(db, user.id, gone.at(-1)!.id).catch((error) => console.error("Cart: forgetting the lines said failed", error)));
  }
  // A visitor's cookie forgets the lines of products and sizes gone from the catalogue (they show nowhere), and the
  // page says so once, as it forgets them. (Fewer lines can also be two old lines of one product added up: not gone.)
  const cookieLines = user ? [] : guestCartOf(request, context);
  const shown = (old: { productId: number; sizeId?: number }) => lines.some((line) => line.productId === old.productId && (old.sizeId === undefined || line.sizeId === old.sizeId));
  const dropped = cookieLines.filter((old) => !shown(old)).length;
  const headers = lines.length < cookieLines.length ? { "Set-Cookie": writeGuestCart(request, context, toGuestLines(lines)) } : undefined;
  const env = context.cloudflare.env;
  // A line that cannot be bought as it stands holds the checkout back until the shopper fixes it.
  const checkoutOpen = url.searchParams.has("checkout") && user !== null && lines.length > 0 && !lines.some(cartLineProblem);
  return data(
    {
      lines,
      dropped,
      gone: gone.map(({ productName, sizeLabel, reason }) => ({ productName, sizeLabel, reason })),
      recentOrder: lines.length === 0 && saved?.recent ? { id: saved.recent.id, minutesAgo: Math.floor((Date.now() - saved.recent.placedAt) / 60_000) } : null,
      checkoutOpen,
      // The checkout's Idempotency-Key: one per checkout shown, so every press of its Place Order (a double click, a
      // retry after a lost answer) is one attempt and places one order. A new one comes with the page's next load.
      checkoutKey: checkoutOpen ? crypto.randomUUID() : null,
      bank: bankDetails(env),
      deliveryNote: deliveryNoteOf(env),
    },
    { headers },
  );
}

type CartActionData = { ok: boolean; message?: string; fieldErrors?: Record<string, string[]>; values?: CheckoutValues };
const failed = (error: HttpError) => data<CartActionData>({ ok: false, message: error.message, fieldErrors: error.fieldErrors }, { status: error.status });

// A line the shop could not reach stays as it was, without a word (SPEC §8: failed cart calls fall back silently).
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => answerOr(serverAction, (): CartActionData => ({ ok: false }));

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  try {
    // The cart's forms and the checkout (with its slip) post here: bounded by the slip's limit.
    const form = await readBoundedForm(request, BANK_SLIP_MAX_BYTES, { field: "bankSlip", message: BANK_SLIP_MESSAGES.size });
    const intent = form.get("intent");
    if (intent === "checkout") return await checkout(args, form);
    // A line of one customer's cart changes nobody else's (a 409 when another tab logged in as someone else since),
    // nor a visitor's cart once that customer's session ended (formUser: the login page). A visitor's page carries
    // nothing to check: after a login elsewhere its change lands in the cart its lines joined at that login.
    const user = await formUser(request, context, args.url, form);
    if (intent === "clear") {
      if (user) await clearServerCart(context.db, user.id);
      return data<CartActionData>({ ok: true }, { headers: { "Set-Cookie": writeGuestCart(request, context, []) } });
    }
    if (intent !== "set" && intent !== "remove") throw new HttpError(400, "Unknown action");
    const sizeId = readSizeId(form);
    // Read by PUT /api/cart/set's own rules: a set without a quantity is refused, not read as 0 (which removes the line).
    const line = cartSetQuerySchema.safeParse({ productId: form.get("productId") ?? undefined, quantity: intent === "remove" ? "0" : (form.get("quantity") ?? undefined) });
    if (!line.success) throw new HttpError(400, "Invalid quantity");
    const { productId, quantity } = line.data;
    // The quantity the line's page showed (the stepper sends it): − and + then move the line as it is now.
    const shownRead = form.has("quantityWas") ? cartSetQuerySchema.shape.quantity.safeParse(form.get("quantityWas")) : undefined;
    if (shownRead && !(shownRead.success && shownRead.data >= 0)) throw new HttpError(400, "Invalid quantity");
    const shown = shownRead?.data;
    if (user) {
      await (quantity <= 0 ? removeFromServerCart(context.db, user.id, productId, sizeId) : setServerCartQuantity(context.db, user.id, productId, sizeId, quantity, shown));
      return data<CartActionData>({ ok: true });
    }
    const lines = await setGuestCartQuantity(context.db, guestCartOf(request, context), productId, sizeId, quantity, shown);
    return data<CartActionData>({ ok: true }, { headers: { "Set-Cookie": writeGuestCart(request, context, lines) } });
  } catch (error) {
    if (error instanceof HttpError) return failed(error);
    throw error;
  }
}

/**
 * The total the checkout showed (a hidden field), when it sent one: placeOrder refuses an order whose total changed.
 * One that is not an amount is refused (400) as the API refuses it, not dropped, which would skip the check.
 */
function expectedTotalOf(form: FormData): number | undefined {
  const sent = formNumber(form.get("expectedTotal"));
  if (sent === undefined) return undefined;
  const parsed = orderInputSchema.shape.expectedTotal.safeParse(sent);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0].message);
  return parsed.data;
}

/**
 * The lines the checkout showed (a hidden field, JSON as the API's orderItems), ordered `fromCart`: the order is
 * refused (409) when the cart holds other lines now. A form without the field (a page from before it) orders the
 * cart as it is, as it always did.
 */
function shownLinesOf(form: FormData): OrderInput["orderItems"] | undefined {
  const sent = form.get("cartLines");
  if (typeof sent !== "string" || sent === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(sent);
  } catch {
    throw new HttpError(400, "Your cart could not be read. Please open the checkout again.");
  }
  const items = orderInputSchema.shape.orderItems.safeParse(parsed);
  if (!items.success) throw new HttpError(400, items.error.issues[0].message);
  return items.data;
}

/** The checkout's key (a hidden field, the page's checkoutKey), read as the API reads its Idempotency-Key header. */
function idempotencyKeyOf(form: FormData): string | undefined {
  const sent = form.get("idempotencyKey");
  if (sent === null || sent === "") return undefined;
  const parsed = idempotencyKeySchema.safeParse(sent);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0].message);
  return parsed.data;
}

/**
 * The checkout without JavaScript: the same order service as POST /api/orders, with the items of the saved cart.
 * A refusal answers what was typed, so the page shows it again rather than the profile's values (a shopper who only
 * picked the slip again would have shipped to the profile's address), and every field at fault at once, the slip's
 * too. A slip that was fine must be chosen again (no browser keeps a file across a page load): its field says so.
 */
async function checkout({ request, context, url }: Route.ActionArgs, form: FormData) {
  const values = postedValues(form, CHECKOUT_FIELDS);
  const chosen = form.get("bankSlip");
  const chosenName = chosen instanceof File && chosen.size > 0 ? chosen.name : null;
  const refuse = (status: number, message: string, fieldErrors: Record<string, string[]> = {}) => {
    const errors = chosenName && !fieldErrors.bankSlip ? { ...fieldErrors, bankSlip: [chooseSlipAgain(chosenName)] } : fieldErrors;
    return data<CartActionData>({ ok: false, message, fieldErrors: errors, values }, { status });
  };
  try {
    // The order goes on the account the checkout was shown for, or nowhere (assertRenderedFor).
    const user = await requireFormUser(request, context, url, form);
    const customer = parseForm(form, checkoutCustomerSchema);
    let slip: BankSlip | null = null;
    let slipRefused: HttpError | null = null;
    try {
      slip = await readBankSlip(chosen);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      slipRefused = error;
    }
    if (!customer.ok) return refuse(400, customer.message, { ...customer.fieldErrors, ...slipRefused?.fieldErrors });
    if (!slip) return refuse(slipRefused!.status, slipRefused!.message, slipRefused!.fieldErrors);
    const shown = shownLinesOf(form);
    const items = shown ?? (await getServerCart(context.db, user.id)).map(({ productId, sizeId, quantity }) => ({ productId, sizeId, quantity }));
    const expectedTotal = expectedTotalOf(form);
    const input = { ...customer.data, orderItems: items, expectedTotal, fromCart: shown !== undefined };
    // A second post of the same checkout (a double click without JavaScript) lands on the first's order.
    const { order } = await placeOrder(context.db, context.cloudflare.env.BUCKET, user, input, slip, mailerFor(request, context), { idempotencyKey: idempotencyKeyOf(form) });
    return redirect(`/orders/${order.id}?placed=1`);
  } catch (error) {
    if (error instanceof HttpError) return refuse(error.status, error.message, error.fieldErrors);
    throw error;
  }
}

/**
 * A line about to go takes the focus with it: it moves on to the next line's Remove (or the last one's), else the
 * heading. Says whether another line is left.
 */
function focusAfterRemoval(line: Element | null): boolean {
  const neighbour = line?.nextElementSibling ?? line?.previousElementSibling;
  (neighbour?.querySelector<HTMLElement>("[data-remove-line]") ?? document.getElementById(CART_HEADING_ID))?.focus();
  return Boolean(neighbour);
}

const CART_HEADING_ID = "cart-heading";
const NOTICE_BOX = "mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100";

/** Why a line left a customer's cart, as the cart page says it once (cart_lines_gone). */
function goneMessage({ productName, sizeLabel, reason }: { productName: string; sizeLabel: string; reason: CartLineGoneReason }): string {
  if (reason === "PRODUCT_DELETED") return `${nameWithSize(productName, sizeLabel)} is no longer sold in the shop, so it was taken out of your cart.`;
  return `${productName} is no longer sold in ${sizeLabel === ONE_SIZE ? "one size" : sizeLabel}, so it was taken out of your cart.`;
}
const CART_EMPTY = "Your cart is empty";

/**
 * What the cart's changes say to a screen reader, in one polite region that is always in the page (a region inserted
 * with its text goes unannounced: Toast.tsx). Each message is a new node, so the same words twice are said twice.
 */
function useCartStatus() {
  const [said, setSaid] = useState({ text: "", count: 0 });
  return {
    announce: (text: string) => setSaid(({ count }) => ({ text, count: count + 1 })),
    region: (
      <p role="status" className="sr-only" data-testid="cart-status">
        <span key={said.count}>{said.text}</span>
      </p>
    ),
  };
}

function CartLineRow({ line, announce }: { line: CartLine; announce: (text: string) => void }) {
  const fetcher = useFetcher<CartActionData>({ key: `cart-line-${line.productId}-${line.sizeId}` });
  // A change waiting its turn behind another line's (a visitor's cookie cart takes one change at a time: cartWrites.ts).
  const [queued, setQueued] = useState<number | null>(null);
  const quantityOf = (form: FormData) => (form.get("intent") === "remove" ? 0 : Number(form.get("quantity")));
  // Optimistic: the line shows what was asked for until the server answers; a refusal falls back to the saved value.
  const quantity = queued ?? (fetcher.formData ? quantityOf(fetcher.formData) : line.quantity);
  const name = `${line.brand} ${nameWithSize(line.productName, line.sizeLabel)}`;
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    const asked = quantityOf(form);
    // Said as it is shown, at once (the line changes before the server answers): the focus alone does not say it.
    if (asked <= 0) {
      const othersLeft = focusAfterRemoval(event.currentTarget.closest("li"));
      announce(`Removed ${name} from your cart${othersLeft ? "" : `. ${CART_EMPTY}`}`);
    } else announce(`${name}: quantity ${asked}`);
    setQueued(asked);
    void queueCartWrite(() => fetcher.submit(form, { method: "post" })).then(() => setQueued((current) => (current === asked ? null : current)));
  };
  // One more than the stock holds is refused here, on a touch screen too (SPEC: the alert), and by the server anyway.
  // Fewer is always allowed: that is how a line above a stock that fell gets fixed.
  const [aboveStock, setAboveStock] = useState(false);
  const atStock = quantity >= line.stockQuantity || !line.productAvailable;
  const problem = cartLineProblem({ ...line, quantity });
  const unbuyable = !isPurchasable(line);
  const refused = aboveStock && atStock && line.productAvailable ? ABOVE_STOCK : fetcher.state === "idle" && fetcher.data?.ok === false ? fetcher.data.message : null;
  const error = refused && refused !== problem ? refused : null;
  if (quantity <= 0) return null;
  return (
    <li className="flex gap-4 py-5" data-testid="cart-line">
      <Link to={`/product/${line.productId}`} className="shrink-0">
        <ProductImage src={line.imageUrl} alt={name} className={`size-20 rounded-xl bg-slate-100 object-cover min-[360px]:size-24 sm:size-28 dark:bg-slate-800 ${unbuyable ? "opacity-50" : ""}`} />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">{line.brand}</p>
          <Link to={`/product/${line.productId}`} className="font-semibold hover:text-brand-700 dark:hover:text-brand-300">
            {line.productName}
          </Link>
          <SizeNote label={line.sizeLabel} />
          <p className="text-sm text-slate-600 dark:text-slate-400">{formatPrice(line.unitPrice)} each</p>
          {problem && (
            <p className={`text-sm font-semibold ${unbuyable ? "text-red-700 dark:text-red-400" : "text-amber-800 dark:text-amber-300"}`} data-testid="cart-line-problem">
              {problem}
            </p>
          )}
        </div>
        {/* On a phone: the stepper, then the line's total and Remove; beside the line from sm up. */}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 sm:flex-col sm:flex-nowrap sm:items-end sm:gap-4">
          <fetcher.Form method="post" onSubmit={send} className="flex items-center rounded-lg border border-slate-300 dark:border-slate-700" aria-label={`Quantity of ${name}`}>
            <input type="hidden" name="intent" value="set" />
            <RenderedFor />
            <input type="hidden" name="productId" value={line.productId} />
            <input type="hidden" name="sizeId" value={line.sizeId} />
            {/* What this page shows: another tab may have changed the line since, and − and + move it from there. */}
            <input type="hidden" name="quantityWas" value={quantity} />
            {/* aria-disabled at one, not disabled: a press that takes the line to one keeps the focus on the button.
                Without JavaScript a press at one asks for one again, which changes nothing. */}
            <button
              type="submit"
              name="quantity"
              value={Math.max(1, quantity - 1)}
              aria-disabled={quantity <= 1 || undefined}
              onClick={(event) => quantity <= 1 && event.preventDefault()}
              aria-label={`One fewer ${name}`}
              className="inline-flex size-11 items-center justify-center text-lg font-semibold aria-disabled:opacity-40"
            >
              −
            </button>
            {/* The page's status says a step, with the product's name: not a live region of its own (an <output> is one). */}
            <span className="min-w-8 text-center font-semibold" data-testid="cart-quantity">
              {quantity}
            </span>
            <button
              type="submit"
              name="quantity"
              value={quantity + 1}
              aria-disabled={atStock || undefined}
              onClick={(event) => {
                // The message answers this press only: a + that still fits takes it away.
                setAboveStock(atStock);
                if (atStock) event.preventDefault();
              }}
              aria-label={`One more ${name}`}
              className="inline-flex size-11 items-center justify-center text-lg font-semibold aria-disabled:opacity-40"
            >
              +
            </button>
          </fetcher.Form>
          {/* Under the stepper, never above it: a message that came above pushed + from under the finger that pressed it.
              On a phone it is a row of its own (and so starts the next); from sm up it wraps within the stepper's width
              (contain-inline-size: the column does not widen and squeeze the product's name). */}
          {error && (
            <p role="alert" className="field-error basis-full sm:self-stretch sm:text-right sm:contain-inline-size" data-testid="cart-line-error">
              {error}
            </p>
          )}
          {/* On a phone the line's total and Remove always start a row of their own, however long the total is. */}
          {!error && <span className="basis-full sm:hidden" aria-hidden="true" />}
          {/* A flagged line is left out of the cart's total: crossed out here, and said so to a screen reader. */}
          <p className={`whitespace-nowrap font-bold sm:min-w-28 sm:text-right ${problem ? "text-slate-500 line-through dark:text-slate-400" : ""}`} data-testid="line-total">
            {formatPrice(line.unitPrice * quantity)}
            {problem && <span className="sr-only"> (not in the total)</span>}
          </p>
          <fetcher.Form method="post" onSubmit={send}>
            <input type="hidden" name="intent" value="remove" />
            <RenderedFor />
            <input type="hidden" name="productId" value={line.productId} />
            <input type="hidden" name="sizeId" value={line.sizeId} />
            <button type="submit" className="min-h-11 text-sm font-semibold text-red-700 hover:underline dark:text-red-400" aria-label={`Remove ${name}`} data-remove-line>
              Remove
            </button>
          </fetcher.Form>
        </div>
      </div>
    </li>
  );
}

export default function CartPage({ actionData }: Route.ComponentProps) {
  const { lines, dropped, gone, recentOrder, checkoutOpen, checkoutKey, bank, deliveryNote } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const user = root?.user ?? null;
  // The total is what can be bought: a flagged line counts again once it is fixed.
  const total = lines.reduce((sum, line) => (cartLineProblem(line) ? sum : sum + line.unitPrice * line.quantity), 0);
  const blocked = lines.some(cartLineProblem);
  const actionError = actionData && !actionData.ok ? { message: actionData.message ?? "", fieldErrors: actionData.fieldErrors, values: actionData.values } : null;
  // The checkout's last refusal on the cart (409), said here when the cart it reloaded is empty (another tab removed
  // everything): the checkout closes then, and its message with it. Without JavaScript the action's answer says it.
  const [checkoutRefusal, setCheckoutRefusal] = useState<string | null>(null);
  // Only about the cart it reloaded: a cart with lines again (that reload, or a later one) makes it old news.
  useEffect(() => {
    if (lines.length > 0) setCheckoutRefusal(null);
  }, [lines]);
  // (A line the shop took away is said by its own notice below, with its size: not twice.)
  const refusal = actionError?.message ?? (lines.length === 0 && gone.length === 0 ? checkoutRefusal : null);
  const status = useCartStatus();

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <h1 id={CART_HEADING_ID} tabIndex={-1} className="text-2xl font-bold tracking-tight focus:outline-none">
        Your Cart
      </h1>
      {searchParams.has("checkout") && !user && (
        <div className="mt-4">
          <FormAlert>
            Please login to place an order{" · "}
            <Link to="/login?redirect=/cart" className="font-semibold underline">
              Login
            </Link>
          </FormAlert>
        </div>
      )}
      {dropped > 0 && (
        <p role="status" data-testid="cart-dropped" className={NOTICE_BOX}>
          {dropped === 1
            ? "An item in your cart is no longer sold in the shop (its product or its size was taken off), so it was taken out."
            : `${dropped} items in your cart are no longer sold in the shop (their products or sizes were taken off), so they were taken out.`}
        </p>
      )}
      {gone.length > 0 && (
        <div role="status" data-testid="cart-gone" className={NOTICE_BOX}>
          {gone.length === 1 ? (
            <p>{goneMessage(gone[0])}</p>
          ) : (
            <ul className="list-disc space-y-1 pl-5">
              {gone.map((line, index) => (
                <li key={index}>{goneMessage(line)}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {refusal && !checkoutOpen && (
        <div className="mt-4">
          <FormAlert>{refusal}</FormAlert>
        </div>
      )}
      {lines.length === 0 ? (
        <div className="mt-8 rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
          <p className="text-lg font-semibold">{CART_EMPTY}</p>
          {recentOrder && (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="recent-order">
              {`Your order #${recentOrder.id} was placed ${recentOrder.minutesAgo < 1 ? "a moment ago" : recentOrder.minutesAgo === 1 ? "a minute ago" : `${recentOrder.minutesAgo} minutes ago`}. `}
              <Link to={`/orders/${recentOrder.id}`} className="font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
                View it
              </Link>
            </p>
          )}
          <Link to="/" className="btn-primary mt-6">
            Continue shopping
          </Link>
        </div>
      ) : (
        <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_320px]">
          <ul className="divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {lines.map((line) => (
              <CartLineRow key={`${line.productId}-${line.sizeId}`} line={line} announce={status.announce} />
            ))}
          </ul>
          <aside className="card h-fit p-6" aria-label="Order summary">
            <h2 className="text-lg font-semibold">Summary</h2>
            <dl className="mt-4 flex items-center justify-between text-lg">
              <dt>Total</dt>
              <dd className="font-bold" data-testid="cart-total">
                {formatPrice(total)}
              </dd>
            </dl>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Paid by bank transfer; we confirm your slip before shipping.</p>
            {deliveryNote && (
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="delivery-note">
                {deliveryNote}
              </p>
            )}
            {/* Always there, so a screen reader announces the words when they come (a refused checkout flags a line). */}
            <p id="checkout-blocked" role="status" className="text-sm font-medium text-red-700 empty:hidden dark:text-red-400 [&:not(:empty)]:mt-4" data-testid={blocked ? "checkout-blocked" : undefined}>
              {blocked ? CHECKOUT_BLOCKED : ""}
            </p>
            {blocked ? (
              // Focusable (aria-disabled, not disabled), so the reason it is held back is read with it.
              <button type="button" aria-disabled="true" aria-describedby="checkout-blocked" className="btn-primary mt-4 w-full">
                {user ? "Proceed to Checkout" : "Login to Checkout"}
              </button>
            ) : user ? (
              <Link to="?checkout" className="btn-primary mt-6 w-full" preventScrollReset>
                Proceed to Checkout
              </Link>
            ) : (
              <Link to="/login?redirect=/cart" className="btn-primary mt-6 w-full">
                Login to Checkout
              </Link>
            )}
          </aside>
        </div>
      )}
      {status.region}
      {checkoutOpen && user && checkoutKey && (
        <CheckoutModal
          user={user}
          lines={lines}
          checkoutKey={checkoutKey}
          bank={bank}
          deliveryNote={deliveryNote}
          serverError={actionError}
          onCartRefusal={setCheckoutRefusal}
        />
      )}
    </div>
  );
}

export function meta() {
  return [
    { title: "Your Cart | Stride" },
    { name: "description", content: "Your Stride cart: check quantities and totals in LKR, then check out by bank transfer." },
    { name: "robots", content: "noindex" },
  ];
}
