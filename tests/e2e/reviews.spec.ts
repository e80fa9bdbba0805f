import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

import { DEMO_CUSTOMER, gotoHydrated, logIn, uniqueUser, waitForHydration } from "./helpers";

// Reviews in a real browser against the real Worker and D1. Each test reviews a product no other test reviews.
const PRODUCT_NAME = "Monsoon Chelsea Boot";
const PLAIN_PRODUCT_NAME = "Highland Trail Boot";
const CONFIRM = "Are you sure you want to delete this review?";

interface ApiReview {
  id: number;
  comment: string;
  rating: number;
  /** The author's e-mail only for the author and admins; null for everyone else. */
  userEmail: string | null;
}

async function productIdByName(request: APIRequestContext, name: string): Promise<number> {
  const response = await request.get(`/api/products/search?${new URLSearchParams({ keyword: name })}`);
  expect(response.status()).toBe(200);
  const product = ((await response.json()) as { id: number; name: string }[]).find((item) => item.name === name);
  expect(product, `the demo product "${name}"`).toBeDefined();
  return product!.id;
}

/** The product's reviews as the API answers `request` (its session cookie, if any) or the bearer `token`. */
async function reviewsOf(request: APIRequestContext, productId: number, token?: string): Promise<ApiReview[]> {
  const response = await request.get(`/api/reviews/product/${productId}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiReview[];
}

/** A server kept from an earlier run may still hold the demo customer's review of the product: start without it. */
async function removeOwnReview(request: APIRequestContext, productId: number, account: { email: string; password: string }) {
  const login = await request.post("/api/auth/login", { data: account });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  // Logged in, so the list shows the account its own e-mail (a visitor's shows none).
  for (const review of await reviewsOf(request, productId, token)) {
    if (review.userEmail === account.email) {
      const response = await request.delete(`/api/reviews/${review.id}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status()).toBe(204);
    }
  }
}

/** Fails the test if the page ever opens an alert (the <script> in a comment must stay text); answers confirms as told. */
function watchDialogs(page: Page) {
  const seen: { type: string; message: string }[] = [];
  let answer: "accept" | "dismiss" = "dismiss";
  page.on("dialog", async (dialog) => {
    seen.push({ type: dialog.type(), message: dialog.message() });
    if (dialog.type() === "confirm" && answer === "accept") await dialog.accept();
    else await dialog.dismiss();
  });
  return {
    seen,
    answerNextConfirm(value: "accept" | "dismiss") {
      answer = value;
    },
  };
}

test("a customer reviews a product, edits it inline; another customer cannot edit it; the author deletes it", async ({ page, browser, baseURL }) => {
  const productId = await productIdByName(page.request, PRODUCT_NAME);
  await removeOwnReview(page.request, productId, DEMO_CUSTOMER);
  const dialogs = watchDialogs(page);
  const comment = `Kept my feet dry all monsoon <script>alert(1)</script> ${Date.now()}`;

  // A visitor is asked to log in, and the login brings them back to the reviews.
  await gotoHydrated(page, `/product/${productId}`);
  const reviews = page.locator("#reviews");
  await expect(reviews.getByText("Please login to submit a review")).toBeVisible();
  await page.getByRole("button", { name: "View Reviews" }).or(page.getByRole("link", { name: "View Reviews" })).click();
  await reviews.getByRole("link", { name: "Login to review" }).click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await waitForHydration(page);
  await logIn(page, DEMO_CUSTOMER);
  await expect(page).toHaveURL(`/product/${productId}#reviews`);
  await waitForHydration(page);

  // The form: rating 5 chosen by default, with its word; choose 4.
  await expect(reviews.getByRole("heading", { name: "Write a review" })).toBeVisible();
  await expect(reviews.getByRole("radio", { name: "5 stars, Excellent" })).toBeChecked();
  await expect(reviews.getByText("5 - Excellent")).toBeVisible();
  await reviews.getByTitle("4 - Very Good").click();
  await expect(reviews.getByRole("radio", { name: "4 stars, Very Good" })).toBeChecked();
  await expect(reviews.getByText("4 - Very Good")).toBeVisible();
  await expect(reviews.getByText("5 - Excellent")).toBeHidden();
  // Keyboard: arrows move the choice within the group.
  await reviews.getByRole("radio", { name: "4 stars, Very Good" }).focus();
  await page.keyboard.press("ArrowLeft");
  await expect(reviews.getByRole("radio", { name: "3 stars, Good" })).toBeChecked();
  await page.keyboard.press("ArrowRight");
  await expect(reviews.getByRole("radio", { name: "4 stars, Very Good" })).toBeChecked();

  // An empty review, then a blank one, are refused where they were typed: the message on the field (the shop's, not
  // the browser's bubble), and the focus back in it.
  await reviews.getByLabel("Your review").fill("");
  await reviews.getByRole("button", { name: "Submit Review" }).click();
  await expect(reviews.getByText("Comment is required")).toBeVisible();
  await expect(reviews.getByLabel("Your review")).toBeFocused();
  await reviews.getByLabel("Your review").fill("   ");
  await reviews.getByRole("button", { name: "Submit Review" }).click();
  await expect(reviews.getByText("Comment is required")).toBeVisible();
  await expect(reviews.getByLabel("Your review")).toBeFocused();

  await reviews.getByLabel("Your review").fill(comment);
  await reviews.getByRole("button", { name: "Submit Review" }).click();

  // The form gives way to the customer's own review; the <script> shows as text and never runs.
  const own = reviews.getByRole("list", { name: "Your review" });
  await expect(own.getByText(comment, { exact: true })).toBeVisible();
  await expect(own.getByText("Very Good", { exact: true })).toBeVisible();
  await expect(reviews.getByRole("heading", { name: "Write a review" })).toHaveCount(0);
  await expect(page.locator("#reviews script")).toHaveCount(0);
  await expect(page.getByText("4.0 out of 5 · 1 review")).toBeVisible();
  // page.request carries the browser's session cookie: the API shows the customer their own e-mail.
  const [stored] = (await reviewsOf(page.request, productId)).filter((review) => review.userEmail === DEMO_CUSTOMER.email);
  expect(stored).toMatchObject({ comment, rating: 4 });

  // Edit inline: Cancel leaves it as it was; Save keeps the change.
  // The focus follows: into the form Edit opens, back to Edit after Cancel or Save, to the heading after Delete.
  await own.getByRole("link", { name: "Edit your review" }).click();
  await expect(own.getByLabel("Edit your review")).toHaveValue(comment);
  await expect(own.getByLabel("Edit your review")).toBeFocused();
  await own.getByLabel("Edit your review").fill("Changed my mind");
  await own.getByRole("link", { name: "Cancel" }).click();
  await expect(own.getByText(comment, { exact: true })).toBeVisible();
  await expect(own.getByRole("link", { name: "Edit your review" })).toBeFocused();

  const edited = "Even better after a month: dry, warm and comfortable.";
  await own.getByRole("link", { name: "Edit your review" }).click();
  await expect(own.getByLabel("Edit your review")).toHaveValue(comment);
  await own.getByLabel("Edit your review").fill(edited);
  await own.getByTitle("5 - Excellent").click();
  await own.getByRole("button", { name: "Save" }).click();
  await expect(own.getByText(edited, { exact: true })).toBeVisible();
  await expect(own.getByText("Excellent", { exact: true })).toBeVisible();
  await expect(own.getByText("Edited")).toBeVisible();
  await expect(page.getByText("5.0 out of 5 · 1 review")).toBeVisible();
  expect(page.url()).not.toContain("editReview");
  await expect(own.getByRole("link", { name: "Edit your review" })).toBeFocused();

  // Another customer sees the review but no Edit or Delete for it, and a forged form post is refused.
  const otherContext = await browser.newContext({ baseURL });
  try {
    const other = await otherContext.newPage();
    const shopper = uniqueUser();
    const registered = await other.request.post("/register", { form: { ...shopper, confirmPassword: shopper.password }, maxRedirects: 0 });
    expect(registered.status()).toBe(302);
    await gotoHydrated(other, `/product/${productId}`);
    const theirView = other.locator("#reviews");
    await expect(theirView.getByText(edited, { exact: true })).toBeVisible();
    await expect(theirView.getByRole("heading", { name: "Write a review" })).toBeVisible();
    await expect(theirView.getByRole("link", { name: /Edit/ })).toHaveCount(0);
    await expect(theirView.getByRole("link", { name: /Delete/ })).toHaveCount(0);
    await gotoHydrated(other, `/product/${productId}?editReview=${stored.id}`);
    await expect(theirView.getByLabel("Edit your review")).toHaveCount(0);

    const forged = await other.request.post(`/product/${productId}`, {
      form: { intent: "review-update", reviewId: String(stored.id), comment: "Hijacked", rating: "1", redirectTo: "/" },
      headers: { Origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    const forgedDelete = await other.request.post(`/product/${productId}`, {
      form: { intent: "review-delete", reviewId: String(stored.id), redirectTo: "/" },
      headers: { Origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
    expect(forgedDelete.status()).toBe(403);
    const after = (await reviewsOf(other.request, productId)).find((review) => review.id === stored.id);
    // Another customer sees the review but not its author's e-mail.
    expect(after).toMatchObject({ comment: edited, rating: 5, userEmail: null });
  } finally {
    await otherContext.close();
  }

  // The author deletes it, after the confirmation: dismissing it keeps the review.
  dialogs.answerNextConfirm("dismiss");
  await own.getByRole("link", { name: "Delete your review" }).click();
  await expect.poll(() => dialogs.seen.length).toBe(1);
  await expect(own.getByText(edited, { exact: true })).toBeVisible();

  dialogs.answerNextConfirm("accept");
  await own.getByRole("link", { name: "Delete your review" }).click();
  await expect(reviews.getByRole("heading", { name: "Write a review" })).toBeVisible();
  await expect(page.locator("#reviews-heading")).toBeFocused();
  await expect(reviews.getByText(edited, { exact: true })).toHaveCount(0);
  expect(dialogs.seen).toEqual([
    { type: "confirm", message: CONFIRM },
    { type: "confirm", message: CONFIRM },
  ]);
  expect((await reviewsOf(page.request, productId)).some((review) => review.id === stored.id)).toBe(false);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a customer reviews, edits and deletes through plain forms", async ({ page }) => {
    const shopper = uniqueUser();
    const productId = await productIdByName(page.request, PLAIN_PRODUCT_NAME);
    const registered = await page.request.post("/register", { form: { ...shopper, confirmPassword: shopper.password }, maxRedirects: 0 });
    expect(registered.status()).toBe(302);

    await page.goto(`/product/${productId}`);
    const reviews = page.locator("#reviews");
    await reviews.getByLabel("Your review").fill("Plain form <b>works</b>");
    await reviews.getByTitle("2 - Fair").click();
    await reviews.getByRole("button", { name: "Submit Review" }).click();
    await expect(page).toHaveURL(`/product/${productId}#reviews`);
    const own = reviews.getByRole("list", { name: "Your review" });
    await expect(own.getByText("Plain form <b>works</b>", { exact: true })).toBeVisible();
    await expect(own.getByText("Fair", { exact: true })).toBeVisible();

    await own.getByRole("link", { name: "Edit your review" }).click();
    await expect(page).toHaveURL(/editReview=/);
    await own.getByLabel("Edit your review").fill("Plain form edited");
    await own.getByRole("button", { name: "Save" }).click();
    await expect(own.getByText("Plain form edited", { exact: true })).toBeVisible();
    expect(page.url()).not.toContain("editReview");

    await own.getByRole("link", { name: "Delete your review" }).click();
    await expect(own.getByText(CONFIRM)).toBeVisible();
    await own.getByRole("button", { name: "Yes, delete" }).click();
    await expect(reviews.getByRole("heading", { name: "Write a review" })).toBeVisible();
    await expect(reviews.getByText("Plain form edited")).toHaveCount(0);
  });
});
