import { beforeAll, describe, expect, it } from "vitest";

import { BRANDS, insertProducts, insertSizes } from "../../scripts/lib/bench-catalogue";
import type { CatalogueFilters } from "~/lib/catalogue-filters";
import type { Category, Sort } from "~/lib/constants";
import { CANDIDATES_MAX } from "~/lib/spelling";
import { listProducts, PRODUCT_CARD, rebuildSearchWords, SEARCH_CANDIDATES_MAX, searchProducts } from "~/services/catalogue.server";
import { readTogether } from "~/services/db.server";
import { listLowStockPage } from "~/services/low-stock.server";
import { relatedProductsPlan } from "~/services/related-products.server";
import { testEnv } from "./helpers";
import { recordingDb, statementsOf } from "./plan-helpers";

// The catalogue's queries on a large catalogue made as the bench makes it (scripts/lib/bench-catalogue.ts): the
// statements the services really send (caught by Drizzle's logger), their EXPLAIN QUERY PLAN, and how many rows
// D1 says each read (meta.rows_read). A filtered page must read about the page it shows, never the catalogue.

const PRODUCTS = 100_000;

beforeAll(async () => {
  const statements = [];
  for (let start = 1; start <= PRODUCTS; start += 10_000) statements.push(testEnv.DB.prepare(insertProducts(start, start + 9_999, ["products/1/plan"])));
  await testEnv.DB.batch(statements);
}, 120_000);

const list = (category: Category | undefined, sort: Sort, filters: CatalogueFilters, page = 1) =>
  statementsOf(() => listProducts(recordingDb, { category, sort, page, filters }, PRODUCT_CARD));

const BRAND = BRANDS[1];
const RANGE = { minPrice: 10_000, maxPrice: 20_000 };
/** A page of 24 cards read as the unfiltered grid reads one: the ids from an index, then those rows (96 rows_read). */
const PAGE_ROWS_MAX = 400;

/** The page statement's plan reads its ids from `index`, sorts nothing but the page, and reads about a page of rows. */
function expectPageFrom(statement: { plan: string[]; rowsRead: number }, index: string) {
  expect(statement.plan.some((line) => line.includes(`USING COVERING INDEX ${index} `) || line.includes(`USING INDEX ${index} `) || line.endsWith(`INDEX ${index}`)), statement.plan.join("\n")).toBe(true);
  // One sort only: the page's own rows (at most 25) by the list's order; a second would sort every match.
  expect(statement.plan.filter((line) => line.startsWith("USE TEMP B-TREE")).length, statement.plan.join("\n")).toBeLessThanOrEqual(1);
  expect(statement.plan.some((line) => /^SCAN products$/.test(line)), statement.plan.join("\n")).toBe(false);
  expect(statement.rowsRead).toBeLessThanOrEqual(PAGE_ROWS_MAX);
}

describe(`with ${PRODUCTS.toLocaleString("en-US")} products, a filtered page reads about the page it shows`, () => {
  it("a category page as before: its ids from the category's index, the total from catalogue_counts", async () => {
    const [page, total] = await list("Gents", "newest", {});
    expectPageFrom(page, "products_category_release_idx");
    expect(total.sql).toContain("catalogue_counts");
    expect(total.rowsRead).toBeLessThanOrEqual(2);
  });

  it("a brand, in each sort and with or without a category, from that brand's index; its total from catalogue_brands", async () => {
    const cases: [Category | undefined, Sort, string][] = [
      ["Gents", "newest", "products_category_brand_release_idx"],
      ["Gents", "price-desc", "products_category_brand_price_idx"],
      ["Gents", "name", "products_category_brand_name_idx"],
      [undefined, "newest", "products_brand_release_idx"],
      [undefined, "price-asc", "products_brand_price_idx"],
      [undefined, "name", "products_brand_name_idx"],
    ];
    for (const [category, sort, index] of cases) {
      const [page, total] = await list(category, sort, { brand: BRAND }, 5);
      expectPageFrom(page, index);
      expect(total.sql).toContain("catalogue_brands");
      expect(total.sql).not.toMatch(/from "products"/);
      // One kept row a category and brand: a few dozen at most, never the products.
      expect(total.rowsRead).toBeLessThanOrEqual(4 * BRANDS.length * 2);
    }
  });

  it("a price range walks the sort's index (or is the price index's range when sorted by price), and counts nothing", async () => {
    const cases: [Category | undefined, Sort, CatalogueFilters, string][] = [
      ["Gents", "newest", RANGE, "products_category_release_idx"],
      ["Gents", "name", RANGE, "products_category_name_idx"],
      ["Gents", "price-asc", RANGE, "products_category_price_idx"],
      [undefined, "newest", RANGE, "products_release_idx"],
      [undefined, "price-desc", RANGE, "products_price_idx"],
      ["Gents", "newest", { ...RANGE, brand: BRAND }, "products_category_brand_release_idx"],
      ["Ladies", "price-asc", { ...RANGE, brand: BRAND }, "products_category_brand_price_idx"],
    ];
    for (const [category, sort, filters, index] of cases) {
      const statements = await list(category, sort, filters);
      expect(statements).toHaveLength(1); // no count
      expectPageFrom(statements[0], index);
    }
  });

  it("a narrow price range in another order: a bounded walk, then the range's few products from the price index", async () => {
    // Rs 40,200 exactly: one price in 100 of Gents (the bench gives each category a quarter of the 400 prices), 250 products. Walking the release index for them read 20,000
    // rows for page 1, and the whole index (50,000) for a page past the last match.
    const narrow = { minPrice: 40_200, maxPrice: 40_200 };
    for (const [category, page] of [["Gents", 1], ["Gents", 3], ["Gents", 11], [undefined, 1]] as const) {
      const statements = await list(category, "newest", narrow, page);
      const [walk, probe, range] = statements;
      expect(statements).toHaveLength(3);
      expect(walk.plan.some((line) => /^CO-ROUTINE walk$/.test(line)), walk.plan.join("\n")).toBe(true);
      expect(walk.plan.some((line) => line.includes(`products USING INDEX ${category ? "products_category_release_idx" : "products_release_idx"}`)), walk.plan.join("\n")).toBe(true);
      expect(probe.plan.some((line) => line.includes(`COVERING INDEX ${category ? "products_category_price_idx" : "products_price_idx"}`)), probe.plan.join("\n")).toBe(true);
      expect(range.plan.some((line) => line.includes(`INDEX ${category ? "products_category_price_idx" : "products_price_idx"}`) && line.includes("price_cents>? AND price_cents<?")), range.plan.join("\n")).toBe(true);
      expect(walk.rowsRead, "the walk stops at its bound").toBeLessThanOrEqual(2 * (500 + 4 * (24 * page + 1)) + 100);
      expect(probe.rowsRead + range.rowsRead).toBeLessThanOrEqual(4 * 400);
      const total = statements.reduce((sum, statement) => sum + statement.rowsRead, 0);
      console.log(`narrow price range, ${category ?? "all"} newest, page ${page}: ${total} rows read (${statements.map((st) => st.rowsRead).join(" + ")})`);
    }
  });

  it("a narrow price range gives the same pages as a plain query would", async () => {
    const expected = await testEnv.DB.prepare("SELECT id FROM products WHERE category = 'Gents' AND price_cents = 4020000 ORDER BY release_date DESC, id DESC").all<{ id: number }>();
    expect(expected.results.length).toBeGreaterThan(96);
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const result = await listProducts(recordingDb, { category: "Gents", sort: "newest", page, filters: { minPrice: 40_200, maxPrice: 40_200 } }, PRODUCT_CARD);
      seen.push(...result.items.map((item) => item.id));
      expect(result.hasMore).toBe(seen.length < expected.results.length);
    }
    expect(seen).toEqual(expected.results.slice(0, seen.length).map((row) => row.id));
    const last = Math.ceil(expected.results.length / 24);
    const end = await listProducts(recordingDb, { category: "Gents", sort: "newest", page: last, filters: { minPrice: 40_200, maxPrice: 40_200 } }, PRODUCT_CARD);
    expect(end.items.map((item) => item.id)).toEqual(expected.results.slice((last - 1) * 24).map((row) => row.id));
    expect(end.hasMore).toBe(false);
  });

  it("a wide price range still fills its page in the first walk: one statement, about a page read", async () => {
    const statements = await list("Gents", "name", RANGE, 2);
    expect(statements).toHaveLength(1);
    expectPageFrom(statements[0], "products_category_name_idx");
  });

  it("search with a brand walks the keyword's matches newest first in the FTS5 index, each product by its rowid", async () => {
    const [statement] = await statementsOf(() => searchProducts(recordingDb, "runner", { pageSize: 24, filters: { brand: BRAND } }, PRODUCT_CARD));
    expect(statement.plan.some((line) => line.startsWith("SCAN products_fts VIRTUAL TABLE")), statement.plan.join("\n")).toBe(true);
    expect(statement.plan.some((line) => /^CO-ROUTINE candidates$/.test(line)), statement.plan.join("\n")).toBe(true);
    expect(statement.plan.filter((line) => line === "SEARCH products USING INTEGER PRIMARY KEY (rowid=?)").length, statement.plan.join("\n")).toBeGreaterThan(0);
    expect(statement.plan.some((line) => line.startsWith("USE TEMP B-TREE")), statement.plan.join("\n")).toBe(false);
  });

  it("a search by every word: a page of its matches; asked as a fallback, one index lookup while the phrase finds something", async () => {
    // "runner" is in 1 product name in 24; "runners" in none, so its words' page is the one shown.
    const [phrase, idle] = await statementsOf(() => searchProducts(recordingDb, "runner", { pageSize: 24, match: "phrase-or-words" }, PRODUCT_CARD));
    expect(idle.sql).toContain("CASE WHEN EXISTS");
    expect(idle.rowsRead, idle.plan.join("\n")).toBeLessThanOrEqual(2);
    expect(phrase.rowsRead).toBeLessThanOrEqual(PAGE_ROWS_MAX);
    const [, words] = await statementsOf(() => searchProducts(recordingDb, "runners", { pageSize: 24, match: "phrase-or-words" }, PRODUCT_CARD));
    expect(words.plan.some((line) => line.startsWith("SCAN products_fts VIRTUAL TABLE")), words.plan.join("\n")).toBe(true);
    expect(words.rowsRead).toBeLessThanOrEqual(PAGE_ROWS_MAX);
    // With a filter, at most the newest SEARCH_CANDIDATES_MAX matches, as the phrase.
    const [, filtered] = await statementsOf(() => searchProducts(recordingDb, "gents runners", { pageSize: 24, filters: { maxPrice: 1 }, match: "phrase-or-words" }, PRODUCT_CARD));
    expect(filtered.rowsRead, filtered.plan.join("\n")).toBeLessThanOrEqual(2 * SEARCH_CANDIDATES_MAX + 2);
    expect(filtered.plan.some((line) => /^CO-ROUTINE candidates$/.test(line)), filtered.plan.join("\n")).toBe(true);
    console.log(`search by words at ${PRODUCTS}: "runner" phrase ${phrase.rowsRead} + idle words ${idle.rowsRead} rows; "runners" words ${words.rowsRead}; "gents runners" under Rs 1 ${filtered.rowsRead}`);
    // The same products a plain query finds, newest first.
    const found = await searchProducts(recordingDb, "runners", { pageSize: 24, match: "phrase-or-words" }, PRODUCT_CARD);
    const expected = await testEnv.DB.prepare("SELECT id FROM products WHERE name LIKE '%runner%' OR brand LIKE '%runner%' OR category LIKE '%runner%' ORDER BY id DESC LIMIT 24").all<{ id: number }>();
    expect(found.matched).toBe("words");
    expect(found.items.map((item) => item.id)).toEqual(expected.results.map((row) => row.id));
  });

  it("spelling correction: only on a miss, the candidates from the vocabulary's index, a few rows, then one more search", async () => {
    // The vocabulary as the nightly cron makes it (the bench's products went in by SQL, past the app's upkeep).
    const started = performance.now();
    await rebuildSearchWords(recordingDb);
    const rebuilt = Math.round(performance.now() - started);
    const { words } = (await testEnv.DB.prepare("SELECT count(*) AS words FROM search_words").first<{ words: number }>())!;
    expect(words).toBeGreaterThan(40);
    // A hit sends what it sent without correction: nothing more.
    const hit = await statementsOf(() => searchProducts(recordingDb, "runner", { pageSize: 24, match: "phrase-or-words", spelling: true }, PRODUCT_CARD));
    expect(hit.map((statement) => statement.sql)).toEqual((await statementsOf(() => searchProducts(recordingDb, "runner", { pageSize: 24, match: "phrase-or-words" }, PRODUCT_CARD))).map((statement) => statement.sql));
    // A miss: the phrase and the words, the candidates of each word ("metro" is read too: the catalogue's, so kept), the
    // corrected keyword's phrase and words.
    const miss = await statementsOf(() => searchProducts(recordingDb, "metro snekers", { pageSize: 24, match: "phrase-or-words", spelling: true }, PRODUCT_CARD));
    const candidates = miss.filter((statement) => statement.sql.includes("search_words"));
    expect(miss).toHaveLength(2 + 2 + 2);
    expect(candidates).toHaveLength(2);
    for (const statement of candidates) {
      expect(statement.plan.some((line) => line.includes("USING INDEX search_words_len_word_idx (len=? AND word>? AND word<?)")), statement.plan.join("\n")).toBe(true);
      // The only other reads: whether the keyword as typed matches a product (FTS5 MATCH lookups, LIMIT 1), not scans.
      expect(statement.plan.some((line) => line.startsWith("SCAN") && !line.startsWith("SCAN products_fts VIRTUAL TABLE INDEX 0:M")), statement.plan.join("\n")).toBe(false);
      expect(statement.rowsRead).toBeLessThanOrEqual(CANDIDATES_MAX);
    }
    const found = await searchProducts(recordingDb, "metro snekers", { pageSize: 24, match: "phrase-or-words", spelling: true }, PRODUCT_CARD);
    expect(found).toMatchObject({ matched: "spelling", corrected: "metro sneakers" });
    expect(found.items.length).toBeGreaterThan(0);
    console.log(
      `spelling at ${PRODUCTS}: rebuild ${rebuilt} ms for ${words} words; candidates read ${candidates.map((statement) => statement.rowsRead).join(" + ")} rows; "metro snekers" found ${found.items.length}`,
    );
  });

  it("a page past the end of a counted listing reads no ids: its LIMIT is 0 when it starts past the kept total", async () => {
    for (const [filters, page] of [
      [{}, 5_000],
      [{ brand: BRAND }, 2_000],
    ] as const) {
      const [ids, total] = await list(undefined, "newest", filters, page);
      // Before: the whole index walked to its end (100,000 entries for the catalogue, 7,692 for a brand).
      expect(ids.rowsRead, ids.sql).toBeLessThan(100); // the kept total's rows alone (catalogue_brands has 52)
      expect(total.rowsRead).toBeLessThan(100);
      expect((await listProducts(recordingDb, { sort: "newest", page, filters }, PRODUCT_CARD)).items).toEqual([]);
    }
    // The last page is still read, from the index.
    const last = await listProducts(recordingDb, { sort: "newest", page: Math.ceil(PRODUCTS / 24) }, PRODUCT_CARD);
    expect(last.items).toHaveLength(PRODUCTS % 24 || 24);
  });

  it("a short keyword checks the newest SEARCH_CANDIDATES_MAX products at most, and finds the newest matches first", async () => {
    const [miss] = await statementsOf(() => searchProducts(recordingDb, "qz", { pageSize: 24 }, PRODUCT_CARD));
    // Before: every product (100,000 rows) for a keyword nothing matches. Now the newest 10,000 ids to find where they
    // start, then those products.
    expect(miss.rowsRead, miss.plan.join("\n")).toBeLessThanOrEqual(2 * SEARCH_CANDIDATES_MAX + 2);
    expect(miss.plan.some((line) => line.includes("USING INTEGER PRIMARY KEY (rowid>?)")), miss.plan.join("\n")).toBe(true);
    const found = await searchProducts(recordingDb, "ru", { pageSize: 24 }, PRODUCT_CARD);
    const expected = await testEnv.DB.prepare("SELECT id FROM products WHERE name LIKE '%ru%' OR brand LIKE '%ru%' OR category LIKE '%ru%' ORDER BY id DESC LIMIT 24").all<{ id: number }>();
    expect(found.items.map((item) => item.id)).toEqual(expected.results.map((row) => row.id));
  });

  it("a keyword with filters checks its newest SEARCH_CANDIDATES_MAX matches at most", async () => {
    // "Gents" is in 25,000 products' category; none costs under Rs 1. Before: all 25,000 matches joined and checked.
    const [statement] = await statementsOf(() => searchProducts(recordingDb, "Gents", { pageSize: 24, filters: { maxPrice: 1 } }, PRODUCT_CARD));
    expect(statement.rowsRead, statement.plan.join("\n")).toBeLessThanOrEqual(2 * SEARCH_CANDIDATES_MAX + 2);
    expect(statement.plan.some((line) => /^CO-ROUTINE candidates$/.test(line)), statement.plan.join("\n")).toBe(true);
    // A filter that passes: the newest matching products, as a plain query finds them.
    const found = await searchProducts(recordingDb, "runner", { pageSize: 24, filters: { brand: BRAND } }, PRODUCT_CARD);
    const expected = await testEnv.DB.prepare("SELECT id FROM products WHERE (name LIKE '%runner%' OR brand LIKE '%runner%' OR category LIKE '%runner%') AND brand = ? ORDER BY id DESC LIMIT 24").bind(BRAND).all<{ id: number }>();
    expect(expected.results.length).toBeGreaterThan(0);
    expect(found.items.map((item) => item.id)).toEqual(expected.results.map((row) => row.id));
  });

  it("the brands a filter offers come from catalogue_brands, never from the products, with the page they filter", async () => {
    for (const category of ["Gents", undefined] as const) {
      const page = await listProducts(recordingDb, { category, pageSize: 24, withBrands: true }, PRODUCT_CARD);
      expect(page.brands).toEqual([...new Set(BRANDS)].sort());
      const statements = await statementsOf(() => listProducts(recordingDb, { category, pageSize: 24, withBrands: true }, PRODUCT_CARD));
      const brands = statements.at(-1)!;
      expect(brands.sql).toContain("catalogue_brands");
      expect(brands.sql).not.toMatch(/from "products"/);
      expect(brands.rowsRead).toBeLessThanOrEqual(4 * BRANDS.length * 2);
    }
    const sized = await statementsOf(() => listProducts(recordingDb, { category: "Kids", pageSize: 24, filters: { size: "EU 30" }, withBrands: true }, PRODUCT_CARD));
    expect(sized.some((statement) => statement.sql.includes("catalogue_brands"))).toBe(true);
    const searched = await statementsOf(() => searchProducts(recordingDb, "runner", { pageSize: 24, withBrands: true }, PRODUCT_CARD));
    expect(searched.at(-1)!.sql).toContain("catalogue_brands");
  });

  it("'You may also like' reads its four products from the in-stock index: five entries at most", async () => {
    const [statement] = await statementsOf(() => readTogether(recordingDb, { related: relatedProductsPlan(recordingDb, 5) }));
    expect(statement.plan).toContain("SEARCH products USING INDEX products_category_in_stock_release_idx (category=?)");
    expect(statement.plan.some((line) => line.startsWith("USE TEMP B-TREE")), statement.plan.join("\n")).toBe(false);
    expect(statement.rowsRead).toBeLessThanOrEqual(6);
  });
});

// The sizes go in last, for these tests alone: the tests above keep measuring the catalogue they were written for.
describe(`with ${PRODUCTS.toLocaleString("en-US")} products and their sizes, a size-filtered page reads about the page it shows`, () => {
  // 725,000 sizes with the bench's stock (one in twelve sold out: a third of one category's products are sold out in EU 26,
  // 34, 36, 39, 40 and 43). Seeding the products and their sizes took 22 s here, most of it the stock triggers.
  beforeAll(async () => {
    const statements = [];
    for (let start = 1; start <= PRODUCTS; start += 10_000) statements.push(testEnv.DB.prepare(insertSizes(start, start + 9_999)));
    await testEnv.DB.batch(statements);
  }, 120_000);

  /** One lookup a product in the index of sizes in stock (as a correlated subquery, or joined in as "EXISTS"). */
  const usesInStockLookup = (plan: string[]) => plan.some((line) => /^SEARCH s (EXISTS )?USING INDEX product_sizes_in_stock_idx \(product_id=\? AND label=\?\)$/.test(line));

  it("a size walks the sort's index, each product looked up in the index of sizes in stock, and counts nothing", async () => {
    const cases: [Category | undefined, Sort, CatalogueFilters, string][] = [
      ["Gents", "newest", { size: "EU 42" }, "products_category_release_idx"],
      ["Gents", "price-asc", { size: "EU 39" }, "products_category_price_idx"],
      ["Kids", "name", { size: "EU 30" }, "products_category_name_idx"],
      [undefined, "newest", { size: "EU 40" }, "products_release_idx"],
      ["Gents", "newest", { size: "EU 42", brand: BRAND }, "products_category_brand_release_idx"],
      ["Ladies", "price-desc", { size: "EU 36", ...RANGE }, "products_category_price_idx"],
    ];
    for (const [category, sort, filters, index] of cases) {
      const statements = await list(category, sort, filters);
      expect(statements).toHaveLength(1); // no count
      expectPageFrom(statements[0], index);
      expect(usesInStockLookup(statements[0].plan), statements[0].plan.join("\n")).toBe(true);
    }
  });

  it("a size hardly any product has: a bounded walk, then its products from product_sizes_label_category_in_stock_idx", async () => {
    // 30 products with an EU 47 in stock, among 100,000: the walk for them read the whole release index before.
    await testEnv.DB.prepare("INSERT INTO product_sizes (product_id, label, position, stock_quantity) SELECT id, 'EU 47', 99, 2 FROM products WHERE id % 3001 = 0 AND category IN ('Gents', 'Ladies')").run();
    const expected = await testEnv.DB.prepare("SELECT p.id FROM products p JOIN product_sizes s ON s.product_id = p.id AND s.label = 'EU 47' AND s.stock_quantity > 0 ORDER BY p.release_date DESC, p.id DESC").all<{ id: number }>();
    expect(expected.results.length).toBeGreaterThan(10);
    for (const label of ["EU 47", "EU 48"]) {
      const statements = await list(undefined, "newest", { size: label });
      expect(statements).toHaveLength(3);
      const [walk, probe, matches] = statements;
      expect(walk.plan.some((line) => /^CO-ROUTINE walk$/.test(line)), walk.plan.join("\n")).toBe(true);
      expect(probe.plan.some((line) => line.includes("product_sizes_label_category_in_stock_idx (label=?)")), probe.plan.join("\n")).toBe(true);
      expect(matches.plan.some((line) => line.includes("product_sizes_label_category_in_stock_idx (label=?)")), matches.plan.join("\n")).toBe(true);
      expect(matches.plan.some((line) => /^SCAN products/.test(line)), matches.plan.join("\n")).toBe(false);
      const total = statements.reduce((sum, statement) => sum + statement.rowsRead, 0);
      expect(total).toBeLessThanOrEqual(2 * (500 + 4 * 25) + 4 * 200);
      console.log(`size ${label} over the whole catalogue, newest: ${total} rows read (${statements.map((st) => st.rowsRead).join(" + ")})`);
    }
    const page = await listProducts(recordingDb, { sort: "newest", pageSize: 100, filters: { size: "EU 47" } }, PRODUCT_CARD);
    expect(page.items.map((item) => item.id)).toEqual(expected.results.map((row) => row.id));
    expect(page.hasMore).toBe(false);
    expect((await listProducts(recordingDb, { category: "Kids", sort: "name", filters: { size: "EU 47" } }, PRODUCT_CARD)).items).toEqual([]);
  });

  it("a size common elsewhere but rare in the category (Kids in EU 42) is read from the category's sizes, not by walking it", async () => {
    // Kids sizes stop at EU 35: no Kids product has an EU 42, then a dozen have one. Gents have tens of thousands.
    for (const added of [0, 12]) {
      if (added) await testEnv.DB.prepare(`INSERT INTO product_sizes (product_id, label, position, stock_quantity) SELECT id, 'EU 42', 98, 1 FROM products WHERE category = 'Kids' ORDER BY id LIMIT ${added}`).run();
      const expected = await testEnv.DB.prepare("SELECT p.id FROM products p JOIN product_sizes s ON s.product_id = p.id AND s.label = 'EU 42' AND s.stock_quantity > 0 WHERE p.category = 'Kids' ORDER BY p.name, p.id").all<{ id: number }>();
      expect(expected.results).toHaveLength(added);
      const statements = await list("Kids", "name", { size: "EU 42" });
      expect(statements).toHaveLength(3);
      const [, probe, matches] = statements;
      for (const statement of [probe, matches]) {
        expect(statement.plan.some((line) => line.includes("product_sizes_label_category_in_stock_idx (label=? AND category=?)")), statement.plan.join("\n")).toBe(true);
      }
      const total = statements.reduce((sum, statement) => sum + statement.rowsRead, 0);
      // The bounded walk (500 + 4 a row) and the dozen: before, the walk went through all 25,000 Kids.
      expect(total).toBeLessThanOrEqual(2 * (500 + 4 * 25) + 4 * 50);
      console.log(`Kids in EU 42 (${added} in stock), by name: ${total} rows read (${statements.map((st) => st.rowsRead).join(" + ")})`);
      const page = await listProducts(recordingDb, { category: "Kids", sort: "name", pageSize: 100, filters: { size: "EU 42" } }, PRODUCT_CARD);
      expect(page.items.map((item) => item.id)).toEqual(expected.results.map((row) => row.id));
    }
  });

  it("the page holds only products with the size in stock", async () => {
    const page = await listProducts(recordingDb, { category: "Kids", sort: "name", pageSize: 100, filters: { size: "EU 30" } }, PRODUCT_CARD);
    expect(page.items).toHaveLength(100);
    const ids = page.items.map((item) => item.id);
    const sizes = await testEnv.DB.prepare(`SELECT product_id, stock_quantity FROM product_sizes WHERE label = 'EU 30' AND product_id IN (${ids.join(",")})`).all<{ product_id: number; stock_quantity: number }>();
    expect(sizes.results).toHaveLength(100);
    expect(sizes.results.every((size) => size.stock_quantity > 0)).toBe(true);
  });

  it("search with a size checks the keyword's matches newest first, each in the index of sizes in stock", async () => {
    const [statement] = await statementsOf(() => searchProducts(recordingDb, "runner", { pageSize: 24, filters: { size: "EU 43" } }, PRODUCT_CARD));
    expect(statement.plan.some((line) => line.startsWith("SCAN products_fts VIRTUAL TABLE")), statement.plan.join("\n")).toBe(true);
    expect(usesInStockLookup(statement.plan), statement.plan.join("\n")).toBe(true);
    expect(statement.plan.some((line) => line.startsWith("USE TEMP B-TREE")), statement.plan.join("\n")).toBe(false);
  });

  it("the low-stock list (/admin/stock, the dashboard): a page's ids from a partial index alone, those sizes, one kept total", async () => {
    const show = (statement: { sql: string; plan: string[]; rowsRead: number }) => `${statement.sql}\n${statement.plan.join("\n")}\nrows read: ${statement.rowsRead}`;
    const cases: Array<[Category | undefined, number, string, number]> = [
      [undefined, 1, "product_sizes_low_stock_idx", 100],
      ["Kids", 1, "product_sizes_low_stock_category_idx (category=?", 100],
      // Accessories hold one low size in 29: read from their own range, never by walking the others.
      ["Accessories", 3, "product_sizes_low_stock_category_idx (category=?", 160],
      // A deep page walks its offset through the index: entries, not rows.
      [undefined, 200, "product_sizes_low_stock_idx", 4_100],
    ];
    for (const [category, page, index, rowsMax] of cases) {
      const [rows, total] = await statementsOf(() => listLowStockPage(recordingDb, { category }, page, 20));
      const label = `${category ?? "all"} page ${page}\n${show(rows)}`;
      expect(rows.plan.some((line) => line.includes(`USING COVERING INDEX ${index}`)), label).toBe(true);
      expect(rows.plan.some((line) => /^SCAN (product_sizes|products)$/.test(line)), label).toBe(false);
      // The page's 20 sizes, each with its product by primary key; one sort, of those 20.
      expect(rows.plan.filter((line) => line.startsWith("USE TEMP B-TREE")).length, label).toBeLessThanOrEqual(1);
      expect(rows.rowsRead, label).toBeLessThanOrEqual(rowsMax);
      expect(total.sql).toContain('from "low_stock_counts"');
      expect(total.rowsRead, show(total)).toBe(1);
      console.log(`low stock, ${category ?? "all"} page ${page}: ${rows.rowsRead} + ${total.rowsRead} rows read\n${rows.plan.join("\n")}`);
    }
    // The dashboard groups the list's first 100 sizes (one page of ADMIN_MAX_PAGE_SIZE) into products: the same plan.
    const [dashboard] = await statementsOf(() => listLowStockPage(recordingDb, {}, 1, 100));
    expect(dashboard.plan.some((line) => line.includes("USING COVERING INDEX product_sizes_low_stock_idx")), show(dashboard)).toBe(true);
    expect(dashboard.rowsRead, show(dashboard)).toBeLessThanOrEqual(500);
    console.log(`low stock, the dashboard's 100: ${dashboard.rowsRead} rows read`);
    // The pages hold what counting and sorting the sizes would give.
    const expected = await testEnv.DB.prepare(
      "SELECT id FROM product_sizes WHERE stock_quantity <= 3 AND category = 'Accessories' ORDER BY stock_quantity, product_id, position LIMIT 20 OFFSET 40",
    ).all<{ id: number }>();
    const third = await listLowStockPage(recordingDb, { category: "Accessories" }, 3, 20);
    expect(third.items.map((item) => item.sizeId)).toEqual(expected.results.map((row) => row.id));
    expect(third.items.every((item) => item.category === "Accessories" && item.stockQuantity <= 3)).toBe(true);
    const counted = await testEnv.DB.prepare("SELECT count(*) AS n FROM product_sizes WHERE stock_quantity <= 3").first<{ n: number }>();
    expect((await listLowStockPage(recordingDb, {}, 1, 20)).total).toBe(counted!.n);
  });

  it("a search of the low-stock list walks the same partial index, each size's product by primary key: never a scan of the catalogue", async () => {
    const show = (statement: { sql: string; plan: string[]; rowsRead: number }) => `${statement.sql}\n${statement.plan.join("\n")}\nrows read: ${statement.rowsRead}`;
    const low = (await testEnv.DB.prepare("SELECT count(*) AS n FROM product_sizes WHERE stock_quantity <= 3").first<{ n: number }>())!.n;
    // Each low size walked past is an index entry and its product: a search reads at most twice the low sizes.
    const all = 2 * low + 2;
    const cases: Array<[{ q: string; category?: Category }, number, string, number, number]> = [
      // A common word (one product in 17, one brand in 13) fills its page within the first few hundred low sizes, and
      // its count stops at 1,001 matches.
      [{ q: "lotus" }, 1, "product_sizes_low_stock_idx", 2_000, 40_000],
      [{ q: "urban trek" }, 1, "product_sizes_low_stock_idx", 2_000, 40_000],
      [{ q: "Lotus Wedge", category: "Ladies" }, 1, "product_sizes_low_stock_category_idx (category=?", all, all],
      // A deep page of a search walks its offset through the index and those sizes' products.
      [{ q: "lotus" }, 30, "product_sizes_low_stock_idx", 25_000, 40_000],
      // No match: every low size (of the category) and its product, once for the page and once for the count.
      [{ q: "zzzz" }, 1, "product_sizes_low_stock_idx", all, all],
      [{ q: "zzzz", category: "Accessories" }, 1, "product_sizes_low_stock_category_idx (category=?", all, all],
    ];
    for (const [filters, page, index, rowsMax, countMax] of cases) {
      const [rows, total] = await statementsOf(() => listLowStockPage(recordingDb, filters, page, 20));
      for (const [statement, max] of [[rows, rowsMax], [total, countMax]] as const) {
        const label = `${JSON.stringify(filters)} page ${page}\n${show(statement)}`;
        expect(statement.plan.some((line) => line.startsWith(`SEARCH product_sizes USING COVERING INDEX ${index}`)), label).toBe(true);
        expect(statement.plan.some((line) => line === "SEARCH products USING INTEGER PRIMARY KEY (rowid=?)"), label).toBe(true);
        expect(statement.plan.some((line) => /^SCAN (product_sizes|products)\b/.test(line)), label).toBe(false);
        expect(statement.rowsRead, label).toBeLessThanOrEqual(max);
      }
      // The walk is in the index's order: one sort only, of the page's 20 rows.
      expect(rows.plan.filter((line) => line.startsWith("USE TEMP B-TREE")).length, show(rows)).toBeLessThanOrEqual(1);
      expect(total.sql).not.toContain("low_stock_counts");
      console.log(`low stock, q=${filters.q}${filters.category ? ` in ${filters.category}` : ""} page ${page}: ${rows.rowsRead} + ${total.rowsRead} rows read\n${rows.plan.join("\n")}\n${total.plan.join("\n")}`);
    }
    // What it finds is what joining every size to its product finds (each word in the name or the brand), in the list's order.
    const expected = await testEnv.DB.prepare(
      `SELECT s.id FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE s.stock_quantity <= 3 AND p.category = 'Ladies'
       AND (p.name LIKE '%lotus%' OR p.brand LIKE '%lotus%') AND (p.name LIKE '%wedge%' OR p.brand LIKE '%wedge%') ORDER BY s.stock_quantity, s.product_id, s.position`,
    ).all<{ id: number }>();
    expect(expected.results.length).toBeGreaterThan(40);
    expect(expected.results.length).toBeLessThan(1_000);
    const third = await listLowStockPage(recordingDb, { q: "Lotus Wedge", category: "Ladies" }, 3, 20);
    expect(third.items.map((item) => item.sizeId)).toEqual(expected.results.slice(40, 60).map((row) => row.id));
    expect({ total: third.total, totalExact: third.totalExact }).toEqual({ total: expected.results.length, totalExact: true });
    // A word in thousands of products is counted to 1,000 and said to be more.
    const brand = await listLowStockPage(recordingDb, { q: "urban trek" }, 1, 20);
    expect({ total: brand.total, totalExact: brand.totalExact, hasMore: brand.hasMore }).toEqual({ total: 1_000, totalExact: false, hasMore: true });
    const started = performance.now();
    await listLowStockPage(recordingDb, { q: "zzzz" }, 1, 20);
    console.log(`low stock: a search that matches none of the ${low.toLocaleString("en-US")} low sizes took ${Math.round(performance.now() - started)} ms`);
  });
});
