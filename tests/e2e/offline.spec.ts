import { expect, test, type Page } from "@playwright/test";

import { DEMO_CUSTOMER, gotoHydrated, isDemoProduct, logIn, register, uniqueUser } from "./helpers";

// When the server does not answer a form (a dropped connection on a phone), the page stays and says what SPEC §8 says
// for a failure, instead of giving way to the error page. The posts here are cut off in the browser (page.route).

/** Every POST to `path` (a screen's .data request) fails as a dropped connection would. */
const dropPosts = (page: Page, path: string) =>
  page.route(`**${path}.data*`, (route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue()));

const noErrorPage = (page: Page) => expect(page.getByText("Unexpected Application Error!")).toHaveCount(0);

test("Add to Cart with no answer leaves the page and the cart as they were, without a word (SPEC: silently)", async ({ page }) => {
  const user = uniqueUser();
  await gotoHydrated(page, "/register");
  await register(page, user);
  // Registered and logged in before the next page is asked for (going on at once could cut the registration off).
  await expect(page).toHaveURL("/?welcome=1");
  await gotoHydrated(page, "/?category=Accessories");
  await dropPosts(page, "/cart/add");
  const card = page.getByTestId("product-card").filter({ has: page.getByRole("button", { name: /^Add to Cart: / }) }).first();
  await card.getByRole("button", { name: /^Add to Cart: / }).click();
  await expect(card).toBeVisible();
  await noErrorPage(page);
  await expect(page.getByRole("link", { name: "Cart, 0 items" })).toBeVisible();
});

test("a login with no answer says 'Invalid email or password.' and keeps the e-mail", async ({ page }) => {
  await gotoHydrated(page, "/login");
  await dropPosts(page, "/login");
  await logIn(page, DEMO_CUSTOMER);
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(DEMO_CUSTOMER.email);
  await noErrorPage(page);
});

test("a review saved with no answer says 'Failed to update review. Please try again.' and keeps the words", async ({ page, request }) => {
  const user = uniqueUser();
  await gotoHydrated(page, "/register");
  await register(page, user);
  // Registered and logged in before the next page is asked for (going on at once could cut the registration off).
  await expect(page).toHaveURL("/?welcome=1");
  const products = (await (await request.get("/api/products")).json()) as { id: number; name: string }[];
  const product = products.find(isDemoProduct)!;
  await gotoHydrated(page, `/product/${product.id}`);
  const reviews = page.locator("#reviews");
  await reviews.getByLabel("Your review").fill("Comfortable from the first day.");
  await reviews.getByRole("button", { name: "Submit Review" }).click();
  const own = reviews.getByRole("list", { name: "Your review" });
  await expect(own.getByText("Comfortable from the first day.")).toBeVisible();

  await dropPosts(page, `/product/${product.id}`);
  await own.getByRole("link", { name: "Edit your review" }).click();
  await own.getByLabel("Edit your review").fill("Still comfortable a month on.");
  await own.getByRole("button", { name: "Save" }).click();
  await expect(own.getByRole("alert")).toHaveText("Failed to update review. Please try again.");
  await expect(own.getByLabel("Edit your review")).toHaveValue("Still comfortable a month on.");
  await noErrorPage(page);

  // A delete with no answer: SPEC's message, as an alert (after the confirmation), and the review stays.
  await own.getByRole("link", { name: "Cancel" }).click();
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  await own.getByRole("link", { name: "Delete your review" }).click();
  await expect.poll(() => dialogs).toEqual(["confirm: Are you sure you want to delete this review?", "alert: Failed to delete review. Please try again."]);
  await expect(own.getByText("Comfortable from the first day.")).toBeVisible();
  await noErrorPage(page);
});

test("a grid that cannot be loaded shows the grid's error image (SPEC), not the error page", async ({ page }) => {
  await gotoHydrated(page, "/");
  await page.route("**/_root.data*", (route) => route.abort("internetdisconnected"));
  await page.locator("summary", { hasText: "Categories" }).first().click();
  await page.getByRole("link", { name: "Ladies", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "We couldn't load the products" })).toBeVisible();
  await noErrorPage(page);
});
