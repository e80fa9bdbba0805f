import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { customerWithCart, goodSlip, ownShoe, tokenOf } from "./cart-helpers";
import { DEMO_ADMIN, gotoHydrated, logIn, pngFromPixels, uniqueUser, waitForHydration } from "./helpers";

// Tabs of one browser share one session. A form rendered for one customer and sent after another tab logged in as
// someone else is refused, and says why, instead of acting as that someone else. A long form sent after the session
// ended keeps what was typed across the login that asks for; and every tab is told why it is sent to the login page,
// not only the first.

const SWITCHED = "You are now signed in as another account in this browser. Reload the page to continue.";
const KEPT = "Your session had ended, so what you typed was kept while you logged in again. Check it, then send it again.";

/** Ends the browser's session on the server, as a logout elsewhere does: the browser's cookie stays, its token dead. */
async function endBrowserSession(context: BrowserContext, request: APIRequestContext): Promise<void> {
  const token = (await context.cookies()).find((cookie) => cookie.name === "stride_session")?.value;
  expect(token, "the browser has a session").toBeTruthy();
  const response = await request.post("/api/auth/logout", { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(204);
}

/** A customer registered through the API, returned with its token. */
async function newCustomer(request: APIRequestContext, name: string) {
  const user = { ...uniqueUser(), name };
  expect((await request.post("/api/auth/register", { data: user })).status()).toBe(201);
  return { ...user, token: await tokenOf(request, user) };
}

const api = async (request: APIRequestContext, path: string, token: string) => (await request.get(path, { headers: { Authorization: `Bearer ${token}` } })).json();

test("Nimal's Place Order, pressed after another tab logged out and in as Tara, is refused and says why: no order, Tara's cart kept", async ({ context, request, baseURL }) => {
  const shoe = await ownShoe(request, 10);
  try {
    const nimal = await customerWithCart(context, request, baseURL!, shoe);
    const tara = await newCustomer(request, "Tara Silva");
    const added = await request.post(`/api/cart/add?productId=${shoe.id}&sizeId=${shoe.sizeId}&quantity=2`, { headers: { Authorization: `Bearer ${tara.token}` } });
    expect(added.status()).toBe(200);

    // Tab A: Nimal's checkout, a slip chosen.
    const a = await context.newPage();
    await gotoHydrated(a, "/cart?checkout");
    const dialog = a.getByRole("dialog", { name: "Checkout" });
    await expect(dialog.getByLabel("Full name")).toHaveValue(nimal.name);
    await dialog.getByLabel("Bank slip").setInputFiles(goodSlip);
    await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toBeVisible();

    // Tab B: logs out, and in as Tara.
    const b = await context.newPage();
    await gotoHydrated(b, "/");
    await b.getByRole("button", { name: "Logout" }).click();
    await expect(b).toHaveURL("/login");
    await waitForHydration(b);
    await logIn(b, tara);
    await expect(b).toHaveURL("/");

    // Tab A: Place Order is refused with the reason; the dialog still shows what Nimal typed.
    await dialog.getByRole("button", { name: /^Place Order/ }).click();
    await expect(dialog.getByRole("alert")).toHaveText(SWITCHED);
    await expect(dialog.getByLabel("Full name")).toHaveValue(nimal.name);
    expect(await api(request, "/api/orders/my", tara.token)).toEqual([]);
    // (Tab B's logout ended Nimal's token: his orders are read with a new one.)
    expect(await api(request, "/api/orders/my", await tokenOf(request, nimal))).toEqual([]);
    const taraCart = (await api(request, "/api/cart", tara.token)) as { productId: number; quantity: number }[];
    expect(taraCart.map((line) => [line.productId, line.quantity])).toEqual([[shoe.id, 2]]);

    // Reloaded, tab A is Tara's cart.
    await a.reload();
    await waitForHydration(a);
    await expect(a.getByRole("link", { name: `Profile of ${tara.name}` }).first()).toBeAttached();
    await expect(a.getByTestId("cart-quantity")).toHaveText("2");
  } finally {
    await shoe.remove();
  }
});

test("an admin's Update Status, pressed after another tab logged in as a customer, says why instead of going to /", async ({ context, page, request }) => {
  const customer = await newCustomer(request, "Order Owner");
  const shoe = await ownShoe(request, 5);
  try {
    const placed = await request.post("/api/orders", {
      headers: { Authorization: `Bearer ${customer.token}` },
      multipart: {
        order: JSON.stringify({ customerName: customer.name, customerEmail: customer.email, customerPhone: customer.phone, shippingAddress: customer.address, orderItems: [{ productId: shoe.id, sizeId: shoe.sizeId, quantity: 1 }] }),
        bankSlip: goodSlip,
      },
    });
    expect(placed.status()).toBe(201);
    const order = (await placed.json()) as { id: number };
    await logInAs(page);
    await gotoHydrated(page, `/admin/orders/${order.id}`);

    const other = await context.newPage();
    await gotoHydrated(other, "/");
    await other.getByRole("button", { name: "Logout" }).click();
    await expect(other).toHaveURL("/login");
    await waitForHydration(other);
    await logIn(other, customer);
    await expect(other).toHaveURL("/");

    await page.getByLabel("New status").selectOption("CONFIRMED");
    await page.getByRole("button", { name: "Update Status" }).click();
    await expect(page.getByRole("alert").filter({ hasText: SWITCHED })).toBeVisible();
    await expect(page).toHaveURL(`/admin/orders/${order.id}`);
    const mine = (await api(request, "/api/orders/my", customer.token)) as { id: number; status: string }[];
    expect(mine.find((row) => row.id === order.id)?.status).toBe("PENDING");
  } finally {
    await shoe.remove();
  }
});

test("the add-product form's fields and sizes come back after the login an ended session asked for, once; the pictures must be chosen again", async ({ page, request }) => {
  const name = `E2E Kept ${Date.now().toString(36)}`;
  await logInAs(page);
  await gotoHydrated(page, "/add_product");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Brand", { exact: true }).fill("Kept Brand");
  await page.getByLabel("Description", { exact: true }).fill("Typed before the session ended.");
  await page.getByLabel("Price (LKR)").fill("7450");
  await page.getByLabel("Category", { exact: true }).selectOption("Ladies");
  await page.getByRole("button", { name: "Use the category's sizes" }).click();
  await page.getByLabel("Stock of size 1", { exact: true }).fill("4");
  await page.getByLabel("Stock of size 3", { exact: true }).fill("2");
  await page.getByLabel("Release date").fill("2026-06-01");
  await page.getByLabel("Product Available").uncheck();
  await page.getByLabel("Pictures (the first is the card's)").setInputFiles({ name: "side.png", mimeType: "image/png", buffer: pngFromPixels(8, 8, () => [200, 60, 60]) });
  await expect(page.getByTestId("new-picture")).toHaveCount(1);

  await endBrowserSession(page.context(), request);
  await page.getByRole("button", { name: "Add Product" }).click();
  await expect(page).toHaveURL("/login?redirect=%2Fadd_product&expired=1");
  await expect(page.getByRole("alert")).toHaveText("Session expired! Please login again.");
  await waitForHydration(page);
  await logIn(page, DEMO_ADMIN);
  await expect(page).toHaveURL("/add_product");
  await waitForHydration(page);

  await expect(page.getByTestId("kept-note")).toHaveText(KEPT);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Brand", { exact: true })).toHaveValue("Kept Brand");
  await expect(page.getByLabel("Description", { exact: true })).toHaveValue("Typed before the session ended.");
  await expect(page.getByLabel("Price (LKR)")).toHaveValue("7450");
  await expect(page.getByLabel("Category", { exact: true })).toHaveValue("Ladies");
  await expect(page.getByLabel("Size 1", { exact: true })).toHaveValue("EU 35");
  await expect(page.getByLabel("Stock of size 1", { exact: true })).toHaveValue("4");
  await expect(page.getByLabel("Size 8", { exact: true })).toHaveValue("EU 42");
  await expect(page.getByTestId("sizes-total")).toHaveText("6");
  await expect(page.getByLabel("Release date")).toHaveValue("2026-06-01");
  await expect(page.getByLabel("Product Available")).not.toBeChecked();
  await expect(page.getByTestId("pictures-lost")).toHaveText("Choose the pictures again: they cannot be kept across a login.");
  expect((await (await request.get(`/api/products/search?keyword=${encodeURIComponent(name)}`)).json()) as unknown[]).toEqual([]);

  // Given back once: the next load of the form is empty.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId("kept-note")).toHaveCount(0);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
});

test("the profile keeps its fields across the login, never the passwords; the review being written too", async ({ context, page, request, baseURL }) => {
  const shoe = await ownShoe(request, 3);
  try {
    const user = await newCustomer(request, "Kept Profile");
    await context.addCookies([{ name: "stride_session", value: user.token, url: baseURL! }]);
    await gotoHydrated(page, "/profile");
    await page.getByLabel("Name", { exact: true }).fill("Kept Profile Renamed");
    await page.getByLabel("Address", { exact: true }).fill("99 Kandy Road, Kiribathgoda");
    await page.getByLabel("New password", { exact: true }).fill("a-secret-never-kept");
    await page.getByLabel("Confirm new password", { exact: true }).fill("a-secret-never-kept");
    await endBrowserSession(context, request);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL("/login?redirect=%2Fprofile&expired=1");
    await expect(page.getByRole("alert")).toHaveText("Session expired. Please login again.");
    const stored = await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
    expect(stored).toContain("99 Kandy Road");
    expect(stored).not.toContain("a-secret-never-kept");
    await waitForHydration(page);
    await logIn(page, user);
    await expect(page).toHaveURL("/profile");
    await waitForHydration(page);
    await expect(page.getByTestId("kept-note")).toHaveText(KEPT);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Kept Profile Renamed");
    await expect(page.getByLabel("Address", { exact: true })).toHaveValue("99 Kandy Road, Kiribathgoda");
    await expect(page.getByLabel("Phone", { exact: true })).toHaveValue(user.phone);
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");
    // Nothing was saved meanwhile.
    expect(((await api(request, "/api/auth/me", (await tokenOf(request, user)))) as { name: string }).name).toBe("Kept Profile");

    // A review being written, on the product's page.
    await gotoHydrated(page, `/product/${shoe.id}`);
    await page.getByLabel("Your review").fill("Kept across the login, word for word.");
    await page.locator("label[for='new-review-rating-3']").click();
    await endBrowserSession(context, request);
    await page.getByRole("button", { name: "Submit Review" }).click();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fproduct%2F\d+%23reviews&expired=1$/);
    await waitForHydration(page);
    await logIn(page, user);
    await expect(page).toHaveURL(`/product/${shoe.id}#reviews`);
    await waitForHydration(page);
    await expect(page.getByLabel("Your review")).toHaveValue("Kept across the login, word for word.");
    await expect(page.locator("#new-review-rating-3")).toBeChecked();
    await expect(page.getByTestId("kept-note")).toHaveText(KEPT);
  } finally {
    await shoe.remove();
  }
});

test("the checkout keeps its contact fields across the login; the slip must be chosen again", async ({ context, request, baseURL }) => {
  const shoe = await ownShoe(request, 5);
  try {
    const user = await customerWithCart(context, request, baseURL!, shoe);
    const page = await context.newPage();
    await gotoHydrated(page, "/cart?checkout");
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await dialog.getByLabel("Shipping address").fill("7 Lake Drive, Kandy");
    await dialog.getByLabel("Phone").fill("0719876543");
    await dialog.getByLabel("Bank slip").setInputFiles(goodSlip);
    await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toBeVisible();
    await endBrowserSession(context, request);
    await dialog.getByRole("button", { name: /^Place Order/ }).click();
    await expect(page).toHaveURL("/login?redirect=%2Fcart%3Fcheckout&expired=1");
    await expect(page.getByRole("alert")).toHaveText("Session expired. Please login again.");
    await waitForHydration(page);
    await logIn(page, user);
    await expect(page).toHaveURL("/cart?checkout");
    await waitForHydration(page);
    const again = page.getByRole("dialog", { name: "Checkout" });
    await expect(again.getByTestId("kept-note")).toHaveText(KEPT);
    await expect(again.getByLabel("Shipping address")).toHaveValue("7 Lake Drive, Kandy");
    await expect(again.getByLabel("Phone")).toHaveValue("0719876543");
    await expect(again.getByLabel("Full name")).toHaveValue(user.name);
    await expect(again.getByTestId("slip-lost")).toHaveText("Choose the bank slip again: it cannot be kept across a login.");
    await expect(again.getByRole("button", { name: /^Place Order/ })).toBeDisabled();
    expect(await api(request, "/api/orders/my", await tokenOf(request, user))).toEqual([]);
  } finally {
    await shoe.remove();
  }
});

test("after one tab finds the session ended, the other tabs' way to the login page says so too", async ({ context, request, baseURL }) => {
  const user = await newCustomer(request, "Two Tabs");
  await context.addCookies([{ name: "stride_session", value: user.token, url: baseURL! }]);
  const [a, b] = [await context.newPage(), await context.newPage()];
  await gotoHydrated(a, "/");
  await gotoHydrated(b, "/");
  await endBrowserSession(context, request);

  await a.getByRole("link", { name: `Profile of ${user.name}` }).first().click();
  await expect(a).toHaveURL("/login?redirect=%2Fprofile&expired=1");
  await expect(a.getByRole("alert")).toHaveText("Session expired. Please login again.");
  // The first tab's redirect cleared the cookie: the second's request carries none, and is told all the same.
  await b.getByRole("link", { name: "My Orders" }).first().click();
  await expect(b).toHaveURL("/login?redirect=%2Forders&expired=1");
  await expect(b.getByRole("alert")).toHaveText("Session expired. Please login again.");
});
