// The review rules the product page's client code needs (limits, the rating words, the messages), without zod.
// lib/schemas/review.ts builds the schemas from them and re-exports them.

export const COMMENT_MAX = 2000;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const DEFAULT_RATING = 5;
export const RATINGS = [1, 2, 3, 4, 5] as const;

const RATING_WORDS: Record<number, string> = { 1: "Poor", 2: "Fair", 3: "Good", 4: "Very Good", 5: "Excellent" };

/** SPEC §5: 1 Poor, 2 Fair, 3 Good, 4 Very Good, 5 Excellent. */
export function ratingWord(rating: number): string {
  return RATING_WORDS[rating] ?? "";
}

export const REVIEW_MESSAGES = {
  loginRequired: "Please login to submit a review",
  submitFailed: "Failed to submit review. Please try again.",
  updateFailed: "Failed to update review. Please try again.",
  deleteFailed: "Failed to delete review. Please try again.",
  confirmDelete: "Are you sure you want to delete this review?",
  alreadyReviewed: "You have already reviewed this product",
  notFound: "Review not found",
  notAuthor: "You can only edit your own review",
  notAllowedToDelete: "You can only delete your own review",
  wrongProduct: "A review cannot be moved to another product",
} as const;

/** The product page's review forms, by their `intent` field. */
export const REVIEW_INTENTS = ["review-create", "review-update", "review-delete"] as const;
export type ReviewIntent = (typeof REVIEW_INTENTS)[number];
export const isReviewIntent = (value: unknown): value is ReviewIntent => REVIEW_INTENTS.includes(value as ReviewIntent);

/** SPEC §8: what each review action says when it fails for no reason of the customer's. */
export const REVIEW_FAILED: Record<ReviewIntent, string> = {
  "review-create": REVIEW_MESSAGES.submitFailed,
  "review-update": REVIEW_MESSAGES.updateFailed,
  "review-delete": REVIEW_MESSAGES.deleteFailed,
};
