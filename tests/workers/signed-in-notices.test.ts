import { beforeAll, describe, expect, it } from "vitest";

import { CART_MERGED_MESSAGE, welcomeMessage } from "../../app/lib/one-time-params";
import { tag, visibleText } from "./catalogue-helpers";
import { call, postForm, registerBody } from "./helpers";
import { cartOk, cartRows, guestCartCookie, newCustomer, product, setStock } from "./order-helpers";

// What a login or a registration on the web says on the page it lands on (startSession): a one-time parameter in the
// redirect's address, read by the root's toast. A login says "merged" only when the visit's lines went into a saved
// cart that already had lines; a registration says "welcome". Neither carries what an earlier page said once.

const t = tag();
let roomy: number; // stock 20
let other: number; // stock 20
let scarce: number; // stock 2

beforeAll(async () => {
  roomy = await product({ name: `Notice Roomy ${t}`, stockQuantity: 20 });
  other = await product({ name: `Notice Other ${t}`, stockQuantity: 20 });
  scarce = await product({ name: `Notice Scarce ${t}`, stockQuantity: 2 });
});

const logInWith = (account: { email: string; password: string }, cookie?: string, path = "/login") => postForm(path, { email: account.email, password: account.password }, { cookie });
const params = (response: Response) => new URL(response.headers.get("Location")!, "http://localhost").searchParams;

describe("a login that merges the visit's cart", () => {
  it("into a saved cart that had lines: lands with merged=1", async () => {
    const customer = await newCustomer("Notice Merge");
    await cartOk("POST", `/add?productId=${roomy}`, customer.token);
    const response = await logInWith(customer, guestCartCookie([{ productId: other, quantity: 1 }]));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/?merged=1");
    expect(await cartRows(customer.id)).toEqual({ [roomy]: 1, [other]: 1 });
  });

  it("adding to a line the saved cart already had counts too", async () => {
    const customer = await newCustomer("Notice Same Line");
    await cartOk("POST", `/add?productId=${roomy}`, customer.token);
    const response = await logInWith(customer, guestCartCookie([{ productId: roomy, quantity: 2 }]));
    expect(params(response).get("merged")).toBe("1");
    expect(await cartRows(customer.id)).toEqual({ [roomy]: 3 });
  });

  it("is the only one that says so: not into an empty saved cart, nor without a visit's cart, nor when nothing of the visit could go in", async () => {
    // Side by side with a login that does say it, so that the rule, not a missing notice, is what is checked.
    const says = await newCustomer("Notice Says");
    await cartOk("POST", `/add?productId=${roomy}`, says.token);
    expect(params(await logInWith(says, guestCartCookie([{ productId: other, quantity: 1 }]))).get("merged")).toBe("1");

    // Into an empty saved cart: the cart is the one the shopper filled.
    const empty = await newCustomer("Notice Empty");
    expect((await logInWith(empty, guestCartCookie([{ productId: other, quantity: 1 }]))).headers.get("Location")).toBe("/");
    expect(await cartRows(empty.id)).toEqual({ [other]: 1 });

    // No visit's cart.
    const none = await newCustomer("Notice None");
    await cartOk("POST", `/add?productId=${roomy}`, none.token);
    expect((await logInWith(none)).headers.get("Location")).toBe("/");

    // Nothing of the visit went in: a product gone, and a line the saved cart holds at its stock already.
    const nothing = await newCustomer("Notice Nothing Added");
    await cartOk("POST", `/add?productId=${scarce}&quantity=2`, nothing.token); // at its stock of 2
    const cookie = guestCartCookie([
      { productId: 987654, quantity: 1 },
      { productId: scarce, quantity: 1 },
    ]);
    expect((await logInWith(nothing, cookie)).headers.get("Location")).toBe("/");
    expect(await cartRows(nothing.id)).toEqual({ [scarce]: 2 });
  });

  it("a line lowered to a stock that fell still counts as a change (the saved cart is not as it was)", async () => {
    const customer = await newCustomer("Notice Lowered");
    const shrinking = await product({ name: `Notice Shrinking ${t}`, stockQuantity: 5 });
    await cartOk("POST", `/add?productId=${shrinking}&quantity=4`, customer.token);
    await setStock(shrinking, 3);
    const response = await logInWith(customer, guestCartCookie([{ productId: shrinking, quantity: 1 }]));
    expect(params(response).get("merged")).toBe("1");
    expect(await cartRows(customer.id)).toEqual({ [shrinking]: 3 });
  });

  it("keeps the way back, its query as written and its hash, and drops what an earlier page said once", async () => {
    const customer = await newCustomer("Notice Redirect");
    await cartOk("POST", `/add?productId=${roomy}`, customer.token);
    const back = `/product/${roomy}?added=${roomy}&cartError=Out&tab=2#reviews`;
    const response = await logInWith(customer, guestCartCookie([{ productId: other, quantity: 1 }]), `/login?${new URLSearchParams({ redirect: back })}`);
    expect(response.headers.get("Location")).toBe(`/product/${roomy}?tab=2&merged=1#reviews`);

    const again = await newCustomer("Notice Checkout");
    await cartOk("POST", `/add?productId=${roomy}`, again.token);
    const toCheckout = await logInWith(again, guestCartCookie([{ productId: other, quantity: 1 }]), "/login?redirect=%2Fcart%3Fcheckout");
    expect(toCheckout.headers.get("Location")).toBe("/cart?checkout&merged=1");
  });
});

describe("a registration", () => {
  it("lands with welcome=1, on / or the way back", async () => {
    const body = registerBody({ name: "Notice Register" });
    const response = await postForm("/register", { ...body, confirmPassword: body.password });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/?welcome=1");

    const withCart = registerBody({ name: "Notice Register Cart" });
    const toCart = await postForm("/register?redirect=%2Fcart%3Fsaved%3D4", { ...withCart, confirmPassword: withCart.password }, { cookie: guestCartCookie([{ productId: other, quantity: 1 }]) });
    // A new account's saved cart was empty: the welcome only.
    expect(toCart.headers.get("Location")).toBe("/cart?welcome=1");
  });
});

describe("the page it lands on", () => {
  let customer: Awaited<ReturnType<typeof newCustomer>>;
  beforeAll(async () => {
    customer = await newCustomer("Sunethra de Silva");
  });
  const page = async (path: string, cookie?: string) => visibleText(await (await call(path, { headers: cookie ? { Cookie: cookie } : {} })).text());

  it("says it to the logged-in shopper, in the toast's live region, on any page (the cart's and the login-less profile's too), and to no one else", async () => {
    for (const path of ["/?merged=1", "/cart?merged=1", "/profile?merged=1"]) expect(await page(path, customer.cookie), path).toContain(CART_MERGED_MESSAGE);
    const welcome = welcomeMessage(customer.name);
    expect(welcome).toBe("Welcome to Stride, Sunethra: your account is ready");
    const html = await page("/cart?welcome=1", customer.cookie);
    // In a polite live region (not a role=status: every page has it, and a page's own status stays its one).
    expect(html).toMatch(new RegExp(`<span aria-live="polite"><span>${welcome}</span></span>`));

    // Not without the parameter, nor to a visitor who has the address (shared, bookmarked).
    expect(await page("/", customer.cookie)).not.toContain(CART_MERGED_MESSAGE);
    expect(await page("/?merged=1&welcome=1")).not.toMatch(/We added the items|Welcome to Stride/);
  });
});
