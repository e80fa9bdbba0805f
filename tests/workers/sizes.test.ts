import { beforeAll, describe, expect, it } from "vitest";

import { type ApiProduct, createProductApi, expectApiError, productMultipart, sendMultipart, tag } from "./catalogue-helpers";
import { apiJson, authHeader, call, postForm, setCookieFor, testEnv } from "./helpers";
import {
  type Account,
  cartApi,
  cartOk,
  newAdmin,
  newCustomer,
  type Order,
  orderBody,
  orderForm,
  placeOrder,
  postOrder,
  stockOf,
} from "./order-helpers";

// Sizes: a product has one or more, each with its own stock; the product's stockQuantity is their sum, kept by the
// database. Cart lines and order lines are per size. Bad input (another product's size, a removed size, stock below
// zero, a choice missing) is a 4xx that changes nothing.

const t = tag();
const SELECT_A_SIZE = "Please select a size";
const UNKNOWN_SIZE = "That size is not one of this product's sizes";
const GENTS = ["EU 40", "EU 41", "EU 42", "EU 43"];

let admin: Account;
let customer: Account;

beforeAll(async () => {
  [admin, customer] = await Promise.all([newAdmin(), newCustomer("Size Shopper")]);
});

/** A Gents shoe with the given stock per size (EU 40 to EU 43 by default). */
async function shoe(stock: number[] = [3, 0, 5, 2], labels = GENTS): Promise<ApiProduct> {
  const sizes = labels.map((label, i) => ({ label, stockQuantity: stock[i] }));
  return createProductApi(admin.token, { name: `Sized Runner ${t} ${crypto.randomUUID().slice(0, 6)}`, category: "Gents", sizes });
}

const sizeId = (product: ApiProduct, label: string) => product.sizes.find((size) => size.label === label)!.id;

async function sizeStock(id: number): Promise<number | null> {
  const row = await testEnv.DB.prepare("SELECT stock_quantity AS s FROM product_sizes WHERE id = ?").bind(id).first<{ s: number }>();
  return row?.s ?? null;
}

async function getProduct(id: number): Promise<ApiProduct> {
  const response = await call(`/api/product/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ApiProduct;
}

function updateProduct(product: ApiProduct, changes: Record<string, unknown>): Promise<Response> {
  const { id: _id, imageName: _name, imageUrl: _url, averageRating: _avg, reviewCount: _count, sizes: _sizes, ...body } = product;
  return sendMultipart("PUT", `/api/product/${product.id}`, productMultipart({ ...body, ...changes }, null), admin.token);
}

describe("sizes of a product", () => {
  it("a product created with sizes has them in order, and stockQuantity is their sum", async () => {
    const created = await shoe();
    expect(created.sizes.map(({ label, stockQuantity }) => ({ label, stockQuantity }))).toEqual([
      { label: "EU 40", stockQuantity: 3 },
      { label: "EU 41", stockQuantity: 0 },
      { label: "EU 42", stockQuantity: 5 },
      { label: "EU 43", stockQuantity: 2 },
    ]);
    expect(created.stockQuantity).toBe(10);
    expect((await getProduct(created.id)).sizes).toEqual(created.sizes);
    const listed = (await (await call("/api/products?page=1&pageSize=100")).json()) as ApiProduct[];
    expect(listed.find((product) => product.id === created.id)?.sizes).toEqual(created.sizes);
  });

  it("every list of the API carries each product's own sizes, in display order (a JSON array in its own row)", async () => {
    const created = await shoe([1, 2, 0, 4]);
    const other = await shoe([0, 0, 6, 0]);
    const lists = [
      "/api/products?page=1&pageSize=100",
      "/api/products",
      `/api/products?${new URLSearchParams({ size: "EU 40", page: "1", pageSize: "100" })}`, // uncounted: the walk
      `/api/products?${new URLSearchParams({ minPrice: "0", maxPrice: "1000000" })}`,
      `/api/products/search?${new URLSearchParams({ keyword: `Sized Runner ${t}` })}`, // the trigram index
      `/api/products/search?${new URLSearchParams({ keyword: "Si" })}`, // a short keyword: the LIKE scan
    ];
    for (const path of lists) {
      const listed = (await (await call(path)).json()) as ApiProduct[];
      const mine = listed.find((product) => product.id === created.id);
      expect(mine?.sizes, path).toEqual(created.sizes);
      const theirs = listed.find((product) => product.id === other.id);
      if (theirs) expect(theirs.sizes, path).toEqual(other.sizes);
      for (const product of listed) expect(product.sizes.length, `${path}: ${product.name}`).toBeGreaterThan(0);
    }
  });

  it("a product created without sizes (API.md's shape) has one 'One size' holding its stock", async () => {
    const created = await createProductApi(admin.token, { name: `Plain Belt ${t}`, category: "Accessories", stockQuantity: 7 });
    expect(created.sizes).toEqual([{ id: expect.any(Number), label: "One size", stockQuantity: 7 }]);
    expect(created.stockQuantity).toBe(7);
    // PUT with stockQuantity and no sizes restocks that one size.
    const updated = await updateProduct(created, { stockQuantity: 4 });
    expect(updated.status).toBe(200);
    const body = (await updated.json()) as ApiProduct;
    expect(body.sizes).toEqual([{ id: created.sizes[0].id, label: "One size", stockQuantity: 4 }]);
    expect(body.stockQuantity).toBe(4);
  });

  it("an update renames, restocks, reorders, adds and removes sizes; the total follows", async () => {
    const created = await shoe();
    const [s40, s41, s42] = ["EU 40", "EU 41", "EU 42"].map((label) => sizeId(created, label));
    const response = await updateProduct(created, {
      sizes: [
        { id: s42, label: "EU 42", stockQuantity: 1 },
        { id: s40, label: "EU 41", stockQuantity: 6 }, // renamed onto a label another size had: a swap
        { id: s41, label: "EU 40", stockQuantity: 0 },
        { label: "EU 44", stockQuantity: 2 },
      ],
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const updated = (await response.json()) as ApiProduct;
    expect(updated.sizes.map(({ label, stockQuantity }) => [label, stockQuantity])).toEqual([
      ["EU 42", 1],
      ["EU 41", 6],
      ["EU 40", 0],
      ["EU 44", 2],
    ]);
    expect(updated.sizes.slice(0, 3).map((size) => size.id)).toEqual([s42, s40, s41]);
    expect(updated.stockQuantity).toBe(9);
    expect(await stockOf(created.id)).toBe(9);
  });

  it("a product with several sizes keeps its sizes' stock when a client of API.md's shape sends only a total", async () => {
    const created = await shoe();
    const response = await updateProduct(created, { stockQuantity: 99, name: `Renamed ${t}` });
    expect(response.status).toBe(200);
    const updated = (await response.json()) as ApiProduct;
    expect(updated.name).toBe(`Renamed ${t}`);
    expect(updated.sizes).toEqual(created.sizes);
    expect(updated.stockQuantity).toBe(10);
  });

  it("with stockWas, an edit moves a size's stock by the change, so pairs sold while the form was open stay sold", async () => {
    const created = await shoe(); // EU 40: 3, EU 41: 0, EU 42: 5, EU 43: 2
    const s42 = sizeId(created, "EU 42");
    await placeOrder(customer.token, [{ productId: created.id, sizeId: s42, quantity: 2 }]); // EU 42 now 3
    const seen = created.sizes.map((size) => ({ ...size, stockWas: size.stockQuantity }));
    // Untouched rows (as the form sends them) keep today's stock; EU 40 +4; EU 43 set to 0 from 2.
    const sizes = seen.map((size) =>
      size.label === "EU 40" ? { ...size, stockQuantity: 7 } : size.label === "EU 43" ? { ...size, stockQuantity: 0 } : size,
    );
    const response = await updateProduct(created, { sizes });
    expect(response.status, await response.clone().text()).toBe(200);
    const updated = (await response.json()) as ApiProduct;
    expect(updated.sizes.map(({ label, stockQuantity }) => [label, stockQuantity])).toEqual([
      ["EU 40", 7],
      ["EU 41", 0],
      ["EU 42", 3],
      ["EU 43", 0],
    ]);
    // Lowering below what is left stops at zero rather than failing.
    const lower = await updateProduct(updated, { sizes: updated.sizes.map((size) => (size.id === s42 ? { ...size, stockWas: 5, stockQuantity: 0 } : size)) });
    expect(lower.status).toBe(200);
    expect(await sizeStock(s42)).toBe(0);
  });

  const badSizes: [string, () => unknown][] = [
    ["stock below zero", () => [{ label: "EU 40", stockQuantity: -1 }]],
    ["a fractional stock", () => [{ label: "EU 40", stockQuantity: 1.5 }]],
    ["no sizes at all", () => []],
    ["two sizes with one label (any case)", () => [{ label: "EU 40", stockQuantity: 1 }, { label: "eu 40", stockQuantity: 1 }]],
    ["an empty label", () => [{ label: "  ", stockQuantity: 1 }]],
    ["a label of 21 characters", () => [{ label: "x".repeat(21), stockQuantity: 1 }]],
    ["31 sizes", () => Array.from({ length: 31 }, (_, i) => ({ label: `S${i}`, stockQuantity: 1 }))],
    ["a size of another product", () => [{ id: otherProduct.sizes[0].id, label: "EU 40", stockQuantity: 1 }]],
    ["a size id that does not exist", () => [{ id: 999999, label: "EU 40", stockQuantity: 1 }]],
  ];
  let otherProduct: ApiProduct;
  beforeAll(async () => {
    otherProduct = await shoe([1, 1, 1, 1]);
  });
  for (const [what, sizes] of badSizes) {
    it(`an update with ${what} is 400 and changes nothing`, async () => {
      const created = await shoe();
      await expectApiError(await updateProduct(created, { sizes: sizes() }), 400);
      expect(await getProduct(created.id)).toEqual(created);
    });
  }

  it("a label used twice is named on the list and on the size that repeats it", async () => {
    const created = await shoe();
    const body = await expectApiError(await updateProduct(created, { sizes: [{ label: "EU 40", stockQuantity: 1 }, { label: "EU 41", stockQuantity: 1 }, { label: "eu 40", stockQuantity: 1 }] }), 400);
    expect(body.fieldErrors).toEqual({ "sizes.2.label": ["A size above has this label"], sizes: ["Each size needs its own label"] });
  });

  it("a create with stock below zero in a size is 400 and creates nothing", async () => {
    const name = `Never Made ${t}`;
    const form = productMultipart({ name, brand: "Stride", description: "x", price: 100, category: "Gents", stockQuantity: 0, releaseDate: "2026-01-01", productAvailable: true, sizes: [{ label: "EU 40", stockQuantity: -2 }] });
    await expectApiError(await sendMultipart("POST", "/api/product", form, admin.token), 400);
    const row = await testEnv.DB.prepare("SELECT count(*) AS n FROM products WHERE name = ?").bind(name).first<{ n: number }>();
    expect(row!.n).toBe(0);
  });

  it("the database keeps the total: a direct write of products.stock_quantity is refused", async () => {
    const created = await shoe();
    await expect(testEnv.DB.prepare("UPDATE products SET stock_quantity = 500 WHERE id = ?").bind(created.id).run()).rejects.toThrow(/sum of its sizes/);
    await expect(testEnv.DB.prepare("UPDATE product_sizes SET stock_quantity = -1 WHERE id = ?").bind(created.sizes[0].id).run()).rejects.toThrow(/CHECK/);
    expect(await stockOf(created.id)).toBe(10);
  });
});

describe("the cart per size", () => {
  it("POST /cart/add without a size is 400 'Please select a size' for a product with several; with one, it adds that size", async () => {
    const created = await shoe();
    const refused = await cartApi("POST", `/add?productId=${created.id}`, customer.token);
    expect((await expectApiError(refused, 400)).message).toBe(SELECT_A_SIZE);
    const lines = await cartOk("POST", `/add?productId=${created.id}&sizeId=${sizeId(created, "EU 42")}&quantity=2`, customer.token);
    expect(lines.find((line) => line.productId === created.id)).toMatchObject({ sizeId: sizeId(created, "EU 42"), sizeLabel: "EU 42", quantity: 2, stockQuantity: 5 });
    await cartOk("DELETE", "/clear", customer.token);
  });

  it("a size of another product, a sold-out size and a size's stock cap are refused", async () => {
    const created = await shoe();
    const other = await shoe([1, 1, 1, 1]);
    expect((await expectApiError(await cartApi("POST", `/add?productId=${created.id}&sizeId=${other.sizes[0].id}`, customer.token), 400)).message).toBe(UNKNOWN_SIZE);
    await expectApiError(await cartApi("POST", `/add?productId=${created.id}&sizeId=${sizeId(created, "EU 41")}`, customer.token), 409);
    await cartOk("POST", `/add?productId=${created.id}&sizeId=${sizeId(created, "EU 43")}&quantity=2`, customer.token);
    const above = await expectApiError(await cartApi("POST", `/add?productId=${created.id}&sizeId=${sizeId(created, "EU 43")}`, customer.token), 409);
    expect(above.message).toBe("Cannot add more than available stock");
    expect(await cartOk("GET", "", customer.token)).toEqual([expect.objectContaining({ sizeLabel: "EU 43", quantity: 2 })]);
    // Removing the line of another product's size names a line that cannot exist: 400, as add and set say.
    expect((await expectApiError(await cartApi("DELETE", `/remove?productId=${created.id}&sizeId=${other.sizes[0].id}`, customer.token), 400)).message).toBe(UNKNOWN_SIZE);
    // A size of this product with no line in the cart: nothing to remove, and no mistake.
    expect(await cartOk("DELETE", `/remove?productId=${created.id}&sizeId=${sizeId(created, "EU 40")}`, customer.token)).toEqual([expect.objectContaining({ sizeLabel: "EU 43", quantity: 2 })]);
    await cartOk("DELETE", "/clear", customer.token);
  });

  it("two sizes of one product are two lines; set and remove name their size", async () => {
    const created = await shoe();
    const [s40, s42] = [sizeId(created, "EU 40"), sizeId(created, "EU 42")];
    await cartOk("POST", `/add?productId=${created.id}&sizeId=${s40}`, customer.token);
    let lines = await cartOk("POST", `/add?productId=${created.id}&sizeId=${s42}`, customer.token);
    expect(lines.map((line) => line.sizeLabel)).toEqual(["EU 40", "EU 42"]);
    // With two lines of the product, a set without a size cannot know which one.
    expect((await expectApiError(await cartApi("PUT", `/set?productId=${created.id}&quantity=2`, customer.token), 400)).message).toBe(SELECT_A_SIZE);
    lines = await cartOk("PUT", `/set?productId=${created.id}&sizeId=${s42}&quantity=4`, customer.token);
    expect(lines.map((line) => [line.sizeLabel, line.quantity])).toEqual([["EU 40", 1], ["EU 42", 4]]);
    await expectApiError(await cartApi("PUT", `/set?productId=${created.id}&sizeId=${s42}&quantity=6`, customer.token), 409);
    lines = await cartOk("DELETE", `/remove?productId=${created.id}&sizeId=${s40}`, customer.token);
    expect(lines.map((line) => line.sizeLabel)).toEqual(["EU 42"]);
    // Without a size, remove takes every line of the product.
    expect(await cartOk("DELETE", `/remove?productId=${created.id}`, customer.token)).toEqual([]);
  });

  it("removing a size from the product removes its cart lines", async () => {
    const created = await shoe();
    await cartOk("POST", `/add?productId=${created.id}&sizeId=${sizeId(created, "EU 40")}`, customer.token);
    const kept = created.sizes.filter((size) => size.label !== "EU 40");
    expect((await updateProduct(created, { sizes: kept })).status).toBe(200);
    expect(await cartOk("GET", "", customer.token)).toEqual([]);
    // A Remove sent from a page shown before (the line went with its size) is a quiet success, not a 400.
    expect(await cartOk("DELETE", `/remove?productId=${created.id}&sizeId=${sizeId(created, "EU 40")}`, customer.token)).toEqual([]);
  });

  it("a visitor's sized lines keep their sizes through the merge at login", async () => {
    const created = await shoe();
    const shopper = await newCustomer("Merging Shopper");
    const [s40, s42] = [sizeId(created, "EU 40"), sizeId(created, "EU 42")];
    const cookie = `stride_cart=${encodeURIComponent(JSON.stringify([{ productId: created.id, sizeId: s40, quantity: 2 }, { productId: created.id, sizeId: s42, quantity: 9 }]))}`;
    const login = await postForm("/login", { email: shopper.email, password: shopper.password }, { cookie });
    expect(login.status).toBe(302);
    expect(setCookieFor(login, "stride_cart")).toMatch(/Max-Age=0/);
    const lines = await cartOk("GET", "", shopper.token);
    // Each line in its own size, the second capped at its size's stock (5).
    expect(lines.map((line) => [line.sizeLabel, line.quantity])).toEqual([["EU 40", 2], ["EU 42", 5]]);
  });

  it("POST /cart/merge takes sizes, and skips a product with several sizes sent without one", async () => {
    const created = await shoe();
    const shopper = await newCustomer("API Merger");
    const lines = await cartOk("POST", "/merge", shopper.token, {
      items: [
        { productId: created.id, sizeId: sizeId(created, "EU 43"), quantity: 1 },
        { productId: created.id, quantity: 1 },
      ],
    });
    expect(lines.map((line) => [line.sizeLabel, line.quantity])).toEqual([["EU 43", 1]]);
  });

  it("the product page's form adds the chosen size, and asks for one when none is chosen", async () => {
    const created = await shoe();
    const none = await postForm("/cart/add", { productId: String(created.id) }, { cookie: customer.cookie });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toBe(SELECT_A_SIZE);
    const chosen = await postForm("/cart/add", { productId: String(created.id), sizeId: String(sizeId(created, "EU 40")) }, { cookie: customer.cookie });
    expect(chosen.status).toBe(200);
    expect(await cartOk("GET", "", customer.token)).toEqual([expect.objectContaining({ productId: created.id, sizeLabel: "EU 40", quantity: 1 })]);
    const bad = await postForm("/cart/add", { productId: String(created.id), sizeId: "abc" }, { cookie: customer.cookie });
    expect(bad.status).toBe(400);
    await cartOk("DELETE", "/clear", customer.token);
  });
});

describe("orders per size", () => {
  it("an order line records its size; the size's stock is taken, the others' stay", async () => {
    const created = await shoe();
    const order = await placeOrder(customer.token, [{ productId: created.id, sizeId: sizeId(created, "EU 42"), quantity: 2 }]);
    expect(order.orderItems).toEqual([expect.objectContaining({ productId: created.id, sizeId: sizeId(created, "EU 42"), sizeLabel: "EU 42", quantity: 2 })]);
    expect(await sizeStock(sizeId(created, "EU 42"))).toBe(3);
    expect(await sizeStock(sizeId(created, "EU 40"))).toBe(3);
    expect(await stockOf(created.id)).toBe(8);
  });

  it("an item without a size for a product with several is 400 'Please select a size'; another product's size is 400", async () => {
    const created = await shoe();
    const other = await shoe([1, 1, 1, 1]);
    const missing = await postOrder(orderForm(orderBody([{ productId: created.id, quantity: 1 }])), customer.token);
    expect(await expectApiError(missing, 400)).toEqual({ message: SELECT_A_SIZE, fieldErrors: { "orderItems.0.sizeId": [SELECT_A_SIZE] } });
    // The field names the item at fault, as the schema's own errors do (orderItems.1.quantity).
    const items = [{ productId: other.id, sizeId: other.sizes[0].id, quantity: 1 }, { productId: created.id, sizeId: other.sizes[0].id, quantity: 1 }];
    const foreign = await postOrder(orderForm(orderBody(items)), customer.token);
    expect(await expectApiError(foreign, 400)).toEqual({ message: UNKNOWN_SIZE, fieldErrors: { "orderItems.1.sizeId": [UNKNOWN_SIZE] } });
    expect(await stockOf(created.id)).toBe(10);
  });

  it("more than a size's stock is 409 naming the size, though the product has more in other sizes", async () => {
    const created = await shoe();
    const response = await postOrder(orderForm(orderBody([{ productId: created.id, sizeId: sizeId(created, "EU 43"), quantity: 3 }])), customer.token);
    expect((await expectApiError(response, 409)).message).toBe(`Insufficient stock for ${created.name} (EU 43)`);
    expect(await sizeStock(sizeId(created, "EU 43"))).toBe(2);
  });

  it("cancelling returns the stock to each size, reopening takes it again", async () => {
    const created = await shoe();
    const [s40, s42] = [sizeId(created, "EU 40"), sizeId(created, "EU 42")];
    const order = await placeOrder(customer.token, [
      { productId: created.id, sizeId: s40, quantity: 1 },
      { productId: created.id, sizeId: s42, quantity: 4 },
    ]);
    expect([await sizeStock(s40), await sizeStock(s42)]).toEqual([2, 1]);
    const status = (value: string) => call(`/api/orders/admin/${order.id}/status?status=${value}`, { method: "PUT", headers: authHeader(admin.token) });
    expect((await status("CANCELLED")).status).toBe(200);
    expect([await sizeStock(s40), await sizeStock(s42)]).toEqual([3, 5]);
    expect((await status("PENDING")).status).toBe(200);
    expect([await sizeStock(s40), await sizeStock(s42)]).toEqual([2, 1]);
  });

  it("a cancelled order whose size was removed cannot be reopened, even after a size of the same label is added: 409, no stock taken", async () => {
    const created = await shoe();
    const s40 = sizeId(created, "EU 40");
    const order = await placeOrder(customer.token, [{ productId: created.id, sizeId: s40, quantity: 2 }]);
    const status = (value: string) => call(`/api/orders/admin/${order.id}/status?status=${value}`, { method: "PUT", headers: authHeader(admin.token) });
    expect((await status("CANCELLED")).status).toBe(200);
    const withoutEu40 = created.sizes.filter((size) => size.id !== s40);
    expect((await updateProduct(created, { sizes: withoutEu40 })).status).toBe(200);
    const readded = await getProduct(created.id);
    expect((await updateProduct(readded, { sizes: [...readded.sizes, { label: "EU 40", stockQuantity: 0 }] })).status).toBe(200);
    const body = await expectApiError(await status("CONFIRMED"), 409);
    expect(body.message).toBe(`Cannot reopen this order because ${created.name} (EU 40) is no longer sold`);
    const now = await getProduct(created.id);
    expect(now.sizes.find((size) => size.label === "EU 40")?.stockQuantity).toBe(0);
    expect(now.stockQuantity).toBe(created.stockQuantity - 3);
    const mine = (await (await call("/api/orders/my", { headers: authHeader(customer.token) })).json()) as Order[];
    expect(mine.find((o) => o.id === order.id)?.status).toBe("CANCELLED");
  });

  it("removing a size that a past order used keeps the order's line intact", async () => {
    const created = await shoe();
    const s40 = sizeId(created, "EU 40");
    const order = await placeOrder(customer.token, [{ productId: created.id, sizeId: s40, quantity: 1 }]);
    const kept = created.sizes.filter((size) => size.id !== s40);
    expect((await updateProduct(created, { sizes: kept })).status).toBe(200);
    const mine = (await (await call("/api/orders/my", { headers: authHeader(customer.token) })).json()) as Order[];
    const line = mine.find((o) => o.id === order.id)!.orderItems[0];
    expect(line).toMatchObject({ productId: created.id, sizeId: null, sizeLabel: "EU 40", quantity: 1 });
  });
});

describe("the product JSON's sizes in the OpenAPI document", () => {
  it("documents sizes on a product and sizeId on the cart calls and order items", async () => {
    const document = JSON.stringify(await (await apiJson("GET", "/api/openapi.json")).json());
    expect(document).toContain('"sizes"');
    expect(document).toContain('"sizeId"');
    expect(document).toContain('"sizeLabel"');
  });
});
