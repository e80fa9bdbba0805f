import { COMMENT_MAX, DEFAULT_RATING, RATING_MAX, RATING_MIN } from "../review-constants";
import { plainText, typeError, z } from "../zod";

// Reviews (SPEC §3, §5; API.md): one shape for the API body, the product page's forms and the OpenAPI document.
// The limits, rating words and messages live in a module without zod, so the product page's client code stays small.
export { COMMENT_MAX, DEFAULT_RATING, RATING_MAX, RATING_MIN, RATINGS, ratingWord, REVIEW_MESSAGES } from "../review-constants";

// Characters as a reader counts them (an emoji is one), not UTF-16 units.
const comment = z
  .string({ error: typeError("Comment is required", "Comment must be text") })
  .trim()
  .min(1, "Comment is required")
  .refine((value) => [...value].length <= COMMENT_MAX, `Comment must be at most ${COMMENT_MAX} characters`)
  .check(plainText("Comment", { lines: true }));

// A JSON number only: the string "4" is a wrong type (API.md), and so is 4.5.
const rating = z
  .number({ error: "Rating must be a whole number from 1 to 5" })
  .int("Rating must be a whole number from 1 to 5")
  .min(RATING_MIN, "Rating must be a whole number from 1 to 5")
  .max(RATING_MAX, "Rating must be a whole number from 1 to 5");

const productId = z.number({ error: "productId must be a number" }).int("productId must be a whole number");

/** POST /reviews: `{comment, rating, productId}`; rating defaults to 5; unknown fields are dropped. */
export const reviewCreateSchema = z.object({
  comment,
  rating: rating.default(DEFAULT_RATING),
  productId,
});
export type ReviewCreateInput = z.infer<typeof reviewCreateSchema>;

/**
 * PUT /reviews/{id}: `{comment, rating, productId}`. A missing rating keeps the current one (a client that only fixes a
 * typo must not reset it to 5); productId, when sent, must be the review's own product.
 */
export const reviewUpdateSchema = z.object({
  comment,
  rating: rating.optional(),
  productId: productId.optional(),
});
export type ReviewUpdateInput = z.infer<typeof reviewUpdateSchema>;

// The product page's forms post text; these read it strictly before the same rules apply.
const formRating = z
  .string()
  .regex(/^[1-5]$/, "Rating must be a whole number from 1 to 5")
  .transform(Number)
  .optional();

/** The review form (create and edit): comment and rating as a browser posts them. */
export const reviewFormSchema = z.object({
  comment,
  rating: formRating,
});

/** A review as the API returns it (API.md), plus when it was last edited. */
export const reviewSchema = z.object({
  id: z.number().int(),
  comment: z.string(),
  rating: z.number().int().min(RATING_MIN).max(RATING_MAX),
  productId: z.number().int(),
  userName: z.string(),
  userEmail: z
    .string()
    .nullable()
    .describe(
      "The author's e-mail, only when the one asking is that author or an admin; null for everyone else, so a public list never exposes customers' e-mails. A client tells its own reviews by comparing it with its user's e-mail.",
    ),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReviewView = z.infer<typeof reviewSchema>;

// Query strings are text; read them strictly (as the products list does).
const positiveInt = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${name} must be at least 1`).max(max, `${name} must be at most ${max}`));

export const REVIEWS_MAX_PAGE_SIZE = 100;
export const reviewListQuerySchema = z.object({
  page: positiveInt("page", 1_000_000).optional(),
  pageSize: positiveInt("pageSize", REVIEWS_MAX_PAGE_SIZE).optional(),
});

/**
 * A review as the product page shows it: no e-mail, not even the viewer's own (loader data is serialised into the
 * page and its .data answers, and the page never shows one), and what the viewer may do, decided on the server.
 */
export interface ReviewItem {
  id: number;
  comment: string;
  rating: number;
  userName: string;
  createdAt: string;
  edited: boolean;
  mine: boolean;
  canDelete: boolean;
}

export { REVIEW_INTENTS, type ReviewIntent } from "../review-constants";
import type { ReviewIntent } from "../review-constants";

/** What the product page's review actions answer when they do not redirect (a fetcher, or a failed plain post). */
export interface ReviewActionResult {
  intent: ReviewIntent;
  reviewId: number | null;
  ok: boolean;
  message: string | null;
  fieldErrors: Record<string, string[]>;
  /** What was posted, so a plain form shown again after a failure keeps the customer's words. */
  values: { comment: string; rating: string } | null;
}
