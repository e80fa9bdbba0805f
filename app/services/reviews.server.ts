import { and, count, desc, eq, ne, sql } from "drizzle-orm";

import { conflict, forbidden, badRequest, notFound } from "~/lib/http";
import type { ProductView } from "~/lib/schemas/product";
import { REVIEW_MESSAGES, type ReviewCreateInput, type ReviewUpdateInput, type ReviewView } from "~/lib/schemas/review";
import type { SessionUser } from "./auth.server";
import { PRODUCT_NOT_FOUND } from "~/lib/availability";
import { toProductView } from "./catalogue.server";
import { type Db, type ReadPlan, schema } from "./db.server";

// Reviews: who may write, edit and delete them, and the product's rating kept in step. products.rating_count and
// rating_total change in the same db.batch as the review itself (D1's batch is atomic), and every change to them is
// computed in SQL from the row being changed, so two requests at once cannot drift the totals.

const { reviews, products, users } = schema;

const reviewColumns = {
  id: reviews.id,
  comment: reviews.comment,
  rating: reviews.rating,
  productId: reviews.productId,
  userId: reviews.userId,
  userName: users.name,
  userEmail: users.email,
  createdAt: reviews.createdAt,
  updatedAt: reviews.updatedAt,
} as const;

type ReviewRow = {
  id: number;
  comment: string;
  rating: number;
  productId: number;
  userId: number;
  userName: string;
  userEmail: string;
  createdAt: number;
  updatedAt: number;
};

/** Who is asking: the session's user, or null for a visitor. */
export type Viewer = Pick<SessionUser, "id" | "role"> | null;

// Who may do what with a review, decided here once for the API and the product page alike, by user ids (never by
// e-mails, which a customer can change).

/**
 * API.md: an author's e-mail goes only to that author and to admins; everyone else gets null, so a public list never
 * exposes customers' e-mails. Every review this module hands out has passed through here (toRecord).
 */
export function maySeeAuthorEmail(viewer: Viewer, authorId: number): boolean {
  return viewer !== null && (viewer.id === authorId || viewer.role === "ROLE_ADMIN");
}

/** Only the author edits a review; an admin too is refused. */
export function mayEditReview(viewer: Viewer, authorId: number): boolean {
  return viewer !== null && viewer.id === authorId;
}

/** The author or an admin deletes a review. */
export function mayDeleteReview(viewer: Viewer, authorId: number): boolean {
  return viewer !== null && (viewer.id === authorId || viewer.role === "ROLE_ADMIN");
}

/** A review read for a screen or a service decision: the API view plus its author's id. */
export type ReviewRecord = ReviewView & { userId: number };

/** A row as `viewer` may see it: the author's e-mail only when maySeeAuthorEmail says so. */
function toRecord(row: ReviewRow, viewer: Viewer): ReviewRecord {
  return {
    id: row.id,
    comment: row.comment,
    rating: row.rating,
    productId: row.productId,
    userId: row.userId,
    userName: row.userName,
    userEmail: maySeeAuthorEmail(viewer, row.userId) ? row.userEmail : null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** The API's Review: API.md's fields and updatedAt; the author's id stays on the server. */
export function toReviewView({ userId: _userId, ...view }: ReviewRecord): ReviewView {
  return view;
}

const NEWEST_FIRST = [desc(reviews.createdAt), desc(reviews.id)];

function selectReviews(db: Db) {
  return db.select(reviewColumns).from(reviews).innerJoin(users, eq(users.id, reviews.userId));
}

function causeText(error: unknown): string {
  return String((error as { cause?: unknown })?.cause ?? "") + String(error);
}

/**
 * A page of a product's reviews, newest first, as `viewer` may see them, and how many there are; 404 when the product
 * does not exist.
 */
export async function listReviews(db: Db, productId: number, viewer: Viewer, { limit, offset = 0 }: { limit?: number; offset?: number } = {}) {
  const list = selectReviews(db)
    .where(eq(reviews.productId, productId))
    .orderBy(...NEWEST_FIRST);
  const [found, rows] = await db.batch([
    db.select({ ratingCount: products.ratingCount }).from(products).where(eq(products.id, productId)).limit(1),
    limit === undefined ? list : list.limit(limit).offset(offset),
  ]);
  if (!found.length) throw notFound(PRODUCT_NOT_FOUND);
  return { items: rows.map((row) => toRecord(row, viewer)), total: found[0].ratingCount };
}

export interface ProductReviews {
  product: ProductView;
  /** Newest first; without the viewer's own review, which comes in `own`. */
  reviews: ReviewRecord[];
  /** How many reviews `reviews` is a page of (the viewer's own left out). */
  othersTotal: number;
  own: ReviewRecord | null;
  /** How many reviews gave each rating, 1 to 5. */
  distribution: Record<number, number>;
}

/** The product page's reviews as read for one viewer's id, before they are shown to anyone (productReviewsFor). */
export interface ProductReviewsRead {
  viewerId: number | null;
  product: ProductView;
  reviews: ReviewRow[];
  own: ReviewRow | null;
  distribution: Record<number, number>;
}

/**
 * The product page's product and reviews, as a plan for its one D1 batch (readTogether): the product, the first
 * `limit` reviews by others than `viewerId`, that viewer's own review and the count of each rating. Null when the
 * product does not exist. The id only chooses what is read: what a viewer may see is decided by productReviewsFor,
 * so a page may start this read from the user a token claims, before the session is checked.
 */
export function productReviewsPlan(db: Db, productId: number, { viewerId, limit }: { viewerId: number | null; limit: number }): ReadPlan<ProductReviewsRead | null> {
  const others = viewerId === null ? eq(reviews.productId, productId) : and(eq(reviews.productId, productId), ne(reviews.userId, viewerId));
  const statements = [
    db.select().from(products).where(eq(products.id, productId)).limit(1),
    selectReviews(db)
      .where(others)
      .orderBy(...NEWEST_FIRST)
      .limit(limit),
    selectReviews(db)
      .where(and(eq(reviews.productId, productId), eq(reviews.userId, viewerId ?? 0)))
      .limit(1),
    db.select({ rating: reviews.rating, count: count() }).from(reviews).where(eq(reviews.productId, productId)).groupBy(reviews.rating),
  ] as const;
  type Results = { [Index in keyof typeof statements]: Awaited<(typeof statements)[Index]> };
  return {
    statements: [...statements],
    assemble: (results) => {
      const [productRows, rows, ownRows, counts] = results as unknown as Results;
      if (!productRows.length) return null;
      const distribution: Record<number, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
      for (const row of counts) distribution[row.rating] = row.count;
      return { viewerId, product: toProductView(productRows[0]), reviews: rows, own: ownRows[0] ?? null, distribution };
    },
  };
}

/** The reviews as `viewer` may see them; null when they were read for someone else (read them again for this viewer). */
export function productReviewsFor(read: ProductReviewsRead, viewer: Viewer): ProductReviews | null {
  if (read.viewerId !== (viewer?.id ?? null)) return null;
  const own = read.own && toRecord(read.own, viewer);
  return {
    product: read.product,
    reviews: read.reviews.map((row) => toRecord(row, viewer)),
    othersTotal: Math.max(0, read.product.reviewCount - (own ? 1 : 0)),
    own,
    distribution: read.distribution,
  };
}

async function findReview(db: Db, id: number, viewer: Viewer): Promise<ReviewRecord | null> {
  const [row] = await selectReviews(db).where(eq(reviews.id, id)).limit(1);
  return row ? toRecord(row, viewer) : null;
}

/** Keeps the product's updated_at as it was: a review is not an edit of the product. */
const keepProductUpdatedAt = { updatedAt: sql`${products.updatedAt}` };

/**
 * One review per customer per product (409); 404 when the product does not exist. The author is the session's user, so
 * the answer carries their e-mail.
 */
export async function createReview(db: Db, user: SessionUser, input: ReviewCreateInput): Promise<ReviewRecord> {
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, input.productId)).limit(1);
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  try {
    const [[created]] = await db.batch([
      db.insert(reviews).values({ productId: input.productId, userId: user.id, comment: input.comment, rating: input.rating }).returning(),
      db
        .update(products)
        .set({ ratingCount: sql`${products.ratingCount} + 1`, ratingTotal: sql`${products.ratingTotal} + ${input.rating}`, ...keepProductUpdatedAt })
        .where(eq(products.id, input.productId)),
    ]);
    return toRecord({ ...created, userName: user.name, userEmail: user.email }, user);
  } catch (error) {
    const text = causeText(error);
    if (text.includes("UNIQUE constraint failed")) throw conflict(REVIEW_MESSAGES.alreadyReviewed);
    // The product was deleted between the check and the write.
    if (text.includes("FOREIGN KEY constraint failed")) throw notFound(PRODUCT_NOT_FOUND);
    throw error;
  }
}

/**
 * Only the author may edit a review; an admin too is refused (403). A missing rating keeps the current one. The answer is
 * the author's own, so it carries their e-mail.
 */
export async function updateReview(db: Db, user: SessionUser, id: number, input: ReviewUpdateInput): Promise<ReviewRecord> {
  const review = await findReview(db, id, user);
  if (!review) throw notFound(REVIEW_MESSAGES.notFound);
  if (!mayEditReview(user, review.userId)) throw forbidden(REVIEW_MESSAGES.notAuthor);
  if (input.productId !== undefined && input.productId !== review.productId) {
    throw badRequest(REVIEW_MESSAGES.wrongProduct, { productId: [REVIEW_MESSAGES.wrongProduct] });
  }
  const rating = input.rating ?? review.rating;
  const mine = and(eq(reviews.id, id), eq(reviews.userId, user.id));
  const [, updated] = await db.batch([
    // The difference is taken from the stored rating inside the batch, so an edit racing this one cannot skew the total.
    db
      .update(products)
      .set({
        ratingTotal: sql`${products.ratingTotal} + ${rating} - (SELECT ${reviews.rating} FROM ${reviews} WHERE ${mine})`,
        ...keepProductUpdatedAt,
      })
      .where(and(eq(products.id, review.productId), sql`EXISTS (SELECT 1 FROM ${reviews} WHERE ${mine})`)),
    db.update(reviews).set({ comment: input.comment, rating }).where(mine).returning(),
  ]);
  // Deleted meanwhile.
  if (!updated.length) throw notFound(REVIEW_MESSAGES.notFound);
  return toRecord({ ...updated[0], userName: user.name, userEmail: user.email }, user);
}

/** The author or an admin may delete a review. `productId`, when given, is the product the caller saw it on. */
export async function deleteReview(db: Db, user: SessionUser, id: number, productId?: number): Promise<void> {
  const review = await findReview(db, id, user);
  if (!review || (productId !== undefined && review.productId !== productId)) throw notFound(REVIEW_MESSAGES.notFound);
  if (!mayDeleteReview(user, review.userId)) throw forbidden(REVIEW_MESSAGES.notAllowedToDelete);
  const existing = eq(reviews.id, id);
  const [, deleted] = await db.batch([
    db
      .update(products)
      .set({
        ratingCount: sql`${products.ratingCount} - 1`,
        ratingTotal: sql`${products.ratingTotal} - (SELECT ${reviews.rating} FROM ${reviews} WHERE ${existing})`,
        ...keepProductUpdatedAt,
      })
      .where(and(eq(products.id, review.productId), sql`EXISTS (SELECT 1 FROM ${reviews} WHERE ${existing})`)),
    db.delete(reviews).where(existing).returning({ id: reviews.id }),
  ]);
  if (!deleted.length) throw notFound(REVIEW_MESSAGES.notFound);
}
