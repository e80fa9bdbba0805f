import { expect } from "vitest";

import { insertProduct, type RowOverrides } from "./catalogue-helpers";
import { PNG_1X1 } from "./fixtures/images";
import { authHeader, call, login, postForm, register, registerAdmin, sessionCookieFor, testEnv, type TestUser } from "./helpers";

// Helpers for the admin back office tests (stats, users, orders): accounts with tokens and browser sessions,
// orders placed through the API, and the figures they should move.

export const STATUSES = ["PENDING", "CONFIRMED", "PROCESSING", "SHIPPED", "DELIVERED", "CANCELLED"] as const;
export type Status = (typeof STATUSES)[number];
export const REVENUE_STATUSES: Status[] = ["CONFIRMED", "PROCESSING", "SHIPPED", "DELIVERED"];

export interface Stats {
  totalProducts: number;
  totalUsers: number;
  pendingOrders: number;
  totalRevenue: number;
}

export interface ApiOrder {
  id: number;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  shippingAddress: string;
  totalAmount: number;
  status: Status;
  orderDate: string;
  hasBankSlip: boolean;
  bankSlipType: string | null;
  orderItems: { productId: number | null; productName: string; sizeId?: number | null; sizeLabel?: string; quantity: number; price: number; subtotal: number }[];
  statusHistory: { status: Status; changedAt: string; changedBy: string | null }[];
  /** The status call's answer only: the lines whose stock its cancellation could not put back. */
  stockNotReturned?: { productId: number | null; productName: string; sizeLabel: string; quantity: number; reason: "SIZE_REMOVED" | "PRODUCT_DELETED" }[];
}

export interface Account extends TestUser {
  token: string;
  /** `stride_session=...`, for the screens. */
  cookie: string;
}

export async function adminAccount(): Promise<Account> {
  const admin = await registerAdmin();
  return { ...admin, cookie: await sessionCookieFor(admin.email, admin.password) };
}

export async function customerAccount(name = "Customer Kasun"): Promise<Account> {
  const user = await register({ name });
  const token = await login(user.email, user.password);
  return { ...user, token, cookie: await sessionCookieFor(user.email, user.password) };
}

/** A product straight into D1 (price in rupees, stock given), for orders to buy. */
export function stockedProduct(price: number, stockQuantity = 10, overrides: RowOverrides = {}): Promise<number> {
  return insertProduct({ price, stockQuantity, ...overrides });
}

/**
 * A shoe straight into D1 with the sizes given (label -> stock), in that order; returns its id and each size's id. For
 * the tests that remove a size an order holds (an admin's update does the same: the order line keeps its label).
 */
export async function shoeWithSizes(name: string, sizes: Record<string, number>, price = 12500): Promise<{ id: number; sizes: Record<string, number> }> {
  const id = await insertProduct({ name, price, stockQuantity: 0, category: "Gents" });
  await testEnv.DB.prepare("DELETE FROM product_sizes WHERE product_id = ?").bind(id).run();
  const ids: Record<string, number> = {};
  for (const [position, [label, stock]] of Object.entries(sizes).entries()) {
    const row = await testEnv.DB.prepare("INSERT INTO product_sizes (product_id, label, position, stock_quantity) VALUES (?, ?, ?, ?) RETURNING id").bind(id, label, position, stock).first<{ id: number }>();
    ids[label] = row!.id;
  }
  return { id, sizes: ids };
}

export async function sizeStockOf(sizeId: number): Promise<number | null> {
  const row = await testEnv.DB.prepare("SELECT stock_quantity AS n FROM product_sizes WHERE id = ?").bind(sizeId).first<{ n: number }>();
  return row?.n ?? null;
}

export async function stockOf(productId: number): Promise<number> {
  const row = await testEnv.DB.prepare("SELECT stock_quantity AS n FROM products WHERE id = ?").bind(productId).first<{ n: number }>();
  return row!.n;
}

/** Bytes of a minimal PDF (the slip's type is read from its first bytes). */
export const PDF_BYTES = new TextEncoder().encode("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

/** The multipart body of POST /api/orders: `order` as JSON and the `bankSlip` file (a PNG unless told). */
export function orderMultipart(items: { productId: number; sizeId?: number; quantity: number }[], slip: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string } = { bytes: PNG_1X1, name: "slip.png", type: "image/png" }): FormData {
  const form = new FormData();
  form.set(
    "order",
    JSON.stringify({ customerName: "Kasun Silva", customerEmail: "kasun@example.com", customerPhone: "0771234567", shippingAddress: "5 Temple Road, Kandy", orderItems: items }),
  );
  form.set("bankSlip", new File([slip.bytes], slip.name, { type: slip.type }));
  return form;
}

/** POST /api/orders as the customer; expects 201 and returns the order. */
export async function placeOrder(token: string, items: { productId: number; sizeId?: number; quantity: number }[], slip?: Parameters<typeof orderMultipart>[1]): Promise<ApiOrder> {
  const response = await call("/api/orders", { method: "POST", body: orderMultipart(items, slip), headers: authHeader(token) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ApiOrder;
}

export async function getStats(token: string): Promise<Stats> {
  const response = await call("/api/stats", { headers: authHeader(token) });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return (await response.json()) as Stats;
}

/** PUT /api/orders/admin/{id}/status?status=... with an empty body. */
export function putStatus(token: string | null, id: number, status: string): Promise<Response> {
  return call(`/api/orders/admin/${id}/status?${new URLSearchParams({ status })}`, { method: "PUT", headers: token ? authHeader(token) : {} });
}

/** Moves an order through the API; expects 200 and returns the order. */
export async function setStatus(token: string, id: number, status: Status): Promise<ApiOrder> {
  const response = await putStatus(token, id, status);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ApiOrder;
}

export async function listOrders(token: string, status?: Status): Promise<ApiOrder[]> {
  const response = await call(`/api/orders/admin/all${status ? `?status=${status}` : ""}`, { headers: authHeader(token) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ApiOrder[];
}

/** The admin orders screen's status form, as a browser without JavaScript posts it. */
export function postStatusForm(cookie: string | undefined, orderId: number, status: string, extra: Record<string, string> = {}, path = "/admin/orders"): Promise<Response> {
  return postForm(path, { intent: "status", orderId: String(orderId), status, ...extra }, { cookie });
}

/** A screen's HTML, fetched with a session cookie; expects 200. */
export async function screenHtml(path: string, cookie: string): Promise<string> {
  const response = await call(path, { headers: { Cookie: cookie } });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The real counts in D1, to check the stats against. */
export async function realCounts(): Promise<{ products: number; users: number; pending: number; revenueCents: number }> {
  const row = await testEnv.DB.prepare(
    `SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM users) AS users,
            (SELECT count(*) FROM orders WHERE status = 'PENDING') AS pending,
            (SELECT coalesce(sum(total_cents), 0) FROM orders WHERE status IN ('CONFIRMED', 'PROCESSING', 'SHIPPED', 'DELIVERED')) AS revenueCents`,
  ).first<{ products: number; users: number; pending: number; revenueCents: number }>();
  return row!;
}

/** Rupee arithmetic without float drift in the assertions. */
export const addRupees = (a: number, b: number) => Math.round(a * 100 + b * 100) / 100;
