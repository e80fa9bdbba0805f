import { and, asc, desc, eq, gte, inArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";

import type { OrderStatus } from "~/lib/constants";
import { BANK_SLIP_MAX_BYTES, BANK_SLIP_MESSAGES, bankSlipType } from "~/lib/file-types";
import { orderPlacedMail, orderStatusMail } from "~/lib/emails.server";
import { centsToRupees, rupeesToCents } from "~/lib/format";
import { reasonOf } from "~/lib/order-stock";
import { HttpError, badRequest, conflict, forbidden, notFound } from "~/lib/http";
import type { OrderInput, OrderStatusChange, OrderView, StockNotReturned } from "~/lib/schemas/order";
import { nameWithSize, type SizeView } from "~/lib/sizes";
import type { SessionUser } from "./auth.server";
import { abortedByTrigger, constraintFailure, type Db, type ReadPlan, readTogether, schema } from "./db.server";
import { firstAttemptAt, outboxValues, type Mailer } from "./outbox.server";
import { chooseSize, productsWithSizesPlan, type ProductWithSizes } from "./sizes.server";

const { orders, orderItems, orderStatusHistory, products, productSizes, cartItems, users, emailOutbox } = schema;
export type OrderRow = typeof orders.$inferSelect;

export const ORDER_NOT_FOUND = "Order not found";
export const insufficientStock = (productName: string) => `Insufficient stock for ${productName}`;
export const PRICES_CHANGED = "Prices have changed since you opened the checkout. Please check the new total and place your order again.";
export const CART_EMPTY = "Your cart is empty";
export const CART_CHANGED = "Your cart changed in another tab or window. Please check it and place your order again.";
/** A checkout's line whose size was removed from the product since it was shown (its cart line went with it). */
export const sizeNoLongerSold = (productName: string) =>
  `${productName} is no longer sold in the size you chose, so it was taken out of your cart. Please check your cart and place your order again.`;
/** A checkout's line whose product was deleted since it was shown (its cart lines went with it). */
export const PRODUCT_NO_LONGER_SOLD = "An item in your cart is no longer sold in the shop, so it was taken out. Please check your cart and place your order again.";
export const noLongerAvailable = (productName: string) => `${productName} is no longer available`;

export interface BankSlip {
  bytes: Uint8Array;
  type: string;
}

/**
 * The uploaded slip, judged by its bytes: a whole JPEG, PNG (its header gives its size) or PDF (its `%%EOF` in the last
 * 1,024 bytes) under 10 MB (SPEC §5's messages). Read before anything is stored, so a refused slip changes nothing.
 */
export async function readBankSlip(file: FormDataEntryValue | null): Promise<BankSlip> {
  if (file === null || typeof file === "string" || file.size === 0) throw badRequest(BANK_SLIP_MESSAGES.missing, { bankSlip: [BANK_SLIP_MESSAGES.missing] });
  if (file.size >= BANK_SLIP_MAX_BYTES) throw new HttpError(413, BANK_SLIP_MESSAGES.size, { bankSlip: [BANK_SLIP_MESSAGES.size] });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = bankSlipType(bytes);
  if (!type) throw new HttpError(415, BANK_SLIP_MESSAGES.type, { bankSlip: [BANK_SLIP_MESSAGES.type] });
  return { bytes, type };
}

interface OrderLine {
  product: typeof products.$inferSelect;
  size: SizeView;
  quantity: number;
}

/** A line of the customer's server cart as the order compares it: size id -> quantity. */
type CartQuantities = Map<number, number>;

/** What an order is checked against, read in one batch (readForOrder). */
interface OrderReads {
  catalogue: Map<number, ProductWithSizes>;
  /** The order this customer's Idempotency-Key already placed; null without a key or when none was. */
  placed: OrderView | null;
  /** The customer's server cart, for an order sent `fromCart`; else null. */
  cart: CartQuantities | null;
}

/**
 * What an order is checked against, in one batch: the catalogue's products and sizes for its items, the order the
 * customer's Idempotency-Key already placed, if any (then nothing else matters: that order is the answer), and, for
 * an order sent `fromCart`, the customer's server cart as it is in that same moment.
 */
async function readForOrder(db: Db, user: SessionUser, input: OrderInput, idempotencyKey: string | undefined): Promise<OrderReads> {
  const productIds = [...new Set(input.orderItems.map((item) => item.productId))];
  const plans: { catalogue: ReadPlan<OrderReads["catalogue"]>; placed?: ReadPlan<OrderView[]>; cart?: ReadPlan<CartQuantities> } = {
    catalogue: productsWithSizesPlan(db, productIds),
  };
  if (idempotencyKey !== undefined) plans.placed = ordersPlan(db, placedWithKey(user, idempotencyKey));
  if (input.fromCart) {
    const rows = db.select({ sizeId: cartItems.sizeId, quantity: cartItems.quantity }).from(cartItems).where(eq(cartItems.userId, user.id));
    plans.cart = { statements: [rows], assemble: ([found]) => new Map((found as Awaited<typeof rows>).map((row) => [row.sizeId, row.quantity])) };
  }
  const read = (await readTogether(db, plans)) as { catalogue: OrderReads["catalogue"]; placed?: OrderView[]; cart?: CartQuantities };
  return { catalogue: read.catalogue, placed: read.placed?.[0] ?? null, cart: read.cart ?? null };
}

/**
 * For an order sent `fromCart`, an item the catalogue no longer has as it was shown: its product deleted, or its size
 * removed (the cart's line went with either). Said before the API's own refusals of them (404, 400 'That size is not
 * one of this product's sizes'), which a checkout could only repeat.
 */
function goneSinceShown(catalogue: Map<number, ProductWithSizes>, items: OrderInput["orderItems"]): string | null {
  for (const { productId, sizeId } of items) {
    const found = catalogue.get(productId);
    if (!found) return PRODUCT_NO_LONGER_SOLD;
    if (sizeId !== undefined && !found.sizes.some((size) => size.id === sizeId)) return sizeNoLongerSold(found.product.name);
  }
  return null;
}

/** Whether the order's lines are the cart's, line for line: the same sizes (of the same products), the same quantities. */
const sameAsCart = (lines: OrderLine[], cart: CartQuantities) => lines.length === cart.size && lines.every(({ size, quantity }) => cart.get(size.id) === quantity);

const placedWithKey = (user: SessionUser, idempotencyKey: string) => and(eq(orders.userId, user.id), eq(orders.idempotencyKey, idempotencyKey))!;

/**
 * The order's lines from the catalogue: each item's product and size (the one chosen, or the product's only one), and
 * lines of one size added together, so a size's stock is checked against everything ordered of it.
 */
function orderLines(catalogue: Map<number, ProductWithSizes>, items: OrderInput["orderItems"]): OrderLine[] {
  const lines = new Map<number, OrderLine>();
  for (const [index, { productId, sizeId, quantity }] of items.entries()) {
    const found = catalogue.get(productId);
    // 404 as for the cart and the reviews (API.md: no such resource), naming the line at fault.
    if (!found) throw new HttpError(404, `Product ${productId} does not exist`, { [`orderItems.${index}.productId`]: [`Product ${productId} does not exist`] });
    const { product, sizes } = found;
    const size = chooseSize(sizes, sizeId, `orderItems.${index}.sizeId`);
    const line = lines.get(size.id);
    if (line) line.quantity += quantity;
    else lines.set(size.id, { product, size, quantity });
  }
  return [...lines.values()];
}

/** Each line can be bought: its product on sale, its size's stock enough for everything ordered of it. */
function assertAvailable(lines: OrderLine[]): void {
  for (const { product, size, quantity } of lines) {
    // A product taken off sale is no longer available in any size: its stock is not what stops the order.
    if (!product.productAvailable) throw conflict(noLongerAvailable(product.name));
    if (quantity > size.stockQuantity) throw conflict(insufficientStock(nameWithSize(product.name, size.label)));
  }
}

const orderIdBySlip = (slipKey: string) => sql`(SELECT ${orders.id} FROM ${orders} WHERE ${orders.bankSlipKey} = ${slipKey})`;

const orderUrl = (mailer: Mailer, orderId: number | string) => `${mailer.siteUrl}/orders/${orderId}`;

/**
 * The confirmation mail's outbox row, for the order's own batch. The order's id does not exist until that batch runs,
 * so the mail is rendered with a placeholder that SQL replaces by the id the batch gave the order.
 */
function confirmationRow(db: Db, mailer: Mailer, user: SessionUser, input: OrderInput, lines: OrderLine[], totalCents: number, orderId: SQL) {
  const placeholder = `ORDER-${crypto.randomUUID()}`;
  const mail = orderPlacedMail(
    {
      orderNumber: placeholder,
      orderUrl: orderUrl(mailer, placeholder),
      customerName: input.customerName,
      items: lines.map(({ product, size, quantity }) => ({ productName: product.name, sizeLabel: size.label, quantity, subtotal: centsToRupees(product.priceCents * quantity) })),
      totalAmount: centsToRupees(totalCents),
      shippingAddress: input.shippingAddress,
    },
    mailer.bank,
  );
  const withId = (text: string) => sql`replace(${text}, ${placeholder}, ${orderId})`;
  return db
    .insert(emailOutbox)
    .values({
      // To the account, never to the address typed at checkout: anyone can register and send a slip, and the shop must
      // not carry their words (the name and address are in the mail) to a stranger's inbox.
      ...outboxValues({ kind: "ORDER_PLACED", to: user.email, userId: user.id, ...mail }),
      orderId: sql`${orderId}`,
      subject: withId(mail.subject),
      textBody: withId(mail.text),
      htmlBody: withId(mail.html),
    })
    .returning({ id: emailOutbox.id });
}

export interface PlacedOrder {
  order: OrderView;
  /** The order an earlier request with the same Idempotency-Key placed, answered again: nothing was written. */
  replayed: boolean;
}

/**
 * Places an order. Names, sizes, prices and the total come from the catalogue. The slip goes to R2 first; then the
 * order, its items, the stock taken from each size, the emptied cart and the confirmation mail's outbox row are one
 * D1 batch (the history row is written by a trigger). The sizes' stock CHECK fails the whole batch if another shopper
 * took the last pair meanwhile, and the slip is removed again, so there is never an order without its slip nor a slip
 * without its order, nor a confirmation of an order that does not exist. The mail goes on the queue once it commits.
 *
 * With an `idempotencyKey` (the API's Idempotency-Key header, the checkout's one key per attempt), the customer's
 * order of that key, if there is one, is the answer, whatever this request holds: a double click, or a retry after the
 * answer was lost, never places a second order. Two requests with the key at once both read none; the order's row
 * carries the key under a unique index (user, key), so the second batch fails whole on it, its slip is removed as for
 * any failed batch, and it answers the first's order.
 */
export async function placeOrder(
  db: Db,
  bucket: R2Bucket,
  user: SessionUser,
  input: OrderInput,
  slip: BankSlip,
  mailer: Mailer,
  { idempotencyKey }: { idempotencyKey?: string } = {},
): Promise<PlacedOrder> {
  const { catalogue, placed, cart } = await readForOrder(db, user, input, idempotencyKey);
  if (placed) return { order: placed, replayed: true };
  // Only the screen's checkout can ask for nothing (the API's schema wants a line): after the key's order is looked
  // for, since a second post of a checkout that placed its order finds the cart that order emptied.
  if (!input.orderItems.length) throw badRequest(CART_EMPTY);
  const gone = cart ? goneSinceShown(catalogue, input.orderItems) : null;
  if (gone) throw conflict(gone);
  const lines = orderLines(catalogue, input.orderItems);
  // The checkout orders the cart it showed: another tab that changed the cart since (a line added, raised, removed)
  // makes it look again, rather than order one thing and empty the cart of another.
  if (cart && !sameAsCart(lines, cart)) throw conflict(CART_CHANGED);
  assertAvailable(lines);
  const totalCents = lines.reduce((total, { product, quantity }) => total + product.priceCents * quantity, 0);
  // The lines are written at the prices read here, so the order is charged exactly what this compared.
  if (input.expectedTotal !== undefined && rupeesToCents(input.expectedTotal) !== totalCents) throw conflict(PRICES_CHANGED);

  const slipKey = `slips/${crypto.randomUUID()}`;
  await bucket.put(slipKey, slip.bytes, { httpMetadata: { contentType: slip.type } });
  const orderId = orderIdBySlip(slipKey);
  let mailIds: number[];
  try {
    const results = await db.batch([
      db.insert(orders).values({
        userId: user.id,
        customerName: input.customerName,
        customerEmail: input.customerEmail,
        customerPhone: input.customerPhone,
        shippingAddress: input.shippingAddress,
        totalCents,
        status: "PENDING",
        statusChangedBy: user.id,
        bankSlipKey: slipKey,
        bankSlipType: slip.type,
        idempotencyKey,
      }),
      ...lines.map(({ product, size, quantity }) =>
        db.insert(orderItems).values({
          orderId: sql`${orderId}`,
          productId: product.id,
          productName: product.name,
          sizeId: size.id,
          sizeLabel: size.label,
          unitPriceCents: product.priceCents,
          quantity,
        }),
      ),
      ...lines.map(({ size, quantity }) =>
        db
          .update(productSizes)
          .set({ stockQuantity: sql`${productSizes.stockQuantity} - ${quantity}` })
          .where(eq(productSizes.id, size.id)),
      ),
      // The cart is emptied (API.md). An order sent fromCart was the whole cart when read: it takes out those lines, so
      // one another tab added in the moment since stays in the cart rather than go unordered.
      db.delete(cartItems).where(and(eq(cartItems.userId, user.id), cart ? inArray(cartItems.sizeId, lines.map(({ size }) => size.id)) : undefined)),
      confirmationRow(db, mailer, user, input, lines, totalCents, orderId),
    ]);
    mailIds = (results.at(-1) as { id: number }[]).map((row) => row.id);
  } catch (error) {
    await bucket.delete(slipKey);
    if (idempotencyKey !== undefined && constraintFailure(error) === "unique") {
      // The order's row is the batch's first statement: a request with this key that committed meanwhile fails it here.
      const [first] = (await readTogether(db, { placed: ordersPlan(db, placedWithKey(user, idempotencyKey)) })).placed;
      if (first) return { order: first, replayed: true };
    }
    throw await explainFailedOrder(db, error, lines);
  }
  mailer.enqueue(mailIds);
  const [created] = await db.select().from(orders).where(eq(orders.bankSlipKey, slipKey));
  return { order: (await toOrderViews(db, [created]))[0], replayed: false };
}

/** The first size (of `wanted`: size id -> quantity) with less stock than that, as "{name} ({size})", or null. */
async function shortSize(db: Db, wanted: Map<number, number>): Promise<string | null> {
  if (!wanted.size) return null;
  const now = await db
    .select({ id: productSizes.id, label: productSizes.label, stockQuantity: productSizes.stockQuantity, productName: products.name })
    .from(productSizes)
    .innerJoin(products, eq(products.id, productSizes.productId))
    .where(inArray(productSizes.id, [...wanted.keys()]));
  const short = now.find((size) => (wanted.get(size.id) ?? 0) > size.stockQuantity);
  return short ? nameWithSize(short.productName, short.label) : null;
}

/** Why the batch failed, for the shopper: the size another order just took, or a product or size removed meanwhile. */
async function explainFailedOrder(db: Db, error: unknown, lines: OrderLine[]): Promise<unknown> {
  if (!constraintFailure(error)) return error;
  const short = await shortSize(db, new Map(lines.map(({ size, quantity }) => [size.id, quantity])));
  if (short) return conflict(insufficientStock(short));
  return conflict("A product in your order is no longer available");
}

export type OrderIds = number[] | SQLWrapper;

/** The lines of the orders named (ids, or a subquery that selects them). */
export const orderItemsOf = (db: Db, ids: OrderIds) => db.select().from(orderItems).where(inArray(orderItems.orderId, ids)).orderBy(asc(orderItems.id));

/** The status history of the orders named, oldest first, with the name of who set each status. */
export const orderHistoryOf = (db: Db, ids: OrderIds) =>
  db
    .select({ orderId: orderStatusHistory.orderId, status: orderStatusHistory.status, changedAt: orderStatusHistory.changedAt, changedBy: users.name })
    .from(orderStatusHistory)
    .leftJoin(users, eq(users.id, orderStatusHistory.changedBy))
    .where(inArray(orderStatusHistory.orderId, ids))
    .orderBy(asc(orderStatusHistory.changedAt), asc(orderStatusHistory.id));

function groupBy<T>(list: T[], key: (value: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const value of list) {
    const group = groups.get(key(value));
    if (group) group.push(value);
    else groups.set(key(value), [value]);
  }
  return groups;
}

export type ItemRow = Awaited<ReturnType<typeof orderItemsOf>>[number];
export type HistoryRow = Awaited<ReturnType<typeof orderHistoryOf>>[number];

/** Order rows, their lines and their history as the API and the screens show orders. */
export function assembleOrderViews(rows: OrderRow[], items: ItemRow[], history: HistoryRow[]): OrderView[] {
  // Grouped first: a long list (the API's unpaged one) would otherwise look through every line for every order.
  const itemsByOrder = groupBy(items, (item) => item.orderId);
  const historyByOrder = groupBy(history, (entry) => entry.orderId);
  return rows.map((row) => ({
    id: row.id,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    customerPhone: row.customerPhone,
    shippingAddress: row.shippingAddress,
    totalAmount: centsToRupees(row.totalCents),
    status: row.status,
    orderDate: new Date(row.createdAt).toISOString(),
    hasBankSlip: row.bankSlipKey !== null,
    bankSlipType: row.bankSlipKey !== null ? row.bankSlipType : null,
    orderItems: (itemsByOrder.get(row.id) ?? []).map((item) => ({
      productId: item.productId,
      productName: item.productName,
      sizeId: item.sizeId,
      sizeLabel: item.sizeLabel,
      quantity: item.quantity,
      price: centsToRupees(item.unitPriceCents),
      subtotal: centsToRupees(item.unitPriceCents * item.quantity),
    })),
    statusHistory: (historyByOrder.get(row.id) ?? []).map((entry) => ({
      status: entry.status,
      changedAt: new Date(entry.changedAt).toISOString(),
      changedBy: entry.changedBy,
    })),
  }));
}

/** D1 binds at most 100 values a statement: the ids of a long list go this many at a time. */
const IDS_PER_STATEMENT = 90;

/** Orders with their items and history: two queries for every 90 orders, all in one batch. */
export async function toOrderViews(db: Db, rows: OrderRow[]): Promise<OrderView[]> {
  if (!rows.length) return [];
  const chunks: number[][] = [];
  for (let start = 0; start < rows.length; start += IDS_PER_STATEMENT) chunks.push(rows.slice(start, start + IDS_PER_STATEMENT).map((row) => row.id));
  const [first, ...rest] = chunks.flatMap((ids) => [orderItemsOf(db, ids), orderHistoryOf(db, ids)]);
  const results = await db.batch([first, ...rest]);
  const items = results.filter((_, index) => index % 2 === 0).flat() as ItemRow[];
  const history = results.filter((_, index) => index % 2 === 1).flat() as HistoryRow[];
  return assembleOrderViews(rows, items, history);
}

/** Orders with their lines and history, in one batch: each statement names the orders by the same subquery. */
function ordersPlan(db: Db, where: SQL): ReadPlan<OrderView[]> {
  const ids = db.select({ id: orders.id }).from(orders).where(where);
  return {
    statements: [db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)), orderItemsOf(db, ids), orderHistoryOf(db, ids)],
    assemble: ([rows, items, history]) => assembleOrderViews(rows as OrderRow[], items as ItemRow[], history as HistoryRow[]),
  };
}

/** How long the empty cart still speaks of the order that emptied it. */
export const RECENT_ORDER_MINUTES = 10;

/**
 * The customer's latest order, when placed in the last RECENT_ORDER_MINUTES minutes (else null), as a plan: the cart
 * page reads it in its own batch, so an empty cart can say where the order went (a page reloaded while Place Order
 * was on its way, Back from the order's page). By orders_user_created_idx.
 */
export function recentOrderPlan(db: Db, userId: number, now = Date.now()): ReadPlan<{ id: number; placedAt: number } | null> {
  const rows = db
    .select({ id: orders.id, placedAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.userId, userId), gte(orders.createdAt, now - RECENT_ORDER_MINUTES * 60_000)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  return { statements: [rows], assemble: ([found]) => (found as Awaited<typeof rows>)[0] ?? null };
}

/** A customer's orders, newest first (My Orders), as a plan. */
export const customerOrdersPlan = (db: Db, userId: number) => ordersPlan(db, eq(orders.userId, userId));

export async function listCustomerOrders(db: Db, userId: number): Promise<OrderView[]> {
  return (await readTogether(db, { orders: customerOrdersPlan(db, userId) })).orders;
}

async function findOrder(db: Db, orderId: number): Promise<OrderRow> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  return row;
}

function assertCanSee(order: Pick<OrderRow, "userId">, user: SessionUser) {
  if (user.role !== "ROLE_ADMIN" && order.userId !== user.id) throw forbidden("This order belongs to another customer");
}

/** An order and whose it is, read whoever asks: shown only through orderFor. */
export interface OwnedOrder {
  order: OrderView;
  ownerId: OrderRow["userId"];
}

/** One order (null when there is none), as a plan. */
export function orderPlan(db: Db, orderId: number): ReadPlan<OwnedOrder | null> {
  const { statements, assemble } = ordersPlan(db, eq(orders.id, orderId));
  return {
    statements,
    assemble: (results) => {
      const [order] = assemble(results);
      return order ? { order, ownerId: (results[0] as OrderRow[])[0].userId } : null;
    },
  };
}

/** The order orderPlan read, for its customer or an admin: 404 when there is none, 403 for anyone else. */
export function orderFor(found: OwnedOrder | null, user: SessionUser): OrderView {
  if (!found) throw notFound(ORDER_NOT_FOUND);
  assertCanSee({ userId: found.ownerId }, user);
  return found.order;
}

/**
 * How many orders still on their way (not DELIVERED nor CANCELLED) hold the product: what the admin is told before
 * deleting it. Those orders keep their lines (name, size and price are copied), but once cancelled one of them cannot
 * be reopened (migrations/0015). By order_items_product_idx.
 */
export async function countOpenOrdersWithProduct(db: Db, productId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(DISTINCT ${orderItems.orderId})` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.productId, productId), sql`${orders.status} NOT IN ('DELIVERED', 'CANCELLED')`));
  return row?.count ?? 0;
}

/** One order, whoever asks: shown only through orderFor. */
export async function readOrder(db: Db, orderId: number): Promise<OwnedOrder | null> {
  return (await readTogether(db, { order: orderPlan(db, orderId) })).order;
}

/** One order, for its customer or an admin. */
export async function getOrder(db: Db, orderId: number, user: SessionUser): Promise<OrderView> {
  return orderFor(await readOrder(db, orderId), user);
}

export async function getBankSlip(db: Db, bucket: R2Bucket, orderId: number, user: SessionUser): Promise<{ body: ReadableStream; type: string; size: number }> {
  const order = await findOrder(db, orderId);
  assertCanSee(order, user);
  const object = order.bankSlipKey ? await bucket.get(order.bankSlipKey) : null;
  if (!object) throw notFound("Bank slip not found");
  return { body: object.body, type: order.bankSlipType ?? "application/octet-stream", size: object.size };
}

/**
 * Moves an order to any other status (admin). Stock and history follow in the database's triggers; leaving
 * CANCELLED fails with 409 when the stock is no longer there. The customer's mail about it is written in the same
 * batch, and only when this update changed the row (SQLite's changes(), which does not count the triggers' writes):
 * when two admins move the order at once, only the one whose update happened writes a mail. `notifyCustomer: false`
 * writes none: an admin putting right a wrong click (DELIVERED back to CONFIRMED) must not tell a customer who has
 * their shoes that packing starts shortly.
 *
 * The answer carries `stockNotReturned`: the lines whose pairs this cancellation could not put back, because their
 * size was removed or their product deleted since the order was placed (the trigger skips a line without a size).
 * Empty for any other move, and for a cancellation another admin's update made first.
 */
export async function changeOrderStatus(
  db: Db,
  orderId: number,
  status: OrderStatus,
  admin: SessionUser,
  mailer: Mailer,
  { statusWas, notifyCustomer = true }: { statusWas?: OrderStatus; notifyCustomer?: boolean } = {},
): Promise<OrderStatusChange> {
  const order = await findOrder(db, orderId);
  let stockNotReturned: StockNotReturned[] = [];
  // The admin decided on what their page showed: if the order moved on since, they decide again (no silent reopen).
  if (statusWas !== undefined && order.status !== statusWas && order.status !== status) {
    throw conflict(`Order #${orderId} was changed meanwhile. It is ${order.status} now, not ${statusWas}. Look at it again before changing it.`);
  }
  if (order.status !== status) {
    // Worded for the move from the status read here: the UPDATE below changes the order only if it still has it.
    const mail = orderStatusMail({ orderNumber: String(orderId), orderUrl: orderUrl(mailer, orderId), customerName: order.customerName }, status, order.status);
    let mailIds: number[];
    try {
      // Written for D1 directly: Drizzle cannot put a statement of raw SQL with parameters into a batch.
      const d1 = db.$client;
      const update = db
        .update(orders)
        .set({ status, statusChangedBy: admin.id })
        .where(and(eq(orders.id, orderId), eq(orders.status, order.status)))
        .toSQL();
      // As the confirmation, to the account that placed the order (none once it is gone), never to the address typed
      // at checkout. changes() is still the UPDATE's while this statement runs.
      const mailStatement = d1
        .prepare(
          `INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, order_id, user_id, order_status, next_attempt_at)
           SELECT 'ORDER_STATUS', users.email, ?, ?, ?, ?, users.id, ?, ? FROM users WHERE users.id = ? AND changes() = 1 RETURNING id`,
        )
        .bind(mail.subject, mail.text, mail.html, orderId, status, firstAttemptAt(), order.userId);
      // A cancellation's lines that the status trigger skipped (no size to return the pairs to), read in the same
      // transaction, so what the admin is told is what the trigger did; and only when this update made it (changes()
      // is still the UPDATE's: a SELECT leaves it alone, so the mail below still reads it).
      const sizeless = d1
        .prepare(
          `SELECT product_id AS productId, product_name AS productName, size_label AS sizeLabel, quantity FROM order_items
           WHERE order_id = ? AND size_id IS NULL AND ? = 'CANCELLED' AND changes() = 1 ORDER BY id`,
        )
        .bind(orderId, status);
      const [, skipped, inserted] = await d1.batch<unknown>([d1.prepare(update.sql).bind(...update.params), sizeless, ...(notifyCustomer ? [mailStatement] : [])]);
      stockNotReturned = (skipped.results as SizelessLine[]).map(heldBack);
      mailIds = (inserted?.results as { id: number }[] | undefined)?.map((mailRow) => mailRow.id) ?? [];
    } catch (error) {
      // migrations/0015: a cancelled order reopened with a line whose size (or product) is gone.
      const sizeGone = abortedByTrigger(error, "order_reopen");
      if (!sizeGone && constraintFailure(error) !== "check") throw error;
      const items = await db
        .select({ sizeId: orderItems.sizeId, quantity: orderItems.quantity, productName: orderItems.productName, sizeLabel: orderItems.sizeLabel })
        .from(orderItems)
        .where(eq(orderItems.orderId, orderId));
      const gone = items.find((item) => item.sizeId === null);
      if (sizeGone) throw conflict(`Cannot reopen this order because ${gone ? nameWithSize(gone.productName, gone.sizeLabel) : "a product in it"} is no longer sold`);
      const short = await shortSize(db, new Map(items.flatMap((item) => (item.sizeId ? [[item.sizeId, item.quantity] as const] : []))));
      // API.md's words for stock that is not there ("Insufficient stock for X"), which a client may match on.
      throw conflict(short ? `Cannot reopen this order. ${insufficientStock(short)}` : "Cannot reopen this order because its stock is no longer there");
    }
    mailer.enqueue(mailIds);
  }
  return { ...(await getOrder(db, orderId, admin)), stockNotReturned };
}

/** A line whose size_id is null: its size was removed, or its product deleted (which removes its sizes too). */
interface SizelessLine {
  productId: number | null;
  productName: string;
  sizeLabel: string;
  quantity: number;
}

const heldBack = (line: SizelessLine): StockNotReturned => ({ ...line, reason: reasonOf(line) });
