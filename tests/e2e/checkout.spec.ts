import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

import { CHECKOUT_BLOCKED } from "../../app/lib/availability";
import { nameWithSize } from "../../app/lib/sizes";
import { DEMO_ADMIN, gotoHydrated, isDemoProduct, pngFromPixels, register, SCREENSHOT_VIEWPORTS, uniqueUser, waitForHydration } from "./helpers";

// The shopper's way from the shop window to a placed order, in a real browser against the real Worker, D1 and R2:
// a visitor fills a cart, registers (which merges the cart into the saved one), changes a quantity, checks out with
// a bank slip and finds the order under My Orders. Every test registers its own customer, so none depends on another.

/** A valid 1x1 PNG: the server judges a slip by its bytes. */
const PNG_SLIP = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGO4a2wMAAM0AUSds6MNAAAAAElFTkSuQmCC", "base64");
const slipFile = { name: "bank-slip.png", mimeType: "image/png", buffer: PNG_SLIP };

/** Where the cart's screenshots go, for people to look at. */
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/cart-shots";

const rupees = (text: string) => Number(text.replace(/[^\d.]/g, ""));
const formatRs = (amount: number) => `Rs ${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The navigation bar's cart link, which names how many items the cart holds. */
const cartLink = (page: Page, count: number) => page.getByRole("link", { name: `Cart, ${count} ${count === 1 ? "item" : "items"}` }).first();

/**
 * Adds `count` different products from the home grid's cards, one unit each, and returns their names. Only cards of
 * products with a few pairs in stock are used (read from the API), so + can raise a line whatever else the shop holds.
 */
async function addFromHomeGrid(page: Page, count: number): Promise<string[]> {
  const catalogue = (await (await page.request.get("/api/products")).json()) as { name: string; stockQuantity: number; productAvailable: boolean }[];
  const roomy = new Set(catalogue.filter((product) => isDemoProduct(product) && product.productAvailable && product.stockQuantity >= 3).map((product) => product.name));
  await gotoHydrated(page, "/");
  const buttons = page.getByTestId("product-card").getByRole("button", { name: /^Add to Cart: / });
  await expect(buttons.first()).toBeVisible();
  const labels = await buttons.evaluateAll((elements) => elements.map((element) => element.getAttribute("aria-label") ?? ""));
  const names = labels.map((label) => label.replace(/^Add to Cart: /, "")).filter((name) => roomy.has(name)).slice(0, count);
  expect(names, "enough in-stock products on the home grid").toHaveLength(count);
  for (const [i, name] of names.entries()) {
    await page.getByTestId("product-card").getByRole("button", { name: `Add to Cart: ${name}`, exact: true }).click();
    await expect(cartLink(page, i + 1)).toBeVisible();
  }
  return names;
}

/** The end of a checkout, with or without JavaScript: the order's own page thanks the shopper; the cart is empty. */
async function expectOrderPlacedPage(page: Page, orderId: string): Promise<void> {
  await expect(page).toHaveURL(`/orders/${orderId}?placed=1`);
  await expect(page.getByRole("heading", { level: 1, name: `Order #${orderId}` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Thank you! Your order is placed and pending payment verification." })).toBeVisible();
  await expect(cartLink(page, 0)).toBeVisible();
}

/** Registers a new customer through the screen, coming back to `redirect` (welcomed there: `welcome=1`). */
async function registerThrough(page: Page, user: ReturnType<typeof uniqueUser>, redirect: string): Promise<void> {
  await gotoHydrated(page, `/register?redirect=${encodeURIComponent(redirect)}`);
  await register(page, user);
  await expect(page).toHaveURL(`${redirect}${redirect.includes("?") ? "&" : "?"}welcome=1`);
  await waitForHydration(page);
}

test("a visitor fills a cart, registers, checks out with a bank slip and finds the order under My Orders", async ({ page }) => {
  test.slow(); // a long flow (about 15 steps and a registration) on a machine that may be busy
  const user = uniqueUser();
  const alerts: string[] = [];
  page.on("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });

  // As a visitor: two different products from the home grid's cards.
  const [first, second] = await addFromHomeGrid(page, 2);
  expect(first).not.toBe(second);

  // The visitor's cart page asks for a login to check out.
  await gotoHydrated(page, "/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Login to Checkout" })).toBeVisible();

  // Registering merges the cookie cart into the new customer's saved cart.
  await registerThrough(page, user, "/cart");
  const lines = page.getByTestId("cart-line");
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: first })).toHaveCount(1);
  await expect(lines.filter({ hasText: second })).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Proceed to Checkout" })).toBeVisible();
  await expect(cartLink(page, 2)).toBeVisible();

  // + raises the first line to 2: its line total doubles and, once saved, the cart total follows.
  const line = lines.filter({ hasText: first });
  const lineTotal = line.getByTestId("line-total");
  const unit = rupees((await lineTotal.textContent())!);
  const otherTotal = rupees((await lines.filter({ hasText: second }).getByTestId("line-total").textContent())!);
  await line.getByRole("button", { name: /^One more / }).click();
  await expect(line.getByTestId("cart-quantity")).toHaveText("2");
  await expect(lineTotal).toHaveText(formatRs(unit * 2));
  await expect(page.getByTestId("cart-total")).toHaveText(formatRs(unit * 2 + otherTotal));
  await expect(cartLink(page, 3)).toBeVisible();

  // The checkout: prefilled from the account, Place Order disabled until a slip is chosen.
  await page.getByRole("link", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL("/cart?checkout");
  const dialog = page.getByRole("dialog", { name: "Checkout" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Pay by bank transfer")).toBeVisible();
  await expect(dialog.getByLabel("Full name")).toHaveValue(user.name);
  await expect(dialog.getByLabel("Email")).toHaveValue(user.email);
  await expect(dialog.getByLabel("Phone")).toHaveValue(user.phone);
  await expect(dialog.getByLabel("Shipping address")).toHaveValue(user.address);
  await expect(dialog.getByTestId("checkout-total")).toHaveText(formatRs(unit * 2 + otherTotal).replace("Rs", "LKR"));
  const placeOrder = dialog.getByRole("button", { name: /^Place Order/ });
  await expect(placeOrder).toBeDisabled();

  await dialog.getByLabel("Bank slip").setInputFiles(slipFile);
  await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toBeVisible();
  await expect(placeOrder).toBeEnabled();
  await placeOrder.click();

  // Success: the message, then after ~2 s the modal closes with an alert and the shopper lands on the order's page,
  // where the checkout without JavaScript ends too; the cart is empty.
  const success = dialog.getByRole("status");
  await expect(success).toContainText(/Order #\d+ placed!/);
  const orderId = (await success.textContent())!.match(/Order #(\d+) placed!/)![1];
  await expect.poll(() => alerts.length, { timeout: 10_000 }).toBe(1);
  expect(alerts[0]).toContain(`#${orderId}`);
  await expectOrderPlacedPage(page, orderId);
  await expect(dialog).toBeHidden();

  // My Orders lists it, pending, with both products.
  await page.getByRole("link", { name: "My Orders" }).first().click();
  await expect(page).toHaveURL("/orders");
  const order = page.getByTestId("order").filter({ hasText: `Order #${orderId}` });
  await expect(order).toHaveCount(1);
  await expect(order.getByText("PENDING", { exact: true })).toBeVisible();
  await expect(order).toContainText(first);
  await expect(order).toContainText(second);
  // On a phone the lines keep three columns apart (the unit price is the subtotal's over the quantity), and nothing
  // scrolls sideways.
  await expect(order.getByRole("columnheader", { name: "Price" })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(order.getByRole("columnheader")).toHaveText(["Item", "Qty", "Subtotal"]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Its page shows the status history.
  await order.getByRole("link", { name: `Order #${orderId}`, exact: true }).click();
  await expect(page).toHaveURL(`/orders/${orderId}`);
  await expect(page.getByRole("heading", { level: 1, name: `Order #${orderId}` })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Status history" })).toBeVisible();
});

test("a visitor who changes two lines at once, the first answered slowly, keeps both changes", async ({ page }) => {
  const [first, second] = await addFromHomeGrid(page, 2);
  await gotoHydrated(page, "/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  const lineOf = (name: string) => page.getByTestId("cart-line").filter({ hasText: name });
  // A visitor's cart is one cookie that each change writes whole from the one its request carried: a change sent
  // before the one ahead of it is answered would start from the old cart, and the later answer would undo the other.
  // The first change reaches the server at once, with the cart as it was; its answer (and the cookie it sets) comes
  // back late. (Sent from here rather than by route.fetch, which would store the answer's cookie at once.)
  let delayed = false;
  await page.route("**/cart.data*", async (route) => {
    const request = route.request();
    if (request.method() !== "POST" || delayed) return route.continue();
    delayed = true;
    const answer = await fetch(request.url(), { method: "POST", headers: await request.allHeaders(), body: request.postData() ?? undefined });
    const body = Buffer.from(await answer.arrayBuffer());
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // fetch has decoded the body already; fulfill takes several Set-Cookie lines joined by newlines.
    const headers: Record<string, string> = { "set-cookie": answer.headers.getSetCookie().join("\n") };
    answer.headers.forEach((value, name) => {
      if (!["content-encoding", "content-length", "set-cookie"].includes(name)) headers[name] = value;
    });
    await route.fulfill({ status: answer.status, headers, body }).catch(() => {});
  });
  await lineOf(first).getByRole("button", { name: /^One more / }).click();
  await lineOf(second).getByRole("button", { name: /^One more / }).click();
  // Both show the new quantity at once, while the second waits its turn.
  for (const name of [first, second]) await expect(lineOf(name).getByTestId("cart-quantity")).toHaveText("2");
  await expect(cartLink(page, 4)).toBeVisible();
  await page.unroute("**/cart.data*");
  await gotoHydrated(page, "/cart");
  for (const name of [first, second]) await expect(lineOf(name).getByTestId("cart-quantity")).toHaveText("2");
});

test("the checkout says 'Please enter your full name' when the name is cleared, and places nothing", async ({ page }) => {
  const user = uniqueUser();
  await registerThrough(page, user, "/");
  await addFromHomeGrid(page, 1);

  await gotoHydrated(page, "/cart?checkout");
  const dialog = page.getByRole("dialog", { name: "Checkout" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Full name").fill("   ");
  await dialog.getByLabel("Bank slip").setInputFiles(slipFile);
  await dialog.getByRole("button", { name: /^Place Order/ }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please enter your full name");
  // The field at fault says so and takes the focus (WCAG 3.3.1): not just the message at the top.
  const name = dialog.getByLabel("Full name");
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Please enter your full name");
  await expect(page).toHaveURL("/cart?checkout");

  // Nothing was placed: the cart is still there and My Orders is empty.
  await gotoHydrated(page, "/orders");
  await expect(page.getByText("You have no orders yet")).toBeVisible();
  await expect(cartLink(page, 1)).toBeVisible();
});

test("Remove from the keyboard moves the focus to the next line's Remove, then to the heading, not to the page's top", async ({ page }) => {
  const [first, second] = await addFromHomeGrid(page, 2);
  await gotoHydrated(page, "/cart");
  const removeOf = (name: string) => page.getByTestId("cart-line").filter({ hasText: name }).getByRole("button", { name: /^Remove / });
  const lines = page.getByTestId("cart-line");
  const [firstShown, secondShown] = [await lines.nth(0).textContent(), await lines.nth(1).textContent()];
  const [top, next] = firstShown!.includes(first) ? [first, second] : [second, first];
  expect(secondShown).toContain(next);
  await removeOf(top).focus();
  await page.keyboard.press("Enter");
  await expect(removeOf(next)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Your Cart" })).toBeFocused();
  // Exact: the cart's status says it too, after what was removed (the next test).
  await expect(page.getByText("Your cart is empty", { exact: true })).toBeVisible();
});

test("the cart's status says a step, a removal and an emptied cart, each with the product and its size", async ({ page, context, baseURL }) => {
  interface Listed {
    id: number;
    name: string;
    brand: string;
    category: string;
    productAvailable: boolean;
    stockQuantity: number;
    sizes: { id: number; label: string; stockQuantity: number }[];
  }
  const catalogue = ((await (await page.request.get("/api/products")).json()) as Listed[]).filter((product) => isDemoProduct(product) && product.productAvailable);
  const shoe = catalogue.find((product) => product.category !== "Accessories" && product.sizes.some((size) => size.stockQuantity >= 3))!;
  const size = shoe.sizes.find((candidate) => candidate.stockQuantity >= 3)!;
  const accessory = catalogue.find((product) => product.category === "Accessories" && product.stockQuantity >= 1)!;
  // A visitor's cart (its cookie): the shoe in its size first, then the accessory in its one size.
  const cart = [
    { productId: shoe.id, sizeId: size.id, quantity: 1 },
    { productId: accessory.id, sizeId: accessory.sizes[0].id, quantity: 1 },
  ];
  await context.addCookies([{ name: "stride_cart", value: encodeURIComponent(JSON.stringify(cart)), url: baseURL! }]);
  await gotoHydrated(page, "/cart");
  const shoeName = `${shoe.brand} ${nameWithSize(shoe.name, size.label)}`; // "Brand Name (EU 42)"
  const accessoryName = `${accessory.brand} ${accessory.name}`;
  const lines = page.getByTestId("cart-line");
  await expect(lines).toHaveCount(2);
  const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? null);

  // The region is in the page, empty, before anything is said (one put in with its words goes unannounced).
  await expect(page.getByTestId("cart-status")).toHaveAttribute("role", "status");
  await expect(page.getByTestId("cart-status")).toHaveText("");
  await page.getByTestId("cart-status").evaluate((element) => (element.dataset.before = "yes"));
  const said = page.locator("[data-before=yes]");

  // + from the keyboard: the product and its new quantity, not the bare number; the step is no live region of its own.
  await page.getByRole("button", { name: `One more ${shoeName}`, exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(lines.filter({ hasText: shoe.name }).getByTestId("cart-quantity")).toHaveText("2");
  await expect(said).toHaveText(`${shoeName}: quantity 2`);
  expect(await lines.filter({ hasText: shoe.name }).getByTestId("cart-quantity").evaluate((element) => element.closest("[aria-live], [role=status], output") === null)).toBe(true);

  // Remove the shoe: the focus goes to the next line's Remove, and the removal is said.
  await page.getByRole("button", { name: `Remove ${shoeName}`, exact: true }).focus();
  await page.keyboard.press("Enter");
  expect(await focusedName()).toBe(`Remove ${accessoryName}`);
  await expect(said).toHaveText(`Removed ${shoeName} from your cart`);

  // Remove the last: the focus goes to the heading, and the emptied cart is said with the removal.
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Your Cart" })).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("cart-heading");
  await expect(said).toHaveText(`Removed ${accessoryName} from your cart. Your cart is empty`);
  await expect(page.getByText("Your cart is empty", { exact: true })).toBeVisible();
});

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`screenshots ${label}`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of ["light", "dark"] as const) {
      test(`the cart after a removal from the keyboard (${theme})`, async ({ page, context, baseURL }) => {
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        const [first] = await addFromHomeGrid(page, 3);
        await gotoHydrated(page, "/cart");
        await page.getByTestId("cart-line").filter({ hasText: first }).getByRole("button", { name: /^Remove / }).focus();
        await page.keyboard.press("Enter");
        await expect(page.getByTestId("cart-line")).toHaveCount(2);
        await expect(page.getByTestId("cart-status")).toContainText(`Removed`);
        await expect(cartLink(page, 2)).toBeVisible(); // the server has answered: the total is the two lines'
        await page.screenshot({ path: `${SHOTS}/cart-removed-${theme}-${label}.png`, fullPage: true });
      });
    }
  });
}

test("a chosen slip that is no picture or PDF says so at once, with no preview; a good one then clears it", async ({ page }) => {
  const user = uniqueUser();
  await registerThrough(page, user, "/");
  await addFromHomeGrid(page, 1);
  await gotoHydrated(page, "/cart?checkout");
  const dialog = page.getByRole("dialog", { name: "Checkout" });
  const slip = dialog.getByLabel("Bank slip");
  await slip.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("these are my notes, not a slip") });
  await expect(dialog.getByText("Please upload a valid image (JPEG, PNG) or PDF file")).toBeVisible();
  await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toHaveCount(0);
  // Bytes that only begin like a PNG (cut off after its signature) or a PDF (no %%EOF) are judged as the server does.
  for (const cut of [
    { name: "cut.png", mimeType: "image/png", buffer: PNG_SLIP.subarray(0, 10) },
    { name: "cut.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7\n1 0 obj<</Type/Catalog>>endobj\n") },
  ]) {
    await slip.setInputFiles(slipFile); // a good one first, so the message seen next is this file's own
    await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toBeVisible();
    await slip.setInputFiles(cut);
    await expect(dialog.getByText("Please upload a valid image (JPEG, PNG) or PDF file"), cut.name).toBeVisible();
    await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toHaveCount(0);
  }
  // A Place Order refused for the name keeps saying so when a slip is chosen; the slip's own message goes. (Pressed
  // with a good slip: after a wrong one Place Order is unavailable, tests/e2e/phone-checkout.spec.ts.)
  await slip.setInputFiles(slipFile);
  await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toBeVisible();
  await dialog.getByLabel("Full name").fill("   ");
  await dialog.getByRole("button", { name: /^Place Order/ }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please enter your full name");
  await slip.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("these are my notes, not a slip") });
  await expect(dialog.getByText("Please upload a valid image (JPEG, PNG) or PDF file")).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveText("Please enter your full name");
  await slip.setInputFiles(slipFile);
  await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toBeVisible();
  await expect(dialog.getByText("Please upload a valid image (JPEG, PNG) or PDF file")).toHaveCount(0);
  await expect(dialog.getByRole("alert")).toHaveText("Please enter your full name");
});

interface FlagShoe {
  id: number;
  name: string;
  sizes: { id: number; label: string; stockQuantity: number }[];
}

/** A token from POST /api/auth/login (the admin's) or /register then /login (a new customer's). */
async function apiToken(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const response = await request.post("/api/auth/login", { data: { email: account.email, password: account.password } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** An "E2E ..." product made through the API (other tests skip such products), with the sizes given. */
async function makeShoe(request: APIRequestContext, token: string, name: string, sizes: { label: string; stockQuantity: number }[]): Promise<FlagShoe> {
  const product = { name, brand: "E2E Brand", description: "Made for an end-to-end test.", price: 1000, category: "Gents", stockQuantity: 0, releaseDate: "2026-01-01", productAvailable: true, sizes };
  const response = await request.post("/api/product", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { product: JSON.stringify(product), imageFile: { name: "shoe.png", mimeType: "image/png", buffer: PNG_SLIP } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as FlagShoe;
}

/** The admin changes a product: its sizes' stock (by label) and whether it is for sale. */
async function changeShoe(request: APIRequestContext, token: string, shoe: FlagShoe, stock: Record<string, number>, productAvailable = true): Promise<void> {
  const sizes = shoe.sizes.map(({ id, label, stockQuantity }) => ({ id, label, stockQuantity: stock[label] ?? stockQuantity }));
  const product = { name: shoe.name, brand: "E2E Brand", description: "Made for an end-to-end test.", price: 1000, category: "Gents", stockQuantity: 0, releaseDate: "2026-01-01", productAvailable, sizes };
  const response = await request.put(`/api/product/${shoe.id}`, { headers: { Authorization: `Bearer ${token}` }, multipart: { product: JSON.stringify(product) } });
  expect(response.status(), await response.text()).toBe(200);
}

test("cart lines the shop changed since are flagged, can be lowered, and hold the checkout back until fixed", async ({ page, request, context, baseURL }) => {
  test.slow(); // an admin's changes, a customer's cart and a visitor's, on a machine that may be busy
  const mark = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const admin = await apiToken(request, DEMO_ADMIN);
  const shoe = await makeShoe(request, admin, `E2E Flag Runner ${mark}`, ["EU 40", "EU 41", "EU 42"].map((label) => ({ label, stockQuantity: 5 })));
  const gone = await makeShoe(request, admin, `E2E Flag Retired ${mark}`, [{ label: "EU 40", stockQuantity: 5 }]);
  const size = (label: string) => shoe.sizes.find((s) => s.label === label)!.id;
  const line = (label: string) => page.getByTestId("cart-line").filter({ has: page.getByText(`Size: ${label}`, { exact: true }) }).filter({ hasText: shoe.name });
  const retired = page.getByTestId("cart-line").filter({ hasText: gone.name });
  const fewer = (row: ReturnType<typeof line>) => row.getByRole("button", { name: /^One fewer / });
  const summary = page.getByRole("complementary", { name: "Order summary" });
  try {
    // A customer's saved cart: 3 pairs of EU 41, 2 of EU 40, 1 of EU 42, and 2 of a shoe about to be taken off sale.
    const user = uniqueUser();
    expect((await request.post("/api/auth/register", { data: user })).status()).toBe(201);
    const customer = await apiToken(request, user);
    const auth = { headers: { Authorization: `Bearer ${customer}` } };
    for (const [productId, sizeId, quantity] of [[shoe.id, size("EU 41"), 3], [shoe.id, size("EU 40"), 2], [shoe.id, size("EU 42"), 1], [gone.id, gone.sizes[0].id, 2]]) {
      expect((await request.post(`/api/cart/add?productId=${productId}&sizeId=${sizeId}&quantity=${quantity}`, auth)).status()).toBe(200);
    }
    // The admin lowers EU 41 to 1, sells out EU 40 and takes the other shoe off sale.
    await changeShoe(request, admin, shoe, { "EU 41": 1, "EU 40": 0 });
    await changeShoe(request, admin, gone, {}, false);

    await context.addCookies([{ name: "stride_session", value: customer, url: baseURL! }]);
    await gotoHydrated(page, "/cart");
    await expect(line("EU 41").getByTestId("cart-line-problem")).toHaveText("Only 1 left");
    await expect(line("EU 40").getByTestId("cart-line-problem")).toHaveText("Sold out in this size");
    await expect(retired.getByTestId("cart-line-problem")).toHaveText("No longer available");
    await expect(line("EU 42").getByTestId("cart-line-problem")).toHaveCount(0);
    await expect(summary.getByText(CHECKOUT_BLOCKED)).toBeVisible();
    await expect(summary.getByRole("button", { name: "Proceed to Checkout" })).toBeDisabled();
    await expect(page.getByTestId("cart-total")).toHaveText(formatRs(1000)); // EU 42 alone

    // '−' works on each flagged line; EU 41 is fixed at 1, the others stay flagged until removed.
    await fewer(line("EU 41")).click();
    await expect(line("EU 41").getByTestId("cart-quantity")).toHaveText("2");
    await expect(line("EU 41").getByTestId("cart-line-problem")).toHaveText("Only 1 left");
    await fewer(line("EU 41")).click();
    await expect(line("EU 41").getByTestId("cart-quantity")).toHaveText("1");
    await expect(line("EU 41").getByTestId("cart-line-problem")).toHaveCount(0);
    await fewer(line("EU 40")).click();
    await expect(line("EU 40").getByTestId("cart-quantity")).toHaveText("1");
    await fewer(retired).click();
    await expect(retired.getByTestId("cart-quantity")).toHaveText("1");
    await expect(page.getByRole("alert")).toHaveCount(0); // no refusal anywhere
    await expect(summary.getByRole("button", { name: "Proceed to Checkout" })).toBeDisabled();
    await line("EU 40").getByRole("button", { name: /^Remove / }).click();
    await retired.getByRole("button", { name: /^Remove / }).click();
    await expect(page.getByTestId("cart-line")).toHaveCount(2);
    await expect(summary.getByText(CHECKOUT_BLOCKED)).toHaveCount(0);
    await expect(page.getByTestId("cart-total")).toHaveText(formatRs(2000));
    await summary.getByRole("link", { name: "Proceed to Checkout" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();

    // A visitor's cookie cart: the same flags and the same fix; a line of a product deleted since counts nowhere.
    await context.clearCookies();
    const cookieCart = [
      { productId: shoe.id, sizeId: size("EU 41"), quantity: 3 },
      { productId: 999_999, sizeId: 999_999, quantity: 4 },
      { productId: gone.id, sizeId: gone.sizes[0].id, quantity: 1 },
      { productId: shoe.id, sizeId: size("EU 42"), quantity: 1 },
    ];
    await context.addCookies([{ name: "stride_cart", value: encodeURIComponent(JSON.stringify(cookieCart)), url: baseURL! }]);
    await gotoHydrated(page, "/cart");
    await expect(cartLink(page, 5)).toBeVisible();
    await expect(page.getByTestId("cart-line")).toHaveCount(3);
    await expect(line("EU 41").getByTestId("cart-line-problem")).toHaveText("Only 1 left");
    await expect(retired.getByTestId("cart-line-problem")).toHaveText("No longer available");
    await expect(summary.getByRole("button", { name: "Login to Checkout" })).toBeDisabled();
    await fewer(line("EU 41")).click();
    await fewer(line("EU 41")).click();
    await expect(line("EU 41").getByTestId("cart-quantity")).toHaveText("1");
    await expect(cartLink(page, 3)).toBeVisible();
    await retired.getByRole("button", { name: /^Remove / }).click();
    await expect(summary.getByRole("link", { name: "Login to Checkout" })).toBeVisible();
    await expect(cartLink(page, 2)).toBeVisible();
    // The cookie no longer holds the deleted product's line.
    const stored = (await context.cookies()).find((cookie) => cookie.name === "stride_cart")!;
    expect((JSON.parse(decodeURIComponent(stored.value)) as { productId: number }[]).map((l) => l.productId)).toEqual([shoe.id, shoe.id]);
  } finally {
    for (const id of [shoe.id, gone.id]) await request.delete(`/api/product/${id}`, { headers: { Authorization: `Bearer ${admin}` } });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Place Order posts the form and lands on the order's page, where the checkout with JavaScript ends too", async ({ page }) => {
    const user = uniqueUser();
    await page.goto("/register?redirect=%2Fcart");
    await register(page, user);
    await expect(page).toHaveURL("/cart?welcome=1");
    // One pair in a size in stock, through the cart's own form endpoint, with the session's cookies. Which product
    // comes first depends on what the other tests (run beside this one) did, so the size is whatever it has in stock.
    type Listed = { id: number; name: string; productAvailable: boolean; sizes: { id: number; label: string; stockQuantity: number }[] };
    const catalogue = (await (await page.request.get("/api/products")).json()) as Listed[];
    const product = catalogue.find((item) => isDemoProduct(item) && item.productAvailable && item.sizes.some((size) => size.stockQuantity >= 3))!;
    const size = product.sizes.find((candidate) => candidate.stockQuantity >= 3)!;
    const added = await page.request.post("/cart/add", { form: { productId: String(product.id), sizeId: String(size.id) } });
    expect(added.status(), await added.text()).toBe(200);

    await page.goto("/cart?checkout");
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog.getByText(`${nameWithSize(product.name, size.label)} × 1`)).toBeVisible();
    await dialog.getByLabel("Bank slip").setInputFiles(slipFile);
    await dialog.getByRole("button", { name: /^Place Order/ }).click();

    await expect(page).toHaveURL(/\/orders\/\d+\?placed=1$/);
    const orderId = new URL(page.url()).pathname.split("/").pop()!;
    await expectOrderPlacedPage(page, orderId);
    await expect(page.getByRole("main")).toContainText(product.name);
  });
});

test.describe("on a narrow phone", () => {
  test.use({ viewport: { width: 320, height: 740 }, isMobile: true, hasTouch: true });

  test("a cart line fits the screen: its stepper, total and Remove are in view, and nothing scrolls sideways", async ({ page }) => {
    await addFromHomeGrid(page, 1);
    await gotoHydrated(page, "/cart");
    const line = page.getByTestId("cart-line");
    await expect(line).toHaveCount(1);
    // A phone shows a page wider than itself zoomed out, so the width comes first.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    for (const part of [line.getByRole("button", { name: /^One more / }), line.getByTestId("line-total"), line.getByRole("button", { name: /^Remove / })]) {
      await expect(part).toBeInViewport({ ratio: 1 });
    }
  });

  test("the checkout dialog, taller than the screen, opens at its title and scrolls to its end", async ({ page }) => {
    await gotoHydrated(page, "/register");
    await register(page, uniqueUser());
    await expect(page).not.toHaveURL(/\/register/);
    await addFromHomeGrid(page, 1);
    await gotoHydrated(page, "/cart?checkout");
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    expect((await dialog.boundingBox())!.height).toBeGreaterThan(740);
    // Its title, its close button and the bank to pay are where the shopper starts reading, not above the screen.
    await expect(dialog.getByRole("heading", { name: "Checkout" })).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByText("Pay by bank transfer")).toBeInViewport({ ratio: 1 });
    const placeOrder = dialog.getByRole("button", { name: /^Place Order/ });
    await placeOrder.scrollIntoViewIfNeeded();
    await expect(placeOrder).toBeInViewport({ ratio: 1 });
  });
});

test("a price changed while the checkout is open: Place Order says so, shows the new total, and the next try places it", async ({ page, request }) => {
  // A product of this test's own, so no other test sees its price move.
  const login = await request.post("/api/auth/login", { data: DEMO_ADMIN });
  const admin = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const product = {
    name: `E2E Repriced Belt ${Date.now()}`,
    brand: "E2E Brand",
    description: "A belt whose price changes during a checkout.",
    price: 1000,
    category: "Accessories",
    stockQuantity: 5,
    releaseDate: "2026-01-01",
    productAvailable: true,
  };
  const picture = { name: "belt.png", mimeType: "image/png", buffer: pngFromPixels(8, 8, () => [120, 80, 40]) };
  const created = await request.post("/api/product", { headers: admin, multipart: { product: JSON.stringify(product), imageFile: picture } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  try {
    await registerThrough(page, uniqueUser(), `/product/${id}`);
    await page.getByRole("button", { name: `Add to Cart: ${product.name}` }).click();
    await expect(cartLink(page, 1)).toBeVisible();
    await gotoHydrated(page, "/cart?checkout");
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog.getByTestId("checkout-total")).toHaveText("LKR 1,000.00");

    const repriced = await request.put(`/api/product/${id}`, { headers: admin, multipart: { product: JSON.stringify({ ...product, price: 1500 }) } });
    expect(repriced.status()).toBe(200);
    await dialog.getByLabel("Bank slip").setInputFiles(slipFile);
    await dialog.getByRole("button", { name: /^Place Order/ }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Prices have changed since you opened the checkout. Please check the new total and place your order again.");
    await expect(dialog.getByTestId("checkout-total")).toHaveText("LKR 1,500.00");
    await expect(page).toHaveURL("/cart?checkout");

    await dialog.getByRole("button", { name: "Place Order · LKR 1,500.00" }).click();
    await expect(page).toHaveURL(/\/orders\/\d+\?placed=1$/, { timeout: 15_000 });
    await expect(page.getByText("LKR 1,500.00").first()).toBeVisible();
  } finally {
    await request.delete(`/api/product/${id}`, { headers: admin });
  }
});
