import { beforeAll, describe, expect, it } from "vitest";

import { cardCount, expectApiError, getJson, insertProduct, names, tag, visibleText, type ApiProduct, type Category } from "./catalogue-helpers";
import { call, testEnv } from "./helpers";

// The size filter (`size=EU 42`: products with that size in stock) on GET /api/products, /api/products/search, the
// grid and the search results. This file's storage starts empty: every product is inserted here.

const t = tag();

interface Shoe {
  name: string;
  category: Category;
  /** label -> stock, in display order. */
  sizes: Record<string, number>;
}
// Newest first by release date (the lists' default order); search lists newest inserted first, the reverse here.
const SHOES: Shoe[] = [
  { name: `Runner ${t}`, category: "Gents", sizes: { "EU 41": 3, "EU 42": 2 } },
  { name: `Loafer ${t}`, category: "Gents", sizes: { "EU 42": 0, "EU 43": 5 } }, // sold out in EU 42
  { name: `Derby ${t}`, category: "Gents", sizes: { "EU 40": 4, "EU 44": 1 } }, // in stock, but not in EU 42
  { name: `Oxford ${t}`, category: "Gents", sizes: { "EU 42": 1 } },
  { name: `Flat ${t}`, category: "Ladies", sizes: { "EU 42": 6, "EU 38": 2 } },
  { name: `Polish ${t}`, category: "Accessories", sizes: { "One size": 10 } },
];
const ids = new Map<string, number>();

/** A product whose sizes are exactly `shoe.sizes` (insertProduct gives it a "One size", replaced here). */
async function insertShoe(shoe: Shoe, releaseDate: string): Promise<void> {
  const id = await insertProduct({ name: shoe.name, category: shoe.category, releaseDate, brand: `Brand ${t}` });
  const statements = [testEnv.DB.prepare("DELETE FROM product_sizes WHERE product_id = ?").bind(id)];
  Object.entries(shoe.sizes).forEach(([label, stock], position) =>
    statements.push(testEnv.DB.prepare("INSERT INTO product_sizes (product_id, label, position, stock_quantity) VALUES (?, ?, ?, ?)").bind(id, label, position, stock)),
  );
  await testEnv.DB.batch(statements);
  ids.set(shoe.name, id);
}

beforeAll(async () => {
  for (const [i, shoe] of SHOES.entries()) await insertShoe(shoe, `2026-06-${String(20 - i).padStart(2, "0")}`);
});

const inStock = (label: string, category?: Category) =>
  SHOES.filter((shoe) => (shoe.sizes[label] ?? 0) > 0 && (!category || shoe.category === category)).map((shoe) => shoe.name);
const products = (query: Record<string, string>) => getJson<ApiProduct[]>(`/api/products?${new URLSearchParams(query)}`);
const search = (query: Record<string, string>) => getJson<ApiProduct[]>(`/api/products/search?${new URLSearchParams(query)}`);
const page = async (path: string) => {
  const response = await call(path);
  expect(response.status, path).toBe(200);
  return response.text();
};
const filtersForm = (html: string) => html.match(/<form[^>]*aria-label="Filters"[\s\S]*?<\/form>/)?.[0] ?? "";
const sizeOptions = (html: string) => [...(html.match(/<select[^>]*name="size"[\s\S]*?<\/select>/)?.[0] ?? "").matchAll(/<option[^>]*value="([^"]*)"/g)].map((m) => m[1]);

describe("GET /api/products?size=", () => {
  it("keeps the products with that size in stock: not one sold out in it, not one with stock only in other sizes", async () => {
    expect(inStock("EU 42", "Gents")).toEqual([`Runner ${t}`, `Oxford ${t}`]);
    expect(names(await products({ size: "EU 42", category: "Gents" }))).toEqual(inStock("EU 42", "Gents"));
    expect(names(await products({ size: "EU 42" }))).toEqual(inStock("EU 42"));
    expect(names(await products({ size: "EU 43" }))).toEqual([`Loafer ${t}`]);
    expect(names(await products({ size: "One size" }))).toEqual([`Polish ${t}`]);
  });

  it("matches the label exactly, after trimming; an unknown size gives []", async () => {
    expect(names(await products({ size: "  EU 42 ", category: "Gents" }))).toEqual(inStock("EU 42", "Gents"));
    expect(await products({ size: "eu 42" })).toEqual([]);
    expect(await products({ size: "EU 4" })).toEqual([]);
    expect(await products({ size: "EU 47" })).toEqual([]);
  });

  it("goes with the other filters and the sort", async () => {
    expect(names(await products({ size: "EU 42", brand: `Brand ${t}`, sort: "name" }))).toEqual([`Flat ${t}`, `Oxford ${t}`, `Runner ${t}`]);
    expect(await products({ size: "EU 42", brand: `Nobody ${t}` })).toEqual([]);
    expect(await products({ size: "EU 42", minPrice: "1", maxPrice: "2" })).toEqual([]);
  });

  it("is not counted: no X-Total-Count, and Link rel=next says whether another page follows", async () => {
    const pages: string[][] = [];
    for (const page of ["1", "2", "3"]) {
      const response = await call(`/api/products?${new URLSearchParams({ size: "EU 42", pageSize: "2", page })}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("X-Total-Count")).toBeNull();
      expect(response.headers.get("Link") !== null, `page ${page}`).toBe(page === "1");
      pages.push(names((await response.json()) as ApiProduct[]));
    }
    expect(pages).toEqual([inStock("EU 42").slice(0, 2), inStock("EU 42").slice(2), []]);
  });

  it("follows the stock: a size sold out drops its product, restocked brings it back", async () => {
    const oxford = ids.get(`Oxford ${t}`)!;
    await testEnv.DB.prepare("UPDATE product_sizes SET stock_quantity = 0 WHERE product_id = ? AND label = 'EU 42'").bind(oxford).run();
    expect(names(await products({ size: "EU 42", category: "Gents" }))).toEqual([`Runner ${t}`]);
    await testEnv.DB.prepare("UPDATE product_sizes SET stock_quantity = 1 WHERE product_id = ? AND label = 'EU 42'").bind(oxford).run();
    expect(names(await products({ size: "EU 42", category: "Gents" }))).toEqual(inStock("EU 42", "Gents"));
  });

  it.each([
    [{ size: "" }, /must not be empty/],
    [{ size: "   " }, /must not be empty/],
    [{ size: "x".repeat(21) }, /at most 20 characters/],
    [{ size: "EU\u000042" }, /control characters/],
    [{ size: "EU\n42" }, /control characters/],
  ])("%j is a 400 with fieldErrors.size, on /products and /products/search", async (query, message) => {
    for (const path of ["/api/products", "/api/products/search"]) {
      const body = await expectApiError(await call(`${path}?${new URLSearchParams({ keyword: "Runner", ...query })}`), 400);
      expect(body.fieldErrors?.size?.join(" "), path).toMatch(message);
    }
  });

  it("is documented as a query parameter of /products and /products/search", async () => {
    const doc = (await (await call("/api/openapi.json")).json()) as { paths: Record<string, { get: { parameters?: { name: string; in: string }[] } }> };
    for (const path of ["/api/products", "/api/products/search"]) {
      const query = (doc.paths[path].get.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      expect(query, path).toContain("size");
    }
  });
});

describe("GET /api/products/search?size=", () => {
  it("narrows a keyword's matches, through the index (3+ characters) and the short scan alike", async () => {
    // Search lists newest inserted first (by id).
    expect(names(await search({ keyword: t, size: "EU 42" }))).toEqual(inStock("EU 42").reverse());
    expect(names(await search({ keyword: t, size: "EU 44" }))).toEqual([`Derby ${t}`]);
    // Two characters go through the scan: "Ru" is in Runner only (no hex tag holds it).
    expect(names(await search({ keyword: "Ru", size: "EU 42" }))).toEqual([`Runner ${t}`]);
    expect(await search({ keyword: "Ru", size: "EU 43" })).toEqual([]);
  });
});

describe("the grid's size filter", () => {
  it("offers the category's sizes, shows only the products in stock in the chosen one, and counts it as a filter", async () => {
    const html = await page(`/?${new URLSearchParams({ category: "Gents", size: "EU 42" })}`);
    expect(cardCount(html)).toBe(2);
    const text = visibleText(html);
    for (const name of inStock("EU 42", "Gents")) expect(text).toContain(name);
    for (const name of [`Loafer ${t}`, `Derby ${t}`, `Flat ${t}`]) expect(text).not.toContain(name);
    expect(sizeOptions(html)).toEqual(["", "EU 39", "EU 40", "EU 41", "EU 42", "EU 43", "EU 44", "EU 45", "EU 46"]);
    expect(html).toMatch(/<option value="EU 42" selected=""/);
    expect(html).toMatch(/<label for="filter-size"[^>]*>Size/);
    // The Filters button's count, and no total (a size is not counted).
    expect(text).toMatch(/Filters<span[^>]*>1<span class="sr-only"> applied/);
    expect(text).not.toMatch(/Showing Gents · \d+ product/);
  });

  it("a GET form: the category, sort and size go along; 'Clear all' drops the size and the page", async () => {
    const html = await page(`/?${new URLSearchParams({ category: "Gents", sort: "name", size: "EU 42", page: "1" })}`);
    const form = filtersForm(html);
    expect(form).toMatch(/method="get"/);
    expect(form).toContain('<input type="hidden" name="category" value="Gents"/>');
    expect(form).toMatch(/href="\?category=Gents&amp;sort=name"[^>]*>Clear all</);
    const sortForm = html.match(/<form[\s\S]*?<\/form>/g)?.find((f) => f.includes('<select id="sort"')) ?? "";
    expect(sortForm).toContain('<input type="hidden" name="size" value="EU 42"/>');
  });

  it("without a category offers every shoe size once, smallest first; an Accessories page offers none", async () => {
    const all = sizeOptions(await page(`/?size=EU+42`));
    expect(all).toEqual(["", ...Array.from({ length: 23 }, (_, i) => `EU ${24 + i}`)]);
    expect(sizeOptions(await page(`/?category=Ladies`))).toEqual(["", "EU 35", "EU 36", "EU 37", "EU 38", "EU 39", "EU 40", "EU 41", "EU 42"]);
    const accessories = await page(`/?category=Accessories`);
    expect(accessories).not.toContain('name="size"');
    expect(cardCount(accessories)).toBe(1);
  });

  it("a size the category does not have lists nothing, stays chosen in the form, and the empty grid offers to clear", async () => {
    const html = await page(`/?${new URLSearchParams({ category: "Gents", size: "EU 30" })}`);
    expect(cardCount(html)).toBe(0);
    expect(sizeOptions(html).slice(0, 2)).toEqual(["", "EU 30"]);
    expect(visibleText(html)).toContain("clear all filters");
  });

  it.each([["x".repeat(21)], ["EU\u000042"]])("a size it cannot read (%j) is set aside with a message, not an error page", async (size) => {
    const html = await page(`/?${new URLSearchParams({ category: "Gents", size })}`);
    expect(visibleText(html)).toContain("The size in the address was not one we could read, so every size is shown.");
    expect(cardCount(html)).toBe(SHOES.filter((shoe) => shoe.category === "Gents").length);
  });

  it("an empty size from the form without JavaScript counts as absent: the page sends the browser to the URL without it", async () => {
    const sent = await call(`/?${new URLSearchParams({ category: "Gents", size: "", brand: "" })}`);
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe("/?category=Gents");
    const html = await page("/?category=Gents");
    expect(cardCount(html)).toBe(SHOES.filter((shoe) => shoe.category === "Gents").length);
    expect(html).not.toContain('role="alert"');
  });
});

describe("the search results' size filter", () => {
  it("narrows the results, offers every shoe size, and clears to the keyword", async () => {
    const html = await page(`/search?${new URLSearchParams({ keyword: t, size: "EU 42" })}`);
    expect(cardCount(html)).toBe(inStock("EU 42").length);
    expect(visibleText(html)).not.toContain(`Loafer ${t}`);
    expect(sizeOptions(html)).toHaveLength(24);
    const form = filtersForm(html);
    expect(form).toContain(`<input type="hidden" name="keyword" value="${t}"/>`);
    expect(form).toMatch(new RegExp(`href="/search\\?keyword=${t}"[^>]*>Clear all<`));
  });

  it("a size it cannot read is set aside with a message", async () => {
    const html = await page(`/search?${new URLSearchParams({ keyword: t, size: "x".repeat(21) })}`);
    expect(visibleText(html)).toContain("The size in the address was not one we could read, so every size is shown.");
    expect(cardCount(html)).toBe(SHOES.length);
  });
});
