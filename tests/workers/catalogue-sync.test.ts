import { beforeAll, describe, expect, it } from "vitest";

import {
  CATEGORIES,
  countProducts,
  createProductApi,
  ids,
  insertProduct,
  productBody,
  search,
  totalCount,
  updateProductApi,
  type ApiProduct,
  type Category,
} from "./catalogue-helpers";
import { authHeader, call, registerAdmin, testEnv } from "./helpers";

// The search index (products_fts) and the per-category counts (catalogue_counts) are kept in step with products by
// triggers. Every change goes through the API here, and both are checked after each step.

let adminToken: string;

beforeAll(async () => {
  adminToken = (await registerAdmin()).token;
  // Some neighbours in every category, so a miscount cannot hide behind zeros.
  for (const category of CATEGORIES) await insertProduct({ name: `Neighbour ${category}`, category });
});

async function counts(): Promise<Record<Category | "all", number>> {
  const result = { all: await totalCount() } as Record<Category | "all", number>;
  for (const category of CATEGORIES) result[category] = await totalCount(category);
  return result;
}

/** X-Total-Count, overall and per category, equals what D1 really holds. */
async function expectCountsMatchTable() {
  expect(await totalCount(), "all").toBe(await countProducts());
  for (const category of CATEGORIES) expect(await totalCount(category), category).toBe(await countProducts(category));
}

/** FTS5's own check that the external-content index matches the products table. */
async function expectIndexIntact() {
  await testEnv.DB.prepare("INSERT INTO products_fts(products_fts, rank) VALUES ('integrity-check', 1)").run();
}

const found = async (keyword: string, id: number) => ids(await search(keyword)).includes(id);

describe("search index and counts stay in step", () => {
  let product: ApiProduct;

  it("insert: the new product is found by name, brand and category, and its category and the total go up by one", async () => {
    const before = await counts();
    product = await createProductApi(adminToken, { name: "Quokka Glide", brand: "Marsupia", category: "Gents" });
    for (const keyword of ["quokka", "QUOKKA GLIDE", "okk", "qu", "marsupia", "rsup"]) expect(await found(keyword, product.id), keyword).toBe(true);
    expect(await found("gents", product.id)).toBe(true);
    const after = await counts();
    expect(after).toEqual({ ...before, all: before.all + 1, Gents: before.Gents + 1 });
    await expectCountsMatchTable();
    await expectIndexIntact();
  });

  it("rename: the new name is found, the old one no longer; counts unchanged", async () => {
    const before = await counts();
    product = await updateProductApi(adminToken, product.id, productBody({ name: "Wombat Stride", brand: "Burrow & Co", category: "Gents" }));
    for (const keyword of ["wombat", "Wombat Stride", "bat s", "wo", "burrow"]) expect(await found(keyword, product.id), keyword).toBe(true);
    for (const keyword of ["quokka", "Quokka Glide", "okk", "glide", "marsupia", "qu"]) expect(await found(keyword, product.id), keyword).toBe(false);
    expect(await counts()).toEqual(before);
    await expectCountsMatchTable();
    await expectIndexIntact();
  });

  it("category change: counted in the new category, not the old; found by the new category only", async () => {
    const before = await counts();
    product = await updateProductApi(adminToken, product.id, productBody({ name: "Wombat Stride", brand: "Burrow & Co", category: "Ladies" }));
    expect(await counts()).toEqual({ ...before, Gents: before.Gents - 1, Ladies: before.Ladies + 1 });
    expect(await found("ladies", product.id)).toBe(true);
    expect(await found("gents", product.id)).toBe(false);
    const gents = (await (await call("/api/products?category=Gents&pageSize=100")).json()) as ApiProduct[];
    const ladies = (await (await call("/api/products?category=Ladies&pageSize=100")).json()) as ApiProduct[];
    expect(ids(gents)).not.toContain(product.id);
    expect(ids(ladies)).toContain(product.id);
    await expectCountsMatchTable();
    await expectIndexIntact();
  });

  it("an update that changes neither name nor category (price, stock) leaves index and counts alone", async () => {
    const before = await counts();
    product = await updateProductApi(adminToken, product.id, productBody({ name: "Wombat Stride", brand: "Burrow & Co", category: "Ladies", price: 999, stockQuantity: 1 }));
    expect(product.price).toBe(999);
    expect(await counts()).toEqual(before);
    expect(await found("wombat", product.id)).toBe(true);
    await expectCountsMatchTable();
    await expectIndexIntact();
  });

  it("several category moves in a row keep every count right", async () => {
    for (const category of ["Kids", "Accessories", "Gents", "Kids", "Kids"] as const) {
      product = await updateProductApi(adminToken, product.id, productBody({ name: "Wombat Stride", brand: "Burrow & Co", category }));
      await expectCountsMatchTable();
    }
    expect(await found("kids", product.id)).toBe(true);
    await expectIndexIntact();
  });

  it("delete: no longer found by any keyword, and its category and the total drop by one", async () => {
    const before = await counts();
    const response = await call(`/api/product/${product.id}`, { method: "DELETE", headers: authHeader(adminToken) });
    expect(response.status).toBe(204);
    for (const keyword of ["wombat", "Wombat Stride", "wo", "burrow", "kids"]) expect(await found(keyword, product.id), keyword).toBe(false);
    expect(await counts()).toEqual({ ...before, all: before.all - 1, Kids: before.Kids - 1 });
    await expectCountsMatchTable();
    await expectIndexIntact();
  });

  it("a product with the same name created after the delete is found once, under its new id", async () => {
    const again = await createProductApi(adminToken, { name: "Wombat Stride", category: "Accessories" });
    expect(ids(await search("wombat"))).toEqual([again.id]);
    expect(ids(await search("wo")).filter((id) => id === again.id)).toEqual([again.id]);
    await expectCountsMatchTable();
    await expectIndexIntact();
  });

  it("failed writes (bad input, wrong role) leave counts and index untouched", async () => {
    const before = await counts();
    const form = new FormData();
    form.set("product", JSON.stringify(productBody({ name: "Never Saved", category: "Gents" })));
    form.set("imageFile", new File([new TextEncoder().encode("not an image")], "x.png", { type: "image/png" }));
    expect((await call("/api/product", { method: "POST", body: form, headers: authHeader(adminToken) })).status).toBe(415);
    expect(await search("never saved")).toEqual([]);
    expect(await counts()).toEqual(before);
    await expectIndexIntact();
  });
});
