import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

import { gotoHydrated } from "./helpers";

// What a screen reader hears, and where the focus is, when the shopper moves to another page inside the app
// (app/components/RouteAnnouncer.tsx) and when an add to the cart is announced (app/components/Toast.tsx).

interface ApiProduct {
  id: number;
  name: string;
  category: string;
  productAvailable: boolean;
  stockQuantity: number;
}

async function oneSizeProduct(request: APIRequestContext): Promise<ApiProduct> {
  const products = (await (await request.get("/api/products?page=1&pageSize=100")).json()) as ApiProduct[];
  const product = products.find((item) => item.category === "Accessories" && item.productAvailable && item.stockQuantity >= 3 && !item.name.startsWith("E2E "));
  expect(product, "an accessory in stock in the demo catalogue").toBeDefined();
  return product!;
}

const announcer = (page: Page) => page.getByTestId("route-announcer");

/**
 * Lets React render and run its effects after an event: its scheduler runs on MessageChannel tasks, which the installed
 * clock does not hold back, so a few such round trips see them through.
 */
async function reactSettled(page: Page) {
  for (let round = 0; round < 3; round++) {
    await page.evaluate(() => new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(null);
      channel.port2.postMessage(null);
    }));
  }
}

test("a card's link opened with Enter: the product page's heading takes the focus, not <body>", async ({ page, request }) => {
  const product = await oneSizeProduct(request);
  await gotoHydrated(page, `/?category=${product.category}`);
  const link = page.getByTestId("product-card").getByRole("link", { name: product.name, exact: true });
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/product/${product.id}`);
  await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeFocused();
  // Read out as the focused heading, so not said a second time.
  await expect(announcer(page)).toHaveText("");

  // And the next Tab goes on from there, into the page, not from the top of the document.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.querySelector("main")!.contains(document.activeElement))).toBe(true);
});

test("a link of the bar keeps the focus, and the new page's title is said", async ({ page }) => {
  await gotoHydrated(page, "/");
  const cart = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Cart, / });
  await cart.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/cart");
  await expect(cart).toBeFocused();
  await expect(announcer(page)).toHaveText("Your Cart | Stride");
});

test("the first load and a change that keeps the title (the sort) say nothing and move no focus", async ({ page }) => {
  await gotoHydrated(page, "/?category=Gents");
  await expect(announcer(page)).toHaveText("");
  const sort = page.getByLabel("Sort by");
  await sort.focus();
  await sort.selectOption("price-asc");
  await expect(page).toHaveURL(/sort=price-asc/);
  await expect(page.getByTestId("product-card").first()).toBeVisible();
  await expect(announcer(page)).toHaveText("");
  await expect(sort).toBeFocused();
});

test("the toast's live region holds only its message, and a second add is read again", async ({ page, request }) => {
  const product = await oneSizeProduct(request);
  await gotoHydrated(page, `/?category=${product.category}`);
  const button = page.getByRole("button", { name: `Add to Cart: ${product.name}`, exact: true });
  const status = page.getByRole("status").filter({ hasText: "Added to your cart" });

  await button.click();
  await expect(status).toBeVisible();
  // Close and View cart sit beside the live region, so they are not read out with the message.
  await expect(status.getByRole("button")).toHaveCount(0);
  await expect(status.getByRole("link")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View cart" })).toBeVisible();
  await status.locator("span").evaluate((element) => (element.dataset.first = "yes"));

  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cart, 1 item" })).toBeVisible();
  await button.click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cart, 2 items" })).toBeVisible();
  // The same words again, in a new element of the region: a screen reader reads an inserted node where it would skip
  // text that did not change.
  await expect(status.locator("span[data-first]")).toHaveCount(0);
  await expect(status).toHaveText("Added to your cart");
});

test("the toast stays while the keyboard is on its link, then goes once the focus leaves it", async ({ page, request }) => {
  const product = await oneSizeProduct(request);
  // The page's own timers, moved on by the test rather than waited for.
  await page.clock.install();
  await gotoHydrated(page, `/?category=${product.category}`);
  await page.getByRole("button", { name: `Add to Cart: ${product.name}`, exact: true }).click();
  const viewCart = page.getByRole("link", { name: "View cart" });
  await viewCart.focus();
  await reactSettled(page);
  // Well past the 5 s it shows for: still there, with the focus.
  await page.clock.fastForward(7_000);
  await expect(viewCart).toBeFocused();
  // Back out of the toast with the keyboard (what comes before it in the page).
  await page.keyboard.press("Shift+Tab");
  await expect(viewCart).not.toBeFocused();
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
  await reactSettled(page);
  await page.clock.fastForward(6_000);
  await expect(viewCart).toBeHidden();
});
