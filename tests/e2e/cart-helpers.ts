import { expect, type APIRequestContext, type BrowserContext } from "@playwright/test";

import { encodePng } from "../../scripts/images/png";
import { DEMO_ADMIN, uniqueUser } from "./helpers";

// A test's own shoe, a visitor's cookie cart and a customer with a saved cart, for the cart and checkout tests
// (phone-checkout.spec.ts, no-js-refusals.spec.ts): a product of the test's own, so no other test moves its stock.

/** A valid 1x1 PNG: the server judges a slip by its bytes. */
export const PNG_SLIP = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGO4a2wMAAM0AUSds6MNAAAAAElFTkSuQmCC", "base64");
export const goodSlip = { name: "bank-slip.png", mimeType: "image/png", buffer: PNG_SLIP };

export async function tokenOf(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const response = await request.post("/api/auth/login", { data: account });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/**
 * A product of the test's own (so no other test moves its stock): by default one size, EU 42, with `stock` pairs;
 * `sizes` gives it others (then `stock` is unused). `sizeId` is its first size's.
 */
export async function ownShoe(request: APIRequestContext, stock: number, sizes: { label: string; stockQuantity: number }[] = [{ label: "EU 42", stockQuantity: stock }]) {
  const admin = await tokenOf(request, DEMO_ADMIN);
  const product = { name: `E2E Phone Runner ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, brand: "E2E Brand", description: "Bought on a phone.", price: 12500, category: "Gents", stockQuantity: 0, releaseDate: "2026-01-01", productAvailable: true, sizes };
  const picture = { name: "shoe.png", mimeType: "image/png", buffer: Buffer.from(encodePng(2, 2, new Uint8Array(16).fill(200))) };
  const created = await request.post("/api/product", { headers: { Authorization: `Bearer ${admin}` }, multipart: { product: JSON.stringify(product), imageFile: picture } });
  expect(created.status(), await created.text()).toBe(201);
  const shoe = (await created.json()) as { id: number; name: string; sizes: { id: number; label: string }[] };
  return { id: shoe.id, name: shoe.name, sizeId: shoe.sizes[0].id, sizes: shoe.sizes, remove: () => request.delete(`/api/product/${shoe.id}`, { headers: { Authorization: `Bearer ${admin}` } }).catch(() => undefined) };
}

export type Shoe = Awaited<ReturnType<typeof ownShoe>>;

/** The visitor's cookie cart: `quantity` pairs of the shoe. */
export async function visitorCart(context: BrowserContext, baseURL: string, shoe: Shoe, quantity: number) {
  const lines = [{ productId: shoe.id, sizeId: shoe.sizeId, quantity }];
  await context.addCookies([{ name: "stride_cart", value: encodeURIComponent(JSON.stringify(lines)), url: baseURL }]);
}

/** A new customer, logged in in the browser's context, with one pair of the shoe in the saved cart. */
export async function customerWithCart(context: BrowserContext, request: APIRequestContext, baseURL: string, shoe: Shoe) {
  const user = uniqueUser();
  expect((await request.post("/api/auth/register", { data: user })).status()).toBe(201);
  const token = await tokenOf(request, user);
  const added = await request.post(`/api/cart/add?productId=${shoe.id}&sizeId=${shoe.sizeId}&quantity=1`, { headers: { Authorization: `Bearer ${token}` } });
  expect(added.status(), await added.text()).toBe(200);
  await context.addCookies([{ name: "stride_session", value: token, url: baseURL }]);
  return { ...user, token };
}
