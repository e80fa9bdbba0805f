import { beforeAll, describe, expect, it } from "vitest";

import { countProducts, onlySizeOf, postMultipartForm, r2Keys, screenProductForm, tag, visibleText } from "./catalogue-helpers";
import { ORIGIN, call, postForm, setCookieFor, testEnv, uniqueEmail } from "./helpers";
import {
  type Account,
  cartOk,
  cartRows,
  checkoutForm,
  countOrders,
  guestCartCookie,
  newAdmin,
  newCustomer,
  orderBody,
  orderForm,
  orderStatusOf,
  placeOrder,
  postCheckout,
  product,
  slipKeys,
  stockOf,
} from "./order-helpers";
import { createReviewApi, reviewRow } from "./review-helpers";

// Tabs of one browser share one session cookie. A form rendered for one customer ("Nimal") and posted after another
// tab logged in as someone else ("Tara") acted as Tara: an order on her account with Nimal's address, a review under
// her name. Every screen form rendered for a signed-in user now carries `renderedFor` (its user's id), the checkout's
// fetch to POST /api/orders the header X-Rendered-For; the server refuses the write (409) when the session's user is
// another, and nothing changes. Each case: the same user passes, another is refused, nothing changed.

const SWITCHED = "You are now signed in as another account in this browser. Reload the page to continue.";
const t = tag();

let nimal: Account;
let tara: Account;
let admin: Account;
let otherAdmin: Account;
let shoe: number;
beforeAll(async () => {
  [nimal, tara, admin, otherAdmin] = await Promise.all([newCustomer("Nimal Perera"), newCustomer("Tara Silva"), newAdmin(), newAdmin()]);
  shoe = await product({ name: `Tab Shoe ${t}`, price: 9999, stockQuantity: 50 });
});

/** A form posted as a fetcher or a form with JavaScript posts it: the route's `.data` address. */
function postData(path: string, fields: Record<string, string>, cookie: string): Promise<Response> {
  const [pathname, search = ""] = path.split("?");
  return postForm(`${pathname}.data${search ? `?${search}` : ""}`, fields, { cookie });
}

async function expectSwitched(response: Response, status = 409): Promise<string> {
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(status);
  expect(text).toContain(SWITCHED);
  return text;
}

/** What a refused write must leave as it was: Tara's cart, the orders, the slips and the shoe's stock. */
async function snapshot() {
  return { cart: await cartRows(tara.id), orders: await countOrders(), slips: await slipKeys(), stock: await stockOf(shoe) };
}

describe("POST /api/orders with X-Rendered-For (the checkout's fetch)", () => {
  const post = (renderedFor: string | null, cookie: string) =>
    call("/api/orders", {
      method: "POST",
      body: orderForm(orderBody([{ productId: shoe, quantity: 1 }], { customerName: "Nimal Perera", shippingAddress: "12 Galle Road, Colombo 03" })),
      headers: { Cookie: cookie, ...(renderedFor === null ? {} : { "X-Rendered-For": renderedFor }) },
    });

  it("another user's session is refused with a 409 that says what happened; nothing is placed, Tara's cart stays", async () => {
    await cartOk("DELETE", "/clear", tara.token);
    await cartOk("POST", `/add?productId=${shoe}&quantity=2`, tara.token);
    const before = await snapshot();
    const response = await post(String(nimal.id), tara.cookie);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ message: SWITCHED });
    expect(response.status).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it("the same user places the order as before (201), and a bearer token is checked alike", async () => {
    const response = await post(String(nimal.id), nimal.cookie);
    expect(response.status, await response.clone().text()).toBe(201);
    const before = await snapshot();
    const bearer = await call("/api/orders", { method: "POST", body: orderForm(orderBody([{ productId: shoe, quantity: 1 }])), headers: { ...tara.auth, "X-Rendered-For": String(nimal.id) } });
    expect(bearer.status).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it("a value that is no user id is 400 and places nothing; without the header nothing is checked (API.md)", async () => {
    const before = await snapshot();
    for (const value of ["abc", "0", "-3", "1.5"]) expect((await post(value, tara.cookie)).status, value).toBe(400);
    expect(await snapshot()).toEqual(before);
    expect((await post(null, tara.cookie)).status).toBe(201);
  });

  it("/api/openapi.json documents the header on every call that needs a login, with its 409", async () => {
    type Operation = { parameters?: { name: string; in: string }[]; responses: Record<string, { description: string }> };
    const doc = (await (await call("/api/openapi.json")).json()) as { paths: Record<string, Record<string, Operation>> };
    const orders = doc.paths["/api/orders"].post;
    expect(orders.parameters).toContainEqual(expect.objectContaining({ name: "X-Rendered-For", in: "header" }));
    expect(orders.responses["409"].description).toContain("Insufficient stock");
    expect(orders.responses["409"].description).toContain(SWITCHED);
    expect(doc.paths["/api/orders/admin/{id}/status"].put.parameters).toContainEqual(expect.objectContaining({ name: "X-Rendered-For" }));
    expect(doc.paths["/api/products"].get.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: "X-Rendered-For" }));
  });

  it("a call that needs no login ignores it; one that does checks it on reads too", async () => {
    expect((await call("/api/products", { headers: { "X-Rendered-For": String(nimal.id) } })).status).toBe(200);
    expect((await call("/api/orders/my", { headers: { Cookie: tara.cookie, "X-Rendered-For": String(nimal.id) } })).status).toBe(409);
    expect((await call("/api/orders/my", { headers: { Cookie: tara.cookie, "X-Rendered-For": String(tara.id) } })).status).toBe(200);
  });
});

describe("the checkout without JavaScript (POST /cart?checkout)", () => {
  it("Nimal's checkout posted with Tara's session is refused on the page (409): no order, Tara's cart and stock as they were", async () => {
    await cartOk("DELETE", "/clear", tara.token);
    await cartOk("POST", `/add?productId=${shoe}`, tara.token);
    const before = await snapshot();
    const response = await postCheckout(checkoutForm({ customerName: "Nimal Perera", renderedFor: String(nimal.id) }), tara.cookie);
    expect(visibleText(await expectSwitched(response))).toContain(SWITCHED);
    expect(await snapshot()).toEqual(before);
    // Her own checkout is placed.
    const placed = await postCheckout(checkoutForm({ customerName: "Tara Silva", renderedFor: String(tara.id) }), tara.cookie);
    expect(placed.status, await placed.clone().text()).toBe(302);
    expect(placed.headers.get("Location")).toMatch(/^\/orders\/\d+\?placed=1$/);
  });
});

describe("reviews on the product page", () => {
  const reviewForm = (intent: string, renderedFor: Account, extra: Record<string, string> = {}) => ({ intent, comment: "Typed by Nimal in his tab", rating: "2", renderedFor: String(renderedFor.id), ...extra });
  const reviewsBy = async (userId: number, productId: number) =>
    (await testEnv.DB.prepare("SELECT count(*) AS n FROM reviews WHERE user_id = ? AND product_id = ?").bind(userId, productId).first<{ n: number }>())!.n;

  it("a review written for Nimal and posted with Tara's session is not posted as Tara (409, as typed); Nimal's own goes in", async () => {
    const productId = await product({ name: `Reviewed ${t}` });
    const refused = await postData(`/product/${productId}`, reviewForm("review-create", nimal), tara.cookie);
    await expectSwitched(refused);
    expect(await reviewsBy(tara.id, productId)).toBe(0);
    const posted = await postData(`/product/${productId}`, reviewForm("review-create", nimal), nimal.cookie);
    expect(posted.status).toBe(200);
    expect(await reviewsBy(nimal.id, productId)).toBe(1);
  });

  it("an edit or a delete of Nimal's review posted with another session says so (not 'Failed to ...'), even an admin's, and changes nothing", async () => {
    const productId = await product({ name: `Edited ${t}` });
    const review = await createReviewApi(nimal.token, productId, "Nimal's words", 5);
    const before = await reviewRow(review.id);
    for (const cookie of [tara.cookie, admin.cookie]) {
      await expectSwitched(await postData(`/product/${productId}`, reviewForm("review-update", nimal, { reviewId: String(review.id) }), cookie));
      await expectSwitched(await postData(`/product/${productId}`, reviewForm("review-delete", nimal, { reviewId: String(review.id) }), cookie));
    }
    expect(await reviewRow(review.id)).toEqual(before);
    const saved = await postData(`/product/${productId}`, reviewForm("review-update", nimal, { reviewId: String(review.id) }), nimal.cookie);
    expect(saved.status).toBe(200);
    expect((await reviewRow(review.id))!.comment).toBe("Typed by Nimal in his tab");
  });
});

describe("the profile (details and password)", () => {
  const accountRow = (id: number) => testEnv.DB.prepare("SELECT name, email, address, phone, password_hash, session_version FROM users WHERE id = ?").bind(id).first();
  const profileForm = (changes: Record<string, string> = {}) => ({
    renderedFor: String(nimal.id),
    name: "Nimal Perera",
    email: uniqueEmail("nimal-new"),
    address: "12 Galle Road, Colombo 03",
    phone: "0771234567",
    ...changes,
  });

  it("Nimal's form posted with Tara's session is refused with the reason, not saved into her account (details or password)", async () => {
    const before = await accountRow(tara.id);
    const details = await postForm("/profile", profileForm(), { cookie: tara.cookie });
    expect(visibleText(await expectSwitched(details))).not.toContain("Email is already registered");
    const password = await postForm("/profile", profileForm({ password: "nimals-new-pw", confirmPassword: "nimals-new-pw" }), { cookie: tara.cookie });
    await expectSwitched(password);
    expect(setCookieFor(password, "stride_session")).toBeUndefined();
    expect(await accountRow(tara.id)).toEqual(before);
    // Nimal's own session saves it.
    const email = uniqueEmail("nimal-saved");
    const response = await postForm("/profile", profileForm({ email }), { cookie: nimal.cookie });
    expect(response.status).toBe(200);
    expect(await accountRow(nimal.id)).toMatchObject({ email });
    nimal.email = email;
  });
});

describe("the admin's product forms and product delete", () => {
  it("add product: another admin's session or a customer's is refused with the reason (not sent to /) and nothing is stored", async () => {
    const before = { products: await countProducts(), keys: await r2Keys() };
    for (const cookie of [otherAdmin.cookie, tara.cookie]) {
      const form = screenProductForm({ name: `Refused ${t}`, renderedFor: String(admin.id) });
      await expectSwitched(await postMultipartForm("/add_product.data", form, { cookie }));
    }
    expect({ products: await countProducts(), keys: await r2Keys() }).toEqual(before);
    // The same admin's form is saved; a customer's post that names nobody is sent to /, as before.
    const saved = await postMultipartForm("/add_product", screenProductForm({ name: `Saved ${t}`, renderedFor: String(admin.id) }), { cookie: admin.cookie });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toMatch(/^\/product\/\d+\?saved=1$/);
    const customer = await postMultipartForm("/add_product", screenProductForm({ name: `Customer ${t}` }), { cookie: tara.cookie });
    expect(customer.headers.get("Location")).toBe("/");
    expect(await countProducts()).toBe(before.products + 1);
  });

  it("without JavaScript, an admin's form posted after a customer logged in shows the reason on a page of its own", async () => {
    const before = await countProducts();
    const response = await postMultipartForm("/add_product", screenProductForm({ name: `No JS ${t}`, renderedFor: String(admin.id) }), { cookie: tara.cookie });
    const text = visibleText(await expectSwitched(response));
    expect(text).toContain("Nothing was changed");
    expect(await countProducts()).toBe(before);
  });

  it("update product and delete product: refused for another session; the product stays as it was", async () => {
    const id = await product({ name: `Kept ${t}`, price: 4500, stockQuantity: 4 });
    const sizeId = await onlySizeOf(id);
    const row = () => testEnv.DB.prepare("SELECT name, price_cents, stock_quantity FROM products WHERE id = ?").bind(id).first();
    const before = await row();
    const update = screenProductForm({ name: `Renamed ${t}`, renderedFor: String(admin.id), "sizes.0.id": String(sizeId), "sizes.0.label": "One size", "sizes.0.stock": "9" });
    for (const cookie of [otherAdmin.cookie, tara.cookie]) {
      await expectSwitched(await postMultipartForm(`/product/update/${id}.data`, update, { cookie }));
      await expectSwitched(await postData(`/product/${id}`, { intent: "delete", renderedFor: String(admin.id) }, cookie));
    }
    expect(await row()).toEqual(before);
    const saved = await postMultipartForm(`/product/update/${id}`, update, { cookie: admin.cookie });
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect(await row()).toMatchObject({ name: `Renamed ${t}`, stock_quantity: 9 });
    const deleted = await postForm(`/product/${id}`, { intent: "delete", renderedFor: String(admin.id) }, { cookie: admin.cookie });
    expect(deleted.headers.get("Location")).toBe("/?deleted=1");
  });
});

describe("the order status form (the orders list's Manage dialog and /admin/orders/{id})", () => {
  it("an admin whose other tab logged in as a customer or another admin is told why; the status stays", async () => {
    const order = await placeOrder(nimal.token, [{ productId: shoe, quantity: 1 }]);
    const fields = { intent: "status", orderId: String(order.id), status: "CONFIRMED", statusWas: "PENDING", renderedFor: String(admin.id) };
    for (const path of ["/admin/orders", `/admin/orders/${order.id}`]) {
      for (const cookie of [tara.cookie, otherAdmin.cookie]) await expectSwitched(await postData(path, fields, cookie));
      // Without JavaScript a customer gets the reason on a page of its own, not the shop's home.
      expect(visibleText(await expectSwitched(await postForm(path, fields, { cookie: tara.cookie })))).toContain("Nothing was changed");
    }
    expect(await orderStatusOf(order.id)).toBe("PENDING");
    const moved = await postData(`/admin/orders/${order.id}`, fields, admin.cookie);
    expect(moved.status).toBe(200);
    expect(await orderStatusOf(order.id)).toBe("CONFIRMED");
  });
});

describe("the cart's forms", () => {
  it("a line of Nimal's cart changed from his page with Tara's session is refused; hers stays as it was", async () => {
    await cartOk("DELETE", "/clear", tara.token);
    await cartOk("POST", `/add?productId=${shoe}&quantity=2`, tara.token);
    const before = await cartRows(tara.id);
    const set = { intent: "set", productId: String(shoe), quantity: "5", quantityWas: "1", renderedFor: String(nimal.id) };
    await expectSwitched(await postData("/cart", set, tara.cookie));
    await expectSwitched(await postData("/cart", { intent: "remove", productId: String(shoe), renderedFor: String(nimal.id) }, tara.cookie));
    await expectSwitched(await postData("/cart/add", { productId: String(shoe), renderedFor: String(nimal.id) }, tara.cookie));
    expect(await cartRows(tara.id)).toEqual(before);
    // Her own page's changes go through.
    expect((await postData("/cart", { ...set, renderedFor: String(tara.id) }, tara.cookie)).status).toBe(200);
    expect((await postData("/cart/add", { productId: String(shoe), renderedFor: String(tara.id) }, tara.cookie)).status).toBe(200);
    expect(await cartRows(tara.id)).toEqual({ [shoe]: 7 });
    // A visitor's page carries nothing: posted after a login elsewhere, it changes the cart its lines joined, as before.
    expect((await postData("/cart", { intent: "set", productId: String(shoe), quantity: "2", quantityWas: "7" }, tara.cookie)).status).toBe(200);
    expect(await cartRows(tara.id)).toEqual({ [shoe]: 2 });
  });

  it("without JavaScript, a refused add comes back to its page saying why", async () => {
    const response = await postForm("/cart/add", { productId: String(shoe), redirectTo: "/search?keyword=shoe", renderedFor: String(nimal.id) }, { cookie: tara.cookie });
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get("Location")!, ORIGIN);
    expect(back.searchParams.get("cartError")).toBe(SWITCHED);
    expect(visibleText(await (await call(back.pathname + back.search, { headers: { Cookie: tara.cookie } })).text())).toContain(SWITCHED);
  });
});

describe("a form rendered for a signed-in user whose session ended since", () => {
  it("goes to the login page with the way back, and never acts as a visitor (the cart cookie is not written)", async () => {
    const profile = await postForm("/profile", { renderedFor: String(nimal.id), name: "Nimal" }, {});
    expect(profile.headers.get("Location")).toBe("/login?redirect=%2Fprofile");
    const cart = await postForm("/cart", { intent: "set", productId: String(shoe), quantity: "3", renderedFor: String(nimal.id) }, { cookie: guestCartCookie([]) });
    expect(cart.status).toBe(302);
    expect(cart.headers.get("Location")).toBe("/login?redirect=%2Fcart");
    expect(setCookieFor(cart, "stride_cart")).toBeUndefined();
    // A visitor's own form (no renderedFor) still changes the visitor's cart.
    const visitor = await postForm("/cart", { intent: "set", productId: String(shoe), quantity: "3" }, { cookie: guestCartCookie([{ productId: shoe, quantity: 1 }]) });
    expect(visitor.status).toBe(200);
    expect(setCookieFor(visitor, "stride_cart")).toBeDefined();
  });
});

describe("the other tabs are told why they are sent to the login page", () => {
  const ENDED = "stride_session_ended";

  it("the first tab that finds the session dead clears its cookie and leaves a note; the next tab's redirect says expired too", async () => {
    const user = await newCustomer("Ended Elsewhere");
    expect((await call("/api/auth/logout", { method: "POST", headers: user.auth })).status).toBe(204);
    const first = await call("/profile", { headers: { Cookie: user.cookie } });
    expect(first.headers.get("Location")).toBe("/login?redirect=%2Fprofile&expired=1");
    expect(setCookieFor(first, "stride_session")).toMatch(/Max-Age=0/);
    const note = setCookieFor(first, ENDED)!;
    expect(note).toMatch(/HttpOnly/);
    expect(note).toMatch(/SameSite=Lax/);
    // Another tab: the browser no longer sends the session cookie, only the note.
    const other = await call("/orders", { headers: { Cookie: note.split(";")[0] } });
    expect(other.headers.get("Location")).toBe("/login?redirect=%2Forders&expired=1");
    // The API says so too (a dead session, not none): the checkout's fetch then sends the browser to that login page.
    const api = await call("/api/orders/my", { headers: { Cookie: note.split(";")[0] } });
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ message: "Invalid or expired token" });
    // Without the note (a visitor who never logged in, or after logging out) the redirect gives no reason.
    expect((await call("/orders")).headers.get("Location")).toBe("/login?redirect=%2Forders");
  });

  it("a login or a logout forgets the note", async () => {
    const user = await newCustomer("Back Again");
    const login = await postForm("/login", { email: user.email, password: user.password }, { cookie: `${ENDED}=1` });
    expect(login.status).toBe(302);
    expect(setCookieFor(login, ENDED)).toMatch(/Max-Age=0/);
    const logout = await postForm("/logout", {}, { cookie: `${user.cookie}; ${ENDED}=1` });
    expect(setCookieFor(logout, ENDED)).toMatch(/Max-Age=0/);
    // Nothing to forget: no Set-Cookie for it.
    expect(setCookieFor(await postForm("/login", { email: user.email, password: user.password }), ENDED)).toBeUndefined();
  });
});
