import { and, asc, eq, sql, sum, type SQL } from "drizzle-orm";

import { nonEmptyParams, priceProblem, type CatalogueFilters, type FilterProblem } from "~/lib/catalogue-filters";
import type { Category } from "~/lib/constants";
import { rupeesToCents } from "~/lib/format";
import { PRICE_MAX } from "~/lib/schemas/product";
import type { z } from "~/lib/zod";
import { type Db, type ReadPlan, schema } from "./db.server";

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
  const { seek, check } = splitFilters(filters, { sortedByPrice });
  return [...seek, ...check];
}

/**
 * The filters in two parts: `seek`, the equalities and ranges the sort's index leads with (the brand; the price range
 * when sorted by price), and `check`, the conditions tested on each row the index walks (the size; a price range in
 * another order). `table` names the rows `check` is tested on (a walk's subquery, see listProducts).
 */
export function splitFilters(filters: CatalogueFilters, { sortedByPrice = false, table = "products" }: { sortedByPrice?: boolean; table?: string } = {}): { seek: SQL[]; check: SQL[] } {
  const seek: SQL[] = [];
  const check: SQL[] = [];
  if (filters.size !== undefined) check.push(sizeInStock(filters.size, table));
  if (filters.brand !== undefined) seek.push(eq(products.brand, filters.brand));
  // Checked on `table`'s rows, the column is qualified by hand: Drizzle would name it products' in a query of two.
  const price = sortedByPrice ? sql`${products.priceCents}` : sql`+${sql.identifier(table)}."price_cents"`;
  // At most 2 decimals (the schema checks), so the conversion is exact.
  if (filters.minPrice !== undefined) (sortedByPrice ? seek : check).push(sql`${price} >= ${rupeesToCents(filters.minPrice) ?? 0}`);
  if (filters.maxPrice !== undefined) (sortedByPrice ? seek : check).push(sql`${price} <= ${rupeesToCents(filters.maxPrice) ?? 0}`);
  return { seek, check };
}

/**
 * The size filter on one row: a lookup in the partial index of sizes in stock. Raw SQL with every column qualified:
 * Drizzle writes a one-table query's columns unqualified, and a bare "id" (or "stock_quantity", which products has
 * too) here would be read as the size's. `s.stock_quantity > 0` is the partial index's own condition, which is what
 * lets SQLite use it.
 */
function sizeInStock(size: string, table: string): SQL {
  return sql`exists (select 1 from product_sizes s indexed by product_sizes_in_stock_idx where s.product_id = ${sql.identifier(table)}."id" and s.label = ${size} and s.stock_quantity > 0)`;
}

/**
 * Below this many matches a filter is "selective": its own index lists every match (at most this many entries), and
 * sorting them costs less than walking the sort's index for them. 1,500 balances the two at 100,000 products: a
 * filter with fewer matches is read whole (under 2 × 1,500 rows with their rows), one with more is dense enough that
 * a page-1 walk of 100,000 products meets 25 of them within about 100,000 × 25 / 1,500 ≈ 1,700 entries on average.
 */
export const SELECTIVE_BELOW = 1_500;

/**
 * Which filter of an uncounted listing is selective (SELECTIVE_BELOW), found by counting its matches in its own index
 * and stopping at the threshold: the price range, counted exactly for this listing in the (category, brand, price)
 * indexes; else the size, counted in the listing's category (or the whole catalogue) in
 * product_sizes_label_category_in_stock_idx, so a size common elsewhere but rare in this category (Kids in EU 42) is
 * read from there too. null when neither is.
 */
export async function selectiveFilter(db: Db, category: Category | undefined, filters: CatalogueFilters): Promise<"price" | "size" | null> {
  if (filters.minPrice !== undefined || filters.maxPrice !== undefined) {
    const { seek } = splitFilters(filters, { sortedByPrice: true });
    const matches = db
      .select({ one: sql`1` })
      .from(products)
      .where(and(category ? eq(products.category, category) : undefined, ...seek))
      .limit(SELECTIVE_BELOW);
    const [probe] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(matches.as("probe"));
    if (probe.n < SELECTIVE_BELOW) return "price";
  }
  if (filters.size !== undefined) {
    const probe = await db.get<{ n: number }>(sql`select count(*) as n from (select 1 from ${sizesInStock(filters.size, category)} limit ${SELECTIVE_BELOW})`);
    if (probe.n < SELECTIVE_BELOW) return "size";
  }
  return null;
}

/**
 * The sizes in stock with this label (and in this category), from the label's side: the FROM and WHERE of a query.
 * INDEXED BY, as for the walk's lookups: it fails loudly should the index be missing.
 */
function sizesInStock(size: string, category: Category | undefined): SQL {
  const inCategory = category === undefined ? sql`` : sql` and category = ${category}`;
  return sql`product_sizes indexed by product_sizes_label_category_in_stock_idx where label = ${size}${inCategory} and stock_quantity > 0`;
}

/** Products with the size in stock (in the category), from the label's side: every one of them (fewer than SELECTIVE_BELOW). */
export function sizeMatches(size: string, category: Category | undefined): SQL {
  return sql`${products.id} in (select product_id from ${sizesInStock(size, category)})`;
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

/**
 * The brands a filter offers, A to Z: those of the category, or of the whole catalogue; read from catalogue_brands.
 * A plan, so a listing reads it in the batch of its own first statements (listProducts' `withBrands`).
 */
export function brandsPlan(db: Db, category?: Category): ReadPlan<string[]> {
  const brands = db
    .selectDistinct({ brand: catalogueBrands.brand })
    .from(catalogueBrands)
    .where(category ? eq(catalogueBrands.category, category) : undefined)
    .orderBy(asc(catalogueBrands.brand));
  return { statements: [brands], assemble: ([rows]) => (rows as Array<{ brand: string }>).map((row) => row.brand) };
}

/** What a screen says when it sets the size or the brand of the URL aside (a price range: priceProblem). */
const SCREEN_PROBLEMS: Record<"size" | "brand", string> = {
  size: "The size in the address was not one we could read, so every size is shown.",
  brand: "The brand in the address was too long, so every brand is shown.",
};

/**
 * A screen's query, read leniently: a hand-edited value that the schema refuses (page 0, an unknown category, a price
 * range the wrong way round) is left out rather than turned into an error page, and the filters say why they set one
 * aside. The API refuses the same values with a 400. Empty values (a GET form's empty fields) count as absent.
 */
export function readScreenQuery<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  search: URLSearchParams,
): { query: Partial<z.output<Schema>> | null; problems: FilterProblem[] } {
  const params = nonEmptyParams(search);
  const first = schema.safeParse(params);
  if (first.success) return { query: first.data, problems: [] };
  const refused = new Set(first.error.issues.map((issue) => String(issue.path[0])));
  // A price range is taken whole or not at all.
  if (refused.has("minPrice") || refused.has("maxPrice")) refused.add("minPrice").add("maxPrice");
  const problems: FilterProblem[] = [];
  for (const field of ["size", "brand"] as const) if (refused.has(field)) problems.push({ field, message: SCREEN_PROBLEMS[field] });
  if (refused.has("minPrice")) problems.push({ field: "price", message: priceProblem(params.minPrice, params.maxPrice, PRICE_MAX) });
  const second = schema.safeParse(Object.fromEntries(Object.entries(params).filter(([param]) => !refused.has(param))));
  return { query: second.success ? second.data : null, problems };
}
