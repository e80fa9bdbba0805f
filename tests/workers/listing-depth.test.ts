import { beforeAll, describe, expect, it } from "vitest";

import { insertProducts } from "../../scripts/lib/bench-catalogue";
import { UNCOUNTED_DEPTH } from "~/lib/catalogue-filters";
import { listProducts, PRODUCT_CARD, searchProducts } from "~/services/catalogue.server";
import { cardCount, getJson, visibleText, type ApiProduct } from "./catalogue-helpers";
import { call, testEnv } from "./helpers";
import { recordingDb, statementsOf } from "./plan-helpers";

// A listing without a total (a price range or a size, a search) is paged through its first UNCOUNTED_DEPTH products:
// each of its pages walks an index from the start, so a deep page would read the catalogue to answer nothing. More
// products than that match here, so every "nothing past the depth" below is the rule, not the end of the list.

const PRODUCTS = 3_000;
/** Every product's price is within it (the bench's are Rs 100,000 to Rs 4,090,000). */
const EVERY_PRICE = { minPrice: "1", maxPrice: "10000000" };
/** A one-letter keyword: the short scan, which matches most of the catalogue. */
const COMMON = "e";

beforeAll(async () => {
  await testEnv.DB.prepare(insertProducts(1, PRODUCTS, ["products/1/depth"])).run();
  const pattern = `%${COMMON}%`;
  const { n } = (await testEnv.DB.prepare("SELECT count(*) AS n FROM products WHERE name LIKE ?1 OR brand LIKE ?1 OR category LIKE ?1").bind(pattern).first<{ n: number }>())!;
  // Both listings below run past the depth by more than a page of 100.
  expect(n).toBeGreaterThan(UNCOUNTED_DEPTH + 100);
}, 60_000);

const apiList = (query: Record<string, string>) => call(`/api/products?${new URLSearchParams(query)}`);

describe("GET /api/products with a price range", () => {
  it("stops at the depth: the last page within it has no rel=next, and the page after it is [] (200)", async () => {
    const lastPage = String(UNCOUNTED_DEPTH / 100);
    const last = await apiList({ ...EVERY_PRICE, pageSize: "100", page: lastPage });
    expect(last.status).toBe(200);
    expect((await last.json()) as ApiProduct[]).toHaveLength(100);
    expect(last.headers.get("Link")).toBeNull();
    expect(last.headers.get("X-Total-Count")).toBeNull();
    // The page before it still links on.
    const before = await apiList({ ...EVERY_PRICE, pageSize: "100", page: String(UNCOUNTED_DEPTH / 100 - 1) });
    expect(before.headers.get("Link")).toContain('rel="next"');
    const past = await apiList({ ...EVERY_PRICE, pageSize: "100", page: String(UNCOUNTED_DEPTH / 100 + 1) });
    expect(past.status).toBe(200);
    expect(await past.json()).toEqual([]);
    expect(past.headers.get("Link")).toBeNull();
  });

  it("a page that starts within the depth is served whole, whatever its size", async () => {
    // Starts at the 2,351st product, ends past the depth: the page is not cut, but nothing follows it.
    const response = await apiList({ ...EVERY_PRICE, pageSize: "50", page: String(UNCOUNTED_DEPTH / 50) });
    expect((await response.json()) as ApiProduct[]).toHaveLength(50);
    const crossing = await apiList({ ...EVERY_PRICE, pageSize: "70", page: String(Math.ceil(UNCOUNTED_DEPTH / 70)) });
    expect((await crossing.json()) as ApiProduct[]).toHaveLength(70);
    expect(crossing.headers.get("Link")).toBeNull();
  });

  it("a listing with a total is not limited: the same page without the price range is there, counted", async () => {
    const response = await apiList({ pageSize: "100", page: String(UNCOUNTED_DEPTH / 100 + 1) });
    expect((await response.json()) as ApiProduct[]).toHaveLength(100);
    expect(response.headers.get("X-Total-Count")).toBe(String(PRODUCTS));
  });

  it("a page past the depth sends D1 no statement for products (the screens' brands alone)", async () => {
    const filters = { minPrice: 1, maxPrice: 10_000_000 };
    const past = await statementsOf(() => listProducts(recordingDb, { page: UNCOUNTED_DEPTH / 24 + 1, filters, withBrands: true }, PRODUCT_CARD));
    expect(past.length).toBeGreaterThan(0);
    for (const { sql } of past) expect(sql).toContain('from "catalogue_brands"');
    const searched = await statementsOf(() => searchProducts(recordingDb, COMMON, { page: UNCOUNTED_DEPTH / 24 + 1, pageSize: 24 }, PRODUCT_CARD));
    expect(searched).toEqual([]);
    // Within the depth the page is read.
    const within = await statementsOf(() => listProducts(recordingDb, { page: UNCOUNTED_DEPTH / 24, filters }, PRODUCT_CARD));
    expect(within.some((statement) => statement.sql.includes('from "products"'))).toBe(true);
  });
});

describe("GET /api/products/search", () => {
  it("lists a keyword's first products up to the depth, and [] after", async () => {
    const last = await getJson<ApiProduct[]>(`/api/products/search?${new URLSearchParams({ keyword: COMMON, pageSize: "100", page: String(UNCOUNTED_DEPTH / 100) })}`);
    expect(last).toHaveLength(100);
    const past = await getJson<ApiProduct[]>(`/api/products/search?${new URLSearchParams({ keyword: COMMON, pageSize: "100", page: String(UNCOUNTED_DEPTH / 100 + 1) })}`);
    expect(past).toEqual([]);
  });
});

describe("the screens at the depth", () => {
  const lastScreenPage = UNCOUNTED_DEPTH / 24;
  const page = async (path: string) => {
    const response = await call(path);
    expect(response.status, path).toBe(200);
    return response.text();
  };

  it("the grid's last page within the depth says where the list stops and has no Next", async () => {
    const last = await page(`/?${new URLSearchParams({ ...EVERY_PRICE, page: String(lastScreenPage) })}`);
    expect(cardCount(last)).toBe(24);
    expect(visibleText(last)).toContain("Filtered lists show their first 2,400 products. Narrow the filters");
    expect(last).not.toContain('rel="next"');
    expect(last).toContain('rel="prev"');
    const before = await page(`/?${new URLSearchParams({ ...EVERY_PRICE, page: String(lastScreenPage - 1) })}`);
    expect(before).toContain('rel="next"');
    expect(visibleText(before)).not.toContain("Filtered lists show their first");
  });

  it("a grid page past the depth (an edited address) says why it is empty and links back to the first page", async () => {
    const past = await page(`/?${new URLSearchParams({ ...EVERY_PRICE, page: String(lastScreenPage + 1) })}`);
    expect(cardCount(past)).toBe(0);
    const text = visibleText(past);
    expect(text).toContain(`No products on page ${lastScreenPage + 1}`);
    expect(text).toContain("Filtered lists and search results show at most their first 2,400 products.");
    expect(text).not.toContain("No Products Available");
    expect(past).not.toContain('aria-label="Pages"');
    expect(past).toMatch(/href="\?minPrice=1&amp;maxPrice=10000000"[^>]*>Back to the first page</);
    // The filters are still offered, with the brands the listing reads beside the (skipped) products.
    expect(past).toMatch(/<form[^>]*aria-label="Filters"/);
    expect(past).toContain('value="Urban Trek"');
  });

  it("a page past the end of a short list, counted or not, says so rather than 'no products' or 'no match'", async () => {
    for (const path of ["/?page=400", "/?category=Kids&brand=Urban+Trek&page=90", "/search?keyword=runner&page=90"]) {
      const text = visibleText(await page(path));
      expect(text, path).toMatch(/No products on page \d+/);
      expect(text, path).toContain("The list ends before this page.");
      expect(text, path).not.toMatch(/No Products Available|No shoes found/);
    }
  });

  it("the search results stop at the same depth, in their own words", async () => {
    const last = await page(`/search?${new URLSearchParams({ keyword: COMMON, page: String(lastScreenPage) })}`);
    expect(cardCount(last)).toBe(24);
    expect(visibleText(last)).toContain("Search results list their first 2,400 products. Add a word or a filter");
    expect(last).not.toContain('rel="next"');
    const past = await page(`/search?${new URLSearchParams({ keyword: COMMON, page: String(lastScreenPage + 1) })}`);
    expect(cardCount(past)).toBe(0);
    expect(visibleText(past)).toContain(`No products on page ${lastScreenPage + 1}`);
    expect(past).toMatch(/href="\?keyword=e"[^>]*>Back to the first page</);
  });
});
