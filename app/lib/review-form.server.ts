import { data, redirect, type AppLoadContext } from "react-router";

import { createReview, deleteReview, updateReview } from "~/services/reviews.server";
import { formUser, getSession, loginRedirect } from "~/services/session.server";
import { parseForm } from "./forms";
import { HttpError, RenderedForRefusal, parseId } from "./http";
import { REVIEW_FAILED } from "./review-constants";
import { DEFAULT_RATING, REVIEW_MESSAGES, reviewFormSchema, type ReviewActionResult, type ReviewIntent } from "./schemas/review";

// The product page's review forms: the same service rules as the API, with SPEC §8's messages. A plain form (no
// JavaScript) posts a `redirectTo` field and, after a success, is sent back to the product's reviews (post, redirect,
// get); a fetcher posts without it and gets the result as data, so the page stays where it is.

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

function reviewIdOf(form: FormData): number | null {
  return parseId(form.get("reviewId"));
}

/** SPEC §8: a submit shows 401 as 'Please login to submit a review', else the server's message; edits and deletes show theirs. */
function messageFor(intent: ReviewIntent, error: HttpError): string {
  if (error instanceof RenderedForRefusal) return error.message;
  if (intent !== "review-create") return REVIEW_FAILED[intent];
  if (error.status === 401) return REVIEW_MESSAGES.loginRequired;
  return error.message || REVIEW_FAILED[intent];
}

export async function reviewAction(request: Request, context: AppLoadContext, productId: number, intent: ReviewIntent, form: FormData) {
  const reviewId = intent === "review-create" ? null : reviewIdOf(form);
  const values = intent === "review-delete" ? null : { comment: text(form, "comment"), rating: text(form, "rating") };
  const redirectTo = form.get("redirectTo");
  const result = (status: number, message: string | null, fieldErrors: Record<string, string[]> = {}) =>
    data<ReviewActionResult>({ intent, reviewId, ok: status < 300, message, fieldErrors, values: status < 300 ? null : values }, { status });

  try {
    // A session that ended meanwhile is gone for good (SPEC §8: token and user are removed, on to /login), and so is
    // the session of a signed-in page whose cookie went meanwhile (formUser); a review typed for one customer and
    // posted after another tab logged in as someone else is refused (409), as typed. Without any session the form asks
    // for a login.
    const reviews = new URL(`/product/${productId}#reviews`, request.url);
    const session = await getSession(request, context);
    if (!session.user && session.reason === "invalid") return loginRedirect(reviews, request, session);
    const user = await formUser(request, context, reviews, form);
    if (!user) throw new HttpError(401, REVIEW_MESSAGES.loginRequired);
    if (intent !== "review-create" && reviewId === null) throw new HttpError(404, REVIEW_MESSAGES.notFound);

    if (intent === "review-delete") {
      await deleteReview(context.db, user, reviewId!, productId);
    } else {
      const parsed = parseForm(form, reviewFormSchema);
      if (!parsed.ok) {
        const message = intent === "review-create" ? parsed.message : REVIEW_FAILED[intent];
        return result(400, message, parsed.fieldErrors);
      }
      const { comment, rating } = parsed.data;
      if (intent === "review-create") await createReview(context.db, user, { productId, comment, rating: rating ?? DEFAULT_RATING });
      else await updateReview(context.db, user, reviewId!, { productId, comment, rating });
    }
  } catch (error) {
    if (error instanceof Response) throw error; // the login page
    if (error instanceof HttpError) return result(error.status, messageFor(intent, error), error.fieldErrors);
    console.error(`Product page ${intent} failed`, error);
    return result(500, REVIEW_FAILED[intent]);
  }

  if (typeof redirectTo === "string") {
    const anchor = intent === "review-update" ? `#review-${reviewId}` : "#reviews";
    return redirect(`/product/${productId}${anchor}`);
  }
  return result(200, null);
}
