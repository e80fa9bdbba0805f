import { expect, type APIRequestContext, type Page } from "@playwright/test";

import { DEMO_ADMIN, isDemoProduct, pngFromPixels, uniqueUser } from "./helpers";

// Helpers for the admin back office tests: a bank slip picture, an order placed through the API as a new customer,
// and the dashboard's figures read off the page.

/** A 300×420 PNG that looks like a bank slip (a blue band, grey text lines, a stamp): enough to see it in the viewer. */
export function bankSlipPng(width = 300, height = 420): Buffer {
  return pngFromPixels(width, height, (x, y) => {
    const dx = x - (width - 70);
    const dy = y - (height - 55);
    if (dx * dx + dy * dy < 32 * 32 && dx * dx + dy * dy > 26 * 26) return [220, 38, 38]; // a stamp
    if (y < 60) return [29, 78, 216]; // header band
    const textLine = y % 28 >= 10 && y % 28 < 16 && x > 24 && x < (y % 56 < 28 ? width - 24 : width - 110) && y < height - 90;
    return textLine ? [203, 213, 225] : [255, 255, 255];
  });
}

export interface PlacedOrder {
  id: number;
  totalAmount: number;
  status: string;
  customerName: string;
}

async function firstInStock(request: APIRequestContext): Promise<{ id: number } | undefined> {
  const products = (await (await request.get("/api/products?page=1&pageSize=50")).json()) as { id: number; name: string; productAvailable: boolean; stockQuantity: number }[];
  return products.find((candidate) => isDemoProduct(candidate) && candidate.productAvailable && candidate.stockQuantity > 0);
}

type Slip = { name: string; mimeType: string; buffer: Buffer };

/**
 * Registers a new customer and places an order for one pair (of `productId`, in each of `sizeIds` if given, else the first in-stock product),
 * through the API, with a slip (a PNG unless one is given). Returns the order and the customer who placed it.
 */
export async function placeOrderAsNewCustomer(
  request: APIRequestContext,
  { slip = { name: "slip.png", mimeType: "image/png", buffer: bankSlipPng() }, productId, sizeIds }: { slip?: Slip; productId?: number; sizeIds?: number[] } = {},
): Promise<PlacedOrder & { customer: ReturnType<typeof uniqueUser> }> {
  const user = uniqueUser();
  const registered = await request.post("/api/auth/register", { data: user });
  expect(registered.status(), await registered.text()).toBe(201);
  const loggedIn = await request.post("/api/auth/login", { data: { email: user.email, password: user.password } });
  expect(loggedIn.status()).toBe(200);
  const { token } = (await loggedIn.json()) as { token: string };

  const product = productId ? { id: productId } : await firstInStock(request);
  expect(product, "an in-stock product in the demo catalogue").toBeDefined();

  const order = {
    customerName: user.name,
    customerEmail: user.email,
    customerPhone: user.phone,
    shippingAddress: user.address,
    // One pair of each size given (of a product with a choice of sizes), else of the product's only size.
    orderItems: sizeIds ? sizeIds.map((sizeId) => ({ productId: product!.id, sizeId, quantity: 1 })) : [{ productId: product!.id, quantity: 1 }],
  };
  const placed = await request.post("/api/orders", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { order: JSON.stringify(order), bankSlip: slip },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  return { ...((await placed.json()) as PlacedOrder), customer: user };
}

/** Logs the demo admin in through the login form's action: the session cookie lands in the page's context. */
export async function logInAs(page: Page, account: { email: string; password: string } = DEMO_ADMIN, landing = "/admin/dashboard"): Promise<void> {
  const response = await page.request.post("/login", { form: account, maxRedirects: 0 });
  expect(response.status(), `${account.email} can log in`).toBe(302);
  expect(response.headers()["location"]).toBe(landing);
}

/** 'LKR 12,345.00' -> 12345 */
export function rupeesFrom(text: string): number {
  const match = text.match(/LKR\s*([\d,]+\.\d{2})/);
  expect(match, `an LKR amount in "${text}"`).not.toBeNull();
  return Number(match![1].replace(/,/g, ""));
}

export async function dashboardFigures(page: Page): Promise<{ revenue: number; pending: number; badge: string }> {
  const revenue = rupeesFrom((await page.getByTestId("stat-total-revenue").textContent()) ?? "");
  const pending = Number((await page.getByTestId("stat-pending-orders").textContent())?.replace(/,/g, ""));
  const badge = (await page.getByTestId("pending-badge").textContent()) ?? "";
  return { revenue, pending, badge };
}

/** A one-page PDF that reads like a bank slip (Helvetica text), with a correct cross-reference table. */
export function bankSlipPdf(): Buffer {
  const lines = ["Bank of Ceylon - Deposit slip", "Account: Stride Footwear (Pvt) Ltd", "Amount: LKR 12,500.00", "Reference: STRIDE-ORDER"];
  const text = lines.map((line, index) => `BT /F1 ${index === 0 ? 16 : 12} Tf 32 ${220 - index * 30} Td (${line}) Tj ET`).join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 360 280] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

interface DashboardSnapshot {
  revenue: number;
  pending: number;
  badge: string;
  /** The pending orders, listed through the API at the moment the figures were read. */
  pendingIds: number[];
}

async function listOrders(page: Page): Promise<{ id: number; status: string }[]> {
  const response = await page.request.get("/api/orders/admin/all"); // the admin's session cookie is the token
  expect(response.status()).toBe(200);
  return ((await response.json()) as { id: number; status: string }[]).map(({ id, status }) => ({ id, status }));
}

/**
 * The dashboard's figures, read while no order changed (other tests place and cancel orders in parallel): the orders
 * are listed before and after the page is read, and the read is repeated until both lists agree.
 */
export async function readDashboard(page: Page, goto: (path: string) => Promise<void>): Promise<DashboardSnapshot> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = JSON.stringify(await listOrders(page));
    await goto("/admin/dashboard");
    const figures = await dashboardFigures(page);
    const after = await listOrders(page);
    if (JSON.stringify(after) === before) return { ...figures, pendingIds: after.filter((order) => order.status === "PENDING").map((order) => order.id) };
  }
  throw new Error("the orders kept changing while the dashboard was read");
}

/** How many pending orders other tests added (or took away) between two snapshots, leaving one order out. */
export function othersPendingChange(before: DashboardSnapshot, after: DashboardSnapshot, mine: number): number {
  const others = (snapshot: DashboardSnapshot) => snapshot.pendingIds.filter((id) => id !== mine).length;
  return others(after) - others(before);
}
