import { and, asc, eq, inArray, sql, sum } from "drizzle-orm";

import { isPurchasable } from "~/lib/availability";
import { centsToRupees } from "~/lib/format";
import { GUEST_CART_MAX_LINES, readGuestCart, type GuestCartLine } from "~/lib/guest-cart";
import { conflict, notFound } from "~/lib/http";
import type { CartLine } from "~/lib/schemas/cart";
import type { SessionUser } from "./auth.server";
import { findProductRow, imageUrl, PRODUCT_NOT_FOUND } from "./catalogue.server";
import { type Db, schema } from "./db.server";

const { cartItems, products } = schema;

export const ABOVE_STOCK = "Cannot add more than available stock";
export const OUT_OF_STOCK = "This product is out of stock";

type ProductRow = typeof products.$inferSelect;

function toCartLine(product: ProductRow, quantity: number): CartLine {
  return {
    productId: product.id,
    productName: product.name,
    brand: product.brand,
    unitPrice: centsToRupees(product.priceCents),
    quantity,
    stockQuantity: product.stockQuantity,
    imageUrl: imageUrl(product),
    productAvailable: product.productAvailable,
  };
}

/** A customer's server cart; lines of deleted products are gone with them (ON DELETE CASCADE). */
export async function getServerCart(db: Db, userId: number): Promise<CartLine[]> {
  const rows = await db
    .select({ product: products, quantity: cartItems.quantity })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.productId));
  return rows.map(({ product, quantity }) => toCartLine(product, quantity));
}

/** A visitor's cookie cart as lines; products that no longer exist are dropped. */
export async function getGuestCart(db: Db, lines: GuestCartLine[]): Promise<CartLine[]> {
  if (!lines.length) return [];
  const rows = await db.select().from(products).where(inArray(products.id, lines.map((line) => line.productId)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return lines.flatMap((line) => {
    const product = byId.get(line.productId);
    return product ? [toCartLine(product, line.quantity)] : [];
  });
}

/** How many items the navigation bar's Cart shows: the server cart for a customer, the cookie cart for a visitor. */
export async function countCartItems(db: Db, user: SessionUser | null, cookieHeader: string | null): Promise<number> {
  if (!user) return readGuestCart(cookieHeader).reduce((total, line) => total + line.quantity, 0);
  const [row] = await db
    .select({ total: sum(cartItems.quantity).mapWith(Number) })
    .from(cartItems)
    .where(eq(cartItems.userId, user.id));
  return row?.total ?? 0;
}

async function purchasableProduct(db: Db, productId: number) {
  const product = await findProductRow(db, productId);
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  if (!isPurchasable(product)) throw conflict(OUT_OF_STOCK);
  return product;
}

/**
 * Adds to a customer's server cart. One statement, so two tabs adding at once can never pass the stock: the upsert
 * only writes when the new quantity still fits, and nothing written means the cap was hit.
 */
export async function addToServerCart(db: Db, userId: number, productId: number, quantity = 1): Promise<void> {
  await purchasableProduct(db, productId);
  const written = await db.all(sql`
    INSERT INTO cart_items (user_id, product_id, quantity)
    SELECT ${userId}, id, ${quantity} FROM products WHERE id = ${productId} AND stock_quantity >= ${quantity}
    ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity
      WHERE cart_items.quantity + excluded.quantity <= (SELECT stock_quantity FROM products WHERE id = excluded.product_id)
    RETURNING quantity`);
  if (!written.length) throw conflict(ABOVE_STOCK);
}

/** Sets a line's quantity; 0 or below removes it; above stock is refused. */
export async function setServerCartQuantity(db: Db, userId: number, productId: number, quantity: number): Promise<void> {
  if (quantity <= 0) return removeFromServerCart(db, userId, productId);
  const product = await purchasableProduct(db, productId);
  if (quantity > product.stockQuantity) throw conflict(ABOVE_STOCK);
  await db
    .insert(cartItems)
    .values({ userId, productId, quantity })
    .onConflictDoUpdate({ target: [cartItems.userId, cartItems.productId], set: { quantity } });
}

export async function removeFromServerCart(db: Db, userId: number, productId: number): Promise<void> {
  await db.delete(cartItems).where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)));
}

export async function clearServerCart(db: Db, userId: number): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
}

/**
 * Adds a visitor's lines to the saved cart (at login or registration): quantities add up, each line is capped at its
 * stock, products that are unknown, unavailable or sold out are skipped. One atomic batch.
 */
export async function mergeIntoServerCart(db: Db, userId: number, lines: GuestCartLine[]): Promise<void> {
  const d1 = db.$client;
  const merge = d1.prepare(`
    INSERT INTO cart_items (user_id, product_id, quantity)
    SELECT ?1, id, min(?3, stock_quantity) FROM products WHERE id = ?2 AND stock_quantity > 0 AND product_available = 1
    ON CONFLICT (user_id, product_id) DO UPDATE SET
      quantity = min(cart_items.quantity + ?3, (SELECT stock_quantity FROM products WHERE id = excluded.product_id))`);
  const statements = lines.map(({ productId, quantity }) => merge.bind(userId, productId, quantity));
  if (statements.length) await d1.batch(statements);
}

/** Adds to a visitor's cookie cart, with the same stock cap; returns the new lines to store. */
export async function addToGuestCart(db: Db, lines: GuestCartLine[], productId: number, quantity = 1): Promise<GuestCartLine[]> {
  const product = await purchasableProduct(db, productId);
  const existing = lines.find((line) => line.productId === productId);
  const wanted = (existing?.quantity ?? 0) + quantity;
  if (wanted > product.stockQuantity) throw conflict(ABOVE_STOCK);
  if (existing) return lines.map((line) => (line === existing ? { ...line, quantity: wanted } : line));
  if (lines.length >= GUEST_CART_MAX_LINES) throw conflict(`A cart holds at most ${GUEST_CART_MAX_LINES} different products`);
  return [...lines, { productId, quantity }];
}

/** Sets a line of a visitor's cookie cart (0 or below removes it), with the same stock cap. */
export async function setGuestCartQuantity(db: Db, lines: GuestCartLine[], productId: number, quantity: number): Promise<GuestCartLine[]> {
  if (quantity <= 0) return lines.filter((line) => line.productId !== productId);
  const product = await purchasableProduct(db, productId);
  if (quantity > product.stockQuantity) throw conflict(ABOVE_STOCK);
  const exists = lines.some((line) => line.productId === productId);
  return exists ? lines.map((line) => (line.productId === productId ? { ...line, quantity } : line)) : [...lines, { productId, quantity }];
}
