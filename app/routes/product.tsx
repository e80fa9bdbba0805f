import { data, Form, isRouteErrorResponse, Link, redirect, useActionData, useFetcher, useLoaderData, useRouteLoaderData, useSearchParams } from "react-router";

import { readFormData } from "~/lib/forms";

import { AddToCartButton, ReturnedAddToast, useAddToCart } from "~/components/AddToCartButton";
import { ErrorPage, NotFoundPage } from "~/components/ErrorPage";
import { Gallery } from "~/components/Gallery";
import { RelatedProducts } from "~/components/RelatedProducts";
import { RenderedFor, useRenderedFor, withRenderedFor } from "~/components/RenderedFor";
import { SizePicker } from "~/components/SizePicker";
import { REVIEWS_STEP, ReviewsSection, reviewKeptKey, type ReviewsData } from "~/components/Reviews";
import { Stars } from "~/components/Stars";
import { isPurchasable } from "~/lib/availability";
import { productPageTags } from "~/lib/edge-cache";
import { formatDate, formatPrice } from "~/lib/format";
import { answerOr, submitted } from "~/lib/client-action";
import { keepWhenSentToLogin } from "~/lib/kept-form";
import { HttpError, RenderedForRefusal, parseId, routeId } from "~/lib/http";
import { FEW_LEFT, SIZE_REFUSALS, hasSizeChoice, onlyLeft } from "~/lib/sizes";
import { reviewAction } from "~/lib/review-form.server";
import { savedMessage } from "~/lib/stock-moves";
import { savedStockMoves } from "~/lib/stock-moves.server";
import { isReviewIntent, REVIEW_FAILED } from "~/lib/review-constants";
import type { ReviewActionResult, ReviewItem } from "~/lib/schemas/review";
import { deleteProduct } from "~/services/catalogue.server";
import { readTogether } from "~/services/db.server";
import { countOpenOrdersWithProduct } from "~/services/orders.server";
import { picturesPlan, toImageViews } from "~/services/product-images.server";
import { relatedProductsPlan } from "~/services/related-products.server";
import { mayDeleteReview, mayEditReview, productReviewsFor, productReviewsPlan, type ReviewRecord } from "~/services/reviews.server";
import { claimedUserId, getOptionalUser, requireFormAdmin } from "~/services/session.server";
import { sizesPlan } from "~/services/sizes.server";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/product";


/** How many reviews by others the page shows: 10, and 10 more each time 'Show more' is followed (?reviews=). */
const REVIEWS_SHOWN_MAX = 200;
function reviewsShown(value: string | null): number {
  const asked = /^\d{1,4}$/.test(value ?? "") ? Number(value) : REVIEWS_STEP;
  return Math.min(Math.max(asked, REVIEWS_STEP), REVIEWS_SHOWN_MAX);
}

export async function loader({ params, context, request, url }: Route.LoaderArgs) {
  const id = routeId(params.id);
  const viewer = getOptionalUser(request, context);
  // Awaited below, but not when the page's batch fails or the product is missing: then nothing else would see its
  // failure (D1 unreachable), and the runtime would report it as unhandled.
  viewer.catch(() => {});
  const shown = reviewsShown(url.searchParams.get("reviews"));
  const reviewsOf = (viewerId: number | null) => productReviewsPlan(context.db, id, { viewerId, limit: shown });
  // One D1 round trip, the session's row included: the product, a page of reviews, the viewer's own review, the rating
  // counts, the pictures, the sizes and "You may also like" (which reads the category itself). The reviews are split
  // by the user the token claims while the session is checked; a token that fails the check reads them again.
  const { read, pictures, sizes, related } = await readTogether(context.db, {
    read: reviewsOf(claimedUserId(request, context)),
    pictures: picturesPlan(context.db, id),
    sizes: sizesPlan(context.db, id),
    related: relatedProductsPlan(context.db, id),
  });
  if (!read) throw data(null, { status: 404 });
  const user = await viewer;
  let page = productReviewsFor(read, user);
  if (!page) {
    const { again } = await readTogether(context.db, { again: reviewsOf(user?.id ?? null) });
    page = again && productReviewsFor(again, user);
  }
  if (!page) throw data(null, { status: 404 });
  const images = toImageViews(page.product, pictures);
  // ?image=n (1 for the first) is the picture shown, so the gallery works without JavaScript.
  const asked = Number(url.searchParams.get("image"));
  const image = Number.isInteger(asked) && asked >= 1 && asked <= images.length ? asked - 1 : 0;
  const isAdmin = user?.role === "ROLE_ADMIN";
  // Loader data is serialised into the HTML and the .data answers: only the fields the page shows, no e-mail, no
  // author id. What the viewer may do is the service's decision, by user id.
  const item = (review: ReviewRecord): ReviewItem => ({
    id: review.id,
    comment: review.comment,
    rating: review.rating,
    userName: review.userName,
    createdAt: review.createdAt,
    edited: review.updatedAt !== review.createdAt,
    mine: mayEditReview(user, review.userId),
    canDelete: mayDeleteReview(user, review.userId),
  });
  const reviews: ReviewsData = {
    items: page.reviews.map(item),
    own: page.own && item(page.own),
    othersTotal: page.othersTotal,
    distribution: page.distribution,
    shown,
    viewer: user ? (isAdmin ? "admin" : "customer") : "visitor",
  };
  // The edge cache tags the page with every product it shows, so a change to any of them purges it.
  const headers = { "Cache-Tag": productPageTags(id, related.map((product) => product.id)) };
  // For an admin only (a page never cached): what deleting the product would leave its open orders with.
  const openOrders = isAdmin ? await countOpenOrdersWithProduct(context.db, id) : 0;
  // Come back from the update form: the sizes its save put at another stock than typed, for the "Product saved" toast.
  const savedMoves = isAdmin && url.searchParams.has("saved") ? await savedStockMoves(url, id, context.cloudflare.env.JWT_SECRET) : null;
  return data({ product: page.product, images, image, sizes, reviews, related, openOrders, savedMoves, origin: url.origin }, { headers });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** A review (or an admin's delete) the server did not answer says SPEC's failure message where the form is. */
export const clientAction = async ({ request, params, serverAction }: Route.ClientActionArgs) => {
  const form = await submitted(request);
  const intent = form.get("intent");
  // A review being written or edited when the session ended is kept for after the login (ReviewsSection).
  const sent = isReviewIntent(intent) && intent !== "review-delete" ? () => keepWhenSentToLogin(request, reviewKeptKey(Number(params.id)), serverAction) : serverAction;
  return answerOr(sent, () => {
    if (!isReviewIntent(intent)) return { message: "Failed to delete product: the server did not answer" };
    const values = intent === "review-delete" ? null : { comment: String(form.get("comment") ?? ""), rating: String(form.get("rating") ?? "") };
    const failed: ReviewActionResult = { intent, reviewId: parseId(form.get("reviewId")), ok: false, message: REVIEW_FAILED[intent], fieldErrors: {}, values };
    return failed;
  });
};

export async function action({ request, params, context, url }: Route.ActionArgs) {
  const id = routeId(params.id);
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (isReviewIntent(intent)) return reviewAction(request, context, id, intent, form);
  if (intent !== "delete") throw data({ message: "Unknown action" }, { status: 400 });
  try {
    await requireFormAdmin(request, context, url, form);
    await deleteProduct(context.db, context.cloudflare.env.BUCKET, id);
  } catch (error) {
    if (error instanceof RenderedForRefusal) return data({ message: error.message }, { status: error.status });
    if (error instanceof HttpError) return data({ message: `Failed to delete product: ${error.message}` }, { status: error.status });
    throw error;
  }
  return redirect("/?deleted=1");
}

/** The question before a product is deleted, naming the orders still on their way that hold it. */
function deleteQuestion(name: string, openOrders: number): string {
  // The rest of the sentence agrees with the count: "1 open order: it keeps its lines", "3 open orders: they keep theirs".
  const orders =
    openOrders === 1
      ? "1 open order: it keeps its lines, but once cancelled it cannot be reopened"
      : `${openOrders.toLocaleString("en-US")} open orders: they keep their lines, but a cancelled one cannot be reopened`;
  const held = openOrders > 0 ? ` It is in ${orders}.` : "";
  return `Delete "${name}"?${held} This cannot be undone.`;
}

function AdminActions({ id, name, openOrders, refused }: { id: number; name: string; openOrders: number; refused: string | null }) {
  const [searchParams] = useSearchParams();
  const fetcher = useFetcher<{ message: string }>();
  const renderedFor = useRenderedFor();
  const confirming = searchParams.has("delete");
  const deleting = fetcher.state !== "idle";
  return (
    <div className="mt-6 rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
      <p className="text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">Admin</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <Link to={`/product/update/${id}`} className="btn-secondary">
          Update Product
        </Link>
        {/* Without JavaScript the link opens a confirmation below; with it, the browser asks. */}
        <Link
          to="?delete"
          className="btn-danger"
          aria-disabled={deleting}
          onClick={(event) => {
            event.preventDefault();
            if (window.confirm(deleteQuestion(name, openOrders))) fetcher.submit(withRenderedFor({ intent: "delete" }, renderedFor), { method: "post" });
          }}
        >
          {deleting ? "Deleting..." : "Delete Product"}
        </Link>
      </div>
      {confirming && (
        <Form method="post" className="mt-4 flex flex-wrap items-center gap-3 rounded-xl bg-red-50 p-4 text-sm dark:bg-red-950/50">
          <input type="hidden" name="intent" value="delete" />
          <RenderedFor />
          <p className="font-medium text-red-800 dark:text-red-200">{deleteQuestion(name, openOrders)}</p>
          <button type="submit" className="btn-danger">
            Yes, delete
          </button>
          <Link to="." className="btn-secondary">
            Cancel
          </Link>
        </Form>
      )}
      {(fetcher.data?.message ?? refused) && <p className="field-error">{fetcher.data?.message ?? refused}</p>}
    </div>
  );
}

export default function ProductPage() {
  const { product, images, image, sizes, reviews, related, openOrders, savedMoves } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const reviewResult = actionData && "intent" in actionData ? (actionData as ReviewActionResult) : undefined;
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const [searchParams] = useSearchParams();
  const cart = useAddToCart();
  const isAdmin = root?.user?.role === "ROLE_ADMIN";
  const available = isPurchasable(product);

  return (
    // A short screen (a phone lying down) has less room above and between: the price shows on the first screen.
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 short:pt-4">
      {/* Links a finger can hit (44 px tall), in a line no taller than before the page's top padding. */}
      <nav aria-label="Breadcrumb" className="-mt-3 text-sm text-slate-500 dark:text-slate-400">
        <Link to="/" className="inline-flex min-h-11 items-center hover:underline">
          Home
        </Link>{" "}
        /{" "}
        <Link to={`/?category=${product.category}`} className="inline-flex min-h-11 items-center hover:underline">
          {product.category}
        </Link>
      </nav>
      {/* Two columns from a tablet's width: the name, the price and the size picker beside the picture on the first
          screen (one under the other, a 768 px tablet showed the picture alone, the name at y 1045). */}
      <div className="mt-6 grid gap-8 md:grid-cols-2 lg:gap-12 short:mt-2">
        <Gallery key={product.id} images={images} fallbackUrl={product.imageUrl} label={`${product.brand} ${product.name}`} initial={image} dimmed={!available} />
        <div>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className="rounded-full bg-brand-50 px-3 py-1 font-semibold text-brand-700 dark:bg-slate-800 dark:text-brand-300">{product.category}</span>
            <span className="text-slate-500 dark:text-slate-400">Listed {formatDate(product.releaseDate)}</span>
          </p>
          <h1 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-4xl short:mt-2 short:text-3xl">{product.name}</h1>
          <p className="mt-1 text-lg text-slate-600 dark:text-slate-300">{product.brand}</p>
          <p className="mt-3 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            {product.reviewCount > 0 && product.averageRating !== null ? (
              <>
                <Stars rating={product.averageRating} />
                <span>
                  {product.averageRating.toFixed(1)} out of 5 · {product.reviewCount} {product.reviewCount === 1 ? "review" : "reviews"}
                </span>
              </>
            ) : (
              <span>No reviews yet</span>
            )}
          </p>
          <p className="mt-6 text-3xl font-bold short:mt-3">{formatPrice(product.price)}</p>
          <p className="mt-6 whitespace-pre-line leading-relaxed text-slate-700 dark:text-slate-300">{product.description}</p>
          <p className={`mt-6 text-sm font-medium ${available ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}`}>
            {available ? `Stock available: ${product.stockQuantity}` : product.productAvailable ? "Out of stock" : "Currently unavailable"}
          </p>
          {/* A size picker says how few are left in the chosen size; a product sold in one size says it here. */}
          {available && !hasSizeChoice(sizes) && product.stockQuantity < FEW_LEFT && (
            <p className="mt-1 text-sm font-semibold text-amber-800 dark:text-amber-300">{onlyLeft(product.stockQuantity)}</p>
          )}
          {hasSizeChoice(sizes) && <SizePicker key={product.id} productId={product.id} productName={product.name} category={product.category} sizes={sizes} available={available} />}
          <div className="mt-6 flex flex-wrap gap-3">
            {!hasSizeChoice(sizes) && (
              <>
                <AddToCartButton
                  formId={cart.formId}
                  productId={product.id}
                  productName={product.name}
                  available={available}
                  adding={cart.isAdding(product.id)}
                  className="min-w-44"
                />
                {cart.form}
                {cart.toasts}
              </>
            )}
            <a
              href="#reviews"
              className="btn-secondary"
              onClick={(event) => {
                event.preventDefault();
                // A smooth scroll, unless the visitor asked for less motion; the focus goes along to the section's
                // heading, so Tab and a screen reader go on from there, not from this link under the sticky header.
                const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
                document.getElementById("reviews")?.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth" });
                document.getElementById("reviews-heading")?.focus({ preventScroll: true });
              }}
            >
              View Reviews
            </a>
          </div>
          {isAdmin && <AdminActions id={product.id} name={product.name} openOrders={openOrders} refused={actionData && !("intent" in actionData) ? actionData.message : null} />}
        </div>
      </div>

      <ReviewsSection productId={product.id} averageRating={product.averageRating} reviewCount={product.reviewCount} data={reviews} result={reviewResult} />
      <RelatedProducts products={related} />
      <ReturnedAddToast
        otherwise={searchParams.has("saved") ? savedMessage(savedMoves) : null}
        lasting={!!savedMoves?.length}
        saidInPlace={hasSizeChoice(sizes) ? SIZE_REFUSALS : undefined}
      />
    </div>
  );
}

/**
 * schema.org's Product for search engines (Google's product results read it): the pictures, the brand, the price in
 * LKR, whether it can be bought now, and the rating when there are reviews. React Router writes it as a JSON-LD
 * script with "<" escaped, so no text of the product can end the script.
 */
function productStructuredData({ product, images, origin }: Pick<NonNullable<Route.MetaArgs["data"]>, "product" | "images" | "origin">) {
  const url = `${origin}/product/${product.id}`;
  const pictures = images.length ? images.map((image) => origin + image.url) : product.imageUrl ? [origin + product.imageUrl] : [];
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    sku: String(product.id),
    category: product.category,
    brand: { "@type": "Brand", name: product.brand },
    ...(pictures.length ? { image: pictures } : {}),
    url,
    offers: {
      "@type": "Offer",
      url,
      price: product.price.toFixed(2),
      priceCurrency: "LKR",
      availability: isPurchasable(product) ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      itemCondition: "https://schema.org/NewCondition",
    },
    ...(product.reviewCount > 0 && product.averageRating !== null
      ? { aggregateRating: { "@type": "AggregateRating", ratingValue: product.averageRating.toFixed(1), reviewCount: product.reviewCount, bestRating: 5, worstRating: 1 } }
      : {}),
  };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [{ title: "Product not found | Stride" }];
  const { product, origin } = data;
  const title = `${product.name} by ${product.brand} | Stride`;
  const description = `${product.description.slice(0, 150)} ${formatPrice(product.price)}.`;
  const url = `${origin}/product/${product.id}`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "product" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    ...(product.imageUrl ? [{ property: "og:image", content: origin + product.imageUrl }] : []),
    { property: "product:price:amount", content: product.price.toFixed(2) },
    { property: "product:price:currency", content: "LKR" },
    { "script:ld+json": productStructuredData(data) },
  ];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage title="Unexpected Application Error!" message="Something went wrong on our side. Please try again in a moment." />;
}
