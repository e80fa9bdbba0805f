import { expect } from "vitest";

import { insertProduct } from "./catalogue-helpers";
import { type TestUser, apiJson, authHeader, call, login, register, registerAdmin, sessionCookieFor, testEnv, uniqueEmail } from "./helpers";

// Helpers for the review tests (API and product page). Builds on helpers.ts and catalogue-helpers.ts.

export interface ApiReview {
  id: number;
  comment: string;
  rating: number;
  productId: number;
  userName: string;
  /** The author's e-mail for the author and admins; null for everyone else. */
  userEmail: string | null;
  createdAt: string;
  updatedAt: string;
}

export const REVIEW_FIELDS = ["id", "comment", "rating", "productId", "userName", "userEmail", "createdAt"] as const;

export type Actor = TestUser & { token: string; cookie: string };

/** A registered customer with a bearer token and a browser session cookie. */
export async function customer(name = "Review Customer"): Promise<Actor> {
  const user = await register({ name, email: uniqueEmail("reviewer") });
  const token = await login(user.email, user.password);
  return { ...user, token, cookie: await sessionCookieFor(user.email, user.password) };
}

/** A registered admin with a bearer token and a browser session cookie. */
export async function admin(): Promise<Actor> {
  const user = await registerAdmin();
  return { ...user, cookie: await sessionCookieFor(user.email, user.password) };
}

/** A product inserted into D1, with no reviews. */
export function newProduct(name?: string): Promise<number> {
  return insertProduct(name ? { name } : {});
}

export function postReview(body: unknown, token?: string): Promise<Response> {
  return apiJson("POST", "/api/reviews", body, token ? authHeader(token) : {});
}

export function putReview(id: number | string, body: unknown, token?: string): Promise<Response> {
  return apiJson("PUT", `/api/reviews/${id}`, body, token ? authHeader(token) : {});
}

export function deleteReviewApi(id: number | string, token?: string): Promise<Response> {
  return call(`/api/reviews/${id}`, { method: "DELETE", headers: token ? authHeader(token) : {} });
}

/** POST /api/reviews; expects 201 and returns the review. */
export async function createReviewApi(token: string, productId: number, comment = "Great fit, very comfortable.", rating?: number): Promise<ApiReview> {
  const response = await postReview({ productId, comment, ...(rating === undefined ? {} : { rating }) }, token);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ApiReview;
}

/** GET /api/reviews/product/{id}, as a visitor or with a bearer token; expects 200. */
export async function listReviewsApi(productId: number | string, token?: string): Promise<ApiReview[]> {
  const response = await call(`/api/reviews/product/${productId}`, { headers: token ? authHeader(token) : {} });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ApiReview[];
}

/** The product's denormalised rating columns. */
export async function ratingColumns(productId: number): Promise<{ count: number; total: number }> {
  const row = await testEnv.DB.prepare("SELECT rating_count AS count, rating_total AS total FROM products WHERE id = ?").bind(productId).first<{ count: number; total: number }>();
  return row!;
}

/** What the reviews table really holds for a product. */
export async function actualRatings(productId: number): Promise<{ count: number; total: number }> {
  const row = await testEnv.DB.prepare("SELECT count(*) AS count, coalesce(sum(rating), 0) AS total FROM reviews WHERE product_id = ?").bind(productId).first<{ count: number; total: number }>();
  return row!;
}

/** The denormalised columns agree with the reviews, and equal `expected` when given. */
export async function expectRatingsInStep(productId: number, expected?: { count: number; total: number }): Promise<void> {
  const columns = await ratingColumns(productId);
  expect(columns).toEqual(await actualRatings(productId));
  if (expected) expect(columns).toEqual(expected);
}

export async function reviewRow(id: number): Promise<{ id: number; comment: string; rating: number; product_id: number; user_id: number; created_at: number; updated_at: number } | null> {
  return testEnv.DB.prepare("SELECT * FROM reviews WHERE id = ?").bind(id).first();
}

/** A user straight into D1 (no password hashing): an author for fixture reviews. */
export async function insertUser(name: string): Promise<number> {
  const row = await testEnv.DB.prepare("INSERT INTO users (name, email, password_hash) VALUES (?, ?, 'x') RETURNING id").bind(name, uniqueEmail("author")).first<{ id: number }>();
  return row!.id;
}

/** A review straight into D1 at a chosen time, with the product's rating columns kept in step as the app keeps them. */
export async function insertReview(productId: number, userId: number, { comment = "Fixture review", rating = 5, createdAt = Date.now() } = {}): Promise<number> {
  const [inserted] = await testEnv.DB.batch([
    testEnv.DB.prepare("INSERT INTO reviews (product_id, user_id, comment, rating, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id").bind(productId, userId, comment, rating, createdAt, createdAt),
    testEnv.DB.prepare("UPDATE products SET rating_count = rating_count + 1, rating_total = rating_total + ? WHERE id = ?").bind(rating, productId),
  ]);
  return (inserted.results[0] as { id: number }).id;
}
