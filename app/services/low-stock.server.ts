import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";

import { CATEGORIES, type Category } from "~/lib/constants";
import { ADMIN_MAX_PAGE_SIZE, type LowStockFilters } from "~/lib/schemas/backoffice";
import { LOW_STOCK } from "~/lib/sizes";
import { countLimit, countUpTo, pageOf, type ListPage } from "./backoffice.server";
import { containsPattern, type Db, type ReadPlan, readTogether, schema } from "./db.server";

// The sizes running out (LOW_STOCK units or fewer), for the dashboard's dozen and /admin/stock's pages. A page's ids
// are read from the partial index product_sizes_low_stock_idx (or, for one category, product_sizes_low_stock_category_idx:
// each size carries its product's category, copied by the triggers of migrations/0017) in the list's order, from the
// index alone, then only those sizes and their products; the totals are the rows low_stock_counts keeps. A search (q)
// walks the same index in the same order, each entry joined to its product by primary key for the name and brand, so
// it reads the low sizes (the few a shop has), never the catalogue; it is counted only so far (countUpTo), as the
// orders' and users' searches are. docs/query-plans.md has the query plans.

const { productSizes, products, lowStockCounts } = schema;

export interface LowStockSize {
  sizeId: number;
  productId: number;
  productName: string;
  brand: string;
  category: Category;
  /** False for a product taken off sale: its sizes stay on the list (their stock is still low), marked. */
  productAvailable: boolean;
  /** The product's stock in every size (products.stock_quantity, the sum the triggers keep): 0 when it is sold out. */
  productStock: number;
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
 * Every word of q in the product's name or brand, anywhere in it, ASCII letters in any case (SQLite's LIKE). One
 * pattern a word, matched against the name and the brand joined by a newline, which no word holds (q has no control
 * characters): a search of 100 characters binds at most 50 values, where D1 allows 100 a statement.
 */
function nameOrBrandContains(q: string): SQL {
  const words = new Set(q.split(/\s+/).filter(Boolean));
  return and(...[...words].map((word) => sql`(${products.name} || char(10) || ${products.brand}) LIKE ${containsPattern(word)} ESCAPE '\\'`))!;
}

/**
 * The ids of the filters' low sizes, from the partial index of their category or of all. With q, each size is joined
 * to its product (only then: a page without q must not read a product for each size it walks past).
 */
function lowSizeIds(db: Db, { category, q }: LowStockFilters) {
  const where = and(isLow, category ? eq(productSizes.category, category) : undefined);
  const query = db.select({ id: productSizes.id }).from(productSizes).$dynamic();
  return q ? query.innerJoin(products, eq(products.id, productSizes.productId)).where(and(where, nameOrBrandContains(q))) : query.where(where);
}

/**
 * A page of the low-stock sizes, of one category or all, as a plan (readTogether): the page and its total in one
 * batch, the kept count or (q) the matches counted up to countLimit. A deep page walks its offset through the index
 * (entries, no rows; a search's, each entry's product too).
 */
export function lowStockPagePlan(db: Db, filters: LowStockFilters, page: number, pageSize: number): ReadPlan<ListPage<LowStockSize>> {
  const size = Math.min(pageSize, ADMIN_MAX_PAGE_SIZE);
  const limit = countLimit(page, size);
  const pageIds = lowSizeIds(db, filters)
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
      productAvailable: products.productAvailable,
      // Under a name of its own: products' and product_sizes' column are both stock_quantity (see productId above).
      productStock: sql<number>`${products.stockQuantity}`.as("product_stock"),
      sizeLabel: productSizes.label,
      stockQuantity: productSizes.stockQuantity,
    })
    .from(productSizes)
    .innerJoin(products, eq(products.id, productSizes.productId))
    .where(inArray(productSizes.id, pageIds))
    .orderBy(...EMPTIEST_FIRST);
  const total = filters.q
    ? countUpTo(db, lowSizeIds(db, filters), limit)
    : db.select({ total: lowStockCounts.sizeCount }).from(lowStockCounts).where(eq(lowStockCounts.category, filters.category ?? ""));
  return {
    statements: [rows, total],
    assemble: ([found, counted]) => pageOf(found as LowStockSize[], (counted as Array<{ total: number }>)[0]?.total ?? 0, !filters.q, limit, page, size),
  };
}

export async function listLowStockPage(db: Db, filters: LowStockFilters, page: number, pageSize: number): Promise<ListPage<LowStockSize>> {
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
