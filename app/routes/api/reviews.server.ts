import { z } from "zod";

import { apiResource, endpoint, idParam, json } from "~/lib/api.server";
import { REVIEWS_MAX_PAGE_SIZE, reviewCreateSchema, reviewListQuerySchema, reviewSchema, reviewUpdateSchema } from "~/lib/schemas/review";
import { createReview, deleteReview, listReviews, toReviewView, updateReview } from "~/services/reviews.server";

const errors = {
  400: { description: "Bad input: comment missing, blank, over 2000 characters or with control characters; rating not a whole number from 1 to 5; productId not a number" },
  401: { description: "No token, or an invalid or expired one" },
  404: { description: "No such review" },
} as const;

export const reviewsApi = apiResource("/api/reviews", {
  "GET /product/{productId}": endpoint({
    summary:
      `A product's reviews, newest first. With page (and pageSize, 1 to ${REVIEWS_MAX_PAGE_SIZE}, default 20), that page alone and X-Total-Count. ` +
      "The token is optional: userEmail is the author's e-mail for that author and for admins, null for everyone else (and for an invalid token).",
    auth: "optional",
    query: reviewListQuerySchema,
    responses: {
      200: { description: "The reviews, newest first", schema: z.array(reviewSchema) },
      400: { description: "A bad page or pageSize" },
      404: { description: "No such product" },
    },
    handler: async ({ context, params, query, user }) => {
      const productId = idParam(params.productId, "Product");
      // The answer depends on who asks (their own e-mail, or all for an admin): never one for a shared cache to keep.
      const headers: Record<string, string> = user ? { "Cache-Control": "private, no-store" } : {};
      if (query.page === undefined) {
        const { items } = await listReviews(context.db, productId, user);
        return json(items.map(toReviewView), { headers });
      }
      const pageSize = query.pageSize ?? 20;
      const { items, total } = await listReviews(context.db, productId, user, { limit: pageSize, offset: (query.page - 1) * pageSize });
      return json(items.map(toReviewView), { headers: { ...headers, "X-Total-Count": String(total) } });
    },
  }),
  "POST /": endpoint({
    summary: "Review a product (logged in); one review per customer per product. userName and userEmail come from the token; the answer is the author's own, so it carries their e-mail.",
    auth: "user",
    body: reviewCreateSchema,
    responses: {
      201: { description: "The new review", schema: reviewSchema },
      400: errors[400],
      401: errors[401],
      404: { description: "No such product" },
      409: { description: "This customer has already reviewed this product" },
    },
    handler: async ({ context, user, body }) => json(toReviewView(await createReview(context.db, user, body)), { status: 201 }),
  }),
  "PUT /{id}": endpoint({
    summary: "Edit a review (its author only; an admin too is refused). A missing rating keeps the current one; productId, if sent, must be the review's.",
    auth: "user",
    body: reviewUpdateSchema,
    responses: {
      200: { description: "The updated review", schema: reviewSchema },
      400: errors[400],
      401: errors[401],
      403: { description: "Not the review's author" },
      404: errors[404],
    },
    handler: async ({ context, user, params, body }) => json(toReviewView(await updateReview(context.db, user, idParam(params.id, "Review"), body))),
  }),
  "DELETE /{id}": endpoint({
    summary: "Delete a review (its author, or an admin)",
    auth: "user",
    responses: { 204: { description: "Deleted" }, 401: errors[401], 403: { description: "Neither the author nor an admin" }, 404: errors[404] },
    handler: async ({ context, user, params }) => {
      await deleteReview(context.db, user, idParam(params.id, "Review"));
      return new Response(null, { status: 204 });
    },
  }),
});
