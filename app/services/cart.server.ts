import { eq, sql, sum } from "drizzle-orm";

import { isPurchasable } from "~/lib/availability";
import { GUEST_CART_MAX_LINES, readGuestCart, type GuestCartLine } from "~/lib/guest-cart";
import { conflict, notFound } from "~/lib/http";
import type { SessionUser } from "./auth.server";
import { findProductRow, PRODUCT_NOT_FOUND } from "./catalogue.server";
import { type Db, schema } from "./db.server";

const { cartItems } = schema;

export const ABOVE_STOCK = "Cannot add more than available stock";
export const OUT_OF_STOCK = "This product is out of stock";

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
