import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";

import { ABOVE_STOCK, GUEST_CART_FULL, OUT_OF_STOCK, PRODUCT_NOT_FOUND } from "~/lib/availability";
import { centsToRupees } from "~/lib/format";
import { GUEST_CART_MAX_LINES, type CartLineGoneReason } from "~/lib/constants";
import type { GuestCartLine } from "~/lib/guest-cart";
import { badRequest, conflict, notFound } from "~/lib/http";
import type { CartLine } from "~/lib/schemas/cart";
import { UNKNOWN_SIZE, type SizeView } from "~/lib/sizes";
import { imageUrl } from "./catalogue.server";
import { type Db, type ReadPlan, readTogether, schema } from "./db.server";
import { chooseSize, loadProductsWithSizes } from "./sizes.server";

const { cartItems, cartLinesGone, products, productSizes } = schema;

type ProductRow = typeof products.$inferSelect;

/** A line: one product in one size, capped by that size's stock. */
function toCartLine(product: Pick<ProductRow, "id" | "name" | "brand" | "priceCents" | "imageKey" | "productAvailable">, size: SizeView, quantity: number): CartLine {
  return {
    productId: product.id,
    productName: product.name,
    brand: product.brand,
    unitPrice: centsToRupees(product.priceCents),
    quantity,
    stockQuantity: size.stockQuantity,
    imageUrl: imageUrl(product),
    productAvailable: product.productAvailable,
    sizeId: size.id,
    sizeLabel: size.label,
  };
}

/**
 * A cart line's columns. In a D1 batch the rows come back keyed by column name, so the size's id and stock are named
 * apart from the product's (the same names would overwrite each other).
 */
const cartLineColumns = {
  product: { id: products.id, name: products.name, brand: products.brand, priceCents: products.priceCents, imageKey: products.imageKey, productAvailable: products.productAvailable },
  size: { id: sql<number>`${productSizes.id}`.as("size_id"), label: productSizes.label, stockQuantity: sql<number>`${productSizes.stockQuantity}`.as("size_stock") },
  quantity: cartItems.quantity,
};

/** A customer's server cart; lines of deleted products or removed sizes are gone with them (ON DELETE CASCADE). */
export function serverCartPlan(db: Db, userId: number): ReadPlan<CartLine[]> {
  const lines = db
    .select(cartLineColumns)
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .innerJoin(productSizes, eq(productSizes.id, cartItems.sizeId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.productId), asc(productSizes.position));
  return {
    statements: [lines],
    assemble: ([rows]) => (rows as Awaited<typeof lines>).map(({ product, size, quantity }) => toCartLine(product, size, quantity)),
  };
}

/** A cart line the shop took away since the customer last saw their cart (cart_lines_gone). */
export interface CartLineGone {
  id: number;
  productName: string;
  sizeLabel: string;
  reason: CartLineGoneReason;
}

/** The most a cart page says at once; the rest waits for the next page. */
const GONE_SHOWN_MAX = 20;

/**
 * The customer's cart lines that went with a removed size or a deleted product (written by the triggers of
 * migrations/0024), oldest first: the cart page reads them in its own batch and says them once (forgetCartLinesGone).
 */
export function cartLinesGonePlan(db: Db, userId: number): ReadPlan<CartLineGone[]> {
  const rows = db
    .select({ id: cartLinesGone.id, productName: cartLinesGone.productName, sizeLabel: cartLinesGone.sizeLabel, reason: cartLinesGone.reason })
    .from(cartLinesGone)
    .where(eq(cartLinesGone.userId, userId))
    .orderBy(asc(cartLinesGone.id))
    .limit(GONE_SHOWN_MAX);
  return { statements: [rows], assemble: ([found]) => found as CartLineGone[] };
}

/** Once said: the lines read up to `lastId` (one written meanwhile stays for the next page). */
export async function forgetCartLinesGone(db: Db, userId: number, lastId: number): Promise<void> {
  await db.delete(cartLinesGone).where(and(eq(cartLinesGone.userId, userId), lte(cartLinesGone.id, lastId)));
}

export async function getServerCart(db: Db, userId: number): Promise<CartLine[]> {
  return (await readTogether(db, { cart: serverCartPlan(db, userId) })).cart;
}

/**
 * A visitor's cookie lines as cart lines, in the cookie's order: a line saved before sizes existed gets its product's
 * only size; lines of products and sizes that no longer exist are dropped. A plan, so the navigation bar's count can
 * ride with a page's own batch (session.server: guestCartNow).
 */
export function guestCartPlan(db: Db, lines: GuestCartLine[]): ReadPlan<CartLine[]> {
  const ids = [...new Set(lines.map((line) => line.productId))];
  const rows = db
    .select({ product: cartLineColumns.product, size: cartLineColumns.size })
    .from(products)
    .innerJoin(productSizes, eq(productSizes.productId, products.id))
    .where(inArray(products.id, ids.length ? ids : [0]))
    .orderBy(asc(productSizes.position), asc(productSizes.id));
  return {
    statements: [rows],
    assemble: ([found]) => {
      const byProduct = new Map<number, Awaited<typeof rows>>();
      for (const row of found as Awaited<typeof rows>) byProduct.set(row.product.id, [...(byProduct.get(row.product.id) ?? []), row]);
      // A cookie from before sizes may hold a one-size product twice (with and without its size): one line, added up.
      const bySize = new Map<number, CartLine>();
      for (const line of lines) {
        const sizes = byProduct.get(line.productId) ?? [];
        const row = line.sizeId === undefined ? (sizes.length === 1 ? sizes[0] : undefined) : sizes.find((s) => s.size.id === line.sizeId);
        if (!row) continue;
        const earlier = bySize.get(row.size.id);
        bySize.set(row.size.id, toCartLine(row.product, row.size, (earlier?.quantity ?? 0) + line.quantity));
      }
      return [...bySize.values()];
    },
  };
}

/** A visitor's cookie cart as lines; products and sizes that no longer exist are dropped. */
export async function getGuestCart(db: Db, lines: GuestCartLine[]): Promise<CartLine[]> {
  if (!lines.length) return [];
  return (await readTogether(db, { cart: guestCartPlan(db, lines) })).cart;
}

/** The cookie's form of cart lines: what a visitor's cart keeps once stale lines are dropped. */
export const toGuestLines = (lines: CartLine[]): GuestCartLine[] => lines.map(({ productId, sizeId, quantity }) => ({ productId, sizeId, quantity }));

/**
 * The product and the size a shopper adds: 404 for no product, 400 without a needed size, 409 when it cannot be
 * bought. A sold-out size (or product) is API.md's quantity above stock, in its words; a product taken off sale is not.
 */
async function purchasableSize(db: Db, productId: number, sizeId: number | undefined) {
  const found = (await loadProductsWithSizes(db, [productId])).get(productId);
  if (!found) throw notFound(PRODUCT_NOT_FOUND);
  const { product, sizes } = found;
  if (!product.productAvailable) throw conflict(OUT_OF_STOCK);
  const size = chooseSize(sizes, sizeId);
  if (size.stockQuantity <= 0) throw conflict(ABOVE_STOCK);
  return { product, size };
}

/**
 * Adds to a customer's server cart. One statement, so two tabs adding at once can never pass the size's stock: the
 * upsert only writes when the new quantity still fits, and nothing written means the cap was hit.
 */
export async function addToServerCart(db: Db, userId: number, productId: number, sizeId: number | undefined, quantity = 1): Promise<void> {
  const { size } = await purchasableSize(db, productId, sizeId);
  const written = await db.all(sql`
    INSERT INTO cart_items (user_id, product_id, size_id, quantity)
    SELECT ${userId}, product_id, id, ${quantity} FROM product_sizes WHERE id = ${size.id} AND stock_quantity >= ${quantity}
    ON CONFLICT (user_id, size_id) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity
      WHERE cart_items.quantity + excluded.quantity <= (SELECT stock_quantity FROM product_sizes WHERE id = excluded.size_id)
    RETURNING quantity`);
  if (!written.length) throw conflict(ABOVE_STOCK);
}

/**
 * The size of a line the customer names by product alone (the API's original calls): the product's only size, or the
 * only line of that product in the cart; otherwise a size must be chosen.
 */
async function lineSize(db: Db, userId: number, productId: number, sizeId: number | undefined): Promise<number | undefined> {
  if (sizeId !== undefined) return sizeId;
  const inCart = await db.select({ sizeId: cartItems.sizeId }).from(cartItems).where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)));
  return inCart.length === 1 ? inCart[0].sizeId : undefined;
}

/**
 * The quantity a cart page asked for, moved onto the line as it is now (`current`, null when the cart has no such
 * line): the page's − and + ask for one fewer or one more than the page `shown`, and another tab may have changed the
 * line since ("+" on a page that still shows 3 when the line holds 5 is 6, not 4). Never below one: − does not remove
 * a line. Null when the line is gone (another tab removed it): a stepper does not bring it back. Without `shown`, the
 * quantity as asked.
 */
export function rebasedQuantity(asked: number, shown: number | undefined, current: number | null): number | null {
  if (shown === undefined || asked <= 0) return asked;
  if (current === null) return null;
  return Math.max(1, current + asked - shown);
}

/**
 * Sets a line's quantity; 0 or below removes it. Lowering a line (or keeping it) is always allowed, even below a
 * stock that fell or for a product no longer sold, so the shopper can fix their cart; raising it or a new line must
 * fit the size's stock (SPEC: 'Cannot add more than available stock'). `shown`: see rebasedQuantity.
 */
export async function setServerCartQuantity(db: Db, userId: number, productId: number, sizeId: number | undefined, asked: number, shown?: number): Promise<void> {
  if (asked <= 0) return removeFromServerCart(db, userId, productId, sizeId);
  const chosen = await lineSize(db, userId, productId, sizeId);
  let quantity = asked;
  if (shown !== undefined) {
    const [line] = chosen === undefined ? [] : await db.select({ quantity: cartItems.quantity }).from(cartItems).where(and(eq(cartItems.userId, userId), eq(cartItems.sizeId, chosen)));
    const rebased = rebasedQuantity(asked, shown, line?.quantity ?? null);
    if (rebased === null) return;
    quantity = rebased;
  }
  if (chosen !== undefined) {
    const ofLine = and(eq(cartItems.userId, userId), eq(cartItems.productId, productId), eq(cartItems.sizeId, chosen), gte(cartItems.quantity, quantity));
    if ((await db.update(cartItems).set({ quantity }).where(ofLine).returning({ quantity: cartItems.quantity })).length) return;
  }
  const { size } = await purchasableSize(db, productId, chosen);
  if (quantity > size.stockQuantity) throw conflict(ABOVE_STOCK);
  await db
    .insert(cartItems)
    .values({ userId, productId, sizeId: size.id, quantity })
    .onConflictDoUpdate({ target: [cartItems.userId, cartItems.sizeId], set: { quantity } });
}

/** Removes a line; without a size, every line of the product. */
export async function removeFromServerCart(db: Db, userId: number, productId: number, sizeId?: number): Promise<void> {
  const ofSize = sizeId === undefined ? undefined : eq(cartItems.sizeId, sizeId);
  const removed = await db.delete(cartItems).where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId), ofSize)).returning({ sizeId: cartItems.sizeId });
  if (sizeId === undefined || removed.length) return;
  // Nothing removed: another product's size is the client's mistake (400), as adding it would be. A size or product
  // deleted since (its lines went with it) is not: removing what is gone stays a quiet success.
  const [size] = await db.select({ productId: productSizes.productId }).from(productSizes).where(eq(productSizes.id, sizeId)).limit(1);
  if (size && size.productId !== productId) throw badRequest(UNKNOWN_SIZE, { sizeId: [UNKNOWN_SIZE] });
}

export async function clearServerCart(db: Db, userId: number): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
}

/** What a merge did: how many lines the saved cart held before it, and how many of its lines changed the cart. */
export interface CartMerge {
  savedLinesBefore: number;
  linesMerged: number;
}

/**
 * Adds a visitor's lines to the saved cart (at login or registration): quantities add up, each line is capped at its
 * size's stock; products and sizes that are unknown, unavailable or sold out are skipped, and so is a product with
 * several sizes sent without one. One atomic batch, which first counts the saved lines (so the count is the cart's
 * just before the merge). A line counts as merged when it was inserted or its quantity changed: a saved line already at
 * its stock is left untouched (no row written), so it does not count.
 */
export async function mergeIntoServerCart(db: Db, userId: number, lines: GuestCartLine[]): Promise<CartMerge> {
  const resolved = await getGuestCart(db, lines);
  if (!resolved.length) return { savedLinesBefore: 0, linesMerged: 0 };
  const d1 = db.$client;
  const count = d1.prepare("SELECT count(*) AS n FROM cart_items WHERE user_id = ?1").bind(userId);
  const merge = d1.prepare(`
    INSERT INTO cart_items (user_id, product_id, size_id, quantity)
    SELECT ?1, s.product_id, s.id, min(?3, s.stock_quantity) FROM product_sizes s JOIN products p ON p.id = s.product_id
      WHERE s.id = ?2 AND s.stock_quantity > 0 AND p.product_available = 1
    ON CONFLICT (user_id, size_id) DO UPDATE SET
      quantity = min(cart_items.quantity + ?3, (SELECT stock_quantity FROM product_sizes WHERE id = excluded.size_id))
      WHERE cart_items.quantity <> min(cart_items.quantity + ?3, (SELECT stock_quantity FROM product_sizes WHERE id = excluded.size_id))`);
  const [counted, ...merged] = await d1.batch([count, ...resolved.map(({ sizeId, quantity }) => merge.bind(userId, sizeId, quantity))]);
  return {
    savedLinesBefore: (counted.results[0] as { n: number }).n,
    linesMerged: merged.filter((result) => result.meta.changes > 0).length,
  };
}

const sameLine = (line: GuestCartLine, productId: number, sizeId: number) => line.productId === productId && line.sizeId === sizeId;

/**
 * Adds to a visitor's cookie cart, with the same stock cap; returns the new lines to store, without the lines of
 * products and sizes that no longer exist (they would count toward the line limit and the navigation bar's count).
 */
export async function addToGuestCart(db: Db, lines: GuestCartLine[], productId: number, sizeId: number | undefined, quantity = 1): Promise<GuestCartLine[]> {
  const [{ size }, cart] = await Promise.all([purchasableSize(db, productId, sizeId), getGuestCart(db, lines).then(toGuestLines)]);
  const existing = cart.find((line) => sameLine(line, productId, size.id));
  const wanted = (existing?.quantity ?? 0) + quantity;
  if (wanted > size.stockQuantity) throw conflict(ABOVE_STOCK);
  if (existing) return cart.map((line) => (line === existing ? { productId, sizeId: size.id, quantity: wanted } : line));
  if (cart.length >= GUEST_CART_MAX_LINES) throw conflict(GUEST_CART_FULL);
  return [...cart, { productId, sizeId: size.id, quantity }];
}

/**
 * Sets a line of a visitor's cookie cart (0 or below removes it; without a size, every line of the product), with the
 * server cart's rules: lowering is always allowed, raising must fit the stock. Stale lines are dropped, as in add.
 * `shown`: see rebasedQuantity.
 */
export async function setGuestCartQuantity(db: Db, lines: GuestCartLine[], productId: number, sizeId: number | undefined, asked: number, shown?: number): Promise<GuestCartLine[]> {
  const cart = toGuestLines(await getGuestCart(db, lines));
  if (asked <= 0) return cart.filter((line) => !(line.productId === productId && (sizeId === undefined || line.sizeId === sizeId)));
  const ofProduct = cart.filter((line) => line.productId === productId);
  const line = sizeId === undefined ? (ofProduct.length === 1 ? ofProduct[0] : undefined) : ofProduct.find((l) => l.sizeId === sizeId);
  const quantity = rebasedQuantity(asked, shown, line?.quantity ?? null);
  if (quantity === null) return cart;
  if (line && quantity <= line.quantity) return cart.map((l) => (l === line ? { ...l, quantity } : l));
  const { size } = await purchasableSize(db, productId, line?.sizeId ?? sizeId);
  if (quantity > size.stockQuantity) throw conflict(ABOVE_STOCK);
  return cart.some((l) => sameLine(l, productId, size.id))
    ? cart.map((l) => (sameLine(l, productId, size.id) ? { productId, sizeId: size.id, quantity } : l))
    : [...cart, { productId, sizeId: size.id, quantity }];
}
