import { and, asc, eq, sql, sum, type SQL } from "drizzle-orm";

import { nonEmptyParams, type CatalogueFilters } from "~/lib/catalogue-filters";
import type { Category } from "~/lib/constants";
import { rupeesToCents } from "~/lib/format";
import type { z } from "~/lib/zod";
import { type Db, schema } from "./db.server";

// The catalogue's filters in SQL: the conditions a page's id query adds, the total of a filtered listing when kept
// totals give it, and the brands a filter offers. listProducts and searchProducts (catalogue.server.ts) use them.

const { products, catalogueBrands, catalogueCounts } = schema;

/**
 * The conditions of the filters on `products`. Brand is an equality the brand indexes (migrations/0008) lead with.
 * A price range is the range of the price index when the list is sorted by price; in any other order it is checked
 * on the rows the sort's index walks, and the page stops as soon as it is full. Left to itself SQLite would read the
 * whole range from the price index and sort it (every Gents product between Rs 10,000 and 20,000 for a page of 24),
 * so the price column is written `+price_cents` there: the unary plus keeps SQLite from using an index for it.
 * A size is checked the same way, on the rows the sort's index walks: one lookup a product in the partial index of
 * sizes in stock (product_sizes_in_stock_idx, migrations/0009). Left to itself SQLite takes the unique (product_id,
 * label) index and reads each size's row to see its stock; the partial index holds only sizes in stock, so a sold-out
 * size costs nothing (at 100,000 bench products, Kids in EU 30 by name read 295 rows instead of 540), hence INDEXED
 * BY, which also fails loudly should the index ever be missing or unusable.
 */
export function filterConditions(filters: CatalogueFilters, { sortedByPrice = false }: { sortedByPrice?: boolean } = {}): SQL[] {
  const conditions: SQL[] = [];
  if (filters.size !== undefined) {
    // Raw SQL with every column qualified: Drizzle writes a one-table query's columns unqualified, and a bare "id" (or
    // "stock_quantity", which products has too) here would be read as the size's. `s.stock_quantity > 0` is the
    // partial index's own condition, which is what lets SQLite use it.
    conditions.push(
      sql`exists (select 1 from product_sizes s indexed by product_sizes_in_stock_idx where s.product_id = "products"."id" and s.label = ${filters.size} and s.stock_quantity > 0)`,
    );
  }
  if (filters.brand !== undefined) conditions.push(eq(products.brand, filters.brand));
  const price = sortedByPrice ? sql`${products.priceCents}` : sql`+${products.priceCents}`;
  // At most 2 decimals (the schema checks), so the conversion is exact.
  if (filters.minPrice !== undefined) conditions.push(sql`${price} >= ${rupeesToCents(filters.minPrice) ?? 0}`);
  if (filters.maxPrice !== undefined) conditions.push(sql`${price} <= ${rupeesToCents(filters.maxPrice) ?? 0}`);
  return conditions;
}

/**
 * The statement reading the total of a listing from the kept totals, never from the products: per category
 * (catalogue_counts) or per category and brand (catalogue_brands, summed over the categories for the whole
 * catalogue). Only for filters `isCountable` accepts.
 */
export function keptTotal(db: Db, category: Category | undefined, filters: CatalogueFilters) {
  if (filters.brand === undefined) {
    return db.select({ total: catalogueCounts.productCount }).from(catalogueCounts).where(eq(catalogueCounts.category, category ?? ""));
  }
  return db
    .select({ total: sql<number>`coalesce(${sum(catalogueBrands.productCount)}, 0)`.mapWith(Number) })
    .from(catalogueBrands)
    .where(and(eq(catalogueBrands.brand, filters.brand), category ? eq(catalogueBrands.category, category) : undefined));
}

/** The brands a filter offers, A to Z: those of the category, or of the whole catalogue; read from catalogue_brands. */
export async function listBrands(db: Db, category?: Category): Promise<string[]> {
  const rows = await db
    .selectDistinct({ brand: catalogueBrands.brand })
    .from(catalogueBrands)
    .where(category ? eq(catalogueBrands.category, category) : undefined)
    .orderBy(asc(catalogueBrands.brand));
  return rows.map((row) => row.brand);
}

/** What a screen says when it sets part of the URL's filters aside. */
const SCREEN_PROBLEMS: Record<string, string> = {
  size: "The size in the address was not one we could read, so every size is shown.",
  brand: "The brand in the address was too long, so every brand is shown.",
  minPrice: "Prices must be amounts in rupees, the lowest no higher than the highest; the price range was left out.",
  maxPrice: "Prices must be amounts in rupees, the lowest no higher than the highest; the price range was left out.",
};

/**
 * A screen's query, read leniently: a hand-edited value that the schema refuses (page 0, an unknown category, a price
 * range the wrong way round) is left out rather than turned into an error page, and the filters say why they set one
 * aside. The API refuses the same values with a 400. Empty values (a GET form's empty fields) count as absent.
 */
export function readScreenQuery<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  search: URLSearchParams,
): { query: Partial<z.output<Schema>> | null; problems: string[] } {
  const params = nonEmptyParams(search);
  const first = schema.safeParse(params);
  if (first.success) return { query: first.data, problems: [] };
  const refused = new Set(first.error.issues.map((issue) => String(issue.path[0])));
  // A price range is taken whole or not at all.
  if (refused.has("minPrice") || refused.has("maxPrice")) refused.add("minPrice").add("maxPrice");
  const problems = [...new Set([...refused].flatMap((param) => (SCREEN_PROBLEMS[param] ? [SCREEN_PROBLEMS[param]] : [])))];
  const second = schema.safeParse(Object.fromEntries(Object.entries(params).filter(([param]) => !refused.has(param))));
  return { query: second.success ? second.data : null, problems };
}
