import { beforeAll, describe, expect, it } from "vitest";

import {
  CATEGORIES,
  PRODUCT_EXTRA_FIELDS,
  PRODUCT_FIELDS,
  countProducts,
  expectApiError,
  getJson,
  ids,
  insertProduct,
  tag,
  type ApiProduct,
  type Category,
} from "./catalogue-helpers";
import { call, testEnv } from "./helpers";

// GET /api/products. This file inserts every product it lists (straight into D1, which fires the same triggers as
// the app), and compares with what D1 really holds rather than assuming an empty catalogue.

const t = tag();
const fixtures: { key: string; category: Category; releaseDate: string; price: number }[] = [
  // Inserted in this order, so ids do not follow release dates; B and C share a date (C gets the higher id).
  { key: "A", category: "Ladies", releaseDate: "2026-01-10", price: 4990 },
  { key: "B", category: "Gents", releaseDate: "2026-03-01", price: 15000 },
  { key: "D", category: "Kids", releaseDate: "2025-12-31", price: 2750.25 },
  { key: "F", category: "Gents", releaseDate: "2026-04-01", price: 12500 },
  { key: "C", category: "Ladies", releaseDate: "2026-03-01", price: 8800 },
  { key: "E", category: "Accessories", releaseDate: "2026-02-14", price: 3499.5 },
];
const idOf: Record<string, number> = {};

interface Row {
  id: number;
  category: Category;
  release_date: string;
}

/** Every product in D1, newest first as API.md orders them: releaseDate, then id, both descending. */
async function newestFirst(category?: Category): Promise<number[]> {
  const { results } = await testEnv.DB.prepare("SELECT id, category, release_date FROM products").all<Row>();
  return results
    .filter((row) => !category || row.category === category)
    .sort((a, b) => (a.release_date === b.release_date ? b.id - a.id : a.release_date < b.release_date ? 1 : -1))
    .map((row) => row.id);
}

beforeAll(async () => {
  for (const fixture of fixtures) {
    idOf[fixture.key] = await insertProduct({ name: `List ${fixture.key} ${t}`, category: fixture.category, releaseDate: fixture.releaseDate, price: fixture.price });
  }
});

describe("GET /api/products", () => {
  it("lists the catalogue newest first (releaseDate, then id), without X-Total-Count when no page is asked", async () => {
    const response = await call("/api/products");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("X-Total-Count")).toBeNull();
    const products = (await response.json()) as ApiProduct[];
    expect(ids(products)).toEqual(await newestFirst());
    // The fixtures among them, in the order their dates and ids give.
    const mine = ids(products).filter((id) => Object.values(idOf).includes(id));
    expect(mine).toEqual(["F", "C", "B", "E", "A", "D"].map((key) => idOf[key]));
  });

  it("each product has exactly API.md's fields (plus imageUrl, averageRating, reviewCount) with the right types", async () => {
    const products = await getJson<ApiProduct[]>("/api/products");
    expect(products.length).toBeGreaterThan(0);
    const allowed = new Set<string>([...PRODUCT_FIELDS, ...PRODUCT_EXTRA_FIELDS]);
    for (const product of products) {
      for (const field of PRODUCT_FIELDS) expect(product, field).toHaveProperty(field);
      for (const field of Object.keys(product)) expect(allowed.has(field), `unexpected field ${field}`).toBe(true);
      expect(Number.isInteger(product.id)).toBe(true);
      expect(typeof product.name).toBe("string");
      expect(typeof product.brand).toBe("string");
      expect(typeof product.description).toBe("string");
      expect(typeof product.price).toBe("number");
      expect(CATEGORIES).toContain(product.category);
      expect(Number.isInteger(product.stockQuantity)).toBe(true);
      expect(product.releaseDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(typeof product.productAvailable).toBe("boolean");
    }
  });

  it("prices are rupees (12500, 3499.5, 2750.25), never cents", async () => {
    const products = await getJson<ApiProduct[]>("/api/products");
    const byId = new Map(products.map((product) => [product.id, product]));
    expect(byId.get(idOf.F)!.price).toBe(12500);
    expect(byId.get(idOf.E)!.price).toBe(3499.5);
    expect(byId.get(idOf.D)!.price).toBe(2750.25);
    const stored = await testEnv.DB.prepare("SELECT price_cents FROM products WHERE id = ?").bind(idOf.F).first<{ price_cents: number }>();
    expect(stored!.price_cents).toBe(1_250_000);
  });

  it("?category=Ladies lists only Ladies, newest first", async () => {
    const products = await getJson<ApiProduct[]>("/api/products?category=Ladies");
    expect(products.length).toBeGreaterThanOrEqual(2);
    expect(products.every((product) => product.category === "Ladies")).toBe(true);
    expect(ids(products)).toEqual(await newestFirst("Ladies"));
    expect(ids(products)).toContain(idOf.A);
    expect(ids(products)).toContain(idOf.C);
    expect(ids(products)).not.toContain(idOf.B);
  });

  it("an empty ?category= (SPEC's 'every category') lists every category, as no category does", async () => {
    expect(ids(await getJson<ApiProduct[]>("/api/products?category="))).toEqual(ids(await getJson<ApiProduct[]>("/api/products")));
    expect(ids(await getJson<ApiProduct[]>("/api/products?category=&page=1&pageSize=5"))).toEqual((await newestFirst()).slice(0, 5));
  });

  for (const category of ["Shoes", "ladies", "GENTS", "Ladies'; DROP TABLE products; --"]) {
    it(`an unknown category (${JSON.stringify(category)}) is 400 with a message`, async () => {
      const body = await expectApiError(await call(`/api/products?${new URLSearchParams({ category })}`), 400);
      expect(body.message).toMatch(/categor/i);
    });
  }

  it("page and pageSize give that page alone, and X-Total-Count is the real count", async () => {
    const all = await newestFirst();
    const total = await countProducts();
    expect(total).toBe(all.length);
    const seen: number[] = [];
    for (let page = 1; page <= Math.ceil(total / 4); page++) {
      const response = await call(`/api/products?page=${page}&pageSize=4`);
      expect(response.status).toBe(200);
      expect(response.headers.get("X-Total-Count")).toBe(String(total));
      const products = (await response.json()) as ApiProduct[];
      expect(ids(products)).toEqual(all.slice((page - 1) * 4, page * 4));
      seen.push(...ids(products));
    }
    expect(seen).toEqual(all);
  });

  it("a page past the end is an empty list that still carries X-Total-Count", async () => {
    const total = await countProducts();
    const response = await call("/api/products?page=999&pageSize=50");
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Total-Count")).toBe(String(total));
    expect(await response.json()).toEqual([]);
  });

  it("paging within a category counts only that category", async () => {
    for (const category of CATEGORIES) {
      const real = await countProducts(category);
      const response = await call(`/api/products?category=${category}&page=1&pageSize=1`);
      expect(response.status).toBe(200);
      expect(response.headers.get("X-Total-Count"), category).toBe(String(real));
      const products = (await response.json()) as ApiProduct[];
      expect(ids(products)).toEqual((await newestFirst(category)).slice(0, 1));
    }
  });

  it("page without pageSize uses a default page size and still sends X-Total-Count", async () => {
    const response = await call("/api/products?page=1");
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Total-Count")).toBe(String(await countProducts()));
    expect(ids((await response.json()) as ApiProduct[])).toEqual((await newestFirst()).slice(0, 24));
  });

  it("pageSize without page limits the list and sends no X-Total-Count", async () => {
    const response = await call("/api/products?pageSize=2");
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Total-Count")).toBeNull();
    expect(ids((await response.json()) as ApiProduct[])).toEqual((await newestFirst()).slice(0, 2));
  });

  it("pageSize 100 is accepted", async () => {
    const response = await call("/api/products?page=1&pageSize=100");
    expect(response.status).toBe(200);
  });

  for (const query of [
    "pageSize=0&page=1",
    "pageSize=101&page=1",
    "pageSize=abc&page=1",
    "pageSize=-1&page=1",
    "pageSize=1.5&page=1",
    "pageSize=0",
    "pageSize=101",
    "page=0",
    "page=-1",
    "page=abc",
    "page=1.5",
    "page=1e2",
    "page=",
    "page=99999999999999999999",
    "sort=cheapest",
  ]) {
    it(`?${query} is 400 with a message`, async () => {
      const body = await expectApiError(await call(`/api/products?${query}`), 400);
      expect(body.message).toMatch(/page|sort/i);
    });
  }

  it("sort=price-asc orders by price", async () => {
    const products = await getJson<ApiProduct[]>("/api/products?sort=price-asc");
    const prices = products.map((product) => product.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it("a new product appears first and raises X-Total-Count by one", async () => {
    const before = Number((await call("/api/products?page=1&pageSize=1")).headers.get("X-Total-Count"));
    const id = await insertProduct({ name: `Newest ${t}`, category: "Kids", releaseDate: "2027-01-01" });
    const response = await call("/api/products?page=1&pageSize=1");
    expect(response.headers.get("X-Total-Count")).toBe(String(before + 1));
    expect(ids((await response.json()) as ApiProduct[])).toEqual([id]);
  });
});
