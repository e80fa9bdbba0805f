import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";

import { badRequest } from "~/lib/http";
import { ONE_SIZE, SELECT_A_SIZE, UNKNOWN_SIZE, type SizeView } from "~/lib/sizes";
import type { ProductInput } from "~/lib/schemas/product";
import type { StockMove } from "~/lib/stock-moves";
import { type Db, type ReadPlan, readTogether, schema } from "./db.server";

const { products, productSizes } = schema;

export const sizeColumns = { id: productSizes.id, productId: productSizes.productId, label: productSizes.label, stockQuantity: productSizes.stockQuantity };
const inDisplayOrder = [asc(productSizes.position), asc(productSizes.id)];

/** The sizes of each product, in display order. */
async function loadSizes(db: Db, productIds: number[]): Promise<Map<number, SizeView[]>> {
  const bySize = new Map<number, SizeView[]>(productIds.map((id) => [id, []]));
  if (!productIds.length) return bySize;
  const rows = await db.select(sizeColumns).from(productSizes).where(inArray(productSizes.productId, productIds)).orderBy(...inDisplayOrder);
  for (const { productId, ...size } of rows) bySize.get(productId)?.push(size);
  return bySize;
}

export interface ProductWithSizes {
  product: typeof products.$inferSelect;
  sizes: SizeView[];
}

/**
 * A size's columns beside its product's whole row: named apart from the product's `id` and `stock_quantity`, which a
 * D1 batch (rows keyed by column name) would otherwise fold together. Null for a product without sizes (a left join).
 */
const sizeBesideProduct = {
  id: sql<number | null>`${productSizes.id}`.as("size_id"),
  label: sql<string | null>`${productSizes.label}`.as("size_label"),
  stockQuantity: sql<number | null>`${productSizes.stockQuantity}`.as("size_stock"),
};

/**
 * Products with their sizes in display order, in one statement: what a cart, an add to cart and an order check their
 * lines against. A missing id is missing from the map. A plan, so an order reads it in one batch with the cart and
 * the order its key may already have placed (orders.server.ts).
 */
export function productsWithSizesPlan(db: Db, productIds: number[]): ReadPlan<Map<number, ProductWithSizes>> {
  const rows = db
    .select({ product: products, size: sizeBesideProduct })
    .from(products)
    .leftJoin(productSizes, eq(productSizes.productId, products.id))
    .where(inArray(products.id, productIds.length ? productIds : [0]))
    .orderBy(...inDisplayOrder);
  return {
    statements: [rows],
    assemble: ([result]) => {
      const found = new Map<number, ProductWithSizes>();
      for (const { product, size } of result as Awaited<typeof rows>) {
        const entry = found.get(product.id) ?? found.set(product.id, { product, sizes: [] }).get(product.id)!;
        if (size?.id != null) entry.sizes.push({ id: size.id, label: size.label!, stockQuantity: size.stockQuantity! });
      }
      return found;
    },
  };
}

export async function loadProductsWithSizes(db: Db, productIds: number[]): Promise<Map<number, ProductWithSizes>> {
  if (!productIds.length) return new Map();
  return (await readTogether(db, { found: productsWithSizesPlan(db, productIds) })).found;
}

/** The query for one product's sizes, for a caller that reads them in its own batch. */
export const sizesOf = (db: Db, productId: number) => db.select(sizeColumns).from(productSizes).where(eq(productSizes.productId, productId)).orderBy(...inDisplayOrder);

/** One product's sizes in display order, as a plan (readTogether). */
export function sizesPlan(db: Db, productId: number): ReadPlan<SizeView[]> {
  return { statements: [sizesOf(db, productId)], assemble: ([rows]) => (rows as Array<SizeView & { productId: number }>).map(toSizeView) };
}

export const toSizeView = ({ id, label, stockQuantity }: SizeView): SizeView => ({ id, label, stockQuantity });

/** Products as the API gives them: each with its sizes. */
export async function withSizes<T extends { id: number }>(db: Db, views: T[]): Promise<(T & { sizes: SizeView[] })[]> {
  const sizes = await loadSizes(db, views.map((view) => view.id));
  return views.map((view) => ({ ...view, sizes: sizes.get(view.id) ?? [] }));
}

/**
 * The size a cart line or an order line is for: the one chosen (it must be one of this product's), or the product's
 * only size when none is chosen; a product with several sizes needs a choice (API.md: 400 'Please select a size').
 * `field` names the size in the 400's fieldErrors (an order's `orderItems.2.sizeId`).
 */
export function chooseSize(sizes: SizeView[], sizeId: number | undefined | null, field = "sizeId"): SizeView {
  if (sizeId !== undefined && sizeId !== null) {
    const chosen = sizes.find((size) => size.id === sizeId);
    if (!chosen) throw badRequest(UNKNOWN_SIZE, { [field]: [UNKNOWN_SIZE] });
    return chosen;
  }
  if (sizes.length === 1) return sizes[0];
  throw badRequest(SELECT_A_SIZE, { [field]: [SELECT_A_SIZE] });
}

type SizeInput = NonNullable<ProductInput["sizes"]>[number];

/**
 * A kept size's new stock: the number sent, or, when the client says what it saw (stockWas), the current stock moved
 * by the difference (never below zero), so orders placed meanwhile keep their pairs.
 */
const newStock = (size: SizeInput) =>
  size.stockWas === undefined ? size.stockQuantity : sql`max(0, ${productSizes.stockQuantity} + ${size.stockQuantity - size.stockWas})`;

/** A new product's sizes: those the admin sent, or one "One size" holding the product's stock. */
export function newProductSizes(input: ProductInput): SizeInput[] {
  return input.sizes ?? [{ label: ONE_SIZE, stockQuantity: input.stockQuantity }];
}

export function insertSizes(db: Db, productId: number, sizes: SizeInput[]): BatchItem<"sqlite">[] {
  return sizes.map((size, position) => db.insert(productSizes).values({ productId, label: size.label, position, stockQuantity: size.stockQuantity }));
}

/**
 * The statements that make an existing product's sizes what the admin sent, for the product update's batch. Without
 * `sizes` (the API's original shape), `stockQuantity` sets the stock of a one-size product; a product with several
 * sizes keeps their stock, since a total cannot say which size changed. With
 * `sizes`: listed ids are renamed, restocked (see newStock) and reordered, entries without an id are added, and sizes
 * left out are removed (their cart lines with them; order lines keep their copied label). `existing` is the sizes as
 * read with the version the save is based on: a list from an older copy of the product (a size another admin added
 * meanwhile, left out because that copy never showed it) never gets here, since the save is then refused (409, see
 * versionBase in product-images.server.ts).
 */
export function sizeUpdates(db: Db, productId: number, input: ProductInput, existing: SizeView[]): BatchItem<"sqlite">[] {
  if (!input.sizes) {
    if (existing.length === 1) return [db.update(productSizes).set({ stockQuantity: input.stockQuantity }).where(eq(productSizes.id, existing[0].id))];
    // A client of API.md's original shape cannot name a size: the sizes keep their stock (the answer shows the total).
    return [];
  }
  const known = new Set(existing.map((size) => size.id));
  input.sizes.forEach((size, index) => {
    if (size.id !== undefined && !known.has(size.id)) throw badRequest(UNKNOWN_SIZE, { [`sizes.${index}.id`]: [UNKNOWN_SIZE] });
  });
  const kept = input.sizes.flatMap((size) => (size.id === undefined ? [] : [size.id]));
  const ofProduct = eq(productSizes.productId, productId);
  return [
    db.delete(productSizes).where(and(ofProduct, notInArray(productSizes.id, kept.length ? kept : [0]))),
    // Labels are unique per product: park the kept ones on a label no admin can type, so a swap (EU 40 <-> EU 41)
    // never meets itself halfway through the batch.
    ...(kept.length ? [db.update(productSizes).set({ label: sql`char(0) || ${productSizes.id}` }).where(and(ofProduct, inArray(productSizes.id, kept)))] : []),
    ...input.sizes.map((size, position) =>
      size.id === undefined
        ? db.insert(productSizes).values({ productId, label: size.label, position, stockQuantity: size.stockQuantity })
        : db
            .update(productSizes)
            .set({ label: size.label, position, stockQuantity: newStock(size) })
            .where(eq(productSizes.id, size.id)),
    ),
  ];
}

/** Whether a save's sizes say what stock the client saw (stockWas), so that stockMoves has something to tell. */
export const watchesStock = (input: ProductInput): boolean => !!input.sizes?.some((size) => size.id !== undefined && size.stockWas !== undefined);

/**
 * The sizes whose stock was saved as another figure than the one sent, because orders took pairs (or a cancelled one
 * gave them back) between the client's read (stockWas) and the save: `before` and `after` are the sizes as the save's
 * own batch read them around its writes, so the figures are exactly the save's. A size set to what was sent (nothing
 * moved meanwhile, or 0 asked and 0 saved) is not one of them.
 */
export function stockMoves(input: ProductInput, before: readonly SizeView[], after: readonly SizeView[]): StockMove[] {
  return (input.sizes ?? []).flatMap((size) => {
    if (size.id === undefined || size.stockWas === undefined) return [];
    const [was, now] = [before.find((row) => row.id === size.id), after.find((row) => row.id === size.id)];
    if (!was || !now || now.stockQuantity === size.stockQuantity) return [];
    const sold = size.stockWas - was.stockQuantity;
    return sold === 0 ? [] : [{ label: now.label, saved: now.stockQuantity, sold }];
  });
}
