import { beforeAll, describe, expect, it } from "vitest";

import { expectApiError } from "./catalogue-helpers";
import { apiJson, authHeader } from "./helpers";
import {
  type Actor,
  type ApiReview,
  admin,
  createReviewApi,
  customer,
  deleteReviewApi,
  expectRatingsInStep,
  listReviewsApi,
  newProduct,
  putReview,
  reviewRow,
} from "./review-helpers";

// PUT and DELETE /api/reviews/{id}: who may do what (API.md): the author edits; the author or an admin deletes.

let author: Actor;
let other: Actor;
let boss: Actor;
beforeAll(async () => {
  [author, other, boss] = await Promise.all([customer("Author Kumari"), customer("Other Nuwan"), admin()]);
});

async function freshReview(rating = 3): Promise<ApiReview> {
  return createReviewApi(author.token, await newProduct(), "Original words", rating);
}

describe("PUT /api/reviews/{id}", () => {
  it("the author: 200 with the updated review; userName, userEmail, createdAt and productId unchanged", async () => {
    const review = await freshReview();
    const response = await putReview(review.id, { productId: review.productId, comment: "  Changed my mind  ", rating: 5, userName: "Impostor", userEmail: "x@y.z" }, author.token);
    expect(response.status, await response.clone().text()).toBe(200);
    const updated = (await response.json()) as ApiReview;
    expect(updated).toMatchObject({
      id: review.id,
      productId: review.productId,
      comment: "Changed my mind",
      rating: 5,
      userName: "Author Kumari",
      userEmail: author.email,
      createdAt: review.createdAt,
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(review.updatedAt));
    expect(await listReviewsApi(review.productId, author.token)).toEqual([updated]);
    await expectRatingsInStep(review.productId, { count: 1, total: 5 });
  });

  it("another customer: 403, nothing changes", async () => {
    const review = await freshReview();
    const body = await expectApiError(await putReview(review.id, { productId: review.productId, comment: "Not mine", rating: 1 }, other.token), 403);
    expect(body.message).toBe("You can only edit your own review");
    expect(await reviewRow(review.id)).toMatchObject({ comment: "Original words", rating: 3 });
    await expectRatingsInStep(review.productId, { count: 1, total: 3 });
  });

  it("an admin: 403 too (only the author edits), nothing changes", async () => {
    const review = await freshReview();
    await expectApiError(await putReview(review.id, { productId: review.productId, comment: "Moderated", rating: 1 }, boss.token), 403);
    expect(await reviewRow(review.id)).toMatchObject({ comment: "Original words", rating: 3 });
  });

  it("a visitor: 401; a bad token: 401", async () => {
    const review = await freshReview();
    await expectApiError(await putReview(review.id, { productId: review.productId, comment: "Anonymous", rating: 1 }), 401);
    await expectApiError(await putReview(review.id, { productId: review.productId, comment: "Forged", rating: 1 }, "not.a.token"), 401);
    expect(await reviewRow(review.id)).toMatchObject({ comment: "Original words" });
  });

  it("a missing review is 404; an id that is not a positive integer is 404", async () => {
    for (const id of ["99999999", "0", "-2", "abc"]) await expectApiError(await putReview(id, { comment: "Nothing here", rating: 4 }, author.token), 404);
  });

  it("the same rules as create: comment required and at most 2000 characters, rating a whole number 1 to 5", async () => {
    const review = await freshReview();
    const bodies = [
      { comment: "   ", rating: 4 },
      { rating: 4 },
      { comment: "x".repeat(2001), rating: 4 },
      { comment: "ok", rating: 0 },
      { comment: "ok", rating: 6 },
      { comment: "ok", rating: 4.5 },
      { comment: "ok", rating: "4" },
      { comment: "ok", rating: 4, productId: String(review.productId) },
    ];
    for (const body of bodies) await expectApiError(await putReview(review.id, { productId: review.productId, ...body }, author.token), 400);
    expect(await reviewRow(review.id)).toMatchObject({ comment: "Original words", rating: 3 });
  });

  it("without a rating the current one is kept", async () => {
    const review = await freshReview(2);
    const response = await putReview(review.id, { comment: "Only the words" }, author.token);
    expect(response.status).toBe(200);
    expect(((await response.json()) as ApiReview).rating).toBe(2);
    await expectRatingsInStep(review.productId, { count: 1, total: 2 });
  });

  it("a review cannot move to another product (400)", async () => {
    const review = await freshReview();
    const elsewhere = await newProduct();
    const body = await expectApiError(await putReview(review.id, { productId: elsewhere, comment: "Moved", rating: 4 }, author.token), 400);
    expect(body.fieldErrors?.productId).toBeDefined();
    expect(await reviewRow(review.id)).toMatchObject({ product_id: review.productId });
  });

  it("an admin's own review is theirs to edit", async () => {
    const review = await createReviewApi(boss.token, await newProduct(), "Admin's words", 4);
    const response = await putReview(review.id, { productId: review.productId, comment: "Admin's new words", rating: 3 }, boss.token);
    expect(response.status).toBe(200);
  });
});

describe("DELETE /api/reviews/{id}", () => {
  it("the author: 204, the review gone and the rating taken off; a second delete is 404", async () => {
    const review = await freshReview(4);
    const response = await deleteReviewApi(review.id, author.token);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await reviewRow(review.id)).toBeNull();
    await expectRatingsInStep(review.productId, { count: 0, total: 0 });
    await expectApiError(await deleteReviewApi(review.id, author.token), 404);
    await expectRatingsInStep(review.productId, { count: 0, total: 0 });
  });

  it("another customer: 403, the review stays", async () => {
    const review = await freshReview();
    const body = await expectApiError(await deleteReviewApi(review.id, other.token), 403);
    expect(body.message).toBe("You can only delete your own review");
    expect(await reviewRow(review.id)).not.toBeNull();
    await expectRatingsInStep(review.productId, { count: 1, total: 3 });
  });

  it("an admin: 204, whoever wrote it", async () => {
    const review = await freshReview(5);
    expect((await deleteReviewApi(review.id, boss.token)).status).toBe(204);
    expect(await reviewRow(review.id)).toBeNull();
    await expectRatingsInStep(review.productId, { count: 0, total: 0 });
  });

  it("a visitor: 401, the review stays", async () => {
    const review = await freshReview();
    await expectApiError(await deleteReviewApi(review.id), 401);
    expect(await reviewRow(review.id)).not.toBeNull();
  });

  it("a missing review is 404; an id that is not a positive integer is 404", async () => {
    for (const id of ["99999999", "0", "abc", "1e3"]) await expectApiError(await deleteReviewApi(id, boss.token), 404);
  });

  it("after a delete the customer may review the product again", async () => {
    const review = await freshReview();
    await deleteReviewApi(review.id, author.token);
    const again = await createReviewApi(author.token, review.productId, "Second thoughts", 2);
    expect(again.id).not.toBe(review.id);
    await expectRatingsInStep(review.productId, { count: 1, total: 2 });
  });

  it("two deletes at once: one 204, one 404, the rating taken off once", async () => {
    const productId = await newProduct();
    await createReviewApi(other.token, productId, "Stays", 2);
    const review = await createReviewApi(author.token, productId, "Goes", 5);
    const statuses = (await Promise.all([deleteReviewApi(review.id, author.token), deleteReviewApi(review.id, boss.token)])).map((r) => r.status).sort();
    expect(statuses).toEqual([204, 404]);
    await expectRatingsInStep(productId, { count: 1, total: 2 });
  });

  it("an edit and a delete at once leave the rating in step", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(author.token, productId, "Racing", 1);
    await Promise.all([
      apiJson("PUT", `/api/reviews/${review.id}`, { comment: "Racing edit", rating: 5 }, authHeader(author.token)),
      deleteReviewApi(review.id, author.token),
    ]);
    await expectRatingsInStep(productId, { count: 0, total: 0 });
  });
});

describe("the ownership matrix at a glance", () => {
  const matrix = [
    { who: "author", put: 200, del: 204 },
    { who: "another customer", put: 403, del: 403 },
    { who: "admin", put: 403, del: 204 },
    { who: "visitor", put: 401, del: 401 },
  ] as const;
  for (const { who, put, del } of matrix) {
    it(`${who}: PUT ${put}, DELETE ${del}`, async () => {
      const token = { author: author.token, "another customer": other.token, admin: boss.token, visitor: undefined }[who];
      const review = await freshReview();
      expect((await putReview(review.id, { productId: review.productId, comment: `Edited by ${who}`, rating: 4 }, token)).status).toBe(put);
      expect((await deleteReviewApi(review.id, token)).status).toBe(del);
      await expectRatingsInStep(review.productId);
    });
  }
});
