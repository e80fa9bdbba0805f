import { expect, test } from "@playwright/test";

import { logInAs, othersPendingChange, placeOrderAsNewCustomer, readDashboard } from "./admin-helpers";
import { DEMO_CUSTOMER, gotoHydrated, pngFromPixels, uniqueUser, waitForHydration } from "./helpers";

// The admin back office in a real browser against the real Worker: an order a customer placed through the API is
// checked (its slip viewed) and confirmed by the admin, and the dashboard's figures follow.

test("an admin checks a pending order's slip, confirms it, and the dashboard follows", async ({ page, request }) => {
  const order = await placeOrderAsNewCustomer(request);
  expect(order.status).toBe("PENDING");

  await logInAs(page);
  const before = await readDashboard(page, (path) => gotoHydrated(page, path));
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  expect(before.pendingIds).toContain(order.id);
  expect(before.pending).toBe(before.pendingIds.length);
  expect(before.badge).toBe(`${before.pending} pending`);

  // The pending figure leads straight to the orders whose slips wait.
  await page.getByTestId("pending-link").click();
  await expect(page).toHaveURL("/admin/orders?status=PENDING");
  await expect(page.getByRole("navigation", { name: "Filter orders by status" }).getByRole("link", { name: "PENDING", exact: true })).toHaveAttribute("aria-current", "page");
  await gotoHydrated(page, "/admin/dashboard");

  // The orders card leads to the list; the PENDING filter lives in the URL and survives a reload.
  await page.getByRole("main").getByRole("link", { name: /^Orders/ }).click();
  await expect(page).toHaveURL("/admin/orders");
  await page.getByRole("navigation", { name: "Filter orders by status" }).getByRole("link", { name: "PENDING", exact: true }).click();
  await expect(page).toHaveURL("/admin/orders?status=PENDING");
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "PENDING", exact: true })).toHaveAttribute("aria-current", "page");
  const card = page.locator(`[data-testid="admin-order"][data-order-id="${order.id}"]`);
  await expect(card).toBeVisible();
  await expect(card).toContainText(order.customerName);
  for (const status of await page.getByTestId("admin-order").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-status")))) expect(status).toBe("PENDING");

  // Manage: the modal shows the order, its status and history.
  await card.getByRole("link", { name: `Manage order #${order.id}` }).click();
  const manage = page.getByRole("dialog", { name: `Manage order #${order.id}` });
  await expect(manage).toBeVisible();
  await expect(page).toHaveURL(`/admin/orders?status=PENDING&manage=${order.id}`);
  await expect(manage.getByTestId("manage-current-status")).toHaveText("PENDING");
  await expect(manage.getByTestId("status-history")).toContainText(`by ${order.customerName}`);

  // The slip, inline: the picture is there and decoded.
  await manage.getByRole("link", { name: "View bank slip" }).click();
  const slip = page.getByRole("dialog", { name: `Bank slip · Order #${order.id}` });
  await expect(slip).toBeVisible();
  const image = slip.getByRole("img", { name: `Bank slip of order #${order.id}` });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(300);
  await expect(slip.getByRole("link", { name: /Open in a new tab/ })).toHaveAttribute("href", `/api/orders/${order.id}/bank-slip`);
  await expect(slip.getByText("Failed to load bank slip")).toHaveCount(0);

  // Back to the order and confirm it.
  await slip.getByRole("link", { name: "Manage order" }).click();
  await expect(manage).toBeVisible();
  await manage.getByLabel("New status").selectOption("CONFIRMED");
  await manage.getByRole("button", { name: "Update Status" }).click();
  await expect(manage.getByRole("status")).toHaveText(`Order #${order.id} is now CONFIRMED.`);
  await expect(manage.getByTestId("manage-current-status")).toHaveText("CONFIRMED");
  // The button was busy meanwhile, never disabled: the focus is still on it, not lost to the page.
  await expect(manage.getByRole("button", { name: "Update Status" })).toBeFocused();
  await expect(manage.getByTestId("status-history")).toContainText("CONFIRMED");
  await expect(manage.getByTestId("status-history")).toContainText("by Stride Admin");

  // Escape closes the modal; the confirmed order has left the PENDING list.
  await page.keyboard.press("Escape");
  await expect(manage).toHaveCount(0);
  await expect(page).toHaveURL("/admin/orders?status=PENDING");
  await expect(card).toHaveCount(0);

  // The dashboard: one pending order fewer (allowing for orders other tests placed or cancelled meanwhile), and the
  // order's total in the revenue.
  const after = await readDashboard(page, (path) => gotoHydrated(page, path));
  expect(after.pendingIds).not.toContain(order.id);
  expect(after.pending).toBe(before.pending - 1 + othersPendingChange(before, after, order.id));
  expect(after.badge).toBe(`${after.pending} pending`);
  expect(Math.round(after.revenue * 100)).toBe(Math.round((before.revenue + order.totalAmount) * 100));
});

test("cancelling asks first; declined changes nothing, accepted cancels and the history says who", async ({ page, request }) => {
  const order = await placeOrderAsNewCustomer(request);
  await logInAs(page);
  await gotoHydrated(page, `/admin/orders?manage=${order.id}`);
  const manage = page.getByRole("dialog", { name: `Manage order #${order.id}` });
  await expect(manage).toBeVisible();
  await manage.getByLabel("New status").selectOption("CANCELLED");

  const messages: string[] = [];
  page.once("dialog", (dialog) => {
    messages.push(dialog.message());
    void dialog.dismiss();
  });
  await manage.getByRole("button", { name: "Update Status" }).click();
  await expect.poll(() => messages).toEqual(["Cancel this order? Its stock will be put back, for the sizes still sold."]);
  await expect(manage.getByTestId("manage-current-status")).toHaveText("PENDING");

  page.once("dialog", (dialog) => void dialog.accept());
  await manage.getByRole("button", { name: "Update Status" }).click();
  await expect(manage.getByRole("status")).toHaveText(`Order #${order.id} is now CANCELLED.`);
  await expect(manage.getByTestId("manage-current-status")).toHaveText("CANCELLED");
  await expect(manage.getByTestId("status-history").getByText("CANCELLED")).toBeVisible();
  await expect(manage.getByTestId("status-history")).toContainText("by Stride Admin");
  // A cancelled order's select starts on a prompt (one press must not reopen it), and offers the way back.
  await expect(manage.getByLabel("New status")).toHaveValue("");
  await expect(manage.getByLabel("New status").locator("option:checked")).toHaveText("Choose a status");
  await expect(manage.getByLabel("New status").locator('option[value="PENDING"]')).toHaveCount(1);
  // The list behind the dialog follows too.
  await expect(page.locator(`[data-testid="admin-order"][data-order-id="${order.id}"]`)).toHaveAttribute("data-status", "CANCELLED");
});

test("cancelling an order whose size was removed says, before and after, which stock cannot be put back", async ({ page, request }) => {
  // Owner QA: "Its stock will be put back" and "is now CANCELLED", though a removed size's pairs went nowhere.
  await logInAs(page);
  const name = `E2E Removed Size ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const product = { name, brand: "E2E Brand", description: "Made for an end-to-end test.", price: 4000, category: "Gents", stockQuantity: 10, releaseDate: "2026-01-01", productAvailable: true };
  const sizes = [
    { label: "EU 42", stockQuantity: 5 },
    { label: "EU 43", stockQuantity: 5 },
  ];
  const created = await page.request.post("/api/product", {
    multipart: { product: JSON.stringify({ ...product, sizes }), imageFile: { name: "shoe.png", mimeType: "image/png", buffer: pngFromPixels(8, 8, () => [40, 90, 160]) } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const shoe = (await created.json()) as { id: number; sizes: { id: number; label: string; stockQuantity: number }[] };
  try {
    const order = await placeOrderAsNewCustomer(request, { productId: shoe.id, sizeIds: shoe.sizes.map((size) => size.id) });
    // EU 42 is no longer sold.
    const kept = shoe.sizes.filter((size) => size.label === "EU 43").map((size) => ({ ...size, stockQuantity: 4 }));
    const updated = await page.request.put(`/api/product/${shoe.id}`, { multipart: { product: JSON.stringify({ ...product, sizes: kept }) } });
    expect(updated.status(), await updated.text()).toBe(200);

    await gotoHydrated(page, `/admin/orders/${order.id}`);
    const form = page.getByTestId("order-status-form");
    await form.getByLabel("New status").selectOption("CANCELLED");
    const messages: string[] = [];
    page.once("dialog", (dialog) => {
      messages.push(dialog.message());
      void dialog.accept();
    });
    await form.getByRole("button", { name: "Update Status" }).click();
    await expect(form.getByRole("status")).toHaveText(`Order #${order.id} is now CANCELLED. Its stock was not put back for ${name} (EU 42) × 1 (size no longer sold).`);
    expect(messages).toEqual([`Cancel this order? Its stock will be put back for the sizes still sold, not for ${name} (EU 42) × 1 (size no longer sold).`]);
    // EU 43's pair is back.
    const after = (await (await page.request.get(`/api/product/${shoe.id}`)).json()) as { sizes: { label: string; stockQuantity: number }[] };
    expect(after.sizes).toEqual([expect.objectContaining({ label: "EU 43", stockQuantity: 5 })]);
  } finally {
    await page.request.delete(`/api/product/${shoe.id}`).catch(() => undefined);
  }
});

test("an order's status history shows every entry the same way: who set it under its time (1280 and 390 px)", async ({ page, request }) => {
  // Owner QA: "by Stride Admin" dropped to its own line on some rows and not on others.
  const order = await placeOrderAsNewCustomer(request);
  await logInAs(page);
  // Badges of two widths, set by two people; never a paid status (the dashboard test beside this one counts revenue).
  for (const status of ["CANCELLED", "PENDING", "CANCELLED"]) {
    expect((await page.request.put(`/api/orders/admin/${order.id}/status?status=${status}&notify=false`)).status()).toBe(200);
  }
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await gotoHydrated(page, `/admin/orders/${order.id}`);
    const entries = page.getByTestId("status-history").getByRole("listitem");
    await expect(entries).toHaveCount(4);
    const boxes = await entries.evaluateAll((items) =>
      items.map((item) => {
        const time = item.querySelector("time")!.getBoundingClientRect();
        const by = Array.from(item.querySelectorAll("span")).find((span) => span.textContent?.startsWith("by "))!.getBoundingClientRect();
        return { timeLeft: Math.round(time.left), timeBottom: time.bottom, byLeft: Math.round(by.left), byTop: by.top };
      }),
    );
    for (const [index, box] of boxes.entries()) {
      expect(box.byTop, `entry ${index + 1} at ${width}: "by" under the time`).toBeGreaterThanOrEqual(box.timeBottom - 1);
      expect(box.byLeft, `entry ${index + 1} at ${width}: "by" lined up with the time`).toBe(box.timeLeft);
    }
    // The times in one column, whatever the badge's width.
    expect(new Set(boxes.map((box) => box.timeLeft)).size, `times lined up at ${width}`).toBe(1);
  }
});

test("an order changed in another tab meanwhile: the stale page's change is refused, and the page shows the order as it is", async ({ page, context, request }) => {
  const order = await placeOrderAsNewCustomer(request);
  await logInAs(page);
  await gotoHydrated(page, `/admin/orders/${order.id}`);
  const form = page.getByTestId("order-status-form");
  await expect(page.getByTestId("order-status")).toHaveText("PENDING");

  // Another tab cancels it.
  const other = await context.newPage();
  await gotoHydrated(other, `/admin/orders/${order.id}`);
  other.once("dialog", (dialog) => void dialog.accept());
  await other.getByTestId("order-status-form").getByLabel("New status").selectOption("CANCELLED");
  await other.getByTestId("order-status-form").getByRole("button", { name: "Update Status" }).click();
  await expect(other.getByTestId("order-status")).toHaveText("CANCELLED");
  await other.close();

  // This tab still shows PENDING and asks for SHIPPED: refused, and the page catches up.
  await form.getByLabel("New status").selectOption("SHIPPED");
  await form.getByRole("button", { name: "Update Status" }).click();
  await expect(form.getByRole("alert")).toContainText(`Order #${order.id} was changed meanwhile. It is CANCELLED now, not PENDING`);
  await expect(page.getByTestId("order-status")).toHaveText("CANCELLED");
  await expect(form.getByLabel("New status")).toHaveValue("");
  // Decided on what the page now shows, the next change goes through.
  await form.getByLabel("New status").selectOption("PENDING");
  await form.getByRole("button", { name: "Update Status" }).click();
  await expect(form.getByRole("status")).toHaveText(`Order #${order.id} is now PENDING.`);
  await expect(page.getByTestId("order-status")).toHaveText("PENDING");
});

test("a slip that cannot be loaded says 'Failed to load bank slip'", async ({ page, request }) => {
  const order = await placeOrderAsNewCustomer(request);
  await logInAs(page);
  await page.route(`**/api/orders/${order.id}/bank-slip`, (route) => route.fulfill({ status: 404, contentType: "application/json", body: '{"message":"Bank slip not found"}' }));
  // Opened by its address: the picture fails before React has hydrated the page.
  await gotoHydrated(page, `/admin/orders?slip=${order.id}`);
  const slip = page.getByRole("dialog", { name: `Bank slip · Order #${order.id}` });
  await expect(slip.getByRole("alert")).toHaveText("Failed to load bank slip");
  // Opened from the list: the picture fails after hydration.
  await slip.getByRole("link", { name: "Close bank slip" }).click();
  await expect(slip).toHaveCount(0);
  await page.getByRole("link", { name: `View Slip of order #${order.id}`, exact: true }).click();
  await expect(slip.getByRole("alert")).toHaveText("Failed to load bank slip");
});

test("a customer who types an admin address lands on /", async ({ page }) => {
  await logInAs(page, DEMO_CUSTOMER, "/");
  for (const path of ["/admin/orders", "/admin/dashboard", "/admin/users", "/admin/orders?manage=1"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL("/");
  }
  await waitForHydration(page);
  // No admin links for a customer either.
  await expect(page.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Add Product" })).toHaveCount(0);
});

test("a visitor who types an admin address is asked to log in, then comes back", async ({ page }) => {
  await page.goto("/admin/orders?status=PENDING");
  await expect(page).toHaveURL(`/login?${new URLSearchParams({ redirect: "/admin/orders?status=PENDING" })}`);
});

for (const width of [1280, 390]) {
  test(`the users list is one table a screen reader can walk, ${width} px wide`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await logInAs(page);
    await gotoHydrated(page, "/admin/users");
    const table = page.getByRole("table", { name: "All users" });
    // At phone width the rows are laid out as cards, yet they keep their table roles and column headers.
    await expect(table.getByRole("columnheader")).toHaveText(["Name", "Email", "Phone", "Address", "Role"]);
    const row = table.getByRole("row", { name: new RegExp(DEMO_CUSTOMER.email) });
    await expect(row.getByRole("rowheader")).toHaveText("Nimal Perera");
    // Each cell is named by its value alone: the labels a phone shows beside the values are for the eye only.
    // The phone grouped as the orders list and the CSV write it.
    for (const value of [DEMO_CUSTOMER.email, "077 123 4567", "45/2 Galle Road, Kollupitiya, Colombo 03", "Customer (ROLE_CUSTOMER)"]) {
      await expect(row.getByRole("cell", { name: value, exact: true })).toBeVisible();
    }
    const labels = row.getByText("Email", { exact: true });
    if (width < 768) await expect(labels).toBeVisible();
    else await expect(labels).toBeHidden();
  });
}

// Owner QA: at 1280 px the e-mail column was cut mid-word ("shopper0@example.l / k", break-all) while Name had room.
test("the users list keeps an e-mail whole where it fits, and breaks a long one only where it must (1280 and 390 px)", async ({ page }) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  // A long name and a long address beside a short e-mail (what squeezed it), and an e-mail longer than any column.
  const short = {
    ...uniqueUser(),
    name: `Tharushi Dilhani Wickramasinghe Jayasuriya Arachchige ${tag}`,
    email: `q${tag}@example.lk`,
    address: "No. 123/4A, Sri Jayawardenepura Mawatha, Rajagiriya, Colombo District, Western Province 10100, near the temple opposite the school",
  };
  const long = { ...uniqueUser(), name: `Long Mail ${tag}`, email: `q${tag}.${"a".repeat(60)}@example-longdomain.lk` };
  for (const user of [short, long]) expect((await page.request.post("/api/auth/register", { data: user })).status()).toBe(201);
  await logInAs(page);
  const table = page.getByRole("table", { name: "Users matching the search" });
  // The lines the address takes: the tops of its text's boxes (the phone's "Email" label left out).
  const lines = (email: string) =>
    table.getByRole("cell", { name: email, exact: true }).evaluate((cell, text) => {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      let node = walker.nextNode();
      while (node && node.textContent !== text) node = walker.nextNode();
      const range = document.createRange();
      range.selectNodeContents(node!);
      return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
    }, email);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    // Each user on a list of its own: the table's columns are then sized by that row alone.
    await gotoHydrated(page, `/admin/users?${new URLSearchParams({ q: short.email })}`);
    expect(await lines(short.email), `a short e-mail on one line at ${width}`).toBe(1);
    await gotoHydrated(page, `/admin/users?${new URLSearchParams({ q: long.email })}`);
    expect(await lines(long.email), `a long e-mail wraps at ${width}`).toBeGreaterThan(1);
    // Nothing runs off the page or out of its card.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await table.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
  }
});
