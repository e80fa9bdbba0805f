import { beforeAll, describe, expect, it } from "vitest";

import {
  countProducts,
  createProductApi,
  expectApiError,
  getJson,
  imageKeyOf,
  ids,
  jpeg,
  png,
  productBody,
  productMultipart,
  r2Keys,
  sendMultipart,
  totalCount,
  updateProductApi,
  type ApiProduct,
  type Upload,
} from "./catalogue-helpers";
import { JPEG_1X1, PNG_1X1, TEXT_BYTES, paddedPng, sameBytes } from "./fixtures/images";
import { apiJson, authHeader, call, login, register, registerAdmin, testEnv } from "./helpers";

// POST, PUT and DELETE /api/product (admin). Two accounts for the whole file: an admin and a customer.

let adminToken: string;
let customerToken: string;
let customerId: number;

beforeAll(async () => {
  adminToken = (await registerAdmin()).token;
  const customer = await register({ name: "Customer Chamari" });
  customerId = customer.id;
  customerToken = await login(customer.email, customer.password);
});

/** Runs a request that must fail, and checks that no product row and no R2 object was written. */
async function expectNothingWritten(send: () => Promise<Response>, status: number) {
  const productsBefore = await countProducts();
  const keysBefore = await r2Keys();
  const body = await expectApiError(await send(), status);
  expect(await countProducts()).toBe(productsBefore);
  expect(await r2Keys()).toEqual(keysBefore);
  return body;
}

/** POST /api/product; the admin's token unless told (null: no token at all). */
const post = (product: unknown, image: Upload | null = png(), token: string | null = adminToken) =>
  sendMultipart("POST", "/api/product", productMultipart(product, image), token ?? undefined);

describe("POST /api/product", () => {
  it("keeps only the last part of the image's file name, without control characters, at most 200 characters", async () => {
    for (const [sent, kept] of [
      ["../../etc/pass\u0007wd.png", "passwd.png"],
      ["C:\\Users\\amara\\shoe.png", "shoe.png"],
      [`${"n".repeat(5000)}.png`, "n".repeat(200)],
      ["../", "image"],
    ]) {
      const response = await post(productBody({ name: `Named Upload ${kept.length} ${sent.length}` }), { ...png("x.png"), name: sent });
      expect(response.status, await response.clone().text()).toBe(201);
      expect(((await response.json()) as ApiProduct).imageName, sent).toBe(kept);
    }
  });

  it("an admin creates a product: 201 and the Product, prices in rupees", async () => {
    const body = productBody({ name: "Admin Create Runner", brand: "Fleetfoot", price: 3499.5, category: "Ladies", stockQuantity: 12, releaseDate: "2026-06-15" });
    const keysBefore = await r2Keys();
    const response = await post(body, png("runner.png"));
    expect(response.status, await response.clone().text()).toBe(201);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const product = (await response.json()) as ApiProduct;
    expect(product).toMatchObject({ ...body, imageName: "runner.png" });
    expect(Number.isInteger(product.id)).toBe(true);
    expect(product.imageUrl).toMatch(new RegExp(`^/api/product/${product.id}/image\\?v=`));
    expect(await getJson(`/api/product/${product.id}`)).toEqual(product);
    const stored = await testEnv.DB.prepare("SELECT price_cents FROM products WHERE id = ?").bind(product.id).first<{ price_cents: number }>();
    expect(stored!.price_cents).toBe(349_950);
    // One new R2 object, under products/{id}/.
    const added = (await r2Keys()).filter((key) => !keysBefore.includes(key));
    expect(added).toEqual([await imageKeyOf(product.id)]);
    expect(added[0].startsWith(`products/${product.id}/`)).toBe(true);
  });

  it("keeps productAvailable false, whole rupee prices and a price with one decimal", async () => {
    const a = await createProductApi(adminToken, { productAvailable: false, price: 12500, stockQuantity: 0 });
    expect(a.productAvailable).toBe(false);
    expect(a.price).toBe(12500);
    expect(a.stockQuantity).toBe(0);
    const b = await createProductApi(adminToken, { price: 19.99 });
    expect(b.price).toBe(19.99);
  });

  it("ignores unknown fields, including an id sent by the client", async () => {
    const body = { ...productBody({ name: "Ignores Extras" }), id: 424242, priceCents: 1, averageRating: 5, role: "ROLE_ADMIN" };
    const response = await post(body);
    expect(response.status).toBe(201);
    const product = (await response.json()) as ApiProduct;
    expect(product.id).not.toBe(424242);
    expect(product.price).toBe(body.price);
    expect(product.averageRating).toBeNull();
  });

  it("a customer is refused with 403 and nothing is written", async () => {
    await expectNothingWritten(() => post(productBody(), png(), customerToken), 403);
  });

  it("a visitor is refused with 401 (token message) and nothing is written", async () => {
    const body = await expectNothingWritten(() => post(productBody(), png(), null), 401);
    expect(body.message.toLowerCase()).toContain("token");
  });

  it("a tampered token is 401 invalid", async () => {
    const body = await expectNothingWritten(() => post(productBody(), png(), adminToken.slice(0, -3) + "abc"), 401);
    expect(body.message).toMatch(/token/i);
    expect(body.message).toMatch(/invalid|expired/i);
  });

  it("a `product` part that is not JSON is 400", async () => {
    const body = await expectNothingWritten(() => post("{name: 'not json'"), 400);
    expect(body.message).toMatch(/json/i);
  });

  for (const raw of ["null", "[]", "123", '"a string"', "true"]) {
    it(`a \`product\` part holding JSON ${raw} is 400`, async () => {
      await expectNothingWritten(() => post(raw), 400);
    });
  }

  it("a missing `product` part is 400 with fieldErrors.product", async () => {
    const body = await expectNothingWritten(() => post(undefined), 400);
    expect(body.fieldErrors?.product?.length).toBeGreaterThan(0);
  });

  it("a JSON (not multipart) body is 400", async () => {
    await expectNothingWritten(() => apiJson("POST", "/api/product", productBody(), authHeader(adminToken)), 400);
  });

  it("missing fields are 400 with a fieldError for each", async () => {
    const body = await expectNothingWritten(() => post({}), 400);
    for (const field of ["name", "brand", "description", "price", "category", "stockQuantity", "releaseDate"]) {
      expect(body.fieldErrors?.[field]?.length, field).toBeGreaterThan(0);
    }
  });

  it("blank name, brand and description are 400", async () => {
    const body = await expectNothingWritten(() => post(productBody({ name: "   ", brand: "", description: " " })), 400);
    expect(Object.keys(body.fieldErrors ?? {}).sort()).toEqual(["brand", "description", "name"]);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["a price sent as the string \"4990\"", { price: "4990" }, "price"],
    ["a price with 3 decimals", { price: 12.345 }, "price"],
    ["a negative price", { price: -1 }, "price"],
    ["a price of 0 (a product is never free)", { price: 0 }, "price"],
    ["a price of 1e-9, 0 cents once kept in cents", { price: 1e-9 }, "price"],
    ["a null price", { price: null }, "price"],
    ["a negative stock", { stockQuantity: -1 }, "stockQuantity"],
    ["a fractional stock", { stockQuantity: 2.5 }, "stockQuantity"],
    ["a stock sent as the string \"5\"", { stockQuantity: "5" }, "stockQuantity"],
    ["an unknown category", { category: "Shoes" }, "category"],
    ["a lower-case category", { category: "kids" }, "category"],
    ["productAvailable as the string \"true\"", { productAvailable: "true" }, "productAvailable"],
    ["a release date that does not exist", { releaseDate: "2026-02-30" }, "releaseDate"],
    ["a release date in another format", { releaseDate: "07/03/2026" }, "releaseDate"],
    ["a name of 121 characters", { name: "n".repeat(121) }, "name"],
    ["a name sent as a number", { name: 12345 }, "name"],
  ];
  for (const [label, override, field] of invalid) {
    it(`${label} is 400 with fieldErrors.${field}`, async () => {
      const body = await expectNothingWritten(() => post({ ...productBody(), ...override }), 400);
      expect(body.fieldErrors?.[field]?.length, JSON.stringify(body)).toBeGreaterThan(0);
    });
  }

  it("a text file sent as an image (x.png, image/png) is 415", async () => {
    const body = await expectNothingWritten(() => post(productBody(), { bytes: TEXT_BYTES, name: "x.png", type: "image/png" }), 415);
    expect(body.fieldErrors?.imageFile?.length).toBeGreaterThan(0);
  });

  it("a PDF sent as an image is 415", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
    await expectNothingWritten(() => post(productBody(), { bytes: pdf, name: "shoe.jpg", type: "image/jpeg" }), 415);
  });

  it("a 6 MB image (valid PNG header, padded) is 413", async () => {
    const body = await expectNothingWritten(() => post(productBody(), { bytes: paddedPng(6 * 1024 * 1024), name: "huge.png", type: "image/png" }), 413);
    expect(body.message).toMatch(/large|5 ?MB/i);
  });

  it("an image of 5 MB plus one byte is 413", async () => {
    await expectNothingWritten(() => post(productBody(), { bytes: paddedPng(5 * 1024 * 1024 + 1), name: "big.png", type: "image/png" }), 413);
  });

  it("an image of exactly 5 MB is accepted", async () => {
    const product = await createProductApi(adminToken, { name: "Five Megabytes" }, { bytes: paddedPng(5 * 1024 * 1024), name: "five.png", type: "image/png" });
    const response = await call(`/api/product/${product.id}/image`);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect((await response.arrayBuffer()).byteLength).toBe(5 * 1024 * 1024);
  });

  it("a missing image is 400 with fieldErrors.imageFile", async () => {
    const body = await expectNothingWritten(() => post(productBody(), null), 400);
    expect(body.fieldErrors?.imageFile?.length).toBeGreaterThan(0);
  });

  it("an empty image file is 400 like a missing one", async () => {
    await expectNothingWritten(() => post(productBody(), { bytes: new Uint8Array(0), name: "empty.png", type: "image/png" }), 400);
  });

  it("imageFile sent as a text field is 400 like a missing one", async () => {
    const form = productMultipart(productBody(), null);
    form.set("imageFile", "not a file");
    await expectNothingWritten(() => sendMultipart("POST", "/api/product", form, adminToken), 400);
  });
});

describe("PUT /api/product/{id}", () => {
  it("updates the fields; without imageFile the image is kept (same imageUrl, same R2 object)", async () => {
    const created = await createProductApi(adminToken, { name: "Before Update", category: "Gents", price: 5000 });
    const keysBefore = await r2Keys();
    const body = productBody({ name: "After Update", brand: "Newbrand", description: "Changed.", price: 5499.99, category: "Kids", stockQuantity: 3, releaseDate: "2026-08-01", productAvailable: false });
    const updated = await updateProductApi(adminToken, created.id, body);
    expect(updated).toMatchObject({ ...body, id: created.id, imageUrl: created.imageUrl, imageName: created.imageName });
    expect(await getJson(`/api/product/${created.id}`)).toEqual(updated);
    expect(await r2Keys()).toEqual(keysBefore);
    const image = await call(created.imageUrl!);
    expect(image.status).toBe(200);
    expect(sameBytes(new Uint8Array(await image.arrayBuffer()), PNG_1X1)).toBe(true);
  });

  it("an empty file part (what a browser sends when no file is chosen) keeps the image", async () => {
    const created = await createProductApi(adminToken, { name: "Empty File Part" });
    const keysBefore = await r2Keys();
    const form = productMultipart(productBody({ name: "Empty File Part Renamed" }), null);
    form.set("imageFile", new File([], "", { type: "application/octet-stream" }));
    const response = await sendMultipart("PUT", `/api/product/${created.id}`, form, adminToken);
    expect(response.status).toBe(200);
    const updated = (await response.json()) as ApiProduct;
    expect(updated.name).toBe("Empty File Part Renamed");
    expect(updated.imageUrl).toBe(created.imageUrl);
    expect(await r2Keys()).toEqual(keysBefore);
  });

  it("with a new image: the old R2 object is gone and the new one is served", async () => {
    const created = await createProductApi(adminToken, { name: "Picture Swap" }, png());
    const oldKey = (await imageKeyOf(created.id))!;
    const oldTag = (await call(`/api/product/${created.id}/image`)).headers.get("ETag")!;
    const updated = await updateProductApi(adminToken, created.id, productBody({ name: "Picture Swap" }), jpeg("new.jpg"));
    expect(updated.imageUrl).not.toBe(created.imageUrl);
    expect(updated.imageName).toBe("new.jpg");
    const newKey = (await imageKeyOf(created.id))!;
    expect(newKey).not.toBe(oldKey);
    expect(await testEnv.BUCKET.head(oldKey)).toBeNull();
    expect(await testEnv.BUCKET.head(newKey)).not.toBeNull();
    expect((await r2Keys(`products/${created.id}/`))).toEqual([newKey]);
    // The new picture is served, and the old ETag no longer matches.
    const response = await call(`/api/product/${created.id}/image`, { headers: { "If-None-Match": oldTag } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("ETag")).not.toBe(oldTag);
    expect(sameBytes(new Uint8Array(await response.arrayBuffer()), JPEG_1X1)).toBe(true);
    const versioned = await call(updated.imageUrl!);
    expect(versioned.headers.get("Cache-Control")).toContain("immutable");
    await versioned.arrayBuffer();
  });

  it("a missing product is 404, and an image sent with it is not stored", async () => {
    await expectNothingWritten(() => sendMultipart("PUT", "/api/product/999999", productMultipart(productBody(), png()), adminToken), 404);
    await expectNothingWritten(() => sendMultipart("PUT", "/api/product/abc", productMultipart(productBody(), png()), adminToken), 404);
  });

  it("a customer is refused with 403 and the product is unchanged", async () => {
    const created = await createProductApi(adminToken, { name: "Customer Cannot Edit" });
    await expectNothingWritten(() => sendMultipart("PUT", `/api/product/${created.id}`, productMultipart(productBody({ name: "Hacked" }), png()), customerToken), 403);
    expect((await getJson<ApiProduct>(`/api/product/${created.id}`)).name).toBe("Customer Cannot Edit");
  });

  it("a visitor is refused with 401", async () => {
    const created = await createProductApi(adminToken, { name: "Visitor Cannot Edit" });
    await expectNothingWritten(() => sendMultipart("PUT", `/api/product/${created.id}`, productMultipart(productBody(), null)), 401);
    expect((await getJson<ApiProduct>(`/api/product/${created.id}`)).name).toBe("Visitor Cannot Edit");
  });

  it("bad input is 400 and changes nothing", async () => {
    const created = await createProductApi(adminToken, { name: "Stays The Same", price: 7000 });
    const body = await expectNothingWritten(() => sendMultipart("PUT", `/api/product/${created.id}`, productMultipart({ ...productBody(), price: "7500" }, null), adminToken), 400);
    expect(body.fieldErrors?.price?.length).toBeGreaterThan(0);
    expect(await getJson(`/api/product/${created.id}`)).toEqual(created);
  });

  it("a text file as the new image is 415 and the old image stays", async () => {
    const created = await createProductApi(adminToken, { name: "Keeps Old Picture" });
    await expectNothingWritten(() => sendMultipart("PUT", `/api/product/${created.id}`, productMultipart(productBody({ name: "Renamed" }), { bytes: TEXT_BYTES, name: "x.png", type: "image/png" }), adminToken), 415);
    expect(await getJson(`/api/product/${created.id}`)).toEqual(created);
    const image = await call(created.imageUrl!);
    expect(image.status).toBe(200);
    await image.arrayBuffer();
  });
});

describe("DELETE /api/product/{id}", () => {
  it("204, then GET is 404, its R2 object is gone, the list no longer has it and the counts drop by one", async () => {
    const created = await createProductApi(adminToken, { name: "Delete Me Now", category: "Kids" });
    const key = (await imageKeyOf(created.id))!;
    expect(await testEnv.BUCKET.head(key)).not.toBeNull();
    const totalBefore = await totalCount();
    const kidsBefore = await totalCount("Kids");
    expect(ids(await getJson<ApiProduct[]>("/api/products?pageSize=100"))).toContain(created.id);

    const response = await call(`/api/product/${created.id}`, { method: "DELETE", headers: authHeader(adminToken) });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");

    await expectApiError(await call(`/api/product/${created.id}`), 404);
    await expectApiError(await call(`/api/product/${created.id}/image`), 404);
    expect(await testEnv.BUCKET.head(key)).toBeNull();
    expect(await r2Keys(`products/${created.id}/`)).toEqual([]);
    expect(ids(await getJson<ApiProduct[]>("/api/products?pageSize=100"))).not.toContain(created.id);
    expect(ids(await getJson<ApiProduct[]>("/api/products?category=Kids&pageSize=100"))).not.toContain(created.id);
    expect(await totalCount()).toBe(totalBefore - 1);
    expect(await totalCount("Kids")).toBe(kidsBefore - 1);
    expect(await totalCount()).toBe(await countProducts());
  });

  it("past orders keep their lines: name and price stay, product_id becomes null", async () => {
    const created = await createProductApi(adminToken, { name: "Ordered Then Deleted", price: 4250.75 });
    const order = await testEnv.DB.prepare(
      "INSERT INTO orders (user_id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status) VALUES (?, ?, ?, ?, ?, ?, 'DELIVERED') RETURNING id",
    )
      .bind(customerId, "Customer Chamari", "chamari@example.com", "0771234567", "1 Temple Road, Kandy", 850_150)
      .first<{ id: number }>();
    const line = await testEnv.DB.prepare("INSERT INTO order_items (order_id, product_id, product_name, unit_price_cents, quantity) VALUES (?, ?, ?, ?, 2) RETURNING id")
      .bind(order!.id, created.id, created.name, 425_075)
      .first<{ id: number }>();

    const response = await call(`/api/product/${created.id}`, { method: "DELETE", headers: authHeader(adminToken) });
    expect(response.status).toBe(204);

    const kept = await testEnv.DB.prepare("SELECT order_id, product_id, product_name, unit_price_cents, quantity FROM order_items WHERE id = ?").bind(line!.id).first();
    expect(kept).toEqual({ order_id: order!.id, product_id: null, product_name: "Ordered Then Deleted", unit_price_cents: 425_075, quantity: 2 });
    const orderRow = await testEnv.DB.prepare("SELECT total_cents FROM orders WHERE id = ?").bind(order!.id).first<{ total_cents: number }>();
    expect(orderRow!.total_cents).toBe(850_150);
  });

  it("the product drops out of every cart", async () => {
    const created = await createProductApi(adminToken, { name: "In A Cart" });
    await testEnv.DB.prepare("INSERT INTO cart_items (user_id, product_id, size_id, quantity) VALUES (?, ?, ?, 1)").bind(customerId, created.id, created.sizes[0].id).run();
    const response = await call(`/api/product/${created.id}`, { method: "DELETE", headers: authHeader(adminToken) });
    expect(response.status).toBe(204);
    const row = await testEnv.DB.prepare("SELECT count(*) AS n FROM cart_items WHERE product_id = ?").bind(created.id).first<{ n: number }>();
    expect(row!.n).toBe(0);
  });

  it("a second DELETE, a missing id and a non-numeric id are 404", async () => {
    const created = await createProductApi(adminToken, { name: "Delete Twice" });
    expect((await call(`/api/product/${created.id}`, { method: "DELETE", headers: authHeader(adminToken) })).status).toBe(204);
    for (const id of [String(created.id), "999999", "abc", "-1", "0", "1.5"]) {
      await expectApiError(await call(`/api/product/${id}`, { method: "DELETE", headers: authHeader(adminToken) }), 404);
    }
  });

  it("a customer is refused with 403 and a visitor with 401; the product and its image stay", async () => {
    const created = await createProductApi(adminToken, { name: "Not Yours To Delete" });
    const key = (await imageKeyOf(created.id))!;
    await expectNothingWritten(() => call(`/api/product/${created.id}`, { method: "DELETE", headers: authHeader(customerToken) }), 403);
    await expectNothingWritten(() => call(`/api/product/${created.id}`, { method: "DELETE" }), 401);
    expect(await getJson(`/api/product/${created.id}`)).toEqual(created);
    expect(await testEnv.BUCKET.head(key)).not.toBeNull();
  });
});

describe("methods", () => {
  it("PATCH /api/product/{id} is 405 with Allow", async () => {
    const response = await call("/api/product/1", { method: "PATCH", headers: authHeader(adminToken) });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toContain("PUT");
  });
});
