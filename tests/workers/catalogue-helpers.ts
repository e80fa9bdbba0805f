import { expect } from "vitest";

import { purgeChangedPages } from "../../workers/catalogue-purge";
import { purgeStored } from "../../workers/edge-cache";

import { JPEG_1X1, PNG_1X1 } from "./fixtures/images";
import { ORIGIN, authHeader, call, testEnv } from "./helpers";

// Generic helpers for the catalogue tests (products API, search, screens, add to cart). helpers.ts belongs to the
// auth tests; this file only builds on it.

export const CATEGORIES = ["Gents", "Ladies", "Kids", "Accessories"] as const;
export type Category = (typeof CATEGORIES)[number];

/** API.md's Product fields, and the extras the API may add. */
export const PRODUCT_FIELDS = ["id", "name", "brand", "description", "price", "category", "stockQuantity", "releaseDate", "productAvailable", "imageName"] as const;
export const PRODUCT_EXTRA_FIELDS = ["imageUrl", "averageRating", "reviewCount", "sizes"] as const;

export interface ApiProduct {
  id: number;
  name: string;
  brand: string;
  description: string;
  price: number;
  category: Category;
  stockQuantity: number;
  releaseDate: string;
  productAvailable: boolean;
  imageName: string | null;
  imageUrl: string | null;
  averageRating: number | null;
  reviewCount: number;
  sizes: { id: number; label: string; stockQuantity: number }[];
}

/** What a client sends to create or update a product: the product less what the server decides, sizes optional. */
export type ProductBody = Omit<ApiProduct, "id" | "imageName" | (typeof PRODUCT_EXTRA_FIELDS)[number]> & {
  sizes?: { id?: number; label: string; stockQuantity: number }[];
};

/** A short random tag, so names stay unique within a test file's shared storage. */
export function tag(): string {
  return crypto.randomUUID().replace(/-/g, "").slice(0, 8);
}

export function productBody(overrides: Partial<ProductBody> = {}): ProductBody {
  return {
    name: `Test Shoe ${tag()}`,
    brand: "Stridewell",
    description: "A comfortable everyday shoe.",
    price: 12500,
    category: "Gents",
    stockQuantity: 10,
    releaseDate: "2026-03-07",
    productAvailable: true,
    ...overrides,
  };
}

export interface Upload {
  bytes: Uint8Array<ArrayBuffer>;
  name: string;
  type: string;
}

export const png = (name = "shoe.png", type = "image/png"): Upload => ({ bytes: PNG_1X1, name, type });
export const jpeg = (name = "shoe.jpg", type = "image/jpeg"): Upload => ({ bytes: JPEG_1X1, name, type });

/** The API's multipart body: `product` as a JSON string (or the raw string given) and an optional `imageFile`. */
export function productMultipart(product: unknown, image: Upload | null = png()): FormData {
  const form = new FormData();
  if (product !== undefined) form.set("product", typeof product === "string" ? product : JSON.stringify(product));
  if (image) form.set("imageFile", new File([image.bytes], image.name, { type: image.type }));
  return form;
}

/** A multipart request to the API (POST or PUT /api/product...), with a bearer token when given. */
export function sendMultipart(method: "POST" | "PUT", path: string, form: FormData, token?: string): Promise<Response> {
  return call(path, { method, body: form, headers: token ? authHeader(token) : {} });
}

/** POST /api/product as an admin; expects 201 and returns the product. */
export async function createProductApi(token: string, overrides: Partial<ProductBody> = {}, image: Upload = png()): Promise<ApiProduct> {
  const response = await sendMultipart("POST", "/api/product", productMultipart(productBody(overrides), image), token);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ApiProduct;
}

/** PUT /api/product/{id} as an admin; expects 200 and returns the product. */
export async function updateProductApi(token: string, id: number, body: ProductBody, image: Upload | null = null): Promise<ApiProduct> {
  const response = await sendMultipart("PUT", `/api/product/${id}`, productMultipart(body, image), token);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ApiProduct;
}

export interface RowOverrides extends Partial<ProductBody> {
  priceCents?: number;
  imageKey?: string | null;
  imageType?: string | null;
}

/**
 * A product inserted straight into D1 (no image, no admin needed) with one "One size" holding its stock: quick
 * fixtures for list, search and screen tests. The insert fires the same triggers (search index, counts) as the app's.
 */
export async function insertProduct(overrides: RowOverrides = {}): Promise<number> {
  const body = productBody(overrides);
  const priceCents = overrides.priceCents ?? Math.round(body.price * 100);
  const row = await testEnv.DB.prepare(
    `INSERT INTO products (name, brand, description, price_cents, category, stock_quantity, release_date, product_available, image_key, image_type, image_name)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(body.name, body.brand, body.description, priceCents, body.category, body.stockQuantity, body.releaseDate, body.productAvailable ? 1 : 0, overrides.imageKey ?? null, overrides.imageType ?? null, overrides.imageKey ? "shoe.png" : null)
    .first<{ id: number }>();
  // Its stock lives in one "One size", as the migration and the admin's one-size products keep it.
  await testEnv.DB.prepare("INSERT INTO product_sizes (product_id, label, position, stock_quantity) VALUES (?, 'One size', 0, ?)").bind(row!.id, body.stockQuantity).run();
  await purgeDirectWrites();
  return row!.id;
}

/**
 * After a test writes D1 directly, around the Worker: the pages those writes changed leave the edge cache the way a
 * write request's would (the triggers recorded them), so the next anonymous page shows them.
 */
export async function purgeDirectWrites(): Promise<void> {
  await purgeChangedPages(testEnv.DB, async (tags) => {
    await purgeStored(tags);
    return true;
  });
}

/** The id of a one-size product's size (insertProduct's "One size"). */
export async function onlySizeOf(productId: number): Promise<number> {
  const rows = await testEnv.DB.prepare("SELECT id FROM product_sizes WHERE product_id = ?").bind(productId).all<{ id: number }>();
  expect(rows.results, `product ${productId} has one size`).toHaveLength(1);
  return rows.results[0].id;
}

/** The real number of products in D1, overall or in one category. */
export async function countProducts(category?: Category): Promise<number> {
  const statement = category
    ? testEnv.DB.prepare("SELECT count(*) AS n FROM products WHERE category = ?").bind(category)
    : testEnv.DB.prepare("SELECT count(*) AS n FROM products");
  return (await statement.first<{ n: number }>())!.n;
}

/** Every R2 key under a prefix (the product pictures live under products/). */
export async function r2Keys(prefix = "products/"): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await testEnv.BUCKET.list({ prefix, cursor });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys.sort();
}

/** The R2 key behind a product, read from D1. */
export async function imageKeyOf(id: number): Promise<string | null> {
  const row = await testEnv.DB.prepare("SELECT image_key FROM products WHERE id = ?").bind(id).first<{ image_key: string | null }>();
  return row?.image_key ?? null;
}

/** GET a JSON path; asserts the status (200 unless told) and returns the body. */
export async function getJson<T = unknown>(path: string, status = 200, headers: Record<string, string> = {}): Promise<T> {
  const response = await call(path, { headers });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return (await response.json()) as T;
}

/** GET /api/products/search?keyword=...: the matching products (200 expected). */
export async function search(keyword: string): Promise<ApiProduct[]> {
  return getJson<ApiProduct[]>(`/api/products/search?${new URLSearchParams({ keyword })}`);
}

export const names = (products: { name: string }[]) => products.map((product) => product.name);
export const ids = (products: { id: number }[]) => products.map((product) => product.id);

/** X-Total-Count of GET /api/products?page=1 (optionally in one category), as a number. */
export async function totalCount(category?: Category): Promise<number> {
  const query = new URLSearchParams({ page: "1", pageSize: "1", ...(category ? { category } : {}) });
  const response = await call(`/api/products?${query}`);
  expect(response.status).toBe(200);
  const header = response.headers.get("X-Total-Count");
  expect(header).toMatch(/^\d+$/);
  return Number(header);
}

/** The JSON error body every API error carries. */
export async function expectApiError(response: Response, status: number): Promise<{ message: string; fieldErrors?: Record<string, string[]> }> {
  const text = await response.clone().text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { message: string; fieldErrors?: Record<string, string[]> };
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  expect(text).not.toMatch(/\bat \S+:\d+|SQLITE|D1_ERROR/); // no stack trace or database error leaks out
  return body;
}

/** A screen's HTML as a reader sees the text: React's `<!-- -->` text separators removed and common entities decoded. */
export function visibleText(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The content of `<meta property="...">` in a page, or undefined. */
export function metaProperty(html: string, property: string): string | undefined {
  for (const tagText of html.match(/<meta\b[^>]*>/g) ?? []) {
    if (tagText.includes(`property="${property}"`)) return tagText.match(/content="([^"]*)"/)?.[1]?.replace(/&amp;/g, "&");
  }
  return undefined;
}

/** How many product cards a page renders. */
export function cardCount(html: string): number {
  return (html.match(/data-testid="product-card"/g) ?? []).length;
}

/** A multipart form post as a browser sends it from this site (the add and update product screens). */
export function postMultipartForm(path: string, form: FormData, { cookie, origin = ORIGIN }: { cookie?: string; origin?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { Origin: origin };
  if (cookie) headers.Cookie = cookie;
  return call(path, { method: "POST", headers, body: form });
}

/** The add/update product screen form fields (strings as a browser sends them) and an image. */
export function screenProductForm(fields: Partial<Record<string, string>> = {}, image: Upload | null = png()): FormData {
  const values: Record<string, string> = {
    name: `Screen Shoe ${tag()}`,
    brand: "Stridewell",
    description: "Added through the admin screen.",
    price: "8990.50",
    category: "Ladies",
    stockQuantity: "7",
    releaseDate: "2026-05-01",
    productAvailable: "on",
    ...fields,
  } as Record<string, string>;
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) form.set(key, value);
  if (image) form.set("imageFile", new File([image.bytes], image.name, { type: image.type }));
  return form;
}
