import { Fragment, useCallback, useEffect, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { Link, useFetcher, useSearchParams, type FetcherWithComponents } from "react-router";

import { formatDate } from "~/lib/format";
import { COMMENT_MAX, DEFAULT_RATING, RATINGS, REVIEW_MESSAGES, ratingWord } from "~/lib/review-constants";
import type { ReviewActionResult, ReviewIntent, ReviewItem } from "~/lib/schemas/review";
import { FormAlert, useFocusOnRefusal } from "./Field";
import { KeptNote, useKeptForm } from "./KeptForm";
import { RenderedFor, useRenderedFor, withRenderedFor } from "./RenderedFor";
import { Stars } from "./Stars";
import { Toast } from "./Toast";

// The reviews block of the product page. Every form is a real form that posts to the product page's action, so it
// works without JavaScript (edit and delete confirmation then come from ?editReview= and ?deleteReview= links rendered
// by the server); with JavaScript, fetchers keep the page in place and show pending states.

export interface ReviewsData {
  /** Reviews by others, newest first (the first `shown`). */
  items: ReviewItem[];
  /** The viewer's own review, which takes the place of the form. */
  own: ReviewItem | null;
  /** How many reviews by others there are. */
  othersTotal: number;
  /** How many reviews gave each rating, 1 to 5. */
  distribution: Record<number, number>;
  shown: number;
  viewer: "visitor" | "customer" | "admin";
}

export const REVIEWS_STEP = 10;

/** Where a review being written or edited is kept when the session ends under it (app/lib/kept-form.ts). */
export const reviewKeptKey = (productId: number) => `/product/${productId}#review`;

type ReviewFetcher = FetcherWithComponents<ReviewActionResult>;

/** A review's card (its id): where an edit and a delete come back to. */
const reviewAnchor = (reviewId: number) => `review-${reviewId}`;
/**
 * The card to write a review (its id): where a refused one comes back to. Not the section's #reviews, which a posted
 * review goes to: on a phone that leaves the form's message under the fold, below the rating summary.
 */
const WRITE_REVIEW_ID = "write-review";

/**
 * Says what a review action did ("Review posted") in the section's toast: what sent it is often gone by then (the
 * posted review replaces the form, a deleted review takes its card along). Null when one is sent, so that the same
 * words, said again, are read out again.
 */
type Announce = (message: string | null) => void;

/** Edit and Delete on a review: quiet, but a full 44px touch target. */
const QUIET_BUTTON = "inline-flex min-h-11 items-center justify-center rounded-lg px-3 text-sm font-semibold transition-colors aria-disabled:opacity-60";

/** A plain form carries `redirectTo` (post, redirect, get); with JavaScript the fetcher posts without it and stays put. */
function submitInPlace(fetcher: ReviewFetcher, event: FormEvent<HTMLFormElement>, productId: number, announce: Announce) {
  event.preventDefault();
  if (fetcher.state !== "idle") return; // the button stays focusable meanwhile (aria-disabled): a second press waits
  announce(null);
  const formData = new FormData(event.currentTarget);
  formData.delete("redirectTo");
  fetcher.submit(formData, { method: "post", action: `/product/${productId}`, preventScrollReset: true });
}

export function ReviewsSection({
  productId,
  averageRating,
  reviewCount,
  data,
  result,
}: {
  productId: number;
  averageRating: number | null;
  reviewCount: number;
  data: ReviewsData;
  /** The action's answer to a plain (no JavaScript) post that failed. */
  result?: ReviewActionResult;
}) {
  const loginHref = `/login?${new URLSearchParams({ redirect: `/product/${productId}#reviews` })}`;
  const more = Math.min(REVIEWS_STEP, data.othersTotal - data.items.length);
  const last = data.items.at(-1);

  const [status, setStatus] = useState<{ message: string; id: number } | null>(null);
  // A review being written (or edited) when the session ended, back after the login: in its form again.
  const kept = useKeptForm(data.viewer === "visitor" ? null : reviewKeptKey(productId));
  const keptFor = (intent: ReviewIntent) => (kept?.get("intent") === intent ? kept : null);
  const announce = useCallback<Announce>((message) => setStatus((shown) => (message ? { message, id: (shown?.id ?? 0) + 1 } : null)), []);

  // The form to write a review gives way to the review it posted, and goes with its fetcher: the section keeps the
  // fetcher, to see the answer land. Then the focus goes to the new review (not to <body>), and the toast says so.
  const createFetcher = useFetcher<ReviewActionResult>();
  const posted = createFetcher.state === "idle" && createFetcher.data?.ok ? createFetcher.data : null;
  const ownId = data.own?.id;
  const handledPost = useRef<ReviewActionResult | null>(null);
  useEffect(() => {
    if (!posted || handledPost.current === posted) return;
    handledPost.current = posted;
    (document.getElementById(`review-${ownId}`) ?? document.getElementById("reviews-heading"))?.focus();
    announce("Review posted");
  }, [posted, ownId, announce]);

  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="mt-16 scroll-mt-24 border-t border-slate-200 pt-10 dark:border-slate-800">
      {/* Takes the focus when the reviews are asked for (View Reviews) or one is deleted; its ring shows from the keyboard. */}
      <h2 id="reviews-heading" tabIndex={-1} className="rounded-sm text-2xl font-bold tracking-tight">
        Customer reviews
      </h2>
      <Toast message={status?.message ?? null} id={status?.id} />
      {kept && (
        <div className="mt-4">
          <KeptNote kept={kept} />
        </div>
      )}
      <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] lg:gap-12">
        <RatingSummary averageRating={averageRating} reviewCount={reviewCount} distribution={data.distribution} />
        <div className="min-w-0">
          {data.viewer === "visitor" ? (
            <div className="card flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-semibold">Please login to submit a review</p>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Bought these? Tell other shoppers how they fit and feel.</p>
              </div>
              <Link to={loginHref} className="btn-primary shrink-0">
                Login to review
              </Link>
            </div>
          ) : data.own ? (
            <div>
              <h3 className="text-sm font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">Your review</h3>
              <ul className="mt-2" aria-label="Your review">
                <ReviewCard review={data.own} productId={productId} result={result} announce={announce} highlight kept={keptFor("review-update")?.get("reviewId") === String(data.own.id) ? kept : null} />
              </ul>
            </div>
          ) : (
            <WriteReview fetcher={createFetcher} productId={productId} result={result?.intent === "review-create" ? result : undefined} announce={announce} kept={keptFor("review-create")} />
          )}

          {data.items.length > 0 ? (
            <>
              {data.own && <h3 className="mt-10 text-sm font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">Other reviews</h3>}
              <ul className={`divide-y divide-slate-200 dark:divide-slate-800 ${data.own ? "mt-2" : "mt-6"}`} aria-label={data.own ? "Other reviews" : "Reviews"}>
                {data.items.map((review) => (
                  <ReviewCard key={review.id} review={review} productId={productId} result={result} announce={announce} />
                ))}
              </ul>
              {more > 0 && last && (
                <Link
                  to={{ search: `?reviews=${data.shown + REVIEWS_STEP}`, hash: `#review-${last.id}` }}
                  preventScrollReset
                  className="btn-secondary mt-6 w-full sm:w-auto"
                >
                  Show {more} more {more === 1 ? "review" : "reviews"}
                </Link>
              )}
            </>
          ) : (
            !data.own && (
              <p className="mt-6 rounded-2xl border border-dashed border-slate-300 px-5 py-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
                No reviews yet. Be the first to share what you think of this product.
              </p>
            )
          )}
        </div>
      </div>
    </section>
  );
}

function RatingSummary({ averageRating, reviewCount, distribution }: { averageRating: number | null; reviewCount: number; distribution: Record<number, number> }) {
  if (!reviewCount || averageRating === null) {
    return (
      <div className="card self-start p-6">
        <p className="text-lg font-semibold">No ratings yet</p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Ratings from customers will show here.</p>
      </div>
    );
  }
  return (
    <div className="card self-start p-6">
      <p className="flex items-end gap-2">
        <span className="text-5xl font-extrabold tracking-tight">{averageRating.toFixed(1)}</span>
        <span className="pb-1.5 text-sm text-slate-600 dark:text-slate-400">out of 5</span>
      </p>
      <Stars rating={averageRating} className="mt-2" />
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Based on {reviewCount} {reviewCount === 1 ? "review" : "reviews"}
      </p>
      <ul className="mt-5 space-y-2" aria-label="How customers rated it">
        {[...RATINGS].reverse().map((rating) => {
          const count = distribution[rating] ?? 0;
          const percent = reviewCount ? Math.round((count / reviewCount) * 100) : 0;
          return (
            <li key={rating} className="flex items-center gap-3 text-sm">
              <span className="w-20 shrink-0 text-slate-700 dark:text-slate-300">{ratingWord(rating)}</span>
              <span className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
                <span className="block h-full rounded-full bg-amber-400 dark:bg-amber-400" style={{ width: `${percent}%` }} />
              </span>
              <span className="w-8 shrink-0 text-right tabular-nums text-slate-600 dark:text-slate-400">
                {count}
                <span className="sr-only"> {count === 1 ? "review" : "reviews"}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function WriteReview({ fetcher, productId, result, announce, kept }: { fetcher: ReviewFetcher; productId: number; result?: ReviewActionResult; announce: Announce; kept: URLSearchParams | null }) {
  const outcome = fetcher.data ?? result;
  const pending = fetcher.state !== "idle";
  return (
    <div id={WRITE_REVIEW_ID} className="card p-5 sm:p-6">
      <h3 className="text-lg font-semibold">Write a review</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Share how they fit, feel and wear. Your name is shown with your review.</p>
      <ReviewForm
        fetcher={fetcher}
        productId={productId}
        intent="review-create"
        idPrefix="new-review"
        outcome={outcome?.ok ? undefined : outcome}
        pending={pending}
        submitLabel={pending ? "Submitting..." : "Submit Review"}
        announce={announce}
        kept={kept}
      />
    </div>
  );
}

function ReviewForm({
  fetcher,
  productId,
  intent,
  idPrefix,
  review,
  outcome,
  pending,
  submitLabel,
  cancel,
  announce,
  kept = null,
}: {
  fetcher: ReviewFetcher;
  productId: number;
  intent: Extract<ReviewIntent, "review-create" | "review-update">;
  idPrefix: string;
  review?: ReviewItem;
  outcome?: ReviewActionResult;
  pending: boolean;
  submitLabel: string;
  cancel?: { href: string; onClick: (event: MouseEvent) => void };
  announce: Announce;
  /** What was typed before a session ended under the form (app/lib/kept-form.ts). */
  kept?: URLSearchParams | null;
}) {
  const errors = outcome?.fieldErrors ?? {};
  const commentId = `${idPrefix}-comment`;
  const commentError = errors.comment?.[0];
  const initialRating = Number(outcome?.values?.rating) || Number(kept?.get("rating")) || review?.rating || DEFAULT_RATING;
  // A refused review moves the focus to the field at fault (else it stays on the button it was sent with).
  const form = useFocusOnRefusal(outcome);
  // Without JavaScript a refused form comes back as a new page: the fragment opens it where the form is, as a
  // success opens at the review (reviewAction's redirect), not at the page's top with the message far below.
  const at = review ? reviewAnchor(review.id) : WRITE_REVIEW_ID;
  return (
    // noValidate: an empty review gets the shop's message on the field ("Comment is required"), as every other form
    // does, not the browser's bubble.
    <fetcher.Form
      // Drawn again from what was kept, once it is read after the first render.
      key={kept ? "kept" : "loaded"}
      ref={form}
      method="post"
      action={`/product/${productId}#${at}`}
      className="mt-4 space-y-4"
      noValidate
      onSubmit={(event) => submitInPlace(fetcher, event, productId, announce)}
    >
      <input type="hidden" name="intent" value={intent} />
      {review && <input type="hidden" name="reviewId" value={review.id} />}
      <RenderedFor />
      <input type="hidden" name="redirectTo" value={`/product/${productId}`} />
      {outcome?.message && <FormAlert>{outcome.message}</FormAlert>}
      <RatingInput idPrefix={idPrefix} defaultValue={initialRating} error={errors.rating?.[0]} />
      <div>
        <label htmlFor={commentId} className="field-label">
          {intent === "review-create" ? "Your review" : "Edit your review"}
        </label>
        <textarea
          id={commentId}
          name="comment"
          rows={4}
          required
          maxLength={COMMENT_MAX}
          defaultValue={outcome?.values?.comment ?? kept?.get("comment") ?? review?.comment ?? ""}
          placeholder="How do they fit? Are they comfortable all day?"
          className="field-input resize-y"
          aria-invalid={commentError ? true : undefined}
          aria-describedby={commentError ? `${commentId}-error` : `${commentId}-hint`}
        />
        {commentError ? (
          <p id={`${commentId}-error`} className="field-error">
            {commentError}
          </p>
        ) : (
          <p id={`${commentId}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            Up to {COMMENT_MAX} characters.
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        {/* aria-disabled, not disabled, while sending: a disabled button loses the focus to <body>. */}
        <button type="submit" className="btn-primary min-w-32" aria-disabled={pending || undefined}>
          {submitLabel}
        </button>
        {cancel && (
          <Link to={cancel.href} onClick={cancel.onClick} preventScrollReset className="btn-secondary min-w-24">
            Cancel
          </Link>
        )}
      </div>
    </fetcher.Form>
  );
}

// Stars light up to the chosen one and the chosen word shows beside them, in CSS alone (:checked and sibling
// selectors), so the control works the same before JavaScript loads, or without it. Tailwind needs the literal classes.
const WORD_VISIBLE = [
  "",
  "[.rating-1:checked~&]:inline-block",
  "[.rating-2:checked~&]:inline-block",
  "[.rating-3:checked~&]:inline-block",
  "[.rating-4:checked~&]:inline-block",
  "[.rating-5:checked~&]:inline-block",
];

function RatingInput({ idPrefix, defaultValue, error }: { idPrefix: string; defaultValue: number; error?: string }) {
  const errorId = `${idPrefix}-rating-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="field-label">Rating</legend>
      <div className="flex flex-wrap items-center">
        {RATINGS.map((rating) => (
          <Fragment key={rating}>
            <input
              type="radio"
              id={`${idPrefix}-rating-${rating}`}
              name="rating"
              value={rating}
              defaultChecked={rating === defaultValue}
              className={`rating-${rating} sr-only`}
            />
            <label
              htmlFor={`${idPrefix}-rating-${rating}`}
              title={`${rating} - ${ratingWord(rating)}`}
              className="inline-flex size-11 cursor-pointer items-center justify-center rounded-lg text-slate-300 transition-colors hover:scale-110 dark:text-slate-600 [input:checked+&]:text-amber-500 dark:[input:checked+&]:text-amber-400 [&:has(~input:checked)]:text-amber-500 dark:[&:has(~input:checked)]:text-amber-400 [input:focus-visible+&]:outline-2 [input:focus-visible+&]:outline-offset-2 [input:focus-visible+&]:outline-brand-500 dark:[input:focus-visible+&]:outline-brand-300"
            >
              <svg viewBox="0 0 20 20" className="size-7 fill-current" aria-hidden="true">
                <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.8l-5.2 2.8 1-5.8L1.5 7.7l5.9-.9z" />
              </svg>
              <span className="sr-only">
                {rating} {rating === 1 ? "star" : "stars"}, {ratingWord(rating)}
              </span>
            </label>
          </Fragment>
        ))}
        {RATINGS.map((rating) => (
          <span
            key={rating}
            aria-hidden="true"
            className={`hidden w-full pl-2 text-sm font-semibold text-slate-700 sm:ml-2 sm:w-auto sm:pl-0 dark:text-slate-200 ${WORD_VISIBLE[rating]}`}
          >
            {rating} - {ratingWord(rating)}
          </span>
        ))}
      </div>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function ReviewCard({
  review,
  productId,
  result,
  announce,
  highlight = false,
  kept = null,
}: {
  review: ReviewItem;
  productId: number;
  result?: ReviewActionResult;
  announce: Announce;
  /** The viewer's own review, in a card of its own; it takes the focus once posted. */
  highlight?: boolean;
  /** An edit of this review kept when the session ended under it: the card opens its form with it. */
  kept?: URLSearchParams | null;
}) {
  const fetcher = useFetcher<ReviewActionResult>();
  const renderedFor = useRenderedFor();
  const [searchParams, setSearchParams] = useSearchParams();
  const [editingHere, setEditingHere] = useState(false);
  // A result the customer has moved on from (Cancel) is not shown again.
  const [dismissed, setDismissed] = useState<ReviewActionResult | null>(null);
  const plain = result?.reviewId === review.id ? result : undefined;
  const latest = fetcher.data ?? plain;
  const outcome = latest && latest !== dismissed ? latest : undefined;
  const failed = outcome && !outcome.ok ? outcome : undefined;
  const pendingIntent = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  const deleting = pendingIntent === "review-delete";
  const saving = pendingIntent === "review-update";

  // Given back until this edit is saved or cancelled; the next Edit starts from the review.
  const [keptEdit, setKeptEdit] = useState<URLSearchParams | null>(null);
  useEffect(() => {
    if (!kept) return;
    setKeptEdit(kept);
    setEditingHere(true);
  }, [kept]);
  const editParam = searchParams.get("editReview") === String(review.id);
  const plainFailedUpdate = plain?.intent === "review-update" && !plain.ok && plain !== dismissed;
  const editing = review.mine && (editingHere || editParam || plainFailedUpdate);
  const confirming = searchParams.get("deleteReview") === String(review.id) && (review.mine || review.canDelete);

  // Where the focus goes once the card has changed: into the form Edit opened, or back to Edit after Save or Cancel,
  // rather than to the page's top when the control that had it goes away.
  const editButton = useRef<HTMLAnchorElement>(null);
  const focusAfter = useRef<"comment" | "edit" | null>(null);
  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = null;
    if (target === "comment") document.getElementById(`review-${review.id}-edit-comment`)?.focus();
    if (target === "edit") editButton.current?.focus();
  }, [editing, review.id]);

  // After a save with JavaScript: back to the review, and out of ?editReview= if the edit began there.
  const saved = fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.intent === "review-update" ? fetcher.data : null;
  const handled = useRef<ReviewActionResult | null>(null);
  useEffect(() => {
    if (!saved || handled.current === saved) return;
    handled.current = saved;
    focusAfter.current = "edit";
    setEditingHere(false);
    setKeptEdit(null);
    announce("Review saved");
    if (editParam) {
      setSearchParams(
        (params) => {
          params.delete("editReview");
          return params;
        },
        { replace: true, preventScrollReset: true },
      );
    }
  }, [saved, editParam, setSearchParams, announce]);

  // A deleted review leaves the page with its card, this fetcher and all: the card says so as it goes, when a delete
  // was on its way (a failed one stays, with its alert). Its focus has gone to the section's heading meanwhile.
  const deletingNow = useRef(false);
  useEffect(() => {
    deletingNow.current = deleting;
  }, [deleting]);
  useEffect(() => () => void (deletingNow.current && announce("Review deleted")), [announce]);
  const focusHeading = () => document.getElementById("reviews-heading")?.focus();

  const withoutParams = `/product/${productId}${searchParams.has("reviews") ? `?reviews=${searchParams.get("reviews")}` : ""}#${reviewAnchor(review.id)}`;
  const withParam = (name: string) => {
    const params = new URLSearchParams(searchParams);
    params.delete("editReview");
    params.delete("deleteReview");
    params.set(name, String(review.id));
    return `?${params}#${reviewAnchor(review.id)}`;
  };

  const deleteError = failed?.intent === "review-delete" ? failed.message : null;
  // SPEC §8: a failed delete is an alert, once per answer (it stays written under the review too).
  const alerted = useRef<ReviewActionResult | null>(null);
  useEffect(() => {
    if (!deleteError || fetcher.data !== failed || alerted.current === failed) return;
    alerted.current = failed ?? null;
    window.alert(deleteError);
  }, [deleteError, failed, fetcher.data]);

  return (
    <li
      id={reviewAnchor(review.id)}
      tabIndex={highlight ? -1 : undefined}
      className={`scroll-mt-24 ${highlight ? "card p-5 sm:p-6" : "py-6"} ${deleting ? "opacity-50" : ""}`}
      aria-busy={deleting || saving || undefined}
    >
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-bold text-brand-700 dark:bg-slate-800 dark:text-brand-300"
        >
          {review.userName.trim().charAt(0).toUpperCase() || "?"}
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 font-semibold">
            <span className="break-words">{review.userName}</span>
            {review.mine && (
              <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 dark:bg-slate-800 dark:text-brand-300">You</span>
            )}
          </p>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            <time dateTime={review.createdAt}>{formatDate(review.createdAt)}</time>
            {review.edited && <span> · Edited</span>}
          </p>
        </div>
        {!editing && (review.mine || review.canDelete) && (
          <div className="-mr-2 -mt-2 flex shrink-0">
            {review.mine && (
              <Link
                ref={editButton}
                to={withParam("editReview")}
                preventScrollReset
                className={`${QUIET_BUTTON} text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800`}
                aria-label="Edit your review"
                onClick={(event) => {
                  event.preventDefault();
                  setDismissed(latest ?? null);
                  focusAfter.current = "comment";
                  setEditingHere(true);
                }}
              >
                Edit
              </Link>
            )}
            <Link
              to={withParam("deleteReview")}
              preventScrollReset
              className={`${QUIET_BUTTON} text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/50`}
              // Starts with the word shown, Delete or Deleting (WCAG 2.5.3), then whose review it is.
              aria-label={`${deleting ? "Deleting" : "Delete"} ${review.mine ? "your review" : `the review by ${review.userName}`}`}
              aria-disabled={deleting || undefined}
              onClick={(event) => {
                event.preventDefault();
                if (deleting) return;
                if (window.confirm(REVIEW_MESSAGES.confirmDelete)) {
                  // The review is going: the focus waits on the section's heading, not on a control about to vanish.
                  focusHeading();
                  announce(null);
                  fetcher.submit(withRenderedFor({ intent: "review-delete", reviewId: String(review.id) }, renderedFor), { method: "post", action: `/product/${productId}`, preventScrollReset: true });
                }
              }}
            >
              {deleting ? "Deleting..." : "Delete"}
            </Link>
          </div>
        )}
      </div>

      {editing ? (
        <ReviewForm
          fetcher={fetcher}
          productId={productId}
          intent="review-update"
          idPrefix={`review-${review.id}-edit`}
          review={review}
          outcome={failed?.intent === "review-update" ? failed : undefined}
          pending={saving}
          submitLabel={saving ? "Saving..." : "Save"}
          announce={announce}
          kept={keptEdit}
          cancel={{
            href: withoutParams,
            onClick: (event) => {
              setDismissed(latest ?? null);
              focusAfter.current = "edit";
              setEditingHere(false);
              setKeptEdit(null);
              // Began with ?editReview=: let the link take it away. Began with the button: stay put.
              if (!editParam) event.preventDefault();
            },
          }}
        />
      ) : (
        <>
          <p className="mt-3 flex items-center gap-2 text-sm">
            <Stars rating={review.rating} />
            <span className="font-semibold text-slate-800 dark:text-slate-200">{ratingWord(review.rating)}</span>
          </p>
          <p className="mt-2 whitespace-pre-line break-words leading-relaxed text-slate-700 dark:text-slate-300">{review.comment}</p>
        </>
      )}

      {confirming && !deleting && !editing && (
        <fetcher.Form
          method="post"
          // A refused delete comes back here, at the review and its message (see ReviewForm).
          action={`/product/${productId}#${reviewAnchor(review.id)}`}
          onSubmit={(event) => {
            focusHeading(); // as Delete's confirmation does: Yes, delete goes with the review
            submitInPlace(fetcher, event, productId, announce);
          }}
          className="mt-4 flex flex-wrap items-center gap-3 rounded-xl bg-red-50 p-4 text-sm dark:bg-red-950/50"
        >
          <input type="hidden" name="intent" value="review-delete" />
          <input type="hidden" name="reviewId" value={review.id} />
          <RenderedFor />
          <input type="hidden" name="redirectTo" value={`/product/${productId}`} />
          <p className="font-medium text-red-800 dark:text-red-200">{REVIEW_MESSAGES.confirmDelete}</p>
          <button type="submit" className="btn-danger">
            Yes, delete
          </button>
          <Link to={withoutParams} preventScrollReset className="btn-secondary">
            Cancel
          </Link>
        </fetcher.Form>
      )}

      {deleteError && (
        <div className="mt-3">
          <FormAlert>{deleteError}</FormAlert>
        </div>
      )}
    </li>
  );
}
