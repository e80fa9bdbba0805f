import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { SelectedFields } from "drizzle-orm/sqlite-core";

import { PRODUCT_NOT_FOUND } from "~/lib/availability";
import { isCountable, pastUncountedDepth, type CatalogueFilters } from "~/lib/catalogue-filters";
import type { Category } from "~/lib/constants";
import { centsToRupees, rupeesToCents } from "~/lib/format";
import { badRequest, notFound } from "~/lib/http";
import { PICTURE_MESSAGES, PRODUCT_IMAGES_MAX } from "~/lib/product-images";
import { allWordsQuery, ftsString, SEARCH_INDEX_COMPACTION_STEPS, SEARCH_INDEXES, searchIndexCompactionStep, searchWords, TRIGRAM_MIN } from "~/lib/search-index";
import { MAX_PAGE_SIZE, PAGE_SIZE, type ProductInput, type ProductSummary, type ProductView, type Sort } from "~/lib/schemas/product";
import { ONE_SIZE, type SizeView } from "~/lib/sizes";
import type { StockMove } from "~/lib/stock-moves";
import { CANDIDATES_MAX, candidateRange, correctedKeyword, correctionOf, SEARCH_WORDS_REBUILD, vocabularyWords, wordsToCheck, type Candidate } from "~/lib/spelling";
import { brandsPlan, filterConditions, keptTotal, selectiveFilter, sizeMatches, splitFilters } from "./catalogue-filters.server";
import { containsPattern, type Db, type ReadPlan, type ReadQuery, readTogether, schema } from "./db.server";
import { insertSizes, newProductSizes, sizesOf, sizesPlan, sizeUpdates, stockMoves, toSizeView, watchesStock } from "./sizes.server";
import { etagFor, picturesQuery, savePictures, toImageViews, versionBase, type PictureChanges, type ServedImage } from "./product-images.server";

const { products, productImages, searchWords: vocabulary } = schema;
type ProductRow = typeof products.$inferSelect;

/** Without `page`, the list and search answers stop here rather than send a whole large catalogue. */
export const UNPAGED_LIMIT = 100;

export function imageUrl(row: Pick<ProductRow, "id" | "imageKey">): string | null {
  // The key changes with the image, so a URL that carries it can be cached for good.
  return row.imageKey ? `/api/product/${row.id}/image?v=${row.imageKey.split("/").pop()}` : null;
}

/** The columns a product card needs (`PRODUCT_CARD`). */
const CARD_COLUMNS = {
  id: products.id,
  name: products.name,
  brand: products.brand,
  priceCents: products.priceCents,
  stockQuantity: products.stockQuantity,
  productAvailable: products.productAvailable,
  imageKey: products.imageKey,
  ratingCount: products.ratingCount,
  ratingTotal: products.ratingTotal,
  // Whether a size must be chosen (the card then sends the shopper to the page): one index lookup a card.
  // (products.id spelled out: Drizzle writes a one-table query's columns unqualified, and a bare "id" in the subquery
  // would name the size's own id.)
  sizeChoice: sql<number>`EXISTS (SELECT 1 FROM product_sizes s WHERE s.product_id = products.id AND s.label <> ${ONE_SIZE})`.mapWith(Boolean),
};

/** What a product card shows. */
function toProductSummary(row: SelectResultFields<typeof CARD_COLUMNS>): ProductSummary {
  return {
    id: row.id,
    name: row.name,
    brand: row.brand,
    price: centsToRupees(row.priceCents),
    stockQuantity: row.stockQuantity,
    productAvailable: row.productAvailable,
    imageUrl: imageUrl(row),
    averageRating: row.ratingCount ? Math.round((row.ratingTotal / row.ratingCount) * 10) / 10 : null,
    reviewCount: row.ratingCount,
    sizeChoice: Boolean(row.sizeChoice),
  };
}

export function toProductView(row: ProductRow): ProductView {
  const { id, name, brand, price, stockQuantity, productAvailable, imageUrl, averageRating, reviewCount } = toProductSummary({ ...row, sizeChoice: false });
  return {
    id,
    name,
    brand,
    description: row.description,
    price,
    category: row.category,
    stockQuantity,
    releaseDate: row.releaseDate,
    productAvailable,
    imageName: row.imageName,
    imageUrl,
    averageRating,
    reviewCount,
  };
}

/**
 * What a list reads of each product from D1, and what it makes of the row: the whole product with its sizes
 * (`API_PRODUCT`, the API), or what a card shows (`PRODUCT_CARD`, the grid pages). Reading no descriptions or dates a
 * card does not show took about a twentieth off a grid page's server time.
 */
interface ProductShape<View> {
  /** The columns, widened: Drizzle cannot type a query over a selection that is itself a type parameter. */
  selection: SelectedFields;
  /** Makes a row of that selection into the view. */
  toView: (row: Record<string, unknown>) => View;
}
function productShape<Columns extends SelectedFields, View>(columns: Columns, view: (row: SelectResultFields<Columns>) => View): ProductShape<View> {
  return { selection: columns, toView: (row) => view(row as SelectResultFields<Columns>) };
}

/**
 * The product's sizes in display order, as a JSON array in the product's own row: a list and its sizes are one
 * statement (a second one by the page's ids would run the page's query, a search's full-text match included, twice).
 * Raw SQL with products.id spelled out: Drizzle writes a one-table query's columns unqualified.
 */
const sizesJson = sql<string>`(SELECT json_group_array(json_object('id', s.id, 'label', s.label, 'stockQuantity', s.stock_quantity) ORDER BY s.position, s.id) FROM product_sizes s WHERE s.product_id = products.id)`;

export const API_PRODUCT = productShape({ ...getTableColumns(products), sizesJson }, ({ sizesJson, ...row }) => ({
  ...toProductView(row),
  sizes: JSON.parse(sizesJson) as SizeView[],
}));
export const PRODUCT_CARD = productShape(CARD_COLUMNS, toProductSummary);

const ORDERS: Record<Sort, SQL[]> = {
  newest: [desc(products.releaseDate), desc(products.id)],
  "price-asc": [asc(products.priceCents), asc(products.id)],
  "price-desc": [desc(products.priceCents), desc(products.id)],
  name: [asc(products.name), asc(products.id)],
};

export interface Page<T> {
  items: T[];
  /** null when the filters are not countable from the kept totals (a price range): then `hasMore` says what follows. */
  total: number | null;
  hasMore: boolean;
  /** A listing without a total stops here, at UNCOUNTED_DEPTH, though more products may match. */
  depthReached: boolean;
  page: number;
  pageSize: number;
  /** The brands the listing's filter offers (its category's, A to Z), when asked for with `withBrands`. */
  brands?: string[];
}

/**
 * The listing's first statements in one D1 batch, with the brands its filter offers when asked: a page and its filter
 * cost one round trip. The results come in the order of `queries`.
 */
async function firstRead<Results extends unknown[]>(db: Db, queries: [ReadQuery, ...ReadQuery[]], brandsOf: { category?: Category } | null): Promise<{ results: Results; brands?: string[] }> {
  const listing: ReadPlan<Results> = { statements: queries, assemble: (results) => results as Results };
  if (!brandsOf) return { results: (await readTogether(db, { listing })).listing };
  const { listing: results, brands } = await readTogether(db, { listing, brands: brandsPlan(db, brandsOf.category) });
  return { results, brands };
}

/**
 * A page of the catalogue. The ids come from an index-only scan (with a brand, the brand's index for the sort; with a
 * size or a price range, the sort's index walked until the page is full, as far as a bound, then a sparse filter's
 * own index: see docs/query-plans.md, "Filters at scale"), then only the rows shown are read. The total comes from the kept
 * totals, never from counting products; a listing they cannot count reads one id more, to tell whether another page
 * follows. `withBrands` reads the brands the category's filter offers in the same round trip.
 */
export async function listProducts<View>(
  db: Db,
  {
    category,
    sort = "newest",
    page = 1,
    pageSize = PAGE_SIZE,
    filters = {},
    withBrands = false,
  }: { category?: Category; sort?: Sort; page?: number; pageSize?: number; filters?: CatalogueFilters; withBrands?: boolean },
  shape: ProductShape<View>,
): Promise<Page<View>> {
  type Rows = SelectResultFields<typeof shape.selection>[];
  const brandsOf = withBrands ? { category } : null;
  const size = Math.min(pageSize, MAX_PAGE_SIZE);
  const offset = (page - 1) * size;
  const inCategory = category ? eq(products.category, category) : undefined;
  const pageOf = (ids: SQLWrapper) => db.select(shape.selection).from(products).where(inArray(products.id, ids)).orderBy(...ORDERS[sort]);
  const pageIdsOf = (where: SQL | undefined, limit: number) => db.select({ id: products.id }).from(products).where(where).orderBy(...ORDERS[sort]).limit(limit).offset(offset);
  if (isCountable(filters)) {
    // A page past the end reads no ids: its LIMIT is 0 when it starts past the kept total, and SQLite, which computes a
    // LIMIT once, then walks nothing (a page far past it walked the index to its end: 100,000 entries for
    // `page=999999999`; in the WHERE, the comparison would be made again for every entry). Drizzle types a LIMIT as a
    // number but writes any SQL it is given.
    const limit = offset > 0 ? (sql`(case when ${offset} < ${keptTotal(db, category, filters)} then ${size} else 0 end)` as unknown as number) : size;
    const listing: [ReadQuery, ReadQuery] = [pageOf(pageIdsOf(and(inCategory, ...filterConditions(filters)), limit)), keptTotal(db, category, filters)];
    const { results, brands } = await firstRead<[Rows, Array<{ total: number }>]>(db, listing, brandsOf);
    const [rows, [count]] = results;
    const total = count?.total ?? 0;
    return { items: (rows as never[]).map(shape.toView), total, hasMore: page * size < total, depthReached: false, page, pageSize: size, brands };
  }
  const uncounted = (rows: Rows, brands: string[] | undefined) => ({
    items: (rows as never[]).slice(0, size).map(shape.toView),
    total: null,
    ...whatFollows(rows.length > size, page, size),
    page,
    pageSize: size,
    brands,
  });
  if (pastUncountedDepth(page, size)) return uncounted([], withBrands ? await readBrands(db, category) : undefined);
  // Uncounted (a size or a price range): one id more than the page tells whether another page follows.
  // 1. Walk the sort's index, checking each product, but no further than a bound: the page is usually full long before.
  const sortedByPrice = sort.startsWith("price");
  const { seek, check } = splitFilters(filters, { sortedByPrice, table: "walk" });
  const walk = db
    .select({ id: products.id, priceCents: products.priceCents })
    .from(products)
    .where(and(inCategory, ...seek))
    .orderBy(...ORDERS[sort])
    .limit(WALK_MIN + WALK_PER_ROW * (offset + size + 1))
    .as("walk");
  // The walk's rows come in the sort's order (a subquery with a LIMIT is run as a co-routine, read as it yields).
  const walked = db.select({ id: walk.id }).from(walk).where(and(...check)).limit(size + 1).offset(offset);
  const {
    results: [rows],
    brands,
  } = await firstRead<[Rows]>(db, [pageOf(walked)], brandsOf);
  if (rows.length > size || check.length === 0) return uncounted(rows, brands);
  // 2. The walk came back short: the listing ends there, or the filters are sparse. A filter with few matches lists
  // them from its own index (all of them, then sorted); otherwise they are dense enough to walk for, unbounded.
  const selective = await selectiveFilter(db, category, filters);
  const where =
    selective === "price"
      ? and(inCategory, ...filterConditions(filters, { sortedByPrice: true })) // the real price column: the price index's range
      : selective === "size"
        ? // The sizes' own copy of the category (migrations/0017) stands for the products': given both, SQLite walks
          // the category's index for the few matches instead of reading them by id.
          and(sizeMatches(filters.size!, category), ...filterConditions({ ...filters, size: undefined }))
        : and(inCategory, ...filterConditions(filters, { sortedByPrice }));
  return uncounted(await pageOf(pageIdsOf(where, size + 1)), brands);
}

/** After a page of a listing without a total: whether another page follows, or the listing stops at its depth. */
function whatFollows(moreMatch: boolean, page: number, size: number): { hasMore: boolean; depthReached: boolean } {
  const pastHere = pastUncountedDepth(page, size);
  const nextPast = pastUncountedDepth(page + 1, size);
  return { hasMore: moreMatch && !nextPast, depthReached: pastHere || (moreMatch && nextPast) };
}

/** The brands a listing's filter offers, alone: for a page answered without reading its products. */
async function readBrands(db: Db, category: Category | undefined): Promise<string[]> {
  return (await readTogether(db, { brands: brandsPlan(db, category) })).brands;
}

/**
 * How far the first walk of an uncounted listing goes (index entries): 500 and 4 a row of the pages up to this one,
 * so a filter one product in four passes fills any page within it, and a sparse filter stops there instead of
 * reading the whole listing.
 */
const WALK_MIN = 500;
const WALK_PER_ROW = 4;

/**
 * Every upper/lower-case spelling of a short keyword (at most 4 for 2 characters): SQLite's LIKE ignores case only
 * for ASCII, so "éc" must also be tried as "Éc". Spellings that change length (ß -> SS) are left out.
 */
function caseSpellings(keyword: string): string[] {
  let spellings = [""];
  for (const char of keyword) {
    const forms = [...new Set([char, char.toLowerCase(), char.toUpperCase()])].filter((form) => [...form].length === 1);
    spellings = spellings.flatMap((prefix) => forms.map((form) => prefix + form));
  }
  return [...new Set(spellings)];
}

/**
 * Folds each search index's segments into one, a bounded step at a time (app/lib/search-index.ts): the catalogue's and
 * the back office's names. Writes leave an index in many segments, and a search that finds nothing walks every one of
 * them: at 100,000 products such a miss took 1.16 ms in SQLite as loaded and 0.83 ms compacted. Run by the nightly
 * cron (workers/app.ts).
 */
export async function compactSearchIndex(db: Db): Promise<void> {
  // One statement a step, each its own short write: the shop's own writes can go between them.
  for (const index of SEARCH_INDEXES) {
    for (let step = 0; step < SEARCH_INDEX_COMPACTION_STEPS; step++) await db.run(sql.raw(searchIndexCompactionStep(index)));
  }
}

/**
 * The most candidates a search checks one at a time, newest first: a short keyword's products (the trigram index cannot
 * find fewer than 3 characters), or a keyword's matches when filters narrow them. Unbounded, a short keyword nothing
 * matches, or a filter no match passes, read every candidate: at 100,000 products "qz" read them all (56 ms of D1,
 * which runs one statement at a time) and "Gents" under Rs 1 its 50,000 matches, to answer nothing. A search finds
 * what it finds among the newest 10,000; older products are left out of it.
 */
export const SEARCH_CANDIDATES_MAX = 10_000;

/**
 * How a search matches its keyword: as typed, one phrase that the name, brand or category contains (API.md's rule), or
 * by its words, each made singular, all of them anywhere in the name, brand and category, in any order (searchWords in
 * app/lib/search-index.ts: "night shift sneakers" finds the "Night Shift Knit Sneaker"; allWordsQuery: a word for a
 * category, "mens" or "kids", means its products). "phrase-or-words" is the phrase's results, or the
 * words' when no product at all has the phrase (whatever the filters: a product the filters leave out still has it).
 */
export type SearchMatch = "phrase" | "words";

/**
 * Whose products a search answered with: the keyword's (SearchMatch), or, with `spelling`, the corrected keyword's
 * (`corrected`: "snekers" answered as "sneakers", see spellingCorrection).
 */
export type Matched = SearchMatch | "spelling";

/**
 * The ids of a page of the products an FTS5 query matches, newest first. With filters, the newest matches are joined
 * to their products and checked until the page is full. The matches come in order from their subquery (run as a
 * co-routine, read as it yields), as listProducts' walk does; CROSS JOIN keeps them the outer loop (else SQLite may
 * walk a brand's index instead, in that index's order). `limit` may be SQL, worked out once before any match is read.
 */
function ftsPageIds(query: string, filtered: SQL[], limit: number | SQL, offset: number): SQL {
  const newestMatches = sql`SELECT rowid FROM products_fts WHERE products_fts MATCH ${query} ORDER BY rowid DESC LIMIT ${SEARCH_CANDIDATES_MAX}`;
  return filtered.length
    ? sql`SELECT candidates.rowid FROM (${newestMatches}) candidates CROSS JOIN ${products} ON ${products.id} = candidates.rowid WHERE ${and(...filtered)} LIMIT ${limit} OFFSET ${offset}`
    : sql`SELECT rowid FROM products_fts WHERE products_fts MATCH ${query} ORDER BY rowid DESC LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * Products whose name, brand or category contains the keyword, case-insensitive, newest first (`match` "phrase", the
 * default; see SearchMatch for the others). Keywords of 3 or more characters go through the FTS5 trigram index;
 * shorter ones scan newest-first and stop as soon as the page is full, within the newest SEARCH_CANDIDATES_MAX
 * products. Reads one more row than asked, so a caller can tell whether another page follows without counting every
 * match. `withBrands` reads the brands the filter offers (the whole catalogue's) in the same round trip. `matched` says
 * whose products `items` are, and `words` what the words' search asked for (empty when the keyword has no word of 3
 * characters or more: then it finds nothing).
 */
export async function searchProducts<View>(
  db: Db,
  keyword: string,
  {
    page = 1,
    pageSize = UNPAGED_LIMIT,
    filters = {},
    withBrands = false,
    match = "phrase",
    spelling = false,
  }: { page?: number; pageSize?: number; filters?: CatalogueFilters; withBrands?: boolean; match?: SearchMatch | "phrase-or-words"; spelling?: boolean },
  shape: ProductShape<View>,
): Promise<{ items: View[]; hasMore: boolean; depthReached: boolean; brands?: string[]; matched: Matched; words: string[]; corrected?: string }> {
  const size = Math.min(pageSize, MAX_PAGE_SIZE);
  const offset = (page - 1) * size;
  const words = match === "phrase" ? [] : searchWords(keyword);
  const none = (matched: SearchMatch) => ({ items: [], ...whatFollows(false, page, size), matched, words });
  if (pastUncountedDepth(page, size)) return { ...none(match === "words" ? "words" : "phrase"), brands: withBrands ? await readBrands(db, undefined) : undefined };
  const filtered = filterConditions(filters);
  const byIds = (ids: SQL) => db.select(shape.selection).from(products).where(sql`${products.id} IN (${ids})`).orderBy(desc(products.id));
  // Every word is at least as long as the trigram minimum, so a keyword with words takes the phrase's FTS5 path below.
  const phrase = ftsString(keyword);
  const queries: ReadQuery[] = [];
  if (match !== "words") {
    if ([...keyword].length >= TRIGRAM_MIN) {
      queries.push(byIds(ftsPageIds(phrase, filtered, size + 1, offset)));
    } else {
      const matches = caseSpellings(keyword).flatMap((spelling) => {
        const pattern = containsPattern(spelling);
        return [products.name, products.brand, products.category].map((column) => sql`${column} LIKE ${pattern} ESCAPE '\\'`);
      });
      // The newest products only: the lowest id among them, found once (0 in a smaller catalogue), bounds the scan.
      const newest = sql`${products.id} >= coalesce((SELECT id FROM ${products} ORDER BY id DESC LIMIT 1 OFFSET ${SEARCH_CANDIDATES_MAX - 1}), 0)`;
      queries.push(
        db
          .select(shape.selection)
          .from(products)
          .where(and(newest, sql`(${sql.join(matches, sql` OR `)})`, ...filtered))
          .orderBy(desc(products.id))
          .limit(size + 1)
          .offset(offset),
      );
    }
  }
  if (words.length) {
    // Asked as a fallback, the words' page is read in the same round trip, but its LIMIT is 0 when some product has the
    // phrase: SQLite works a LIMIT out once, before the first match is read, so then the words cost one index lookup.
    const limit = match === "words" ? size + 1 : sql`CASE WHEN EXISTS (${ftsPageIds(phrase, [], 1, 0)}) THEN 0 ELSE ${size + 1} END`;
    queries.push(byIds(ftsPageIds(allWordsQuery(words), filtered, limit, offset)));
  }
  if (!queries.length) return { ...none("words"), brands: withBrands ? await readBrands(db, undefined) : undefined };
  const {
    results: [first, second],
    brands,
  } = await firstRead<Record<string, unknown>[][]>(db, queries as [ReadQuery, ...ReadQuery[]], withBrands ? {} : null);
  // The phrase's rows come first, unless only the words were asked; the words' are empty whenever the phrase is used.
  const [rows, matched]: [Record<string, unknown>[], SearchMatch] =
    match === "words" ? [first, "words"] : second?.length ? [second, "words"] : [first, "phrase"];
  const found = { items: rows.slice(0, size).map(shape.toView), ...whatFollows(rows.length > size, page, size), brands, matched, words };
  if (rows.length || !spelling) return found;
  // Nothing on this page: the last resort, the keyword with its misspelt words corrected, searched the same way (phrase,
  // then words). Only when the keyword itself matches no product at all, whatever the filters and the page: "sories"
  // is in "Accessories", and a filter that leaves out every accessory must not turn it into another word. Only here, so
  // a search that finds something never pays for it; on a miss, at most two more round trips.
  const unfiltered = [ftsPageIds(phrase, [], 1, 0), ...(searchWords(keyword).length ? [ftsPageIds(allWordsQuery(searchWords(keyword)), [], 1, 0)] : [])];
  const corrected = await spellingCorrection(db, keyword, unfiltered);
  if (!corrected) return found;
  const again = await searchProducts(db, corrected, { page, pageSize: size, filters, match: "phrase-or-words" }, shape);
  return again.items.length ? { ...again, brands, matched: "spelling", corrected } : found;
}

/**
 * The keyword with each word the catalogue does not have replaced by the closest one it has ("snekers" -> "sneakers",
 * correctionOf in app/lib/spelling.ts), or null when no word needs or finds a correction. One D1 round trip: for each
 * word worth checking (wordsToCheck, at most 8), the catalogue's words of nearby lengths that begin with its letter,
 * read from the index of (len, word) and at most CANDIDATES_MAX of them (tests/workers/catalogue-plans.test.ts).
 */
export async function spellingCorrection(db: Db, keyword: string, keywordMatches: SQL[] = []): Promise<string | null> {
  const typed = wordsToCheck(keyword);
  if (!typed.length) return null;
  // A keyword that matches some product as typed (the ids `keywordMatches` select) needs no correction: then no
  // candidate is read (SQLite works the uncorrelated NOT EXISTS out once, before the index is walked).
  const unmatched = keywordMatches.map((ids) => sql`NOT EXISTS (${ids})`);
  const reads = typed.map((word) => {
    const { lengths, from, to } = candidateRange(word);
    return db
      .select({ word: vocabulary.word, uses: vocabulary.uses })
      .from(vocabulary)
      .where(and(...unmatched, inArray(vocabulary.len, lengths), sql`${vocabulary.word} >= ${from}`, sql`${vocabulary.word} < ${to}`))
      .limit(CANDIDATES_MAX);
  });
  const candidates = (await db.batch(reads as unknown as [ReadQuery, ...ReadQuery[]])) as Candidate[][];
  const corrections = new Map<string, string>();
  typed.forEach((word, index) => {
    const correction = correctionOf(word, candidates[index]);
    if (correction) corrections.set(word, correction);
  });
  return corrections.size ? correctedKeyword(keyword, corrections) : null;
}

/**
 * The statements that add a product's words to the vocabulary (search_words), for the batch that writes the product:
 * new words only (a word already there keeps its count until the nightly rebuild, rebuildSearchWords). 3 values a
 * word, 30 words a statement, under D1's 100 bound parameters.
 */
function vocabularyInserts(db: Db, input: Pick<ProductInput, "name" | "brand" | "category">) {
  const rows = vocabularyWords(`${input.name} ${input.brand} ${input.category}`).map((word) => ({ word, len: word.length, uses: 1 }));
  const statements = [];
  for (let start = 0; start < rows.length; start += 30) statements.push(db.insert(vocabulary).values(rows.slice(start, start + 30)).onConflictDoNothing());
  return statements;
}

/**
 * The vocabulary made again from the products (SEARCH_WORDS_REBUILD): the words no product has any more (a product
 * renamed or deleted) go, and each word's count is true again. One batch, so a search never reads it half made. Run by
 * the nightly cron (workers/app.ts) and by the seed.
 */
export async function rebuildSearchWords(db: Db): Promise<void> {
  await db.batch([db.delete(vocabulary), db.run(sql.raw(SEARCH_WORDS_REBUILD))]);
}

/** The product with all its pictures (`images`) as a plan (readTogether); null when there is no such product. */
function productPlan(db: Db, id: number): ReadPlan<ProductView | null> {
  return {
    statements: [db.select().from(products).where(eq(products.id, id)).limit(1), picturesQuery(db, id)],
    assemble: ([rows, pictures]) => {
      const [row] = rows as ProductRow[];
      if (!row) return null;
      const view = toProductView(row);
      return { ...view, images: toImageViews(view, pictures as Parameters<typeof toImageViews>[1]), version: row.version };
    },
  };
}

/** The product with all its pictures (`images`), one D1 round trip. */
export async function getProduct(db: Db, id: number): Promise<ProductView> {
  const { product } = await readTogether(db, { product: productPlan(db, id) });
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  return product;
}

/** The product with its pictures and its sizes (the API's product, the admin's form), one D1 round trip. */
export async function getProductWithSizes(db: Db, id: number): Promise<ProductView & { sizes: SizeView[] }> {
  const { product, sizes } = await readTogether(db, { product: productPlan(db, id), sizes: sizesPlan(db, id) });
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  return { ...product, sizes };
}

export interface ImageUpload {
  bytes: Uint8Array;
  type: string;
  name: string;
  /** Read from the header; null when it cannot be read. */
  width: number | null;
  height: number | null;
  /** The admin's words for it (the product forms give a new picture its alt text at once); none by default. */
  altText?: string | null;
}

/** The product's own columns; its stock is its sizes' (see sizes.server.ts), which the database sums. */
function productValues(input: ProductInput) {
  return {
    name: input.name,
    brand: input.brand,
    description: input.description,
    priceCents: rupeesToCents(input.price) ?? 0,
    category: input.category,
    releaseDate: input.releaseDate,
    productAvailable: input.productAvailable,
  };
}

/** A product and its pictures (the first is the card's): 400 without any, at most 8. */
export async function createProduct(db: Db, bucket: R2Bucket, input: ProductInput, images: ImageUpload[]): Promise<ProductView> {
  if (!images.length) throw badRequest("An image file is required", { imageFile: ["Please choose an image"] });
  if (images.length > PRODUCT_IMAGES_MAX) throw badRequest(PICTURE_MESSAGES.tooMany, { imageFiles: [PICTURE_MESSAGES.tooMany] });
  const [created] = await db.insert(products).values(productValues(input)).returning({ id: products.id });
  try {
    await savePictures(db, bucket, created.id, { added: images }, [...insertSizes(db, created.id, newProductSizes(input)), ...vocabularyInserts(db, input)]);
  } catch (error) {
    // Never leave a product without its pictures and its sizes.
    await db.delete(products).where(eq(products.id, created.id));
    throw error;
  }
  return getProduct(db, created.id);
}

/**
 * The product's fields, sizes and pictures as asked (see PictureChanges), in one batch, if the product is still the
 * version the client loaded (`input.version`; see versionBase): else 409 and nothing changes. `stockMoves` names the
 * sizes saved as another stock than the one sent, because of orders meanwhile (see stockMoves in sizes.server.ts).
 */
export async function updateProduct(db: Db, bucket: R2Bucket, id: number, input: ProductInput, changes: PictureChanges): Promise<{ product: ProductView; stockMoves: StockMove[] }> {
  // The version and the sizes in one read (one transaction): the version vouches for the sizes the update is planned on.
  const { row, sizes } = await readTogether(db, {
    row: { statements: [db.select({ version: products.version }).from(products).where(eq(products.id, id)).limit(1)], assemble: ([rows]) => (rows as { version: number }[])[0] },
    sizes: sizesPlan(db, id),
  });
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  // Checked before the sizes are: a size an older copy names may be gone, and the answer is then "changed".
  const base = versionBase(input.version, row.version);
  const sizeStatements = sizeUpdates(db, id, input, sizes);
  // When the client said what stock it saw, the sizes are read inside the save's own batch, just before and just after
  // its writes: an order placed between the read above and the batch is counted too.
  const watched = watchesStock(input);
  const [, before, ...rest] = await savePictures(
    db,
    bucket,
    id,
    changes,
    [db.update(products).set(productValues(input)).where(eq(products.id, id)), ...(watched ? [sizesOf(db, id)] : []), ...sizeStatements, ...(watched ? [sizesOf(db, id)] : []), ...vocabularyInserts(db, input)],
    base,
  );
  const after = rest[sizeStatements.length];
  return { product: await getProduct(db, id), stockMoves: watched ? stockMoves(input, (before as SizeView[]).map(toSizeView), (after as SizeView[]).map(toSizeView)) : [] };
}

/** Removes the product and all its pictures; order lines keep the copied name and price (their product_id becomes null). */
export async function deleteProduct(db: Db, bucket: R2Bucket, id: number): Promise<void> {
  const [pictures, [deleted]] = await db.batch([
    db.select({ key: productImages.key }).from(productImages).where(eq(productImages.productId, id)),
    db.delete(products).where(eq(products.id, id)).returning({ imageKey: products.imageKey }),
  ]);
  if (!deleted) throw notFound(PRODUCT_NOT_FOUND);
  // A product written before pictures were many (or by the bench) may have only the one image key.
  const keys = new Set([...pictures.map((picture) => picture.key), ...(deleted.imageKey ? [deleted.imageKey] : [])]);
  if (keys.size) await bucket.delete([...keys]);
}


/** The ETag is the image key's uuid: a strong validator known from D1 alone, so a 304 never touches R2. */
export async function getProductImage(db: Db, bucket: R2Bucket, id: number, ifNoneMatch: string | null, version: string | null): Promise<ServedImage> {
  const [row] = await db
    .select({ imageKey: products.imageKey, imageType: products.imageType })
    .from(products)
    .where(eq(products.id, id))
    .limit(1);
  if (!row?.imageKey) throw notFound(row ? "Image not found" : PRODUCT_NOT_FOUND);
  const { etag, matches } = etagFor(row.imageKey, ifNoneMatch);
  const versioned = version === row.imageKey.split("/").pop();
  const type = row.imageType ?? "application/octet-stream";
  if (matches) return { etag, type, body: null, versioned };
  const object = await bucket.get(row.imageKey);
  if (!object) throw notFound("Image not found");
  return { etag, type, body: object.body, versioned };
}
