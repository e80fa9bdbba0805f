import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";

import { CATEGORIES, type Category } from "~/lib/constants";
import { ADMIN_MAX_PAGE_SIZE } from "~/lib/schemas/backoffice";
import { LOW_STOCK } from "~/lib/sizes";
import { type ListPage } from "./backoffice.server";
import { type Db, type ReadPlan, readTogether, schema } from "./db.server";

// The sizes running out (LOW_STOCK units or fewer), for the dashboard's dozen and /admin/stock's pages. A page's ids
// are read from the partial index product_sizes_low_stock_idx (or, for one category, product_sizes_low_stock_category_idx:
// each size carries its product's category, copied by the triggers of migrations/0017) in the list's order, from the
// index alone, then only those sizes and their products; the totals are the rows low_stock_counts keeps. README "The
// back office at scale" has the query plans.

const { productSizes, products, lowStockCounts } = schema;

export interface LowStockSize {
  sizeId: number;
  productId: number;
  productName: string;
  brand: string;
  category: Category;
  sizeLabel: string;
  stockQuantity: number;
}

/**
 * The rule, written with the constant as a literal: SQLite uses a partial index only for a query whose WHERE implies
 * the index's (`stock_quantity <= 3`), which it can prove from a literal.
 */
const isLow: SQL = sql`${productSizes.stockQuantity} <= ${sql.raw(String(LOW_STOCK))}`;

/** Emptiest first; among equals, by product and then the size's display order: the indexes' own order. */
const EMPTIEST_FIRST = [asc(productSizes.stockQuantity), asc(productSizes.productId), asc(productSizes.position)];

/**
 * A page of the low-stock sizes, of one category or all, as a plan (readTogether): the page and its kept total in one
 * batch. A deep page walks its offset through the index (entries, no rows).
 */
export function lowStockPagePlan(db: Db, filters: { category?: Category }, page: number, pageSize: number): ReadPlan<ListPage<LowStockSize>> {
  const size = Math.min(pageSize, ADMIN_MAX_PAGE_SIZE);
  const pageIds = db
    .select({ id: productSizes.id })
    .from(productSizes)
    .where(and(isLow, filters.category ? eq(productSizes.category, filters.category) : undefined))
    .orderBy(...EMPTIEST_FIRST)
    .limit(size)
    .offset((page - 1) * size);
  const rows = db
    .select({
      sizeId: productSizes.id,
      // Not products.id: D1 answers a batch's rows keyed by column name, so a second "id" would overwrite the first.
      productId: productSizes.productId,
      productName: products.name,
      brand: products.brand,
      category: products.category,
      sizeLabel: productSizes.label,
      stockQuantity: productSizes.stockQuantity,
    })
    .from(productSizes)
    .innerJoin(products, eq(products.id, productSizes.productId))
    .where(inArray(productSizes.id, pageIds))
    .orderBy(...EMPTIEST_FIRST);
  const total = db.select({ total: lowStockCounts.sizeCount }).from(lowStockCounts).where(eq(lowStockCounts.category, filters.category ?? ""));
  return {
    statements: [rows, total],
    assemble: ([found, counted]) => {
      const items = found as LowStockSize[];
      const count = (counted as Array<{ total: number }>)[0]?.total ?? 0;
      return { items, total: count, totalExact: true, hasMore: page * size < count, page, pageSize: size };
    },
  };
}

export async function listLowStockPage(db: Db, filters: { category?: Category }, page: number, pageSize: number): Promise<ListPage<LowStockSize>> {
  return (await readTogether(db, { list: lowStockPagePlan(db, filters, page, pageSize) })).list;
}

/** How many sizes are low, in all ('') and per category: the kept counts, for the category filter's links. */
export function lowStockCountsPlan(db: Db): ReadPlan<Record<"" | Category, number>> {
  return {
    statements: [db.select().from(lowStockCounts)],
    assemble: ([rows]) => {
      const counts = Object.fromEntries(["", ...CATEGORIES].map((category) => [category, 0])) as Record<"" | Category, number>;
      for (const row of rows as Array<typeof lowStockCounts.$inferSelect>) if (row.category in counts) counts[row.category as Category] = row.sizeCount;
      return counts;
    },
  };
}
