import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { customerWithCart, goodSlip, ownShoe, tokenOf } from "./cart-helpers";
import { gotoHydrated, logIn, uniqueUser, waitForHydration } from "./helpers";

// Tabs of one browser share one session. A form rendered for one customer and sent after another tab logged in as
// someone else is refused, and says why, instead of acting as that someone else. Every tab is told why it is sent to
// the login page once the session ended, not only the first.

const SWITCHED = "You are now signed in as another account in this browser. Reload the page to continue.";

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
    expect(await api(request, "/api/orders/my", nimal.token)).toEqual([]);
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
