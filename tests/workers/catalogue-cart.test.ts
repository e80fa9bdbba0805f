import { beforeAll, describe, expect, it } from "vitest";

import { insertProduct, onlySizeOf, tag } from "./catalogue-helpers";
import { ORIGIN, call, cookieValue, login, postForm, register, setCookieFor, testEnv } from "./helpers";

// POST /cart/add (the screens' add-to-cart form action): a visitor's cookie cart and a customer's server cart, both
// capped at the product's stock.

const t = tag();
const ABOVE_STOCK = "Cannot add more than available stock";
let customerId: number;
let customerCookie: string;
let stockTwo: number;
let soldOut: number;
let unavailable: number;
let plenty: number;

beforeAll(async () => {
  const customer = await register({ name: "Cart Customer" });
  customerId = customer.id;
  customerCookie = `stride_session=${await login(customer.email, customer.password)}`;
  stockTwo = await insertProduct({ name: `Cart Two Left ${t}`, stockQuantity: 2 });
  soldOut = await insertProduct({ name: `Cart Sold Out ${t}`, stockQuantity: 0 });
  unavailable = await insertProduct({ name: `Cart Unavailable ${t}`, stockQuantity: 5, productAvailable: false });
  plenty = await insertProduct({ name: `Cart Plenty ${t}`, stockQuantity: 50 });
});

const guestCookie = (lines: { productId: number; quantity: number }[]) => `stride_cart=${encodeURIComponent(JSON.stringify(lines))}`;
const add = (fields: Record<string, string>, cookie?: string) => postForm("/cart/add", fields, { cookie });

async function cartRow(productId: number): Promise<number | null> {
  const row = await testEnv.DB.prepare("SELECT quantity FROM cart_items WHERE user_id = ? AND product_id = ?").bind(customerId, productId).first<{ quantity: number }>();
  return row?.quantity ?? null;
}

/** A refused add: the status, the message in the body, and no cart cookie. */
async function expectRefused(response: Response, status: number, message: RegExp | string) {
  expect(response.status).toBe(status);
  expect(await response.text()).toMatch(message);
  expect(setCookieFor(response, "stride_cart")).toBeUndefined();
}

describe("POST /cart/add as a visitor (cookie cart)", () => {
  it("sets the stride_cart cookie holding the line", async () => {
    const response = await add({ productId: String(stockTwo) });
    expect(response.status).toBe(200);
    const header = setCookieFor(response, "stride_cart")!;
    expect(header).toBeDefined();
    expect(header).toMatch(/Path=\//);
    // The line names its size: the product's only one.
    expect(JSON.parse(cookieValue(response, "stride_cart"))).toEqual([{ productId: stockTwo, sizeId: await onlySizeOf(stockTwo), quantity: 1 }]);
  });

  it("adds to an existing line and keeps the other lines", async () => {
    const response = await add({ productId: String(stockTwo) }, guestCookie([{ productId: plenty, quantity: 3 }, { productId: stockTwo, quantity: 1 }]));
    expect(response.status).toBe(200);
    // A line saved before sizes existed is still found, and is written back with its size (every line is).
    expect(JSON.parse(cookieValue(response, "stride_cart"))).toEqual([
      { productId: plenty, sizeId: await onlySizeOf(plenty), quantity: 3 },
      { productId: stockTwo, sizeId: await onlySizeOf(stockTwo), quantity: 2 },
    ]);
  });

  it("adding beyond stock is 409 Cannot add more than available stock", async () => {
    await expectRefused(await add({ productId: String(stockTwo) }, guestCookie([{ productId: stockTwo, quantity: 2 }])), 409, ABOVE_STOCK);
  });

  it("a sold-out product is refused in SPEC's words (one more than a stock of 0)", async () => {
    await expectRefused(await add({ productId: String(soldOut) }), 409, ABOVE_STOCK);
  });

  it("an unavailable product is refused even with stock", async () => {
    await expectRefused(await add({ productId: String(unavailable) }), 409, "This product is out of stock");
  });

  for (const productId of ["999999", "abc", "0", "-1", "1.5", ""]) {
    it(`productId ${JSON.stringify(productId)} is 404, never a 500`, async () => {
      await expectRefused(await add({ productId }), 404, /not found/i);
    });
  }

  it("a malformed cookie cart is treated as empty", async () => {
    const response = await add({ productId: String(plenty) }, "stride_cart=%7Bnot-json");
    expect(response.status).toBe(200);
    expect(JSON.parse(cookieValue(response, "stride_cart"))).toEqual([{ productId: plenty, sizeId: await onlySizeOf(plenty), quantity: 1 }]);
  });

  it("with redirectTo=/product/{id}: 302 back with ?added= and the cookie", async () => {
    const response = await add({ productId: String(plenty), redirectTo: `/product/${plenty}` });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/product/${plenty}?added=${plenty}`);
    expect(JSON.parse(cookieValue(response, "stride_cart"))).toEqual([{ productId: plenty, sizeId: await onlySizeOf(plenty), quantity: 1 }]);
  });

  it("with redirectTo and a refused add: 302 back with ?cartError= and no cookie", async () => {
    const response = await add({ productId: String(soldOut), redirectTo: `/product/${soldOut}` });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, ORIGIN);
    expect(location.pathname).toBe(`/product/${soldOut}`);
    expect(location.searchParams.get("cartError")).toBe(ABOVE_STOCK);
    expect(setCookieFor(response, "stride_cart")).toBeUndefined();
  });

  it("redirectTo never leaves the site", async () => {
    for (const redirectTo of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const response = await add({ productId: String(plenty), redirectTo });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location"), redirectTo).toBe(`/?added=${plenty}`);
    }
  });

  it("a post from another Origin is refused with 403", async () => {
    const response = await call("/cart/add", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
      body: `productId=${plenty}`,
    });
    expect(response.status).toBe(403);
    expect(setCookieFor(response, "stride_cart")).toBeUndefined();
  });
});

describe("POST /cart/add as a customer (server cart)", () => {
  it("writes a cart_items row, increments it, and caps it at stock with 409", async () => {
    expect(await cartRow(stockTwo)).toBeNull();
    const first = await add({ productId: String(stockTwo) }, customerCookie);
    expect(first.status).toBe(200);
    expect(setCookieFor(first, "stride_cart")).toBeUndefined();
    expect(await cartRow(stockTwo)).toBe(1);

    expect((await add({ productId: String(stockTwo) }, customerCookie)).status).toBe(200);
    expect(await cartRow(stockTwo)).toBe(2);

    await expectRefused(await add({ productId: String(stockTwo) }, customerCookie), 409, ABOVE_STOCK);
    expect(await cartRow(stockTwo)).toBe(2);
  });

  it("a sold-out or unavailable product is refused and no row is written", async () => {
    await expectRefused(await add({ productId: String(soldOut) }, customerCookie), 409, ABOVE_STOCK);
    await expectRefused(await add({ productId: String(unavailable) }, customerCookie), 409, "This product is out of stock");
    expect(await cartRow(soldOut)).toBeNull();
    expect(await cartRow(unavailable)).toBeNull();
  });

  it("a stock lowered below the cart's quantity refuses further adds", async () => {
    const id = await insertProduct({ name: `Cart Shrinking ${t}`, stockQuantity: 3 });
    expect((await add({ productId: String(id) }, customerCookie)).status).toBe(200);
    expect((await add({ productId: String(id) }, customerCookie)).status).toBe(200);
    await testEnv.DB.prepare("UPDATE product_sizes SET stock_quantity = 2 WHERE product_id = ?").bind(id).run();
    await expectRefused(await add({ productId: String(id) }, customerCookie), 409, ABOVE_STOCK);
    expect(await cartRow(id)).toBe(2);
  });

  it("a missing product is 404 and writes nothing", async () => {
    await expectRefused(await add({ productId: "999999" }, customerCookie), 404, /not found/i);
    expect(await cartRow(999999)).toBeNull();
  });

  it("with redirectTo: 302 back with ?added= and the row written", async () => {
    const before = (await cartRow(plenty)) ?? 0;
    const response = await add({ productId: String(plenty), redirectTo: `/product/${plenty}` }, customerCookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/product/${plenty}?added=${plenty}`);
    expect(await cartRow(plenty)).toBe(before + 1);
  });
});
