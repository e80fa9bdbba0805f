import { readFile } from "node:fs/promises";

import { expect, test, type APIRequestContext } from "@playwright/test";

import { bankSlipPng, logInAs } from "./admin-helpers";
import { uniqueUser, waitForHydration } from "./helpers";

// The back office at scale in a real browser (issue 16): the admin searches the orders, pages through the matches,
// narrows them by a status under More, opens an order's own page and downloads the CSV of what the list shows.

const ORDERS = 23; // more than one page of 20

interface ApiProduct {
  id: number;
  productAvailable: boolean;
  sizes: { id: number; stockQuantity: number }[];
}

/** One customer's `count` orders, all under the customer name given, through the API (each with its slip). */
async function placeOrders(request: APIRequestContext, customerName: string, count: number): Promise<number[]> {
  const user = uniqueUser();
  expect((await request.post("/api/auth/register", { data: user })).status()).toBe(201);
  const { token } = (await (await request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).json()) as { token: string };
  // Sizes in stock across the demo catalogue, each used until its stock runs out.
  const products = (await (await request.get("/api/products?page=1&pageSize=100")).json()) as ApiProduct[];
  const stock = products.filter((product) => product.productAvailable).flatMap((product) => product.sizes.filter((size) => size.stockQuantity > 0).map((size) => ({ productId: product.id, sizeId: size.id, left: size.stockQuantity })));
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const line = stock.find((size) => size.left > 0);
    expect(line, "a size in stock in the demo catalogue").toBeDefined();
    line!.left--;
    const order = { customerName, customerEmail: user.email, customerPhone: user.phone, shippingAddress: user.address, orderItems: [{ productId: line!.productId, sizeId: line!.sizeId, quantity: 1 }] };
    const placed = await request.post("/api/orders", {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { order: JSON.stringify(order), bankSlip: { name: "slip.png", mimeType: "image/png", buffer: bankSlipPng() } },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    ids.push(((await placed.json()) as { id: number }).id);
  }
  return ids;
}

test("the admin searches the orders, pages through them, opens one and downloads the CSV", async ({ page, request }) => {
  test.setTimeout(90_000);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const name = `Pager ${tag}`;
  const ids = await placeOrders(request, name, ORDERS);
  const newestFirst = [...ids].reverse();
  // One of them cancelled, to find under More.
  await logInAs(page);
  const cancel = await page.request.put(`/api/orders/admin/${ids[3]}/status?status=CANCELLED`);
  expect(cancel.status()).toBe(200);

  await page.goto("/admin/orders");
  await waitForHydration(page);
  const search = page.getByRole("search", { name: "Search orders" });
  await search.getByLabel("Search").fill(name.toUpperCase());
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(`/admin/orders?q=${encodeURIComponent(name.toUpperCase()).replace(/%20/g, "+")}`);
  await expect(page.getByTestId("orders-count")).toHaveText(`${ORDERS} orders matching`);
  // The form stays: the focus stays on what was pressed (it used to fall to the page's body), and the count is a live
  // region, so the new total is read out.
  await expect(search.getByRole("button", { name: "Search" })).toBeFocused();
  await expect(page.getByTestId("orders-count")).toHaveAttribute("role", "status");
  const cards = page.getByTestId("admin-order");
  await expect(cards).toHaveCount(20);
  expect(await cards.evaluateAll((all) => all.map((card) => Number(card.getAttribute("data-order-id"))))).toEqual(newestFirst.slice(0, 20));
  // The customer's phone is shown whole on every line (an admin calls it); a long e-mail is what gives way.
  const cutPhones = await cards.evaluateAll((all) =>
    all.filter((card) => {
      // Shown grouped as the CSV writes it (077 123 4567).
      const phone = Array.from(card.querySelectorAll("span")).find((span) => /^0\d{2} \d{3} \d{4}$/.test(span.textContent ?? ""));
      if (!phone) return true;
      const edge = phone.getBoundingClientRect().right;
      // Clipped when an ancestor that hides its overflow ends before the number does.
      for (let box = phone.parentElement; box && box !== card; box = box.parentElement) {
        if (getComputedStyle(box).overflow !== "visible" && box.getBoundingClientRect().right < edge - 0.5) return true;
      }
      return false;
    }).length,
  );
  expect(cutPhones, "lines whose phone number is cut off").toBe(0);

  // The second page, and back.
  const pages = page.getByRole("navigation", { name: "Pages" });
  await pages.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  await expect(cards).toHaveCount(ORDERS - 20);
  expect(await cards.evaluateAll((all) => all.map((card) => Number(card.getAttribute("data-order-id"))))).toEqual(newestFirst.slice(20));
  // An order's page from here, and "← Orders" back to this page of this search (owner QA: it went to page 1 of all).
  const secondPage = new URL(page.url()).pathname + new URL(page.url()).search;
  await page.getByRole("link", { name: `Details of order #${newestFirst[21]}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Order #${newestFirst[21]}` })).toBeVisible();
  await page.getByRole("link", { name: "← Orders" }).click();
  await expect(page).toHaveURL(secondPage);
  await expect(cards).toHaveCount(ORDERS - 20);
  await pages.getByRole("link", { name: "Previous" }).click();
  await expect(cards).toHaveCount(20);

  // Manage opens its dialog in the page, where the list was scrolled to: no new document, no jump to the top.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const fifteenth = cards.nth(14);
  await fifteenth.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(0);
  await fifteenth.getByRole("link", { name: `Manage order #${newestFirst[14]}` }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]manage=${newestFirst[14]}\\b`));
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await page.evaluate(() => ({ same: "sameDocument" in window, y: window.scrollY }))).toEqual({ same: true, y: scrolled });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

  // CANCELLED lives under More; the search stays.
  const filters = page.getByRole("navigation", { name: "Filter orders by status" });
  await filters.getByText("More").click();
  await filters.getByRole("link", { name: "CANCELLED" }).click();
  await expect(page).toHaveURL(/status=CANCELLED/);
  await expect(page.getByTestId("orders-count")).toHaveText("1 order cancelled matching");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toHaveAttribute("data-order-id", String(ids[3]));

  // The CSV of what the list shows.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /Download CSV/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^stride-orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await download.path())!, "utf8")).replace(/^\uFEFF/, "");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("Order,Placed (Sri Lanka time),Status,Customer,E-mail,Phone,Shipping address,Items,Total (LKR)");
  expect(lines.slice(1).map((line) => Number(line.split(",")[0]))).toEqual([ids[3]]);
  expect(lines[1]).toContain(`,CANCELLED,${name},`);

  // Every status again, then the newest order's own page.
  await filters.getByRole("link", { name: "ALL", exact: true }).click();
  await expect(page.getByTestId("orders-count")).toHaveText(`${ORDERS} orders matching`);
  await page.getByRole("link", { name: `Details of order #${newestFirst[0]}` }).click();
  // The order's address carries the list's (for its "← Orders").
  await expect(page).toHaveURL(`/admin/orders/${newestFirst[0]}?${new URLSearchParams({ back: `/admin/orders?q=${encodeURIComponent(name.toUpperCase()).replace(/%20/g, "+")}` })}`);
  await expect(page.getByRole("heading", { level: 1, name: `Order #${newestFirst[0]}` })).toBeVisible();
  await expect(page.getByTestId("order-customer")).toContainText(name);
  const slip = page.getByRole("img", { name: `Bank slip of order #${newestFirst[0]}` });
  await expect.poll(() => slip.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(300);
  await expect(page.getByTestId("status-history")).toContainText("PENDING");
  await expect(page.getByRole("heading", { name: "E-mails sent" })).toBeVisible();
});

test("on a phone, More's statuses open inside the screen, whatever width the filters wrap to", async ({ page }) => {
  await logInAs(page);
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/admin/orders");
    await waitForHydration(page);
    const filters = page.getByRole("navigation", { name: "Filter orders by status" });
    await filters.getByText("More").click();
    for (const status of ["DELIVERED", "CANCELLED"]) await expect(filters.getByRole("link", { name: status })).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `nothing scrolls sideways at ${width}`).toBeLessThanOrEqual(width);
  }
});
