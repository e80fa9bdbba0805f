import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";

import { customerWithCart, goodSlip, ownShoe, tokenOf, type Shoe } from "./cart-helpers";
import { DEMO_ADMIN, gotoHydrated, SCREENSHOT_VIEWPORTS } from "./helpers";

// What a QA pass with several tabs and double clicks found at the checkout, in a real browser against the real Worker:
// a double click (or a second tap while the slip is checked) placed two orders; a checkout left open in one tab
// ordered its old lines after another tab changed the cart, and emptied the lines it did not order; a size removed
// by the admin left the checkout and the product page repeating a refusal; a page reloaded while Place Order was on its
// way showed an empty cart without a word. Screenshots of the changed screens, light and dark, 390 and 1280 wide,
// under /tmp/checkout-shots (SHOTS_DIR).

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/checkout-shots";
const CART_CHANGED = "Your cart changed in another tab or window. Please check it and place your order again.";

/** The posts of orders the page sends (with JavaScript, /api/orders). */
function ordersPosted(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/orders") posts.push(request.headers()["idempotency-key"] ?? "");
  });
  return posts;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function myOrders(request: APIRequestContext, token: string) {
  const response = await request.get("/api/orders/my", { headers: bearer(token) });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: number; orderItems: { productId: number; sizeLabel: string; quantity: number }[] }[];
}

async function cartOf(request: APIRequestContext, token: string) {
  const response = await request.get("/api/cart", { headers: bearer(token) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { productId: number; quantity: number }[]).map(({ productId, quantity }) => [productId, quantity]);
}

async function sizeStock(request: APIRequestContext, shoe: Shoe) {
  const product = (await (await request.get(`/api/product/${shoe.id}`)).json()) as { sizes: { id: number; stockQuantity: number }[] };
  return product.sizes.find((size) => size.id === shoe.sizeId)!.stockQuantity;
}

/** The admin's save of the shoe without the size `label` (its cart lines go with it). */
async function removeSize(request: APIRequestContext, shoe: Shoe, label: string) {
  const admin = await tokenOf(request, DEMO_ADMIN);
  const { id, sizes, ...product } = (await (await request.get(`/api/product/${shoe.id}`)).json()) as Record<string, unknown> & { id: number; sizes: { id: number; label: string; stockQuantity: number }[] };
  const kept = sizes.filter((size) => size.label !== label).map(({ id: sizeId, label: kept, stockQuantity }) => ({ id: sizeId, label: kept, stockQuantity }));
  const saved = await request.put(`/api/product/${id}`, { headers: bearer(admin), multipart: { product: JSON.stringify({ ...product, sizes: kept }) } });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** Chooses a size as a shopper does, by its label (the radio itself is visually hidden inside it). */
async function chooseSize(page: Page, label: string): Promise<void> {
  await page.getByRole("group", { name: "Size" }).locator("label").filter({ has: page.getByText(label, { exact: true }) }).click();
  await expect(page.getByRole("group", { name: "Size" }).getByRole("radio", { name: label })).toBeChecked();
}

/** The checkout of a customer whose cart holds one pair of the shoe, with a slip chosen and Place Order ready. */
async function openCheckout(page: Page, context: BrowserContext, request: APIRequestContext, baseURL: string, shoe: Shoe) {
  const user = await customerWithCart(context, request, baseURL, shoe);
  await gotoHydrated(page, "/cart?checkout");
  const dialog = page.getByRole("dialog", { name: "Checkout" });
  await dialog.getByLabel("Bank slip").setInputFiles(goodSlip);
  await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toBeVisible();
  const placeOrder = dialog.getByRole("button", { name: /^Place Order/ });
  await expect(placeOrder).toBeEnabled();
  return { user, dialog, placeOrder };
}

test.describe("Place Order pressed twice", () => {
  test("a double click sends one order: one order, its pairs taken once", async ({ page, context, request, baseURL }) => {
    const shoe = await ownShoe(request, 5);
    try {
      const { user, dialog, placeOrder } = await openCheckout(page, context, request, baseURL!, shoe);
      const posts = ordersPosted(page);
      await placeOrder.dblclick();
      await expect(dialog.getByRole("status")).toContainText(/Order #\d+ placed!/);
      expect(posts, "posts of /api/orders").toHaveLength(1);
      expect(posts[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(await myOrders(request, user.token)).toHaveLength(1);
      expect(await sizeStock(request, shoe)).toBe(4);
    } finally {
      await shoe.remove();
    }
  });

  test("a second tap 70 ms after the first, while a slow phone still checks the slip, sends nothing more", async ({ page, context, request, baseURL }) => {
    const shoe = await ownShoe(request, 5);
    try {
      // A phone that takes 150 ms to read the slip's bytes (a big photo, a busy CPU): Place Order checks the slip before
      // it sends, so the second tap comes while the first is still at that check.
      await page.addInitScript(() => {
        const read = Blob.prototype.arrayBuffer;
        Blob.prototype.arrayBuffer = async function (this: Blob) {
          if ((window as unknown as { slowReads?: boolean }).slowReads) await new Promise((resolve) => setTimeout(resolve, 150));
          return read.call(this);
        };
      });
      const { user, dialog, placeOrder } = await openCheckout(page, context, request, baseURL!, shoe);
      await page.evaluate(() => ((window as unknown as { slowReads?: boolean }).slowReads = true));
      const posts = ordersPosted(page);
      await placeOrder.click();
      await page.waitForTimeout(70);
      await placeOrder.click({ force: true }); // aria-disabled by then, yet a tap still lands on it
      await expect(dialog.getByRole("status")).toContainText(/Order #\d+ placed!/);
      expect(posts, "posts of /api/orders").toHaveLength(1);
      expect(await myOrders(request, user.token)).toHaveLength(1);
      expect(await sizeStock(request, shoe)).toBe(4);
    } finally {
      await shoe.remove();
    }
  });
});

test.describe("a checkout left open in one tab while another changes the cart", () => {
  test("another tab raised the line and added a product: the order is refused, nothing is emptied, and the checkout shows the cart as it is", async ({ page, context, request, baseURL }) => {
    const socks = await ownShoe(request, 10);
    const cap = await ownShoe(request, 10);
    try {
      const { user, dialog, placeOrder } = await openCheckout(page, context, request, baseURL!, socks);
      await expect(dialog.getByText(/× 1$/)).toHaveCount(1);

      // Tab B: the cart page's + on the socks, and the cap added.
      const tabB = await context.newPage();
      await gotoHydrated(tabB, "/cart");
      await tabB.getByRole("button", { name: /^One more / }).click();
      await expect(tabB.getByTestId("cart-quantity")).toHaveText("2");
      expect((await request.post(`/api/cart/add?productId=${cap.id}&sizeId=${cap.sizeId}`, { headers: bearer(user.token) })).status()).toBe(200);
      await tabB.close();

      // Tab A still shows socks x1.
      await placeOrder.click();
      await expect(dialog.getByRole("alert")).toHaveText(CART_CHANGED);
      expect(await myOrders(request, user.token)).toEqual([]);
      expect(await cartOf(request, user.token)).toEqual([
        [socks.id, 2],
        [cap.id, 1],
      ]);
      // The checkout reloaded the cart: both lines, the socks at 2.
      await expect(dialog.getByText(`${socks.name} (EU 42) × 2`)).toBeVisible();
      await expect(dialog.getByText(`${cap.name} (EU 42) × 1`)).toBeVisible();

      // Placing it now orders what the cart holds, and empties it.
      await placeOrder.click();
      await expect(dialog.getByRole("status")).toContainText(/Order #\d+ placed!/);
      const [order] = await myOrders(request, user.token);
      expect(order.orderItems.map((item) => [item.productId, item.quantity]).sort()).toEqual(
        [
          [socks.id, 2],
          [cap.id, 1],
        ].sort(),
      );
      expect(await cartOf(request, user.token)).toEqual([]);
    } finally {
      await socks.remove();
      await cap.remove();
    }
  });

  test("another tab removed the line (the cart is empty): nothing is ordered; the checkout closes onto the empty cart, which says why", async ({ page, context, request, baseURL }) => {
    const socks = await ownShoe(request, 10);
    try {
      const { user, dialog, placeOrder } = await openCheckout(page, context, request, baseURL!, socks);
      const tabB = await context.newPage();
      await gotoHydrated(tabB, "/cart");
      await tabB.getByRole("button", { name: /^Remove / }).click();
      await expect(tabB.getByText("Your cart is empty")).toBeVisible();
      await tabB.close();

      await placeOrder.click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("alert")).toHaveText(CART_CHANGED);
      await expect(page.getByText("Your cart is empty")).toBeVisible();
      expect(await myOrders(request, user.token)).toEqual([]);
      expect(await sizeStock(request, socks)).toBe(10);
    } finally {
      await socks.remove();
    }
  });
});

test.describe("a size the admin removed while the shopper had it", () => {
  test("at the checkout: told plainly, the line is gone from the checkout and the cart, and the rest can be ordered", async ({ page, context, request, baseURL }) => {
    const shoe = await ownShoe(request, 0, [
      { label: "EU 41", stockQuantity: 5 },
      { label: "EU 42", stockQuantity: 5 },
    ]);
    const cap = await ownShoe(request, 5);
    try {
      // The cart: the shoe in EU 41 (its first size) and a cap.
      const user = await customerWithCart(context, request, baseURL!, shoe);
      expect((await request.post(`/api/cart/add?productId=${cap.id}&sizeId=${cap.sizeId}`, { headers: bearer(user.token) })).status()).toBe(200);
      await gotoHydrated(page, "/cart?checkout");
      const dialog = page.getByRole("dialog", { name: "Checkout" });
      await dialog.getByLabel("Bank slip").setInputFiles(goodSlip);
      const placeOrder = dialog.getByRole("button", { name: /^Place Order/ });
      await expect(placeOrder).toBeEnabled();
      await expect(dialog.getByText(`${shoe.name} (EU 41) × 1`)).toBeVisible();

      await removeSize(request, shoe, "EU 41");
      await placeOrder.click();
      await expect(dialog.getByRole("alert")).toHaveText(
        `${shoe.name} is no longer sold in the size you chose, so it was taken out of your cart. Please check your cart and place your order again.`,
      );
      await expect(dialog.getByText(`${shoe.name} (EU 41) × 1`)).toHaveCount(0);
      await expect(dialog.getByText(`${cap.name} (EU 42) × 1`)).toBeVisible();
      // Behind the checkout, the cart says which line went and why.
      await expect(page.getByTestId("cart-gone")).toHaveText(`${shoe.name} is no longer sold in EU 41, so it was taken out of your cart.`);

      await placeOrder.click();
      await expect(dialog.getByRole("status")).toContainText(/Order #\d+ placed!/);
      const [order] = await myOrders(request, user.token);
      expect(order.orderItems.map((item) => item.productId)).toEqual([cap.id]);
    } finally {
      await shoe.remove();
      await cap.remove();
    }
  });

  test("on the product page: told plainly under the sizes, which are the ones sold now, none of them chosen", async ({ page, request }) => {
    const shoe = await ownShoe(request, 0, [
      { label: "EU 41", stockQuantity: 5 },
      { label: "EU 42", stockQuantity: 5 },
    ]);
    try {
      await gotoHydrated(page, `/product/${shoe.id}`);
      const sizes = page.getByRole("group", { name: "Size" });
      await chooseSize(page, "EU 41");
      await removeSize(request, shoe, "EU 41");
      await page.getByRole("button", { name: `Add to Cart: ${shoe.name}` }).click();
      await expect(page.getByRole("alert")).toHaveText("EU 41 is no longer sold. Please choose another size.");
      await expect(sizes.getByRole("radio")).toHaveCount(1);
      await expect(sizes.getByRole("radio", { name: "EU 42" })).not.toBeChecked();
      // A press now asks for a size, as for any page without one chosen; EU 42 can be added.
      await page.getByRole("button", { name: `Add to Cart: ${shoe.name}` }).click();
      await expect(page.getByRole("alert")).toHaveText("Please select a size");
      await chooseSize(page, "EU 42");
      await page.getByRole("button", { name: `Add to Cart: ${shoe.name}` }).click();
      await expect(page.getByText("Added to your cart")).toBeVisible();
    } finally {
      await shoe.remove();
    }
  });
});

test("a page reloaded while Place Order is on its way: the empty cart says the order was placed, with a link to it", async ({ page, context, request, baseURL }) => {
  const shoe = await ownShoe(request, 5);
  try {
    const { user, placeOrder } = await openCheckout(page, context, request, baseURL!, shoe);
    // The order reaches the server (and is placed), but its answer is held: the shopper reloads meanwhile.
    let reached!: () => void;
    const sent = new Promise<void>((resolve) => (reached = resolve));
    await page.route("**/api/orders", async (route) => {
      await route.fetch();
      reached();
    });
    await placeOrder.click();
    await sent;
    await page.unroute("**/api/orders");
    await page.reload();
    const [order] = await myOrders(request, user.token);
    await expect(page.getByText("Your cart is empty")).toBeVisible();
    await expect(page.getByTestId("recent-order")).toHaveText(`Your order #${order.id} was placed a moment ago. View it`);
    await page.getByRole("link", { name: "View it" }).click();
    await expect(page).toHaveURL(`/orders/${order.id}`);
  } finally {
    await shoe.remove();
  }
});

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`screenshots ${label}`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of ["light", "dark"] as const) {
      test(`the checkout refused for a changed cart, the empty cart's notes, the picker's removed size (${theme})`, async ({ page, context, request, baseURL }) => {
        test.slow();
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}-${theme}-${label}.png` });
        const shoe = await ownShoe(request, 0, [
          { label: "EU 41", stockQuantity: 5 },
          { label: "EU 42", stockQuantity: 5 },
          { label: "EU 43", stockQuantity: 5 },
        ]);
        const cap = await ownShoe(request, 5);
        try {
          // The checkout, refused because another tab added the cap.
          const { user, dialog, placeOrder } = await openCheckout(page, context, request, baseURL!, shoe);
          expect((await request.post(`/api/cart/add?productId=${cap.id}&sizeId=${cap.sizeId}`, { headers: bearer(user.token) })).status()).toBe(200);
          await placeOrder.click();
          await expect(dialog.getByRole("alert")).toHaveText(CART_CHANGED);
          await expect(dialog.getByText(`${cap.name} (EU 42) × 1`)).toBeVisible();
          await dialog.getByRole("alert").scrollIntoViewIfNeeded();
          await shot("checkout-cart-changed");

          // The cart after the admin removed EU 41: the line gone, and why.
          await removeSize(request, shoe, "EU 41");
          await gotoHydrated(page, "/cart");
          await expect(page.getByTestId("cart-gone")).toBeVisible();
          await shot("cart-line-gone");

          // The empty cart after the order: where it went.
          await gotoHydrated(page, "/cart?checkout");
          await page.getByRole("dialog", { name: "Checkout" }).getByLabel("Bank slip").setInputFiles(goodSlip);
          await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: /^Place Order/ }).click();
          await expect(page).toHaveURL(/\/orders\/\d+\?placed=1/, { timeout: 15_000 });
          await gotoHydrated(page, "/cart");
          await expect(page.getByTestId("recent-order")).toBeVisible();
          await shot("cart-recent-order");

          // A checkout whose cart another tab emptied: it closes onto the empty cart, which says why (and the order
          // just placed, still).
          expect((await request.post(`/api/cart/add?productId=${cap.id}&sizeId=${cap.sizeId}`, { headers: bearer(user.token) })).status()).toBe(200);
          await gotoHydrated(page, "/cart?checkout");
          await page.getByRole("dialog", { name: "Checkout" }).getByLabel("Bank slip").setInputFiles(goodSlip);
          expect((await request.delete(`/api/cart/remove?productId=${cap.id}`, { headers: bearer(user.token) })).status()).toBe(200);
          await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: /^Place Order/ }).click();
          await expect(page.getByRole("alert")).toHaveText(CART_CHANGED);
          await expect(page.getByTestId("recent-order")).toBeVisible();
          await shot("cart-refused-empty");

          // The product page: a size removed while it was chosen.
          await gotoHydrated(page, `/product/${shoe.id}`);
          await chooseSize(page, "EU 42");
          await removeSize(request, shoe, "EU 42");
          await page.getByRole("button", { name: `Add to Cart: ${shoe.name}` }).click();
          await expect(page.getByRole("alert")).toHaveText("EU 42 is no longer sold. Please choose another size.");
          await page.getByRole("alert").scrollIntoViewIfNeeded();
          await shot("product-size-gone");
        } finally {
          await shoe.remove();
          await cap.remove();
        }
      });
    }
  });
}
