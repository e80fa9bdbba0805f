import { expect, test } from "@playwright/test";

import { customerWithCart, ownShoe } from "./cart-helpers";
import { DEMO_CUSTOMER, gotoHydrated, logIn, register, uniqueUser } from "./helpers";

// The browser's Back button after a login and after a dialog: it goes where the shopper was before, never to a page
// that only sends them on again nor to a second copy of the page they are on.

test("Back after logging in or registering from a product page goes to that product, not to the login page", async ({ page }) => {
  await gotoHydrated(page, "/?category=Accessories");
  const card = page.getByTestId("product-card").first();
  const name = (await card.getByRole("heading").textContent())!;
  await card.getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const productUrl = page.url();

  await page.getByRole("link", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL("/login");
  await logIn(page, DEMO_CUSTOMER);
  await expect(page).toHaveURL("/");
  await page.goBack();
  await expect(page).toHaveURL(productUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);

  // The same after a registration, in a fresh session.
  await page.context().clearCookies();
  await gotoHydrated(page, productUrl.replace(/^https?:\/\/[^/]+/, ""));
  await page.getByRole("link", { name: "Register", exact: true }).click();
  await expect(page).toHaveURL("/register");
  await register(page, uniqueUser());
  await expect(page).toHaveURL("/?welcome=1");
  await page.goBack();
  await expect(page).toHaveURL(productUrl);
});

test("closing the checkout goes back to the cart's own entry, so the next Back leaves the cart; opened by its URL it closes in place", async ({ page, context, request, baseURL }) => {
  const shoe = await ownShoe(request, 3);
  try {
    await customerWithCart(context, request, baseURL!, shoe);
    await gotoHydrated(page, "/orders");
    await page.getByRole("link", { name: /^Cart/ }).first().click();
    await expect(page).toHaveURL("/cart");

    for (const closeWith of ["Close checkout", "Cancel"]) {
      await page.getByRole("link", { name: "Proceed to Checkout" }).click();
      await expect(page).toHaveURL("/cart?checkout");
      await expect(page.getByTestId("checkout")).toBeVisible();
      await page.getByTestId("checkout").getByRole("link", { name: closeWith, exact: true }).click();
      await expect(page).toHaveURL("/cart");
      await expect(page.getByTestId("checkout")).toHaveCount(0);
    }
    // Two openings and closings left no copies of the cart behind it.
    await page.goBack();
    await expect(page).toHaveURL("/orders");

    // A checkout opened by its URL (a reload, a link from elsewhere) has no cart entry behind it: it becomes the cart.
    await gotoHydrated(page, "/cart?checkout");
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL("/cart");
    await page.goBack();
    await expect(page).toHaveURL("/orders");
  } finally {
    await shoe.remove();
  }
});
