import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";

import type { OrderStatus } from "~/lib/constants";
import { BANK_SLIP_MAX_BYTES, BANK_SLIP_MESSAGES, BANK_SLIP_TYPES, sniffFileType } from "~/lib/file-types";
import { centsToRupees } from "~/lib/format";
import { HttpError, badRequest, conflict, forbidden, notFound } from "~/lib/http";
import type { OrderInput, OrderView } from "~/lib/schemas/order";
import type { SessionUser } from "./auth.server";
import { constraintFailure, type Db, schema } from "./db.server";

const { orders, orderItems, orderStatusHistory, products, cartItems, users } = schema;
type OrderRow = typeof orders.$inferSelect;

export const ORDER_NOT_FOUND = "Order not found";
export const insufficientStock = (productName: string) => `Insufficient stock for ${productName}`;

export interface BankSlip {
  bytes: Uint8Array;
  type: string;
}

/** The uploaded slip, judged by its bytes: JPEG, PNG or PDF under 10 MB (SPEC §5's messages). */
export async function readBankSlip(file: FormDataEntryValue | null): Promise<BankSlip> {
  if (file === null || typeof file === "string" || file.size === 0) throw badRequest(BANK_SLIP_MESSAGES.missing, { bankSlip: [BANK_SLIP_MESSAGES.missing] });
  if (file.size >= BANK_SLIP_MAX_BYTES) throw new HttpError(413, BANK_SLIP_MESSAGES.size, { bankSlip: [BANK_SLIP_MESSAGES.size] });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffFileType(bytes);
  if (!type || !BANK_SLIP_TYPES.includes(type)) throw new HttpError(415, BANK_SLIP_MESSAGES.type, { bankSlip: [BANK_SLIP_MESSAGES.type] });
  return { bytes, type };
}

/** Lines of one product added together, so a product's stock is checked against everything ordered of it. */
function combineLines(items: OrderInput["orderItems"]): Map<number, number> {
  const lines = new Map<number, number>();
  for (const { productId, quantity } of items) lines.set(productId, (lines.get(productId) ?? 0) + quantity);
  return lines;
}

const orderIdBySlip = (slipKey: string) => sql`(SELECT ${orders.id} FROM ${orders} WHERE ${orders.bankSlipKey} = ${slipKey})`;

/**
 * Places an order. Names, prices and the total come from the catalogue. The slip goes to R2 first; then the order,
 * its items, the stock taken and the emptied cart are one D1 batch (the history row is written by a trigger). The
 * stock CHECK fails the whole batch if another shopper took the last pair meanwhile, and the slip is removed again,
 * so there is never an order without its slip nor a slip without its order.
 */
export async function placeOrder(db: Db, bucket: R2Bucket, user: SessionUser, input: OrderInput, slip: BankSlip): Promise<OrderView> {
  const lines = combineLines(input.orderItems);
  const catalogue = await db.select().from(products).where(inArray(products.id, [...lines.keys()]));
  const byId = new Map(catalogue.map((product) => [product.id, product]));
  for (const [productId, quantity] of lines) {
    const product = byId.get(productId);
    if (!product) throw badRequest(`Product ${productId} does not exist`, { orderItems: [`Product ${productId} does not exist`] });
    if (!product.productAvailable || quantity > product.stockQuantity) throw conflict(insufficientStock(product.name));
  }
  const totalCents = [...lines].reduce((total, [productId, quantity]) => total + (byId.get(productId)?.priceCents ?? 0) * quantity, 0);

  const slipKey = `slips/${crypto.randomUUID()}`;
  await bucket.put(slipKey, slip.bytes, { httpMetadata: { contentType: slip.type } });
  const orderId = orderIdBySlip(slipKey);
  try {
    await db.batch([
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
      }),
      ...[...lines].map(([productId, quantity]) => {
        const product = byId.get(productId)!;
        return db.insert(orderItems).values({ orderId: sql`${orderId}`, productId, productName: product.name, unitPriceCents: product.priceCents, quantity });
      }),
      ...[...lines].map(([productId, quantity]) =>
        db
          .update(products)
          .set({ stockQuantity: sql`${products.stockQuantity} - ${quantity}` })
          .where(eq(products.id, productId)),
      ),
      db.delete(cartItems).where(eq(cartItems.userId, user.id)),
    ]);
  } catch (error) {
    await bucket.delete(slipKey);
    throw await explainFailedOrder(db, error, lines);
  }
  const [created] = await db.select().from(orders).where(eq(orders.bankSlipKey, slipKey));
  return (await toOrderViews(db, [created]))[0];
}

/** Why the batch failed, for the shopper: the product another order just took, or one deleted meanwhile. */
async function explainFailedOrder(db: Db, error: unknown, lines: Map<number, number>): Promise<unknown> {
  if (!constraintFailure(error)) return error;
  const now = await db.select().from(products).where(inArray(products.id, [...lines.keys()]));
  const short = now.find((product) => (lines.get(product.id) ?? 0) > product.stockQuantity);
  if (short) return conflict(insufficientStock(short.name));
  return conflict("A product in your order is no longer available");
}

/** Orders with their items and history, read in three queries whatever the number of orders. */
async function toOrderViews(db: Db, rows: OrderRow[]): Promise<OrderView[]> {
  if (!rows.length) return [];
  const ids = rows.map((row) => row.id);
  const [items, history] = await db.batch([
    db.select().from(orderItems).where(inArray(orderItems.orderId, ids)).orderBy(asc(orderItems.id)),
    db
      .select({ orderId: orderStatusHistory.orderId, status: orderStatusHistory.status, changedAt: orderStatusHistory.changedAt, changedBy: users.name })
      .from(orderStatusHistory)
      .leftJoin(users, eq(users.id, orderStatusHistory.changedBy))
      .where(inArray(orderStatusHistory.orderId, ids))
      .orderBy(asc(orderStatusHistory.changedAt), asc(orderStatusHistory.id)),
  ]);
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
    orderItems: items
      .filter((item) => item.orderId === row.id)
      .map((item) => ({
        productId: item.productId,
        productName: item.productName,
        quantity: item.quantity,
        price: centsToRupees(item.unitPriceCents),
        subtotal: centsToRupees(item.unitPriceCents * item.quantity),
      })),
    statusHistory: history
      .filter((entry) => entry.orderId === row.id)
      .map((entry) => ({ status: entry.status, changedAt: new Date(entry.changedAt).toISOString(), changedBy: entry.changedBy })),
  }));
}

export async function listCustomerOrders(db: Db, userId: number): Promise<OrderView[]> {
  const rows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id));
  return toOrderViews(db, rows);
}

export async function listAllOrders(db: Db, status?: OrderStatus): Promise<OrderView[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(status ? eq(orders.status, status) : undefined)
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return toOrderViews(db, rows);
}

async function findOrder(db: Db, orderId: number): Promise<OrderRow> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  return row;
}

function assertCanSee(order: OrderRow, user: SessionUser) {
  if (user.role !== "ROLE_ADMIN" && order.userId !== user.id) throw forbidden("This order belongs to another customer");
}

/** One order, for its customer or an admin. */
export async function getOrder(db: Db, orderId: number, user: SessionUser): Promise<OrderView> {
  const order = await findOrder(db, orderId);
  assertCanSee(order, user);
  return (await toOrderViews(db, [order]))[0];
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
 * CANCELLED fails with 409 when the stock is no longer there.
 */
export async function changeOrderStatus(db: Db, orderId: number, status: OrderStatus, admin: SessionUser): Promise<OrderView> {
  const order = await findOrder(db, orderId);
  if (order.status !== status) {
    try {
      await db
        .update(orders)
        .set({ status, statusChangedBy: admin.id })
        .where(and(eq(orders.id, orderId), eq(orders.status, order.status)));
    } catch (error) {
      if (constraintFailure(error) !== "check") throw error;
      const items = await db.select({ productId: orderItems.productId, quantity: orderItems.quantity }).from(orderItems).where(eq(orderItems.orderId, orderId));
      const wanted = new Map(items.flatMap((item) => (item.productId ? [[item.productId, item.quantity] as const] : [])));
      const stock = await db.select().from(products).where(inArray(products.id, [...wanted.keys()]));
      const short = stock.find((product) => (wanted.get(product.id) ?? 0) > product.stockQuantity);
      throw conflict(short ? `Cannot reopen this order: ${insufficientStock(short.name)}` : "Cannot reopen this order: its stock is no longer there");
    }
  }
  return getOrder(db, orderId, admin);
}
