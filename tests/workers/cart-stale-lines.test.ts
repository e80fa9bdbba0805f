import { beforeAll, describe, expect, it } from "vitest";

import { type ApiProduct, createProductApi, expectApiError, insertProduct, onlySizeOf, purgeDirectWrites, tag, visibleText } from "./catalogue-helpers";
import { call, postForm, setCookieFor, testEnv } from "./helpers";
import { ABOVE_STOCK, type Account, cartApi, cartOk, cartRows, checkoutForm, newAdmin, newCustomer, postCheckout, quantities } from "./order-helpers";

// Cart lines the shop changed under the shopper: a size's stock lowered below the line, a size sold out, a product
// taken off sale (the line stays, flagged, and can always be lowered), and a product deleted or a size removed (the
// line goes: from the page, the navigation bar's count and the visitor's cookie).

const t = tag();
const CHECKOUT_BLOCKED = "Some items can't be bought as they are. Lower their quantity or remove them to check out.";
let admin: Account;

beforeAll(async () => {
  admin = await newAdmin();
});

/** A Gents shoe with stock 5 in EU 40 and EU 41. */
const shoe = (name: string): Promise<ApiProduct> =>
  createProductApi(admin.token, { name: `${name} ${t}`, category: "Gents", price: 1000, sizes: [{ label: "EU 40", stockQuantity: 5 }, { label: "EU 41", stockQuantity: 5 }] });
const eu41 = (product: ApiProduct) => product.sizes.find((size) => size.label === "EU 41")!.id;

async function setSizeStock(sizeId: number, stock: number) {
  await testEnv.DB.prepare("UPDATE product_sizes SET stock_quantity = ? WHERE id = ?").bind(stock, sizeId).run();
  await purgeDirectWrites();
}
async function takeOffSale(productId: number) {
  await testEnv.DB.prepare("UPDATE products SET product_available = 0 WHERE id = ?").bind(productId).run();
  await purgeDirectWrites();
}

/** The three ways a line of 3 pairs stops being buyable, each with the flag the cart shows and the refusal to raise it. */
const changes = [
  { what: "the size's stock lowered to 1", flag: "Only 1 left", refusal: ABOVE_STOCK, apply: (p: ApiProduct) => setSizeStock(eu41(p), 1) },
  { what: "the size sold out", flag: "Sold out in this size", refusal: ABOVE_STOCK, apply: (p: ApiProduct) => setSizeStock(eu41(p), 0) },
  { what: "the product marked unavailable", flag: "No longer available", refusal: "This product is out of stock", apply: (p: ApiProduct) => takeOffSale(p.id) },
];

type CookieLine = { productId: number; sizeId?: number; quantity: number };
const cookieOf = (lines: CookieLine[]) => `stride_cart=${encodeURIComponent(JSON.stringify(lines))}`;
const cookieLines = (response: Response): CookieLine[] => {
  const header = setCookieFor(response, "stride_cart");
  expect(header, "Set-Cookie stride_cart").toBeDefined();
  return JSON.parse(decodeURIComponent(header!.split(";")[0].slice("stride_cart=".length) || "[]")) as CookieLine[];
};
const page = async (path: string, cookie: string) => {
  const response = await call(path, { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  return { response, html: await response.text() };
};
const setLine = (fields: Record<string, string | number>, cookie: string) =>
  postForm("/cart", Object.fromEntries(Object.entries({ intent: "set", ...fields }).map(([k, v]) => [k, String(v)])), { cookie });

describe("a line that can no longer be bought as it stands can always be lowered; raising it is still refused", () => {
  for (const change of changes) {
    it(`PUT /api/cart/set, ${change.what}: 3 to 2 to 1 succeed, 1 to 2 is 409 '${change.refusal}'`, async () => {
      const customer = await newCustomer("Lowering Api");
      const shoeOf = await shoe("Lower Api");
      await cartOk("POST", `/add?productId=${shoeOf.id}&sizeId=${eu41(shoeOf)}&quantity=3`, customer.token);
      await change.apply(shoeOf);
      expect(quantities(await cartOk("PUT", `/set?productId=${shoeOf.id}&sizeId=${eu41(shoeOf)}&quantity=2`, customer.token))).toEqual({ [shoeOf.id]: 2 });
      // Without sizeId: the product's only line, as before.
      expect(quantities(await cartOk("PUT", `/set?productId=${shoeOf.id}&quantity=1`, customer.token))).toEqual({ [shoeOf.id]: 1 });
      const raised = await cartApi("PUT", `/set?productId=${shoeOf.id}&sizeId=${eu41(shoeOf)}&quantity=2`, customer.token);
      expect((await expectApiError(raised, 409)).message).toBe(change.refusal);
      expect(await cartRows(customer.id)).toEqual({ [shoeOf.id]: 1 });
    });

    it(`the cart page's '−' for a customer and for a visitor, ${change.what}: lowering works, raising is 409`, async () => {
      const customer = await newCustomer("Lowering Screen");
      const shoeOf = await shoe("Lower Screen");
      const sizeId = eu41(shoeOf);
      await cartOk("POST", `/add?productId=${shoeOf.id}&sizeId=${sizeId}&quantity=3`, customer.token);
      await change.apply(shoeOf);
      expect((await setLine({ productId: shoeOf.id, sizeId, quantity: 2 }, customer.cookie)).status).toBe(200);
      expect(await cartRows(customer.id)).toEqual({ [shoeOf.id]: 2 });

      const visitor = cookieOf([{ productId: shoeOf.id, sizeId, quantity: 3 }]);
      const lowered = await setLine({ productId: shoeOf.id, sizeId, quantity: 2 }, visitor);
      expect(lowered.status).toBe(200);
      expect(cookieLines(lowered)).toEqual([{ productId: shoeOf.id, sizeId, quantity: 2 }]);
      const raised = await setLine({ productId: shoeOf.id, sizeId, quantity: 4 }, visitor);
      expect(raised.status).toBe(409);
      expect(visibleText(await raised.text())).toContain(change.refusal);
      expect(setCookieFor(raised, "stride_cart")).toBeUndefined();
    });
  }
});

describe("the cart page flags such lines and holds the checkout back until they are fixed", () => {
  let shoes: ApiProduct[];
  let fine: ApiProduct;
  beforeAll(async () => {
    shoes = await Promise.all(changes.map((_, i) => shoe(`Flagged ${i}`)));
    fine = await shoe("Flagged Fine");
  });

  it("a customer's cart: each line says why, the total leaves them out, no checkout; fixed, the checkout is back", async () => {
    const customer = await newCustomer("Flagged Customer");
    for (const s of [...shoes, fine]) await cartOk("POST", `/add?productId=${s.id}&sizeId=${eu41(s)}&quantity=3`, customer.token);
    // Before the shop changes anything: no flag, the checkout is offered.
    const before = visibleText((await page("/cart", customer.cookie)).html);
    expect(before).not.toContain(CHECKOUT_BLOCKED);
    expect(before).toContain('href="/cart?checkout"');

    await Promise.all(changes.map((change, i) => change.apply(shoes[i])));
    const text = visibleText((await page("/cart", customer.cookie)).html);
    expect((text.match(/data-testid="cart-line-problem"/g) ?? []).length).toBe(3);
    for (const change of changes) expect(text).toContain(change.flag);
    expect(text).toContain(CHECKOUT_BLOCKED);
    expect(text).not.toContain('href="/cart?checkout"');
    expect(text).toMatch(/<button type="button" aria-disabled="true"[^>]*>Proceed to Checkout<\/button>/);
    expect(text).toMatch(/data-testid="cart-total">Rs 3,000.00</); // the fine line alone: 3 x 1,000
    // The checkout cannot be opened by its address either; and the server still refuses the order.
    expect(visibleText((await page("/cart?checkout", customer.cookie)).html)).not.toContain('role="dialog"');
    const refused = await postCheckout(checkoutForm(), customer.cookie);
    expect(refused.status).toBe(409);

    // Fixed: the line of the lowered stock goes down to 1, the other two are removed.
    expect((await setLine({ productId: shoes[0].id, sizeId: eu41(shoes[0]), quantity: 1 }, customer.cookie)).status).toBe(200);
    for (const s of shoes.slice(1)) expect((await postForm("/cart", { intent: "remove", productId: String(s.id), sizeId: String(eu41(s)) }, { cookie: customer.cookie })).status).toBe(200);
    const fixed = visibleText((await page("/cart", customer.cookie)).html);
    expect(fixed).not.toContain(CHECKOUT_BLOCKED);
    expect(fixed).not.toContain('data-testid="cart-line-problem"');
    expect(fixed).toContain('href="/cart?checkout"');
    expect(fixed).toMatch(/data-testid="cart-total">Rs 4,000.00</);
  });

  it("a visitor's cookie cart: the same flags, and 'Login to Checkout' is held back", async () => {
    const cookie = cookieOf([...shoes, fine].map((s) => ({ productId: s.id, sizeId: eu41(s), quantity: 3 })));
    const text = visibleText((await page("/cart", cookie)).html);
    for (const change of changes) expect(text).toContain(change.flag);
    expect(text).toContain(CHECKOUT_BLOCKED);
    expect(text).toMatch(/<button type="button" aria-disabled="true"[^>]*>Login to Checkout<\/button>/);
    expect(text).not.toContain('href="/login?redirect=/cart"');
  });
});

describe("a visitor's lines of deleted products and removed sizes", () => {
  let kept: ApiProduct;
  let stale: CookieLine[];
  beforeAll(async () => {
    kept = await shoe("Stale Kept");
    const doomed = await shoe("Stale Deleted");
    const trimmed = await shoe("Stale Trimmed");
    expect((await call(`/api/product/${doomed.id}`, { method: "DELETE", headers: admin.auth })).status).toBe(204);
    await testEnv.DB.prepare("DELETE FROM product_sizes WHERE id = ?").bind(eu41(trimmed)).run();
    await purgeDirectWrites();
    stale = [
      { productId: doomed.id, sizeId: eu41(doomed), quantity: 2 },
      { productId: trimmed.id, sizeId: eu41(trimmed), quantity: 3 },
    ];
  });

  it("count nowhere: the navigation bar counts what the cart page shows, on every page", async () => {
    const cookie = cookieOf([...stale, { productId: kept.id, sizeId: eu41(kept), quantity: 1 }]);
    for (const path of ["/", `/product/${kept.id}`, "/search?keyword=Stale", "/cart"]) {
      expect((await page(path, cookie)).html, path).toContain('aria-label="Cart, 1 item"');
    }
    const empty = await page("/", cookieOf(stale));
    expect(empty.html).toContain('aria-label="Cart, 0 items"');
  });

  it("the cart page drops them from the cookie, and says nothing when there are none", async () => {
    const line = { productId: kept.id, sizeId: eu41(kept), quantity: 1 };
    const { response, html } = await page("/cart", cookieOf([stale[0], line, stale[1]]));
    expect((html.match(/data-testid="cart-line"/g) ?? []).length).toBe(1);
    expect(cookieLines(response)).toEqual([line]);
    expect(setCookieFor((await page("/cart", cookieOf([line]))).response, "stride_cart")).toBeUndefined();
    // Nothing left: the cookie goes.
    expect(setCookieFor((await page("/cart", cookieOf(stale))).response, "stride_cart")).toMatch(/Max-Age=0/);
  });

  it("the cart page says so, once: the lines it took out are not left to vanish without a word", async () => {
    const line = { productId: kept.id, sizeId: eu41(kept), quantity: 1 };
    const note = (html: string) => html.match(/data-testid="cart-dropped"[^>]*>([^<]*)</)?.[1];
    expect(note((await page("/cart", cookieOf([stale[0], line, stale[1]]))).html)).toBe(
      "2 items in your cart are no longer sold in the shop (their products or sizes were taken off), so they were taken out.",
    );
    const onlyOne = await page("/cart", cookieOf([stale[1]]));
    expect(note(onlyOne.html)).toBe("An item in your cart is no longer sold in the shop (its product or its size was taken off), so it was taken out.");
    expect(onlyOne.html).toContain("Your cart is empty");
    // The cookie the page wrote holds only what is sold: the next visit says nothing.
    expect(note((await page("/cart", cookieOf([line]))).html)).toBeUndefined();
  });

  it("a cart action drops them from the cookie", async () => {
    const line = { productId: kept.id, sizeId: eu41(kept), quantity: 2 };
    const set = await setLine({ productId: kept.id, sizeId: eu41(kept), quantity: 1 }, cookieOf([...stale, line]));
    expect(set.status).toBe(200);
    expect(cookieLines(set)).toEqual([{ ...line, quantity: 1 }]);
    const added = await postForm("/cart/add", { productId: String(kept.id), sizeId: String(eu41(kept)) }, { cookie: cookieOf([...stale, line]) });
    expect(added.status).toBe(200);
    expect(cookieLines(added)).toEqual([{ ...line, quantity: 3 }]);
  });

  it("a cookie from before sizes with a one-size product twice (with and without its size) is one line, added up", async () => {
    const belt = await insertProduct({ name: `Stale Belt ${t}`, category: "Accessories", stockQuantity: 9 });
    const size = await onlySizeOf(belt);
    const cookie = cookieOf([{ productId: belt, quantity: 1 }, { productId: belt, sizeId: size, quantity: 2 }]);
    const { response, html } = await page("/cart", cookie);
    expect((html.match(/data-testid="cart-line"/g) ?? []).length).toBe(1);
    expect(html).toContain('aria-label="Cart, 3 items"');
    expect(cookieLines(response)).toEqual([{ productId: belt, sizeId: size, quantity: 3 }]);
    // Added up, not taken out: the page says nothing was.
    expect(html).not.toContain('data-testid="cart-dropped"');
  });

  it("do not count toward the 30-line limit", async () => {
    // 29 lines of products that no longer exist, and one that does: a new product still goes in.
    const gone = Array.from({ length: 29 }, (_, i) => ({ productId: 900_000 + i, sizeId: 900_000 + i, quantity: 1 }));
    const cookie = cookieOf([...gone, { productId: kept.id, sizeId: eu41(kept), quantity: 1 }]);
    const other = await shoe("Stale Other");
    const added = await postForm("/cart/add", { productId: String(other.id), sizeId: String(eu41(other)) }, { cookie });
    expect(added.status, await added.clone().text()).toBe(200);
    expect(cookieLines(added)).toEqual([
      { productId: kept.id, sizeId: eu41(kept), quantity: 1 },
      { productId: other.id, sizeId: eu41(other), quantity: 1 },
    ]);
  });
});
