import { expect } from "vitest";

import { insertProduct, postMultipartForm, purgeDirectWrites, r2Keys, type RowOverrides, type Upload, jpeg, png } from "./catalogue-helpers";
import { JPEG_1X1, PNG_1X1, TEXT_BYTES } from "./fixtures/images";
import { apiJson, authHeader, call, login, register, registerAdmin, testEnv, type TestUser } from "./helpers";

// Helpers for the cart and order tests (tests/workers/cart-*.test.ts, orders-*.test.ts). Builds on helpers.ts (auth)
// and catalogue-helpers.ts (products, fixtures); neither is changed.

export { JPEG_1X1, PNG_1X1, TEXT_BYTES, jpeg, png };

export const ABOVE_STOCK = "Cannot add more than available stock";
export const SLIP_MISSING = "Please upload a bank slip";
export const SLIP_TYPE = "Please upload a valid image (JPEG, PNG) or PDF file";
export const SLIP_SIZE = "File size must be less than 10MB";
export const insufficientStock = (name: string) => `Insufficient stock for ${name}`;

/** A tiny but real PDF (the `%PDF-` signature is what counts). */
export const PDF_BYTES: Uint8Array<ArrayBuffer> = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);
export const pdf = (name = "slip.pdf", type = "application/pdf"): Upload => ({ bytes: PDF_BYTES, name, type });
const ascii = (text: string) => new TextEncoder().encode(text);
const joined = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (bytes.set(part, at), at + part.length), 0);
  return bytes;
};

/**
 * Slips that begin like a JPEG, PNG or PDF but are not a whole one (an upload cut off, or bytes made to pass a check
 * of the first bytes): each is refused 415 SLIP_TYPE. Each begins with the signature the type's sniffer looks for.
 */
export const CUT_OFF_SLIPS: Record<string, Upload> = {
  "a PNG cut after its signature (the fuzz test's 10 bytes)": { bytes: PNG_1X1.slice(0, 10), name: "slip.png", type: "image/png" },
  "a PNG cut inside IHDR, before its height": { bytes: PNG_1X1.slice(0, 20), name: "slip.png", type: "image/png" },
  // FF D8 alone is not even taken for a JPEG; the sniffer needs the next marker's FF, here EOI's: SOI and nothing else.
  "a JPEG of only its SOI marker (then EOI)": { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), name: "slip.jpg", type: "image/jpeg" },
  "a JPEG cut before its frame header": { bytes: JPEG_1X1.slice(0, 150), name: "slip.jpg", type: "image/jpeg" },
  "a PNG cut in its image data (no IEND)": { bytes: PNG_1X1.slice(0, PNG_1X1.length - 12), name: "slip.png", type: "image/png" },
  "a JPEG cut in its image data (no EOI)": { bytes: JPEG_1X1.slice(0, JPEG_1X1.length - 2), name: "slip.jpg", type: "image/jpeg" },
  "%PDF-1.7 with no %%EOF": { bytes: ascii("%PDF-1.7\n1 0 obj<</Type/Catalog>>endobj\n"), name: "slip.pdf", type: "application/pdf" },
  "a PDF whose %%EOF is not within its last 1,024 bytes": { bytes: joined(PDF_BYTES, ascii("4 0 obj<</Length 2048>>stream\n"), new Uint8Array(2048).fill(0x41)), name: "slip.pdf", type: "application/pdf" },
};

/** A real PDF with blank lines and spaces after its %%EOF, which readers (and the shop) accept. */
export const PDF_TRAILING_WHITESPACE: Upload = { bytes: joined(PDF_BYTES, ascii("\r\n  \n\n")), name: "slip.pdf", type: "application/pdf" };

/** Whole slips with more after their end, which readers show: a scanner's 4 KB of padding, a phone's trailer. */
export const SLIPS_WITH_MORE_AFTER_THE_END: Record<string, Upload> = {
  "a PDF padded with 4,096 NULs after its %%EOF": { bytes: joined(PDF_BYTES, new Uint8Array(4096)), name: "slip.pdf", type: "application/pdf" },
  "a JPEG with a trailer after its EOI": { bytes: joined(JPEG_1X1, ascii("MotionPhoto_Data"), new Uint8Array(64).fill(0xff)), name: "slip.jpg", type: "image/jpeg" },
  "a PNG with bytes after its IEND": { bytes: joined(PNG_1X1, ascii("trailing")), name: "slip.png", type: "image/png" },
};

/** Text bytes under an image's name and type: only the bytes decide. */
export const fakePng = (): Upload => ({ bytes: TEXT_BYTES, name: "slip.png", type: "image/png" });

export interface Account extends TestUser {
  token: string;
  auth: Record<string, string>;
  /** The web session cookie pair (the same JWT). */
  cookie: string;
}

/** A fresh customer (registered through the API) with its bearer token and session cookie. */
export async function newCustomer(name = "Kasun Silva"): Promise<Account> {
  const user = await register({ name });
  const token = await login(user.email, user.password);
  return { ...user, token, auth: authHeader(token), cookie: `stride_session=${token}` };
}

export async function newAdmin(): Promise<Account> {
  const admin = await registerAdmin();
  return { ...admin, auth: authHeader(admin.token), cookie: `stride_session=${admin.token}` };
}

export interface CartLine {
  productId: number;
  productName: string;
  brand: string;
  unitPrice: number;
  quantity: number;
  stockQuantity: number;
  sizeId: number;
  sizeLabel: string;
}

export interface OrderItem {
  productId: number | null;
  productName: string;
  sizeId: number | null;
  sizeLabel: string;
  quantity: number;
  price: number;
  subtotal: number;
}

export interface Order {
  id: number;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  shippingAddress: string;
  totalAmount: number;
  status: string;
  orderDate: string;
  hasBankSlip: boolean;
  orderItems: OrderItem[];
  statusHistory: { status: string; changedAt: string; changedBy: string | null }[];
}

export interface ItemInput {
  productId: unknown;
  sizeId?: unknown;
  quantity: unknown;
  productName?: unknown;
  price?: unknown;
}

export function orderBody(items: ItemInput[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    customerName: "Kasun Silva",
    customerEmail: "kasun@example.com",
    customerPhone: "0771234567",
    shippingAddress: "45 Kandy Road, Kiribathgoda",
    orderItems: items,
    ...overrides,
  };
}

/** POST /api/orders's multipart body: `order` (JSON-encoded unless a string is given) and `bankSlip`. */
export function orderForm(order: unknown, slip: Upload | null = png("slip.png")): FormData {
  const form = new FormData();
  if (order !== undefined) form.set("order", typeof order === "string" ? order : JSON.stringify(order));
  if (slip) form.set("bankSlip", new File([slip.bytes], slip.name, { type: slip.type }));
  return form;
}

export function postOrder(form: FormData, token?: string): Promise<Response> {
  return call("/api/orders", { method: "POST", body: form, headers: token ? authHeader(token) : {} });
}

/** Places an order through the API and expects 201. */
export async function placeOrder(token: string, items: ItemInput[], slip: Upload = png("slip.png"), overrides: Record<string, unknown> = {}): Promise<Order> {
  const response = await postOrder(orderForm(orderBody(items, overrides), slip), token);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Order;
}

/** A product row straight into D1 with the given stock (and a price in rupees). */
export function product(overrides: RowOverrides = {}): Promise<number> {
  return insertProduct(overrides);
}

export async function stockOf(productId: number): Promise<number | null> {
  const row = await testEnv.DB.prepare("SELECT stock_quantity AS s FROM products WHERE id = ?").bind(productId).first<{ s: number }>();
  return row?.s ?? null;
}

export async function setStock(productId: number, stock: number): Promise<void> {
  await testEnv.DB.prepare("UPDATE product_sizes SET stock_quantity = ? WHERE product_id = ?").bind(stock, productId).run();
  await purgeDirectWrites();
}

/** How many orders hold a line of this product (or how many orders there are at all). */
export async function countOrders(productId?: number): Promise<number> {
  const statement =
    productId === undefined
      ? testEnv.DB.prepare("SELECT count(*) AS n FROM orders")
      : testEnv.DB.prepare("SELECT count(DISTINCT order_id) AS n FROM order_items WHERE product_id = ?").bind(productId);
  return (await statement.first<{ n: number }>())!.n;
}

export async function orderStatusOf(orderId: number): Promise<string | null> {
  const row = await testEnv.DB.prepare("SELECT status FROM orders WHERE id = ?").bind(orderId).first<{ status: string }>();
  return row?.status ?? null;
}

export async function slipKeyOf(orderId: number): Promise<string | null> {
  const row = await testEnv.DB.prepare("SELECT bank_slip_key AS k FROM orders WHERE id = ?").bind(orderId).first<{ k: string | null }>();
  return row?.k ?? null;
}

/** Every R2 key under slips/. */
export const slipKeys = () => r2Keys("slips/");

/** The server cart rows of a user, straight from D1: productId -> quantity. */
export async function cartRows(userId: number): Promise<Record<number, number>> {
  const { results } = await testEnv.DB.prepare("SELECT product_id AS p, quantity AS q FROM cart_items WHERE user_id = ? ORDER BY product_id")
    .bind(userId)
    .all<{ p: number; q: number }>();
  return Object.fromEntries(results.map((row) => [row.p, row.q]));
}

/** A cart API call (the API takes no body except /merge). */
export function cartApi(method: string, path: string, token?: string, body?: unknown): Promise<Response> {
  return apiJson(method, `/api/cart${path}`, body, token ? authHeader(token) : {});
}

/** A cart API call expected to answer 200 with the cart's lines. */
export async function cartOk(method: string, path: string, token: string, body?: unknown): Promise<CartLine[]> {
  const response = await cartApi(method, path, token, body);
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return (await response.json()) as CartLine[];
}

export const quantities = (lines: { productId: number; quantity: number }[]) => Object.fromEntries(lines.map((line) => [line.productId, line.quantity]));

/** The visitor cookie cart as the browser sends it. */
export const guestCartCookie = (lines: { productId: number; quantity: number }[]) => `stride_cart=${encodeURIComponent(JSON.stringify(lines))}`;

/** The no-JavaScript checkout form of the cart page (multipart, as the browser sends it). */
export function checkoutForm(fields: Record<string, string> = {}, slip: Upload | null = png("slip.png")): FormData {
  const form = new FormData();
  const values: Record<string, string> = {
    intent: "checkout",
    customerName: "Kasun Silva",
    customerEmail: "kasun@example.com",
    customerPhone: "0771234567",
    shippingAddress: "45 Kandy Road, Kiribathgoda",
    ...fields,
  };
  for (const [key, value] of Object.entries(values)) form.set(key, value);
  if (slip) form.set("bankSlip", new File([slip.bytes], slip.name, { type: slip.type }));
  return form;
}

export function postCheckout(form: FormData, cookie?: string): Promise<Response> {
  return postMultipartForm("/cart?checkout", form, { cookie });
}

export async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}
