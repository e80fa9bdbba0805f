import { beforeAll, describe, expect, it } from "vitest";

import { insertProduct, visibleText } from "./catalogue-helpers";
import { call, postForm, setCookieFor, testEnv } from "./helpers";
import {
  type Actor,
  admin,
  createReviewApi,
  customer,
  expectRatingsInStep,
  insertReview,
  insertUser,
  newProduct,
  reviewRow,
} from "./review-helpers";

// The reviews block of /product/{id}: what it shows to whom, and its forms posted as a browser without JavaScript
// posts them (Origin: http://localhost, the session cookie).

let author: Actor;
let other: Actor;
let boss: Actor;
beforeAll(async () => {
  [author, other, boss] = await Promise.all([customer("Author Dilani"), customer("Other Kasun"), admin()]);
});

async function page(path: string, cookie?: string): Promise<{ status: number; html: string; text: string }> {
  const response = await call(path, { headers: cookie ? { Cookie: cookie } : {} });
  const html = await response.text();
  return { status: response.status, html, text: visibleText(html) };
}

/** The rating radio that is checked in a page's first rating group, as its value. */
function checkedRating(html: string): string | undefined {
  const tag = (html.match(/<input[^>]*name="rating"[^>]*>/g) ?? []).find((input) => /\schecked(="")?[\s/>]/.test(input));
  return tag?.match(/value="(\d)"/)?.[1];
}

const createForm = (fields: Record<string, string> = {}) => ({ intent: "review-create", comment: "Comfortable from day one", rating: "4", redirectTo: "/", ...fields });

describe("the product page shows the reviews", () => {
  it("each review with its author, stars, rating word, date (en-US, short month) and comment; newest first", async () => {
    const productId = await newProduct();
    const older = await insertReview(productId, await insertUser("Ruwan Jayasuriya"), { comment: "Runs a little small.", rating: 3, createdAt: Date.UTC(2026, 10, 22, 4, 1, 53) });
    const newer = await insertReview(productId, await insertUser("Sanduni Wickrama"), { comment: "Perfect for the office.", rating: 5, createdAt: Date.UTC(2027, 0, 3) });
    const { status, html, text } = await page(`/product/${productId}`);
    expect(status).toBe(200);
    expect(html).toContain('id="reviews"');
    expect(text).toContain("Ruwan Jayasuriya");
    expect(text).toContain("Sanduni Wickrama");
    expect(text).toContain("Runs a little small.");
    expect(text).toContain("Nov 22, 2026");
    expect(text).toContain("Jan 3, 2027");
    expect(text).toMatch(/3 out of 5 stars[\s\S]*Good/);
    expect(text).toContain("Excellent");
    expect(html.indexOf(`id="review-${newer}"`)).toBeGreaterThan(-1);
    expect(html.indexOf(`id="review-${newer}"`)).toBeLessThan(html.indexOf(`id="review-${older}"`));
    // The average and the count at the top of the page.
    expect(text).toContain("4.0 out of 5 · 2 reviews");
  });

  it("every rating word: 1 Poor, 2 Fair, 3 Good, 4 Very Good, 5 Excellent", async () => {
    const productId = await newProduct();
    for (const rating of [1, 2, 3, 4, 5]) await insertReview(productId, await insertUser(`Word ${rating}`), { rating, comment: `Rated ${rating}` });
    const { text } = await page(`/product/${productId}`);
    for (const [rating, word] of [[1, "Poor"], [2, "Fair"], [3, "Good"], [4, "Very Good"], [5, "Excellent"]] as const) {
      expect(text).toMatch(new RegExp(`${rating} out of 5 stars"[^]*?>${word}<`));
    }
  });

  it("a comment is text, never HTML: <script> is escaped", async () => {
    const productId = await newProduct();
    await insertReview(productId, await insertUser("Mallory <b>Bold</b>"), { comment: '<script>alert(1)</script><img src=x onerror="alert(2)">' });
    const { html, text } = await page(`/product/${productId}`);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>Bold</b>");
    expect(text).toContain("<script>alert(1)</script>");
  });

  it("the grid card shows the average and the number of reviews", async () => {
    const productId = await insertProduct({ name: `Grid Rated ${Date.now()}`, releaseDate: "2099-12-31" });
    await createReviewApi(author.token, productId, "Five", 5);
    await createReviewApi(other.token, productId, "Four", 4);
    const { html, text } = await page("/");
    const card = html.slice(html.indexOf(`href="/product/${productId}"`));
    expect(card.indexOf("4.5 out of 5 stars")).toBeGreaterThan(-1);
    expect(visibleText(card.slice(0, 4000))).toContain("4.5 (2)");
    expect(text).toContain("4.5 (2)");
  });

  it("a product without reviews says so", async () => {
    const { text } = await page(`/product/${await newProduct()}`);
    expect(text).toContain("No reviews yet");
  });

  it("shows 10 reviews, and 10 more for each 'Show more'", async () => {
    const productId = await newProduct();
    for (let i = 0; i < 12; i++) await insertReview(productId, await insertUser(`Many ${i}`), { comment: `Review number ${i}`, createdAt: Date.UTC(2026, 2, 1 + i) });
    let { text } = await page(`/product/${productId}`);
    expect(text).toContain("Review number 11");
    expect(text).toContain("Review number 2");
    expect(text).not.toContain("Review number 1<");
    expect(text).toContain("Show 2 more reviews");
    ({ text } = await page(`/product/${productId}?reviews=20`));
    expect(text).toContain("Review number 0");
    expect(text).not.toContain("Show ");
  });
});

describe("the authors' e-mails stay on the server (API.md: only the author and admins may see one)", () => {
  // React Router serialises loader data into the HTML and answers client navigations with /product/{id}.data: an
  // e-mail must be in neither, not merely unseen on the screen.
  async function pageAndData(productId: number, cookie?: string): Promise<{ html: string; data: string }> {
    const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
    const [htmlResponse, dataResponse] = await Promise.all([call(`/product/${productId}`, { headers }), call(`/product/${productId}.data`, { headers })]);
    expect(htmlResponse.status).toBe(200);
    expect(dataResponse.status).toBe(200);
    return { html: await htmlResponse.text(), data: await dataResponse.text() };
  }

  it("a visitor finds no author's e-mail in the page's HTML or its .data", async () => {
    const productId = await newProduct();
    await createReviewApi(author.token, productId, "Author's public words", 5);
    await createReviewApi(other.token, productId, "Other's public words", 4);
    const { html, data } = await pageAndData(productId);
    for (const body of [html, data]) {
      expect(body).toContain("Author's public words");
      expect(body).toContain("Other's public words");
      expect(body).not.toContain(author.email);
      expect(body).not.toContain(other.email);
    }
  });

  it("a customer finds no other customer's e-mail, and still has Edit and Delete on their own review", async () => {
    const productId = await newProduct();
    await createReviewApi(author.token, productId, "Mine to change", 5);
    await createReviewApi(other.token, productId, "Not mine at all", 2);
    const { html, data } = await pageAndData(productId, author.cookie);
    for (const body of [html, data]) {
      expect(body).toContain("Not mine at all");
      expect(body).not.toContain(other.email);
    }
    expect(html).toContain('aria-label="Edit your review"');
    expect(html).toContain('aria-label="Delete your review"');
    expect(html).not.toContain("Delete the review by Other Kasun");
    // And the other way round.
    const theirs = await pageAndData(productId, other.cookie);
    for (const body of [theirs.html, theirs.data]) {
      expect(body).toContain("Mine to change");
      expect(body).not.toContain(author.email);
    }
  });

  it("an admin still gets Delete on every review without the page carrying e-mails", async () => {
    const productId = await newProduct();
    await createReviewApi(other.token, productId, "Moderate me", 1);
    const { html, data } = await pageAndData(productId, boss.cookie);
    expect(html).toContain('aria-label="Delete the review by Other Kasun"');
    for (const body of [html, data]) expect(body).not.toContain(other.email);
  });
});

describe("who sees what", () => {
  it("a visitor: 'Please login to submit a review' with a login link back to the reviews; no form", async () => {
    const productId = await newProduct();
    const { html, text } = await page(`/product/${productId}`);
    expect(text).toContain("Please login to submit a review");
    expect(html).toContain(`href="/login?redirect=%2Fproduct%2F${productId}%23reviews"`);
    expect(html).not.toContain('name="comment"');
  });

  it("the login link brings the customer back to the product's reviews", async () => {
    const productId = await newProduct();
    const response = await postForm(`/login?redirect=${encodeURIComponent(`/product/${productId}#reviews`)}`, { email: author.email, password: author.password });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/product/${productId}#reviews`);
  });

  it("a customer: the form with a comment and a rating from 1 to 5, 5 chosen, with its word", async () => {
    const { html, text } = await page(`/product/${await newProduct()}`, author.cookie);
    expect(text).not.toContain("Please login to submit a review");
    expect(html).toMatch(/<textarea[^>]*name="comment"[^>]*required/);
    expect(html).toMatch(/<textarea[^>]*maxLength="2000"/i);
    for (const rating of [1, 2, 3, 4, 5]) expect(html).toMatch(new RegExp(`<input[^>]*type="radio"[^>]*name="rating"[^>]*value="${rating}"`));
    expect(checkedRating(html)).toBe("5");
    expect(text).toContain("5 - Excellent");
    expect(text).toContain("Submit Review");
  });

  it("after reviewing, the form gives way to the customer's own review with Edit and Delete", async () => {
    const productId = await newProduct();
    await createReviewApi(author.token, productId, "My own words", 4);
    await createReviewApi(other.token, productId, "Someone else's words", 2);
    const { html, text } = await page(`/product/${productId}`, author.cookie);
    expect(text).toContain("Your review");
    expect(text).toContain("My own words");
    expect(html).not.toContain("Submit Review");
    expect(html).toContain('aria-label="Edit your review"');
    expect(html).toContain('aria-label="Delete your review"');
    // Not on someone else's review.
    expect(html).not.toContain("Delete the review by Other Kasun");
  });

  it("another customer sees no Edit or Delete on it; an admin sees Delete but no Edit", async () => {
    const productId = await newProduct();
    await createReviewApi(author.token, productId, "Only mine to change", 4);
    const asOther = await page(`/product/${productId}`, other.cookie);
    expect(asOther.text).toContain("Only mine to change");
    expect(asOther.html).not.toMatch(/Edit your review|Delete your review|Delete the review by/);
    const asAdmin = await page(`/product/${productId}`, boss.cookie);
    expect(asAdmin.html).toContain('aria-label="Delete the review by Author Dilani"');
    expect(asAdmin.html).not.toContain("Edit your review");
  });

  it("?editReview= opens the edit form (Save, Cancel) for the author only", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(author.token, productId, "Editable words", 2);
    const mine = await page(`/product/${productId}?editReview=${review.id}`, author.cookie);
    expect(mine.html).toMatch(/<textarea[^>]*name="comment"[^>]*>Editable words<\/textarea>/);
    expect(checkedRating(mine.html)).toBe("2");
    expect(mine.text).toContain("Save");
    expect(mine.text).toContain("Cancel");
    const theirs = await page(`/product/${productId}?editReview=${review.id}`, other.cookie);
    expect(theirs.html).not.toContain(">Editable words</textarea>");
  });

  it("?deleteReview= asks 'Are you sure you want to delete this review?' of the author and an admin only", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(author.token, productId, "Deletable", 3);
    const path = `/product/${productId}?deleteReview=${review.id}`;
    expect((await page(path, author.cookie)).text).toContain("Are you sure you want to delete this review?");
    expect((await page(path, boss.cookie)).text).toContain("Are you sure you want to delete this review?");
    expect((await page(path, other.cookie)).text).not.toContain("Are you sure you want to delete this review?");
    expect((await page(path)).text).not.toContain("Are you sure you want to delete this review?");
  });
});

describe("the review forms, posted without JavaScript", () => {
  it("create: 302 back to the reviews; the review is the customer's, the rating counted", async () => {
    const productId = await newProduct();
    const response = await postForm(`/product/${productId}`, createForm({ userName: "Forged", comment: "  Posted from the page  " }), { cookie: author.cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/product/${productId}#reviews`);
    const row = await testEnv.DB.prepare("SELECT * FROM reviews WHERE product_id = ?").bind(productId).first<{ user_id: number; comment: string; rating: number }>();
    expect(row).toMatchObject({ user_id: author.id, comment: "Posted from the page", rating: 4 });
    await expectRatingsInStep(productId, { count: 1, total: 4 });
    const { text } = await page(`/product/${productId}`, author.cookie);
    expect(text).toContain("Posted from the page");
    expect(text).toContain("Very Good");
  });

  it("create without a rating: 5", async () => {
    const productId = await newProduct();
    const { rating: _rating, ...fields } = createForm();
    expect((await postForm(`/product/${productId}`, fields, { cookie: author.cookie })).status).toBe(302);
    await expectRatingsInStep(productId, { count: 1, total: 5 });
  });

  it("create with JavaScript (no redirectTo): the page answers in place, no redirect", async () => {
    const productId = await newProduct();
    const { redirectTo: _redirect, ...fields } = createForm();
    const response = await postForm(`/product/${productId}`, fields, { cookie: author.cookie });
    expect(response.status).toBe(200);
    await expectRatingsInStep(productId, { count: 1, total: 4 });
  });

  it("create by a visitor: 401 'Please login to submit a review', nothing saved", async () => {
    const productId = await newProduct();
    const response = await postForm(`/product/${productId}`, createForm());
    expect(response.status).toBe(401);
    expect(visibleText(await response.text())).toContain("Please login to submit a review");
    await expectRatingsInStep(productId, { count: 0, total: 0 });
  });

  it("create with a session that ended meanwhile: to the login page, which says so, the dead cookie cleared; nothing saved", async () => {
    const productId = await newProduct();
    const response = await postForm(`/product/${productId}`, createForm(), { cookie: "stride_session=ended.or.forged" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?redirect=${encodeURIComponent(`/product/${productId}#reviews`)}&expired=1`);
    expect(setCookieFor(response, "stride_session")).toMatch(/Max-Age=0/);
    await expectRatingsInStep(productId, { count: 0, total: 0 });
  });

  it("create with a blank comment: 400 with the server's message, the rating kept", async () => {
    const productId = await newProduct();
    const response = await postForm(`/product/${productId}`, createForm({ comment: "   ", rating: "2" }), { cookie: author.cookie });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(visibleText(html)).toContain("Comment is required");
    expect(checkedRating(html)).toBe("2");
    await expectRatingsInStep(productId, { count: 0, total: 0 });
  });

  it("create with a bad rating or an over-long comment: 400", async () => {
    const productId = await newProduct();
    const cases: Record<string, string>[] = [{ rating: "0" }, { rating: "6" }, { rating: "4.5" }, { rating: "" }, { comment: "z".repeat(2001) }];
    for (const fields of cases) {
      expect((await postForm(`/product/${productId}`, createForm(fields), { cookie: author.cookie })).status, JSON.stringify(fields).slice(0, 40)).toBe(400);
    }
    await expectRatingsInStep(productId, { count: 0, total: 0 });
  });

  it("a second review: 409 with the server's message, and the words posted kept in the form", async () => {
    const productId = await newProduct();
    await createReviewApi(author.token, productId, "First one", 4);
    const response = await postForm(`/product/${productId}`, createForm({ comment: "Second try" }), { cookie: author.cookie });
    expect(response.status).toBe(409);
    expect(visibleText(await response.text())).toContain("You have already reviewed this product");
    await expectRatingsInStep(productId, { count: 1, total: 4 });
  });

  it("a review of a product that is gone: 404", async () => {
    const response = await postForm(`/product/99999999`, createForm(), { cookie: author.cookie });
    expect(response.status).toBe(404);
  });

  it("update: the author 302; another customer and an admin 403 'Failed to update review. Please try again.'; a visitor 401", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(author.token, productId, "Before", 2);
    const update = (comment: string, cookie?: string) =>
      postForm(`/product/${productId}`, { intent: "review-update", reviewId: String(review.id), comment, rating: "5", redirectTo: "/" }, { cookie });

    for (const [cookie, status] of [[other.cookie, 403], [boss.cookie, 403], [undefined, 401]] as const) {
      const response = await update("Tampered", cookie);
      expect(response.status).toBe(status);
      expect(visibleText(await response.text())).toContain("Failed to update review. Please try again.");
      expect(await reviewRow(review.id)).toMatchObject({ comment: "Before", rating: 2 });
    }

    const response = await update("After", author.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/product/${productId}#review-${review.id}`);
    expect(await reviewRow(review.id)).toMatchObject({ comment: "After", rating: 5 });
    await expectRatingsInStep(productId, { count: 1, total: 5 });
    expect((await page(`/product/${productId}`)).text).toContain("Edited");
  });

  it("update with a blank comment: 400, the edit form shown again with the message", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(author.token, productId, "Keep me", 3);
    const response = await postForm(`/product/${productId}`, { intent: "review-update", reviewId: String(review.id), comment: " ", rating: "4", redirectTo: "/" }, { cookie: author.cookie });
    expect(response.status).toBe(400);
    const text = visibleText(await response.text());
    expect(text).toContain("Failed to update review. Please try again.");
    expect(text).toContain("Comment is required");
    expect(await reviewRow(review.id)).toMatchObject({ comment: "Keep me", rating: 3 });
  });

  it("update or delete of a review from another product's page: 400 or 404, nothing changes", async () => {
    const productId = await newProduct();
    const elsewhere = await newProduct();
    const review = await createReviewApi(author.token, productId, "Stay here", 3);
    const update = await postForm(`/product/${elsewhere}`, { intent: "review-update", reviewId: String(review.id), comment: "Moved", rating: "1" }, { cookie: author.cookie });
    expect(update.status).toBe(400);
    const remove = await postForm(`/product/${elsewhere}`, { intent: "review-delete", reviewId: String(review.id) }, { cookie: author.cookie });
    expect(remove.status).toBe(404);
    expect(await reviewRow(review.id)).toMatchObject({ comment: "Stay here", product_id: productId });
  });

  it("delete: another customer 403 'Failed to delete review. Please try again.', a visitor 401; the author 302", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(author.token, productId, "Going soon", 4);
    const remove = (cookie?: string) => postForm(`/product/${productId}`, { intent: "review-delete", reviewId: String(review.id), redirectTo: "/" }, { cookie });

    let response = await remove(other.cookie);
    expect(response.status).toBe(403);
    expect(visibleText(await response.text())).toContain("Failed to delete review. Please try again.");
    expect((await remove()).status).toBe(401);
    expect(await reviewRow(review.id)).not.toBeNull();

    response = await remove(author.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/product/${productId}#reviews`);
    expect(await reviewRow(review.id)).toBeNull();
    await expectRatingsInStep(productId, { count: 0, total: 0 });
    // The form is back for the author.
    expect((await page(`/product/${productId}`, author.cookie)).text).toContain("Submit Review");
    // A second delete: the review is gone.
    expect((await remove(author.cookie)).status).toBe(404);
  });

  it("delete by an admin: 302, whoever wrote it", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(other.token, productId, "Moderated away", 1);
    const response = await postForm(`/product/${productId}`, { intent: "review-delete", reviewId: String(review.id), redirectTo: "/" }, { cookie: boss.cookie });
    expect(response.status).toBe(302);
    expect(await reviewRow(review.id)).toBeNull();
    await expectRatingsInStep(productId, { count: 0, total: 0 });
  });

  it("a post from another site is refused before any action runs", async () => {
    const productId = await newProduct();
    const response = await postForm(`http://localhost/product/${productId}`, createForm(), { cookie: author.cookie, origin: "https://evil.example" });
    expect(response.status).toBe(403);
    await expectRatingsInStep(productId, { count: 0, total: 0 });
  });

  it("an unknown intent is 400; the admin's product delete still works, and only for admins", async () => {
    const productId = await newProduct();
    expect((await postForm(`/product/${productId}`, { intent: "nonsense" }, { cookie: author.cookie })).status).toBe(400);
    const refused = await postForm(`/product/${productId}`, { intent: "delete" }, { cookie: author.cookie });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/");
    expect(await testEnv.DB.prepare("SELECT id FROM products WHERE id = ?").bind(productId).first()).not.toBeNull();
    const deleted = await postForm(`/product/${productId}`, { intent: "delete" }, { cookie: boss.cookie });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/?deleted=1");
    expect(await testEnv.DB.prepare("SELECT id FROM products WHERE id = ?").bind(productId).first()).toBeNull();
  });
});
