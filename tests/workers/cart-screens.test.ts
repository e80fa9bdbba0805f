import { beforeAll, describe, expect, it } from "vitest";

import { onlySizeOf, tag, visibleText } from "./catalogue-helpers";
import { call, postForm, registerBody, setCookieFor, testEnv } from "./helpers";
import { type Account, cartOk, cartRows, guestCartCookie, newAdmin, newCustomer, product, quantities } from "./order-helpers";

// The cart page (/cart) and the cart's way into the server at login and registration: SPEC §2 (cart page), §4 (cart).

const t = tag();
let admin: Account;
let small: number; // stock 3
let large: number; // stock 20
const smallName = `Screen Small ${t}`;
const largeName = `Screen Large ${t}`;

beforeAll(async () => {
  admin = await newAdmin();
  small = await product({ name: smallName, brand: "Lanka Steps", price: 3500, stockQuantity: 3 });
  large = await product({ name: largeName, brand: "Ceylon Run", price: 12999.5, stockQuantity: 20 });
});

async function page(path: string, cookie?: string): Promise<{ status: number; text: string; response: Response }> {
  const response = await call(path, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: response.status, text: visibleText(await response.text()), response };
}

const lineCount = (html: string) => (html.match(/data-testid="cart-line"/g) ?? []).length;

/** The stride_cart Set-Cookie clears the cookie (empty list, Max-Age=0). */
function expectGuestCartCleared(response: Response) {
  const header = setCookieFor(response, "stride_cart");
  expect(header, "Set-Cookie stride_cart").toBeDefined();
  expect(header).toMatch(/Max-Age=0/);
  expect(header).toMatch(/Path=\//);
}

describe("login and registration merge the visitor's cookie cart into the server cart", () => {
  it("POST /login with a cookie of 2 products: both join the server cart (capped at stock) and the cookie is cleared", async () => {
    const customer = await newCustomer("Merge Login");
    await cartOk("POST", `/add?productId=${large}&quantity=2`, customer.token); // an existing saved line
    const cookie = guestCartCookie([
      { productId: small, quantity: 9 }, // above stock 3: capped
      { productId: large, quantity: 3 }, // added to the saved 2
    ]);
    const response = await postForm("/login", { email: customer.email, password: customer.password }, { cookie });
    expect(response.status).toBe(302);
    expect(setCookieFor(response, "stride_session")).toBeDefined();
    expectGuestCartCleared(response);
    expect(await cartRows(customer.id)).toEqual({ [small]: 3, [large]: 5 });
  });

  it("unknown products in the cookie are skipped; the login still works", async () => {
    const customer = await newCustomer("Merge Unknown");
    const cookie = guestCartCookie([
      { productId: 987654, quantity: 1 },
      { productId: large, quantity: 1 },
    ]);
    const response = await postForm("/login", { email: customer.email, password: customer.password }, { cookie });
    expect(response.status).toBe(302);
    expect(await cartRows(customer.id)).toEqual({ [large]: 1 });
  });

  it("a login without a cookie cart leaves the saved cart and sets no stride_cart cookie", async () => {
    const customer = await newCustomer("Merge None");
    await cartOk("POST", `/add?productId=${large}`, customer.token);
    const response = await postForm("/login", { email: customer.email, password: customer.password });
    expect(response.status).toBe(302);
    expect(setCookieFor(response, "stride_cart")).toBeUndefined();
    expect(await cartRows(customer.id)).toEqual({ [large]: 1 });
  });

  it("a failed login merges nothing and keeps the cookie", async () => {
    const customer = await newCustomer("Merge Failed");
    const response = await postForm("/login", { email: customer.email, password: "wrong-password" }, { cookie: guestCartCookie([{ productId: large, quantity: 1 }]) });
    expect(response.status).toBe(401);
    expect(setCookieFor(response, "stride_cart")).toBeUndefined();
    expect(await cartRows(customer.id)).toEqual({});
  });

  it("POST /register merges the cookie cart into the new customer's cart too", async () => {
    const body = registerBody({ name: "Merge Register" });
    const cookie = guestCartCookie([
      { productId: small, quantity: 2 },
      { productId: large, quantity: 1 },
    ]);
    const response = await postForm("/register", { ...body, confirmPassword: body.password }, { cookie });
    expect(response.status, await response.clone().text()).toBe(302);
    expectGuestCartCleared(response);
    const token = setCookieFor(response, "stride_session")!.split(";")[0].split("=")[1];
    expect(quantities(await cartOk("GET", "", token))).toEqual({ [small]: 2, [large]: 1 });
  });
});

describe("GET /cart", () => {
  it("a visitor with a cookie cart sees both lines, the total and 'Login to Checkout'", async () => {
    const { status, text } = await page("/cart", guestCartCookie([
      { productId: small, quantity: 2 },
      { productId: large, quantity: 1 },
    ]));
    expect(status).toBe(200);
    expect(lineCount(text)).toBe(2);
    expect(text).toContain(smallName);
    expect(text).toContain(largeName);
    expect(text).toContain("Lanka Steps");
    expect(text).toContain("Rs 7,000.00"); // 2 x 3,500
    expect(text).toContain("Rs 19,999.50"); // 7,000 + 12,999.50
    expect(text).toContain("Login to Checkout");
    expect(text).not.toContain("Proceed to Checkout");
    expect(text).not.toContain("Your cart is empty");
  });

  it("a visitor without a cart sees 'Your cart is empty'", async () => {
    const { status, text } = await page("/cart");
    expect(status).toBe(200);
    expect(text).toContain("Your cart is empty");
    expect(lineCount(text)).toBe(0);
  });

  it("a malformed cookie is an empty cart, not an error", async () => {
    const { status, text } = await page("/cart", "stride_cart=%7Bbroken");
    expect(status).toBe(200);
    expect(text).toContain("Your cart is empty");
  });

  it("a product deleted from the catalogue is not shown from a visitor's cookie", async () => {
    const doomed = await product({ name: `Screen Doomed ${t}`, stockQuantity: 5 });
    const deleted = await call(`/api/product/${doomed}`, { method: "DELETE", headers: admin.auth });
    expect(deleted.status).toBe(204);
    const { text } = await page("/cart", guestCartCookie([
      { productId: doomed, quantity: 1 },
      { productId: large, quantity: 1 },
    ]));
    expect(lineCount(text)).toBe(1);
    expect(text).not.toContain(`Screen Doomed ${t}`);
  });

  it("a customer sees the server cart and 'Proceed to Checkout'", async () => {
    const customer = await newCustomer("Screen Customer");
    await cartOk("POST", `/add?productId=${small}`, customer.token);
    const { status, text } = await page("/cart", customer.cookie);
    expect(status).toBe(200);
    expect(lineCount(text)).toBe(1);
    expect(text).toContain(smallName);
    expect(text).toContain("Proceed to Checkout");
    expect(text).not.toContain("Login to Checkout");
  });

  it("a customer with an empty cart sees 'Your cart is empty' (the cookie cart is not theirs)", async () => {
    const customer = await newCustomer("Screen Empty");
    const { text } = await page("/cart", `${customer.cookie}; ${guestCartCookie([{ productId: large, quantity: 1 }])}`);
    expect(text).toContain("Your cart is empty");
    expect(lineCount(text)).toBe(0);
  });

  it("/cart?checkout for a customer opens the checkout, prefilled, with the bank details", async () => {
    const customer = await newCustomer("Checkout Prefill");
    await cartOk("POST", `/add?productId=${large}&quantity=2`, customer.token);
    const { text } = await page("/cart?checkout", customer.cookie);
    expect(text).toContain('role="dialog"');
    expect(text).toContain("Checkout");
    expect(text).toContain("Commercial Bank of Ceylon");
    expect(text).toContain("8001 2345 6789");
    expect(text).toContain("LKR 25,999.00"); // 2 x 12,999.50, with 2 decimals
    // The shop's delivery terms (wrangler.jsonc DELIVERY_NOTE), under the total in the summary and in the checkout.
    expect(testEnv.DELIVERY_NOTE).toMatch(/Delivery is free/);
    // Not the page's data for hydration, nor the footer every page has.
    const shown = text.replace(/<script\b[\s\S]*?<\/script>/g, "").replace(/<footer[\s\S]*<\/footer>/, "");
    expect(shown.split(testEnv.DELIVERY_NOTE).length - 1).toBe(2);
    expect(text).toMatch(/name="customerName"[^>]*value="Checkout Prefill"|value="Checkout Prefill"[^>]*name="customerName"/);
    expect(text).toContain(`value="${customer.email}"`);
    expect(text).toContain('value="0771234567"');
    expect(text).toContain('name="bankSlip"');
    expect(text).toContain("Place Order");
  });

  it("/cart?checkout for a visitor asks to log in and opens no checkout", async () => {
    const { text } = await page("/cart?checkout", guestCartCookie([{ productId: large, quantity: 1 }]));
    expect(text).toContain("Please login to place an order");
    expect(text).not.toContain('role="dialog"');
  });

  it("/cart?checkout with an empty cart opens no checkout", async () => {
    const customer = await newCustomer("Checkout Empty");
    const { text } = await page("/cart?checkout", customer.cookie);
    expect(text).toContain("Your cart is empty");
    expect(text).not.toContain('role="dialog"');
  });
});

describe("POST /cart (quantity, remove, clear)", () => {
  let customer: Account;
  beforeAll(async () => {
    customer = await newCustomer("Cart Actions");
  });

  const post = (fields: Record<string, string>, cookie?: string) => postForm("/cart", fields, { cookie });

  it("intent=set changes a customer's saved line", async () => {
    await cartOk("DELETE", "/clear", customer.token);
    await cartOk("POST", `/add?productId=${large}`, customer.token);
    expect((await call("/", { headers: { Cookie: customer.cookie } }).then((r) => r.text()))).toContain('aria-label="Cart, 1 item"');
    const response = await post({ intent: "set", productId: String(large), quantity: "4" }, customer.cookie);
    expect(response.status).toBe(200);
    expect(await cartRows(customer.id)).toEqual({ [large]: 4 });
    // The page the form comes back to counts the cart after the change (the session was read before it).
    expect(await response.text()).toContain('aria-label="Cart, 4 items"');
    expect((await call("/", { headers: { Cookie: customer.cookie } }).then((r) => r.text()))).toContain('aria-label="Cart, 4 items"');
  });

  it("intent=set above stock is 409 'Cannot add more than available stock' and keeps the line", async () => {
    await cartOk("DELETE", "/clear", customer.token);
    await cartOk("POST", `/add?productId=${small}`, customer.token);
    const response = await post({ intent: "set", productId: String(small), quantity: "4" }, customer.cookie);
    expect(response.status).toBe(409);
    expect(visibleText(await response.text())).toContain("Cannot add more than available stock");
    expect(await cartRows(customer.id)).toEqual({ [small]: 1 });
  });

  it("with quantityWas (the stepper's), − and + move the line as it is now: another tab's change is kept", async () => {
    await cartOk("DELETE", "/clear", customer.token);
    await cartOk("POST", `/add?productId=${large}&quantity=5`, customer.token);
    // This page still shows 3 (another tab took the line to 5 since): + is 6, not 4; then − on a page showing 3 is 5.
    expect((await post({ intent: "set", productId: String(large), quantity: "4", quantityWas: "3" }, customer.cookie)).status).toBe(200);
    expect(await cartRows(customer.id)).toEqual({ [large]: 6 });
    expect((await post({ intent: "set", productId: String(large), quantity: "2", quantityWas: "3" }, customer.cookie)).status).toBe(200);
    expect(await cartRows(customer.id)).toEqual({ [large]: 5 });
    // − never removes a line, however far behind the page is.
    expect((await post({ intent: "set", productId: String(large), quantity: "1", quantityWas: "9" }, customer.cookie)).status).toBe(200);
    expect(await cartRows(customer.id)).toEqual({ [large]: 1 });
    const bad = await post({ intent: "set", productId: String(large), quantity: "2", quantityWas: "-1" }, customer.cookie);
    expect(bad.status).toBe(400);
    expect(await cartRows(customer.id)).toEqual({ [large]: 1 });
    // Another tab removed the line: this page's − or + does not bring it back.
    await cartOk("DELETE", "/clear", customer.token);
    for (const quantity of ["2", "4"]) {
      expect((await post({ intent: "set", productId: String(large), quantity, quantityWas: "3" }, customer.cookie)).status).toBe(200);
      expect(await cartRows(customer.id)).toEqual({});
    }
  });

  it("a visitor's stepper moves the cookie's line as it is now, too", async () => {
    const cookie = guestCartCookie([{ productId: large, quantity: 5 }]);
    const response = await post({ intent: "set", productId: String(large), quantity: "4", quantityWas: "3" }, cookie);
    expect(response.status).toBe(200);
    const header = setCookieFor(response, "stride_cart")!;
    expect(JSON.parse(decodeURIComponent(header.split(";")[0].slice("stride_cart=".length)))).toEqual([{ productId: large, sizeId: await onlySizeOf(large), quantity: 6 }]);
    // A line gone from the cookie (removed in another tab) stays gone.
    const gone = await post({ intent: "set", productId: String(large), quantity: "2", quantityWas: "3" }, guestCartCookie([{ productId: small, quantity: 1 }]));
    expect(gone.status).toBe(200);
    const kept = setCookieFor(gone, "stride_cart");
    expect(kept === undefined ? [{ productId: small }] : JSON.parse(decodeURIComponent(kept.split(";")[0].slice("stride_cart=".length)))).toEqual([expect.objectContaining({ productId: small })]);
  });

  it("the stepper sends the quantity its page shows", async () => {
    await cartOk("DELETE", "/clear", customer.token);
    await cartOk("POST", `/add?productId=${large}&quantity=2`, customer.token);
    const { text } = await page("/cart", customer.cookie);
    expect(text).toContain('name="quantityWas" value="2"');
  });

  it("intent=set 0 and intent=remove drop the line", async () => {
    await cartOk("DELETE", "/clear", customer.token);
    await cartOk("POST", `/add?productId=${small}`, customer.token);
    await cartOk("POST", `/add?productId=${large}`, customer.token);
    expect((await post({ intent: "set", productId: String(small), quantity: "0" }, customer.cookie)).status).toBe(200);
    expect(await cartRows(customer.id)).toEqual({ [large]: 1 });
    expect((await post({ intent: "remove", productId: String(large) }, customer.cookie)).status).toBe(200);
    expect(await cartRows(customer.id)).toEqual({});
  });

  it("intent=clear empties the customer's cart", async () => {
    await cartOk("POST", `/add?productId=${large}&quantity=2`, customer.token);
    const response = await post({ intent: "clear" }, customer.cookie);
    expect(response.status).toBe(200);
    expect(await cartRows(customer.id)).toEqual({});
  });

  it("a visitor's intent=set rewrites the cookie cart, capped at stock", async () => {
    const cookie = guestCartCookie([{ productId: small, quantity: 1 }, { productId: large, quantity: 1 }]);
    const response = await post({ intent: "set", productId: String(small), quantity: "3" }, cookie);
    expect(response.status).toBe(200);
    const header = setCookieFor(response, "stride_cart")!;
    expect(JSON.parse(decodeURIComponent(header.split(";")[0].slice("stride_cart=".length)))).toEqual([
      { productId: small, sizeId: await onlySizeOf(small), quantity: 3 },
      // A rewritten cookie names every line's size (a line saved before sizes gets its product's only one).
      { productId: large, sizeId: await onlySizeOf(large), quantity: 1 },
    ]);
    const refused = await post({ intent: "set", productId: String(small), quantity: "4" }, cookie);
    expect(refused.status).toBe(409);
    expect(setCookieFor(refused, "stride_cart")).toBeUndefined();
  });

  it("a visitor's intent=remove and intent=clear rewrite the cookie", async () => {
    const cookie = guestCartCookie([{ productId: small, quantity: 1 }, { productId: large, quantity: 1 }]);
    const removed = await post({ intent: "remove", productId: String(small) }, cookie);
    expect(JSON.parse(decodeURIComponent(setCookieFor(removed, "stride_cart")!.split(";")[0].slice("stride_cart=".length)))).toEqual([
      { productId: large, sizeId: await onlySizeOf(large), quantity: 1 },
    ]);
    const cleared = await post({ intent: "clear" }, cookie);
    expectGuestCartCleared(cleared);
  });

  it("the page a visitor's form comes back to (no JavaScript) shows the cart after the change, not the cookie it was sent", async () => {
    const cookie = guestCartCookie([{ productId: small, quantity: 1 }, { productId: large, quantity: 1 }]);
    const set = await (await post({ intent: "set", productId: String(large), quantity: "3" }, cookie)).text();
    expect(set).toContain('aria-label="Cart, 4 items"');
    expect(lineCount(set)).toBe(2);
    const removed = await (await post({ intent: "remove", productId: String(small) }, cookie)).text();
    expect(removed).toContain('aria-label="Cart, 1 item"');
    expect(lineCount(removed)).toBe(1);
    expect(visibleText(removed)).not.toContain(smallName);
    const cleared = await (await post({ intent: "clear" }, cookie)).text();
    expect(visibleText(cleared)).toContain("Your cart is empty");
  });

  it("an unknown intent or a non-number quantity is 400, never a 500", async () => {
    expect((await post({ intent: "explode" }, customer.cookie)).status).toBe(400);
    expect((await post({ intent: "set", productId: String(large), quantity: "many" }, customer.cookie)).status).toBe(400);
  });

  it("a set without a quantity, or with one no form shows (0x3, 1e1, 2.5), is 400 and leaves the line, as the API does", async () => {
    await cartOk("DELETE", "/clear", customer.token);
    await cartOk("POST", `/add?productId=${large}&quantity=2`, customer.token);
    const visitor = guestCartCookie([{ productId: large, quantity: 2 }]);
    for (const quantity of [undefined, "", "0x3", "1e1", "2.5", "2.0", " 3 ", " "]) {
      const fields = { intent: "set", productId: String(large), ...(quantity === undefined ? {} : { quantity }) };
      expect((await post(fields, customer.cookie)).status, String(quantity)).toBe(400);
      const guest = await post(fields, visitor);
      expect(guest.status, String(quantity)).toBe(400);
      // The visitor's cookie cart is not written again (no stride_cart cookie in the answer).
      expect(guest.headers.get("Set-Cookie") ?? "", String(quantity)).not.toContain("stride_cart=");
    }
    expect((await post({ intent: "set", productId: `0x${large.toString(16)}`, quantity: "1" }, customer.cookie)).status).toBe(400);
    expect(quantities(await cartOk("GET", "", customer.token))).toEqual({ [large]: 2 });
  });

  it("a screen answers 405 to a method no form has (DELETE /cart with intent=clear), and the cart stays", async () => {
    await cartOk("DELETE", "/clear", customer.token);
    await cartOk("POST", `/add?productId=${large}`, customer.token);
    for (const [method, path] of [["DELETE", "/cart"], ["PUT", "/cart"], ["PATCH", "/cart"], ["PUT", "/theme"], ["DELETE", "/profile"]]) {
      const response = await call(path, {
        method,
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost", Cookie: customer.cookie },
        body: "intent=clear&theme=dark-theme",
      });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
      expect(response.headers.get("Set-Cookie")).toBeNull();
    }
    expect(quantities(await cartOk("GET", "", customer.token))).toEqual({ [large]: 1 });
  });

  it("a post from another Origin is refused", async () => {
    const response = await call("/cart", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example", Cookie: customer.cookie },
      body: "intent=clear",
    });
    expect(response.status).toBe(403);
  });
});
