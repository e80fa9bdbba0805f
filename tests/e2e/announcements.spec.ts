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
  const first = await status.textContent();

  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cart, 1 item" })).toBeVisible();
  await button.click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cart, 2 items" })).toBeVisible();
  // The same words again: the region's text must change for a screen reader to read it a second time.
  await expect.poll(() => status.evaluate((element) => element.textContent)).not.toBe(first);
  expect((await status.textContent())!.trim()).toBe("Added to your cart");
});
