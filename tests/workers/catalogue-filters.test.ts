import { beforeAll, describe, expect, it } from "vitest";

import { cardCount, expectApiError, getJson, insertProduct, names, tag, visibleText, type ApiProduct, type Category } from "./catalogue-helpers";
import { call, testEnv } from "./helpers";

// The filters beside the category and sort (brand, price range) on GET /api/products, /api/products/search, the grid
// and the search results, and the brands they offer. This file's storage starts empty: every product is inserted here.

const t = tag();
const AERO = `Aero ${t}`;
const BOLT = `Bolt ${t}`;
const CORAL = `Coral ${t}`;

interface Fixture {
  name: string;
  brand: string;
  category: Category;
  price: number;
  releaseDate: string;
}
// Newest first by release date: the order the lists use when no sort is asked.
const FIXTURES: Fixture[] = [
  { name: `Aero Runner ${t}`, brand: AERO, category: "Gents", price: 5000, releaseDate: "2026-06-10" },
  { name: `Aero Loafer ${t}`, brand: AERO, category: "Gents", price: 9999.5, releaseDate: "2026-06-09" },
  { name: `Aero Derby ${t}`, brand: AERO, category: "Gents", price: 10000, releaseDate: "2026-06-08" },
  { name: `Aero Oxford ${t}`, brand: AERO, category: "Gents", price: 25000, releaseDate: "2026-06-07" },
  { name: `Aero Flat ${t}`, brand: AERO, category: "Ladies", price: 7500, releaseDate: "2026-06-06" },
  { name: `Bolt Runner ${t}`, brand: BOLT, category: "Gents", price: 8000, releaseDate: "2026-06-05" },
  { name: `Bolt Sandal ${t}`, brand: BOLT, category: "Kids", price: 2500, releaseDate: "2026-06-04" },
  { name: `Coral Heel ${t}`, brand: CORAL, category: "Ladies", price: 12000, releaseDate: "2026-06-03" },
];

const namesWhere = (test: (fixture: Fixture) => boolean) => FIXTURES.filter(test).map((fixture) => fixture.name);
const products = (query: Record<string, string>) => getJson<ApiProduct[]>(`/api/products?${new URLSearchParams(query)}`);
const html = async (path: string, status = 200) => {
  const response = await call(path);
  expect(response.status, path).toBe(status);
  return visibleText(await response.text());
};

beforeAll(async () => {
  for (const fixture of FIXTURES) await insertProduct(fixture);
});

describe("GET /api/products with filters", () => {
  it("brand keeps that brand's products only, exactly as spelled, with or without a category", async () => {
    expect(names(await products({ brand: AERO }))).toEqual(namesWhere((f) => f.brand === AERO));
    expect(names(await products({ brand: AERO, category: "Gents" }))).toEqual(namesWhere((f) => f.brand === AERO && f.category === "Gents"));
    // Another case is another brand.
    expect(await products({ brand: AERO.toUpperCase() })).toEqual([]);
  });

  it("an unknown brand gives an empty list and a total of 0, not an error", async () => {
    const response = await call(`/api/products?${new URLSearchParams({ brand: `Nobody ${t}`, page: "1" })}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
    expect(response.headers.get("X-Total-Count")).toBe("0");
  });

  it("a brand's page carries its real total in X-Total-Count, and Link rel=next while more pages follow", async () => {
    const first = await call(`/api/products?${new URLSearchParams({ brand: AERO, category: "Gents", page: "1", pageSize: "3" })}`);
    expect(first.headers.get("X-Total-Count")).toBe("4");
    const next = first.headers.get("Link");
    expect(next).toMatch(/^<http:\/\/localhost\/api\/products\?.*page=2.*>; rel="next"$/);
    const second = await call(next!.slice(1, next!.indexOf(">")).replace("http://localhost", ""));
    expect(names((await second.json()) as ApiProduct[])).toEqual([`Aero Oxford ${t}`]);
    expect(second.headers.get("X-Total-Count")).toBe("4");
    expect(second.headers.get("Link")).toBeNull();
  });

  it("minPrice and maxPrice are rupees, both ends included, decimals allowed", async () => {
    expect(names(await products({ minPrice: "8000", maxPrice: "10000" }))).toEqual(namesWhere((f) => f.price >= 8000 && f.price <= 10000));
    expect(names(await products({ minPrice: "9999.5" }))).toEqual(namesWhere((f) => f.price >= 9999.5));
    expect(names(await products({ maxPrice: "9999.49" }))).toEqual(namesWhere((f) => f.price <= 9999.49));
    expect(names(await products({ brand: AERO, minPrice: "7000", maxPrice: "12000", category: "Gents" }))).toEqual([`Aero Loafer ${t}`, `Aero Derby ${t}`]);
  });

  it("filters keep the sort: a price range sorted by price comes cheapest first", async () => {
    const list = await products({ minPrice: "2000", maxPrice: "12000", sort: "price-asc" });
    const expected = FIXTURES.filter((f) => f.price >= 2000 && f.price <= 12000).sort((a, b) => a.price - b.price);
    expect(names(list)).toEqual(expected.map((f) => f.name));
  });

  it("a price range is not counted: no X-Total-Count, and Link rel=next says whether another page follows", async () => {
    const query = { minPrice: "5000", maxPrice: "12000", pageSize: "2" };
    const all = namesWhere((f) => f.price >= 5000 && f.price <= 12000);
    expect(all).toHaveLength(6);
    const pages: string[][] = [];
    for (const page of ["1", "2", "3"]) {
      const response = await call(`/api/products?${new URLSearchParams({ ...query, page })}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("X-Total-Count")).toBeNull();
      expect(response.headers.get("Link") !== null, `page ${page}`).toBe(page !== "3");
      pages.push(names((await response.json()) as ApiProduct[]));
    }
    expect(pages.flat()).toEqual(all);
  });

  it.each([
    [{ minPrice: "12000", maxPrice: "5000" }, "maxPrice", /must not be below minPrice/],
    [{ minPrice: "-1" }, "minPrice", /cannot be negative/],
    [{ maxPrice: "-0.5" }, "maxPrice", /cannot be negative/],
    [{ minPrice: "cheap" }, "minPrice", /amount in rupees/],
    [{ maxPrice: "1e4" }, "maxPrice", /amount in rupees/],
    [{ minPrice: "12.345" }, "minPrice", /amount in rupees/],
    [{ minPrice: "" }, "minPrice", /amount in rupees/],
    [{ maxPrice: "99999999" }, "maxPrice", /at most 10000000/],
    [{ brand: "" }, "brand", /must not be empty/],
    [{ brand: "x".repeat(81) }, "brand", /at most 80 characters/],
  ])("%j is a 400 with fieldErrors.%s", async (query, field, message) => {
    const body = await expectApiError(await call(`/api/products?${new URLSearchParams(query)}`), 400);
    expect(body.fieldErrors?.[field]?.join(" ")).toMatch(message);
  });

  it("the brand counts follow the products: a new product, a product moved to another brand or category, a deleted one", async () => {
    const brand = `Moving ${t}`;
    const total = async (query: Record<string, string>) => (await call(`/api/products?${new URLSearchParams({ ...query, brand, page: "1" })}`)).headers.get("X-Total-Count");
    const id = await insertProduct({ brand, category: "Kids" });
    await insertProduct({ brand, category: "Kids" });
    expect([await total({}), await total({ category: "Kids" }), await total({ category: "Ladies" })]).toEqual(["2", "2", "0"]);
    await testEnv.DB.prepare("UPDATE products SET category = 'Ladies' WHERE id = ?").bind(id).run();
    expect([await total({}), await total({ category: "Kids" }), await total({ category: "Ladies" })]).toEqual(["2", "1", "1"]);
    await testEnv.DB.prepare("UPDATE products SET brand = ? WHERE id = ?").bind(`Renamed ${t}`, id).run();
    expect([await total({}), await total({ category: "Ladies" })]).toEqual(["1", "0"]);
    await testEnv.DB.prepare("DELETE FROM products WHERE brand = ?").bind(brand).run();
    expect(await total({})).toBe("0");
    // A brand with no products left is not offered.
    const { results } = await testEnv.DB.prepare("SELECT brand FROM catalogue_brands WHERE brand = ?").bind(brand).all();
    expect(results).toEqual([]);
    await testEnv.DB.prepare("DELETE FROM products WHERE brand = ?").bind(`Renamed ${t}`).run();
  });

  it("documents brand, minPrice and maxPrice as query parameters of /products and /products/search", async () => {
    const doc = (await (await call("/api/openapi.json")).json()) as { paths: Record<string, { get: { parameters?: { name: string; in: string }[] } }> };
    for (const path of ["/api/products", "/api/products/search"]) {
      const query = (doc.paths[path].get.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      expect(query, path).toEqual(expect.arrayContaining(["brand", "minPrice", "maxPrice"]));
    }
  });
});

describe("GET /api/products/search with filters", () => {
  it("narrows a keyword's matches by brand and price, through the index (3+ characters) and the short scan alike", async () => {
    const search = (query: Record<string, string>) => getJson<ApiProduct[]>(`/api/products/search?${new URLSearchParams(query)}`);
    expect(names(await search({ keyword: `Runner ${t}`, brand: BOLT }))).toEqual([`Bolt Runner ${t}`]);
    expect(names(await search({ keyword: t, minPrice: "9000", maxPrice: "12000" }))).toEqual(
      // Search lists newest inserted first (by id).
      namesWhere((f) => f.price >= 9000 && f.price <= 12000).reverse(),
    );
    // A two-character keyword goes through the scan; the brand still applies ("Ru": no hex tag holds it).
    expect(names(await search({ keyword: "Ru", brand: BOLT }))).toEqual([`Bolt Runner ${t}`]);
    expect(names(await search({ keyword: "Ru", brand: AERO, maxPrice: "5000" }))).toEqual([`Aero Runner ${t}`]);
    expect(await search({ keyword: "Ru", brand: CORAL })).toEqual([]);
  });

  it("refuses a price range the wrong way round with a 400", async () => {
    const body = await expectApiError(await call(`/api/products/search?${new URLSearchParams({ keyword: "Runner", minPrice: "10", maxPrice: "5" })}`), 400);
    expect(body.fieldErrors?.maxPrice).toBeDefined();
  });
});

describe("the grid's filters", () => {
  it("offer the category's brands, A to Z, and show the chosen brand's products only", async () => {
    const response = await call(`/?${new URLSearchParams({ category: "Gents", brand: AERO })}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    const text = visibleText(page);
    expect(cardCount(page)).toBe(4);
    for (const name of namesWhere((f) => f.brand === AERO && f.category === "Gents")) expect(text).toContain(name);
    expect(text).not.toContain(`Bolt Runner ${t}`);
    // The brand select: "All brands", then the Gents brands (Aero, Bolt; not Coral, who makes no Gents shoes).
    const select = page.match(/<select[^>]*name="brand"[\s\S]*?<\/select>/)?.[0] ?? "";
    const options = [...select.matchAll(/<option[^>]*value="([^"]*)"/g)].map((m) => m[1]);
    expect(options).toEqual(["", AERO, BOLT]);
    expect(select).toMatch(new RegExp(`<option value="${AERO}" selected=""`));
    // The category banner (SPEC) with its count, now the brand's.
    expect(text.replace(/<[^>]*>/g, "")).toMatch(/Showing Gents · 4 products/);
    expect(page).toContain('href="/"'); // Clear Filter
  });

  it("a GET form: carries the category and sort along, and 'Clear all' keeps them but drops the filters and the page", async () => {
    const page = await (await call(`/?${new URLSearchParams({ category: "Gents", sort: "name", brand: AERO, minPrice: "1000", page: "1" })}`)).text();
    const form = page.match(/<form[^>]*aria-label="Filters"[\s\S]*?<\/form>/)?.[0] ?? "";
    expect(form).toMatch(/method="get"/);
    expect(form).toContain('<input type="hidden" name="category" value="Gents"/>');
    expect(form).toContain('<input type="hidden" name="sort" value="name"/>');
    expect(form).toMatch(/name="minPrice"[^>]*value="1000"/);
    expect(form).toMatch(/href="\?category=Gents&amp;sort=name"[^>]*>Clear all</);
    // The sort's own form carries the filters along.
    const sortForm = page.match(/<form[\s\S]*?<\/form>/g)?.find((f) => f.includes('<select id="sort"')) ?? "";
    expect(sortForm).toContain(`<input type="hidden" name="brand" value="${AERO}"/>`);
    expect(sortForm).toContain('<input type="hidden" name="minPrice" value="1000"/>');
  });

  it("empty fields of the form without JavaScript send the browser to the listing's own address, which shows the listing", async () => {
    const sent = await call(`/?${new URLSearchParams({ category: "Ladies", size: "", brand: "", minPrice: "", maxPrice: " " })}`, { redirect: "manual" });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe("/?category=Ladies");
    const page = await (await call("/?category=Ladies")).text();
    expect(cardCount(page)).toBe(namesWhere((f) => f.category === "Ladies").length);
    expect(page).not.toContain('role="alert"');
    const search = await call(`/search?${new URLSearchParams({ keyword: "runner", size: "", brand: "Aeroglide" })}`, { redirect: "manual" });
    expect(search.status).toBe(302);
    expect(search.headers.get("Location")).toBe("/search?keyword=runner&brand=Aeroglide");
    // Nothing but empty fields: the bare listing.
    expect((await call("/?brand=", { redirect: "manual" })).headers.get("Location")).toBe("/");
  });

  it("a price range the wrong way round sets the range aside and says so, instead of an error page", async () => {
    const text = await html(`/?${new URLSearchParams({ category: "Gents", minPrice: "20000", maxPrice: "1000" })}`);
    expect(text).toContain("the price range was left out");
    for (const name of namesWhere((f) => f.category === "Gents")) expect(text).toContain(name);
  });

  it("a single minimum above every price says so (not 'the lowest no higher than the highest'), in one alert tied to the price fields", async () => {
    const text = await html(`/?${new URLSearchParams({ category: "Gents", minPrice: "99999999" })}`);
    expect(text).toContain("Prices go up to Rs 10,000,000.00; the price range was left out.");
    expect(text).not.toContain("the lowest no higher than the highest");
    expect(text).toMatch(/<div role="alert"[^>]*><p id="filter-problem-price">/);
    expect(text).toMatch(/id="filter-min-price"[^>]*aria-invalid="true"[^>]*aria-describedby="filter-problem-price"/);
  });

  it("a price range pages by Previous and Next (it is not counted), the filters kept in the links", async () => {
    // Every fixture is within Rs 1 - 30,000, and the page is 24: one page, so no page links at all.
    const one = await (await call(`/?${new URLSearchParams({ minPrice: "1", maxPrice: "30000" })}`)).text();
    expect(cardCount(one)).toBe(FIXTURES.length);
    expect(one).not.toContain('aria-label="Pages"');
    expect(visibleText(one)).not.toMatch(/Showing .* products/);
    // Page 2 of the same (an edited address): empty, named as such, with the way back to the first page, the range kept.
    const two = await (await call(`/?${new URLSearchParams({ minPrice: "1", maxPrice: "30000", page: "2" })}`)).text();
    expect(cardCount(two)).toBe(0);
    expect(visibleText(two)).toContain("No products on page 2");
    expect(visibleText(two)).toContain("The list ends before this page.");
    expect(visibleText(two)).not.toContain("No Products Available");
    expect(two).toMatch(/href="\?minPrice=1&amp;maxPrice=30000"[^>]*>Back to the first page</);
    // No page links: around an empty page they would lead to more empty pages.
    expect(two).not.toContain('aria-label="Pages"');
  });

  it("an unknown brand lists nothing and the empty grid offers to clear the filters", async () => {
    const text = await html(`/?${new URLSearchParams({ brand: `Nobody ${t}` })}`);
    expect(text).toContain("No Products Available");
    expect(text).toContain("clear all filters");
  });
});

describe("the search results' filters", () => {
  it("narrow the results, keep the keyword in the form, and offer the whole catalogue's brands", async () => {
    const page = await (await call(`/search?${new URLSearchParams({ keyword: t, brand: CORAL })}`)).text();
    expect(cardCount(page)).toBe(1);
    expect(visibleText(page)).toContain(`Coral Heel ${t}`);
    const form = page.match(/<form[^>]*aria-label="Filters"[\s\S]*?<\/form>/)?.[0] ?? "";
    expect(form).toContain(`<input type="hidden" name="keyword" value="${t}"/>`);
    for (const brand of [AERO, BOLT, CORAL]) expect(form).toContain(`value="${brand}"`);
    expect(form).toMatch(new RegExp(`href="/search\\?keyword=${t}"[^>]*>Clear all<`));
  });
});

describe("You may also like", () => {
  it("shows four other products of the category, those in stock first, then newest", async () => {
    const category = "Accessories";
    const ids: Record<string, number> = {};
    const add = async (key: string, releaseDate: string, extra: { stockQuantity?: number; productAvailable?: boolean } = {}) =>
      (ids[key] = await insertProduct({ name: `Related ${key} ${t}`, category, releaseDate, ...extra }));
    await add("viewed", "2026-01-01");
    await add("newest-but-sold-out", "2026-12-01", { stockQuantity: 0 });
    await add("newest-but-unavailable", "2026-11-01", { productAvailable: false });
    await add("in-stock-1", "2026-05-03");
    await add("in-stock-2", "2026-05-02");
    await add("in-stock-3", "2026-05-01");
    await add("in-stock-old", "2020-01-01");
    await insertProduct({ name: `Other category ${t}`, category: "Kids", releaseDate: "2027-01-01" });

    const page = await (await call(`/product/${ids.viewed}`)).text();
    const section = page.match(/<section[^>]*aria-labelledby="related-heading"[\s\S]*?<\/section>/)?.[0] ?? "";
    expect(visibleText(section)).toContain("You may also like");
    expect(section).toMatch(/<h2 id="related-heading"/);
    const shown = [...section.matchAll(/href="\/product\/(\d+)"/g)].map((m) => Number(m[1]));
    expect([...new Set(shown)]).toEqual([ids["in-stock-1"], ids["in-stock-2"], ids["in-stock-3"], ids["in-stock-old"]]);
    expect(cardCount(section)).toBe(4);

    // With fewer than four others in stock, the ones out of stock fill in after them, newest first.
    await testEnv.DB.prepare("DELETE FROM products WHERE id IN (?, ?)").bind(ids["in-stock-2"], ids["in-stock-3"]).run();
    const fromOld = await (await call(`/product/${ids["in-stock-old"]}`)).text();
    const others = [...(fromOld.match(/<section[^>]*aria-labelledby="related-heading"[\s\S]*?<\/section>/)?.[0] ?? "").matchAll(/href="\/product\/(\d+)"/g)].map((m) => Number(m[1]));
    expect([...new Set(others)]).toEqual([ids["in-stock-1"], ids.viewed, ids["newest-but-sold-out"], ids["newest-but-unavailable"]]);
  });

  it("is left out when the category has no other product", async () => {
    const only = await insertProduct({ name: `Lonely ${t}`, category: "Accessories" });
    await testEnv.DB.prepare("DELETE FROM products WHERE category = 'Accessories' AND id != ?").bind(only).run();
    const page = await (await call(`/product/${only}`)).text();
    expect(page).toContain(`Lonely ${t}`);
    expect(page).not.toContain("You may also like");
  });
});
