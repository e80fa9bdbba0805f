import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { DEMO_ADMIN, gotoHydrated, logIn, pngFromPixels, register, SCREENSHOT_VIEWPORTS, uniqueUser, waitForHydration } from "./helpers";

// Sizes in a real browser against the real Worker: a shoe is bought in a size, which survives the login and reaches
// the order; a sold-out size cannot be chosen; an admin restocks one size and the page follows, and is told when
// orders placed while the form was open changed the figure saved; the sizes table on a phone. Screenshots of the
// sizes table under /tmp/sizes-shots (SHOTS_DIR), 1280 and 390 wide, light and dark.

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/sizes-shots";

interface ApiSize {
  id: number;
  label: string;
  stockQuantity: number;
}
interface ApiProduct {
  id: number;
  name: string;
  category: string;
  productAvailable: boolean;
  sizes: ApiSize[];
}

const PNG_SLIP = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGO4a2wMAAM0AUSds6MNAAAAAElFTkSuQmCC", "base64");

/**
 * A demo shoe with a sold-out size and one with at least 3 pairs (demo data sells out one size on every other shoe).
 * The admin's test restocks its sold-out size, so it takes the last such shoe and the others the first.
 */
async function shoeWithSoldOutSize(request: APIRequestContext, pick: "first" | "last" = "first"): Promise<{ product: ApiProduct; soldOut: ApiSize; inStock: ApiSize }> {
  const products = (await (await request.get("/api/products")).json()) as ApiProduct[];
  for (const product of pick === "first" ? products : products.reverse()) {
    if (product.category === "Accessories" || !product.productAvailable) continue;
    const soldOut = product.sizes.find((size) => size.stockQuantity === 0);
    const inStock = product.sizes.find((size) => size.stockQuantity >= 3);
    if (soldOut && inStock) return { product, soldOut, inStock };
  }
  throw new Error("no demo shoe with a sold-out size and one in stock");
}

const sizeRadio = (page: Page, label: string) => page.getByRole("group", { name: "Size" }).getByRole("radio", { name: new RegExp(`^${label}\\b`) });

/** Chooses a size as a shopper does, by its label (the radio itself is visually hidden inside it). */
async function chooseSize(page: Page, label: string): Promise<void> {
  await page.getByRole("group", { name: "Size" }).locator("label").filter({ has: page.getByText(label, { exact: true }) }).click();
  await expect(sizeRadio(page, label)).toBeChecked();
}

test("a visitor chooses a size, keeps it through registering, and buys it", async ({ page, request }) => {
  test.slow();
  const { product, inStock } = await shoeWithSoldOutSize(request);
  const alerts: string[] = [];
  page.on("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });

  await gotoHydrated(page, `/product/${product.id}`);
  const add = page.getByRole("button", { name: `Add to Cart: ${product.name}` });
  // No size chosen: the page asks for one and adds nothing.
  await add.click();
  await expect(page.getByRole("alert").filter({ hasText: "Please select a size" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Cart, 0 items" }).first()).toBeVisible();

  await chooseSize(page, inStock.label);
  await expect(page.getByText(new RegExp(`^(Only \\d+ left in ${inStock.label}|${inStock.label}: in stock)$`))).toBeVisible();
  await add.click();
  await expect(page.getByRole("link", { name: "Cart, 1 item" }).first()).toBeVisible();

  // Registering merges the visitor's cart: the line keeps its size.
  const user = uniqueUser();
  await gotoHydrated(page, "/register?redirect=%2Fcart");
  await register(page, user);
  await expect(page).toHaveURL("/cart?welcome=1");
  await waitForHydration(page);
  const line = page.getByTestId("cart-line");
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(product.name);
  await expect(line).toContainText(`Size: ${inStock.label}`);

  // Checkout: the summary names the size, and so does the order.
  await page.getByRole("link", { name: "Proceed to Checkout" }).click();
  const dialog = page.getByRole("dialog", { name: "Checkout" });
  await expect(dialog).toContainText(`${product.name} (${inStock.label}) × 1`);
  await dialog.getByLabel("Bank slip").setInputFiles({ name: "slip.png", mimeType: "image/png", buffer: PNG_SLIP });
  await dialog.getByRole("button", { name: /^Place Order/ }).click();
  await expect(page).toHaveURL(/\/orders\/\d+\?placed=1$/, { timeout: 15_000 });
  await expect(page.getByRole("table").filter({ hasText: product.name })).toContainText(`Size: ${inStock.label}`);

  // The size's stock went down by one, the product's total with it.
  const after = (await (await request.get(`/api/product/${product.id}`)).json()) as ApiProduct;
  expect(after.sizes.find((size) => size.id === inStock.id)?.stockQuantity).toBe(inStock.stockQuantity - 1);
});

test("a sold-out size is shown but cannot be chosen", async ({ page, request }) => {
  const { product, soldOut } = await shoeWithSoldOutSize(request);
  await gotoHydrated(page, `/product/${product.id}`);
  const radio = sizeRadio(page, soldOut.label);
  await expect(radio).toBeDisabled();
  await expect(page.getByRole("group", { name: "Size" })).toContainText(soldOut.label);
  await expect(radio).not.toBeChecked();

  // From the keyboard, the arrow keys move along the sizes and pass over the sold-out one.
  const index = product.sizes.findIndex((size) => size.id === soldOut.id);
  const before = product.sizes.slice(0, index).reverse().find((size) => size.stockQuantity > 0);
  const after = product.sizes.slice(index + 1).find((size) => size.stockQuantity > 0);
  if (before && after) {
    await chooseSize(page, before.label);
    await page.keyboard.press("ArrowRight");
    await expect(sizeRadio(page, after.label)).toBeChecked();
    await expect(sizeRadio(page, after.label)).toBeFocused();
    await expect(radio).not.toBeChecked();
  }
});

test("a size's name says sold out or the few left, once; 'Please select a size' describes the size group", async ({ page }) => {
  // A shoe of this test's own (other tests buy and restock the demo shoes' sizes meanwhile): one size sold out, one
  // with two pairs left (under five: the picker shows "2 left" on it), one with plenty.
  await logInAs(page);
  const name = `E2E Size Names ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const sizes = [
    { label: "EU 41", stockQuantity: 0 },
    { label: "EU 42", stockQuantity: 2 },
    { label: "EU 43", stockQuantity: 9 },
  ];
  const product = { name, brand: "E2E Brand", description: "Made for an end-to-end test.", price: 2500, category: "Gents", stockQuantity: 11, releaseDate: "2026-01-01", productAvailable: true, sizes };
  const created = await page.request.post("/api/product", {
    multipart: { product: JSON.stringify(product), imageFile: { name: "shoe.png", mimeType: "image/png", buffer: pngFromPixels(8, 8, () => [40, 90, 160]) } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  try {
    await page.context().clearCookies(); // a shopper from here on
    await gotoHydrated(page, `/product/${id}`);
    const group = page.getByRole("group", { name: "Size" });

    // No stray space before the comma, and "EU 42, 2 left" rather than "EU 42 2 left"; a size in plenty is its label.
    await expect(group.getByRole("radio")).toHaveCount(3);
    await expect(group.getByRole("radio", { name: "EU 41, sold out", exact: true })).toBeDisabled();
    await expect(group.getByRole("radio", { name: "EU 42, 2 left", exact: true })).toBeEnabled();
    await expect(group.getByRole("radio", { name: "EU 43", exact: true })).toBeEnabled();

    // Add to Cart without a size: the request to choose one describes the group, and the focus is in the group.
    await page.getByRole("button", { name: `Add to Cart: ${name}`, exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Please select a size" })).toBeVisible();
    await expect(group).toHaveAccessibleDescription(/^Please select a size\b/);
    expect(await page.evaluate(() => document.activeElement?.closest("fieldset")?.querySelector("legend")?.textContent)).toBe("Size");

    // EU 42 chosen: its radio's name has just said "2 left"; the line under the sizes shows it without saying it again
    // (no live region), and the request to choose is gone from the group's description.
    await chooseSize(page, "EU 42");
    const hint = page.getByText("Only 2 left in EU 42", { exact: true });
    await expect(hint).toBeVisible();
    expect(await hint.evaluate((element) => element.closest("[aria-live], [role=status], [role=alert], [role=log], output") === null)).toBe(true);
    await expect(group).toHaveAccessibleDescription("Only 2 left in EU 42");
  } finally {
    await logInAs(page);
    await page.request.delete(`/api/product/${id}`).catch(() => undefined);
  }
});

test("the cart's + at a size's stock says so on the page and adds nothing", async ({ page, request, context, baseURL }) => {
  const { product, inStock } = await shoeWithSoldOutSize(request);
  const line = [{ productId: product.id, sizeId: inStock.id, quantity: inStock.stockQuantity }];
  await context.addCookies([{ name: "stride_cart", value: encodeURIComponent(JSON.stringify(line)), url: baseURL! }]);
  await page.setViewportSize({ width: 390, height: 844 });
  await gotoHydrated(page, "/cart");
  const row = page.getByTestId("cart-line");
  const quantity = await row.getByTestId("cart-quantity").textContent();
  // The button is aria-disabled (announced as unavailable) yet still answers a tap, with the message on the page: no
  // tooltip to hover on a phone. Playwright will not click an aria-disabled button unless forced.
  const more = row.getByRole("button", { name: /^One more / });
  await expect(more).toHaveAttribute("aria-disabled", "true");
  await more.click({ force: true });
  await expect(row.getByRole("alert")).toHaveText("Cannot add more than available stock");
  await expect(row.getByTestId("cart-quantity")).toHaveText(quantity!);
});

test("the size guide opens from the picker, and Escape or a tap elsewhere puts it away", async ({ page, request }) => {
  const { product } = await shoeWithSoldOutSize(request);
  await gotoHydrated(page, `/product/${product.id}`);
  const guide = page.getByRole("table", { name: `${product.category}: find your size` });
  const summary = page.getByText("Size guide", { exact: true });
  await expect(guide).toBeHidden();
  await summary.click();
  await expect(guide).toBeVisible();
  await expect(guide.getByRole("columnheader", { name: "Foot (cm)" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(guide).toBeHidden();
  await expect(summary).toBeFocused();
  await summary.click();
  await expect(guide).toBeVisible();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(guide).toBeHidden();
});

test("an admin restocks one size on the product form, and the page shows it", async ({ page, request }) => {
  const { product, soldOut } = await shoeWithSoldOutSize(request, "last");
  await page.goto(`/login?redirect=${encodeURIComponent(`/product/update/${product.id}`)}`);
  await logIn(page, DEMO_ADMIN);
  await expect(page).toHaveURL(`/product/update/${product.id}`);
  await waitForHydration(page);
  const row = product.sizes.findIndex((size) => size.id === soldOut.id);
  const stock = page.getByLabel(`Stock of size ${row + 1}`, { exact: true });
  await expect(page.getByLabel(`Size ${row + 1}`, { exact: true })).toHaveValue(soldOut.label);
  await expect(stock).toHaveValue("0");
  const total = product.sizes.reduce((sum, size) => sum + size.stockQuantity, 0);
  await expect(page.getByTestId("sizes-total")).toHaveText(String(total));
  await stock.fill("2");
  await expect(page.getByTestId("sizes-total")).toHaveText(String(total + 2));
  // A size ticked Remove leaves the total while it is ticked.
  const other = product.sizes.find((size) => size.id !== soldOut.id && size.stockQuantity > 0)!;
  const remove = page.getByRole("checkbox", { name: `Remove size ${other.label}` });
  await remove.check();
  await expect(page.getByTestId("sizes-total")).toHaveText(String(total + 2 - other.stockQuantity));
  await remove.uncheck();
  await expect(page.getByTestId("sizes-total")).toHaveText(String(total + 2));
  await page.getByRole("button", { name: "Update Product" }).click();
  await expect(page).toHaveURL(`/product/${product.id}?saved=1`);
  await waitForHydration(page);

  const radio = sizeRadio(page, soldOut.label);
  await expect(radio).toBeEnabled();
  await chooseSize(page, soldOut.label);
  await expect(page.getByText(`Only 2 left in ${soldOut.label}`)).toBeVisible();
  await expect(page.getByText(`Stock available: ${total + 2}`)).toBeVisible();
});

test("'Use the category's sizes' on a new product keeps the sizes already typed, with their stock", async ({ page }) => {
  await page.goto(`/login?redirect=${encodeURIComponent("/add_product")}`);
  await logIn(page, DEMO_ADMIN);
  await expect(page).toHaveURL("/add_product");
  await waitForHydration(page);
  const label = (row: number) => page.getByLabel(`Size ${row}`, { exact: true });
  const stock = (row: number) => page.getByLabel(`Stock of size ${row}`, { exact: true });
  // Row 1 starts as "One size"; the admin types EU 41 there and EU 41.5 below it.
  await label(1).fill("EU 41");
  await stock(1).fill("5");
  await label(2).fill("EU 41.5");
  await stock(2).fill("7");
  await expect(page.getByTestId("sizes-total")).toHaveText("12");
  await page.getByLabel("Category").selectOption("Gents");
  await page.getByRole("button", { name: "Use the category's sizes" }).click();

  const gents = ["EU 39", "EU 40", "EU 41", "EU 42", "EU 43", "EU 44", "EU 45", "EU 46"];
  for (const [i, size] of [...gents, "EU 41.5"].entries()) await expect(label(i + 1)).toHaveValue(size);
  await expect(stock(3)).toHaveValue("5");
  await expect(stock(9)).toHaveValue("7");
  await expect(stock(1)).toHaveValue("0");
  await expect(page.getByTestId("sizes-total")).toHaveText("12");
});

/** A shoe of the test's own (other tests skip "E2E" products), made through the API as the logged-in admin. */
async function ownShoe(page: Page, name: string, sizes: { label: string; stockQuantity: number }[]): Promise<ApiProduct> {
  const product = { name, brand: "E2E Brand", description: "Made for an end-to-end test.", price: 2500, category: "Gents", stockQuantity: 0, releaseDate: "2026-01-01", productAvailable: true, sizes };
  const created = await page.request.post("/api/product", {
    multipart: { product: JSON.stringify(product), imageFile: { name: "shoe.png", mimeType: "image/png", buffer: pngFromPixels(8, 8, () => [40, 90, 160]) } },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as ApiProduct;
}

/** A new customer orders `quantity` pairs of one size through the API (their own request context, not the admin's). */
async function orderAsCustomer(request: APIRequestContext, productId: number, sizeId: number, quantity: number): Promise<void> {
  const user = uniqueUser();
  expect((await request.post("/api/auth/register", { data: user })).status()).toBe(201);
  const { token } = (await (await request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).json()) as { token: string };
  const order = { customerName: user.name, customerEmail: user.email, customerPhone: user.phone, shippingAddress: user.address, orderItems: [{ productId, sizeId, quantity }] };
  const placed = await request.post("/api/orders", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { order: JSON.stringify(order), bankSlip: { name: "slip.png", mimeType: "image/png", buffer: PNG_SLIP } },
  });
  expect(placed.status(), await placed.text()).toBe(201);
}

test("a customer orders while the admin edits: the saved message says which size was saved as what, and stays until closed", async ({ page, request }) => {
  await logInAs(page);
  const shoe = await ownShoe(page, `E2E Edit Race ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, [
    { label: "EU 40", stockQuantity: 8 },
    { label: "EU 41", stockQuantity: 4 },
  ]);
  try {
    await gotoHydrated(page, `/product/update/${shoe.id}`);
    await expect(page.getByLabel("Stock of size 1", { exact: true })).toHaveValue("8");
    // Meanwhile a customer buys 2 x EU 40; the admin, who still sees 8, types 10 (and 5 for EU 41, where nothing sold).
    await orderAsCustomer(request, shoe.id, shoe.sizes[0].id, 2);
    await page.getByLabel("Stock of size 1", { exact: true }).fill("10");
    await page.getByLabel("Stock of size 2", { exact: true }).fill("5");
    await page.getByRole("button", { name: "Update Product" }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${shoe.id}\\?saved=1&moved=`));
    const toast = page.getByRole("status").filter({ hasText: "Product saved" });
    await expect(toast).toHaveText("Product saved. EU 40 saved as 8: 2 sold while you were editing.");
    const saved = (await (await page.request.get(`/api/product/${shoe.id}`)).json()) as ApiProduct;
    expect(saved.sizes.map((size) => [size.label, size.stockQuantity])).toEqual([["EU 40", 8], ["EU 41", 5]]);
    // Not gone after the toasts' 5 seconds: it is read, then closed.
    await page.waitForTimeout(5_600);
    await expect(toast).toHaveText(/EU 40 saved as 8/);
    await toast.locator("xpath=..").getByRole("link", { name: "Close", exact: true }).click();
    await expect(page.getByText(/EU 40 saved as 8/)).toHaveCount(0);
  } finally {
    await page.request.delete(`/api/product/${shoe.id}`).catch(() => undefined);
  }
});

test("'Use the category's sizes' replaces the sizes it filled for the category before, and keeps the ones typed", async ({ page }) => {
  await logInAs(page);
  await gotoHydrated(page, "/add_product");
  const labels = () => page.locator('input[name$=".label"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  const fill = async (category: string) => {
    await page.getByLabel("Category").selectOption(category);
    await page.getByRole("button", { name: "Use the category's sizes" }).click();
  };
  // QA's steps: Gents, Kids, Accessories, filled each time, nothing typed: one size in the end (and a blank row).
  await fill("Gents");
  await fill("Kids");
  await expect.poll(labels).toEqual(["EU 24", "EU 25", "EU 26", "EU 27", "EU 28", "EU 29", "EU 30", "EU 31", "EU 32", "EU 33", "EU 34", "EU 35", ""]);
  await fill("Accessories");
  await expect.poll(labels).toEqual(["One size", ""]);
  await expect(page.getByTestId("sizes-total")).toHaveText("0");

  // A filled row the admin typed a stock into is theirs: it stays (at its size's place where the category has it).
  await fill("Gents");
  await page.getByLabel("Stock of size 4", { exact: true }).fill("3"); // EU 42
  await page.getByLabel("Size 8", { exact: true }).fill("EU 46W"); // a label typed over EU 46
  await fill("Ladies");
  await expect.poll(labels).toEqual(["EU 35", "EU 36", "EU 37", "EU 38", "EU 39", "EU 40", "EU 41", "EU 42", "EU 46W", ""]);
  await expect(page.getByLabel("Stock of size 8", { exact: true })).toHaveValue("3");
  await expect(page.getByTestId("sizes-total")).toHaveText("3");
});

/** Widths on the page: each row's label and stock fields, the placeholder's text, the total's words and figure. */
async function sizesTableGeometry(page: Page) {
  return page.locator("fieldset").filter({ has: page.getByText("Sizes and stock", { exact: true }) }).evaluate((fieldset) => {
    const box = (element: Element) => element.getBoundingClientRect();
    const label = fieldset.querySelector<HTMLInputElement>('input[name$=".label"][placeholder]')!;
    const stock = fieldset.querySelector<HTMLInputElement>('input[name$=".stock"]')!;
    const style = getComputedStyle(label);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const words = Array.from(fieldset.querySelectorAll("tfoot *")).find((element) => element.childElementCount === 0 && element.textContent?.trim() === "Stock quantity (total)")!;
    // The text itself (a range), not its element: a table cell is as wide as its column, whatever its words.
    const text = (element: Element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return { box: range.getBoundingClientRect(), lines: new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size };
    };
    const [wordsText, totalText] = [text(words), text(fieldset.querySelector("[data-testid=sizes-total]")!)];
    const stockText = box(stock).right - parseFloat(getComputedStyle(stock).paddingRight) - parseFloat(getComputedStyle(stock).borderRightWidth);
    return {
      labelWidth: box(label).width,
      stockWidth: box(stock).width,
      placeholderFits: context.measureText(label.placeholder).width <= label.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      totalWordsLines: wordsText.lines,
      gapBetweenWordsAndTotal: totalText.box.left - wordsText.box.right,
      totalEndsWithTheFigures: Math.abs(totalText.box.right - stockText) <= 2,
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

for (const { label: width, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`the sizes table ${width} wide`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of ["light", "dark"] as const) {
      test(`reads well: the label the widest, the placeholder whole, the total on one line, one Remove box a size (${theme})`, async ({ page, context, baseURL }) => {
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        await logInAs(page);
        const shoe = await ownShoe(page, `E2E Sizes Table ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, [
          { label: "EU 40", stockQuantity: 8 },
          { label: "EU 41", stockQuantity: 1000 },
        ]);
        try {
          await gotoHydrated(page, `/product/update/${shoe.id}`);
          const sizes = page.locator("fieldset").filter({ has: page.getByText("Sizes and stock", { exact: true }) });
          const geometry = await sizesTableGeometry(page);
          expect(geometry.labelWidth, "the size's field is wider than the stock's").toBeGreaterThan(geometry.stockWidth * 1.3);
          expect(geometry.placeholderFits, "the placeholder is not cut").toBe(true);
          expect(geometry.totalWordsLines, "'Stock quantity (total)' on one line").toBe(1);
          expect(geometry.gapBetweenWordsAndTotal, "the total is not jammed against its words").toBeGreaterThanOrEqual(12);
          expect(geometry.totalEndsWithTheFigures, "the total lines up with the stock figures").toBe(true);
          expect(geometry.sideways).toBe(0);

          // One kind of Remove: a box for each saved size, none on a blank row, the same box once a new row is typed in.
          await expect(sizes.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
          await expect(sizes.getByRole("checkbox", { name: /^Remove size/ })).toHaveCount(2);
          await page.getByLabel("Size 3", { exact: true }).fill("EU 42");
          await page.getByLabel("Stock of size 3", { exact: true }).fill("6");
          const removeNew = sizes.getByRole("checkbox", { name: "Remove size EU 42", exact: true });
          await expect(removeNew).toBeVisible();
          await expect(sizes.getByRole("checkbox", { name: /^Remove size/ })).toHaveCount(3);
          const [savedBox, newBox] = [await sizes.getByRole("checkbox", { name: "Remove size EU 40" }).boundingBox(), await removeNew.boundingBox()];
          expect(Math.abs(savedBox!.x - newBox!.x), "in one column").toBeLessThanOrEqual(1);
          await expect(page.getByTestId("sizes-total")).toHaveText("1014");
          await page.evaluate(() => window.scrollTo(0, 0));
          await sizes.screenshot({ path: `${SHOTS}/sizes-table-${theme}-${width}.png` });

          // Ticked, the new row leaves the total and is not saved; the saved row ticked is removed, as before.
          await removeNew.check();
          await expect(page.getByTestId("sizes-total")).toHaveText("1008");
          await sizes.getByRole("checkbox", { name: "Remove size EU 41" }).check();
          await expect(page.getByTestId("sizes-total")).toHaveText("8");
          await sizes.screenshot({ path: `${SHOTS}/sizes-table-removed-${theme}-${width}.png` });
          await page.getByRole("button", { name: "Update Product" }).click();
          await expect(page).toHaveURL(`/product/${shoe.id}?saved=1`);
          const saved = (await (await page.request.get(`/api/product/${shoe.id}`)).json()) as ApiProduct;
          expect(saved.sizes.map((size) => [size.label, size.stockQuantity])).toEqual([["EU 40", 8]]);
        } finally {
          await page.request.delete(`/api/product/${shoe.id}`).catch(() => undefined);
        }
      });
    }
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the update form: a saved size's Remove box, a blank row to fill in, saved as before; new pictures' alt text comes after saving", async ({ page }) => {
    await logInAs(page);
    const shoe = await ownShoe(page, `E2E No Script Sizes ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, [
      { label: "EU 40", stockQuantity: 8 },
      { label: "EU 41", stockQuantity: 2 },
    ]);
    try {
      await page.goto(`/product/update/${shoe.id}`);
      // Without a script the chosen pictures are not listed before the save, so they have no alt text field yet: said.
      await expect(page.getByText("Alt text can be added once they are saved.", { exact: false })).toBeVisible();
      const sizes = page.locator("fieldset").filter({ has: page.getByText("Sizes and stock", { exact: true }) });
      // Blank rows have no Remove (they are skipped when left empty); no button that needs a script.
      await expect(sizes.getByRole("checkbox", { name: /^Remove size/ })).toHaveCount(2);
      await expect(sizes.getByRole("button")).toHaveCount(0);
      await sizes.getByRole("checkbox", { name: "Remove size EU 41" }).check();
      await page.getByLabel("Size 3", { exact: true }).fill("EU 43");
      await page.getByLabel("Stock of size 3", { exact: true }).fill("4");
      await page.getByRole("button", { name: "Update Product" }).click();
      await expect(page).toHaveURL(`/product/${shoe.id}?saved=1`);
      const saved = (await (await page.request.get(`/api/product/${shoe.id}`)).json()) as ApiProduct;
      expect(saved.sizes.map((size) => [size.label, size.stockQuantity])).toEqual([["EU 40", 8], ["EU 43", 4]]);
    } finally {
      await page.request.delete(`/api/product/${shoe.id}`).catch(() => undefined);
    }
  });

  test("the size picker posts the chosen size, and asks for one when none is chosen", async ({ page, request }) => {
    const { product, inStock } = await shoeWithSoldOutSize(request);
    await page.goto(`/product/${product.id}`);
    await page.getByRole("button", { name: `Add to Cart: ${product.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${product.id}\\?cartError=`));
    await expect(page.getByText("Please select a size")).toBeVisible();

    await chooseSize(page, inStock.label);
    await page.getByRole("button", { name: `Add to Cart: ${product.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${product.id}\\?added=`));
    await page.goto("/cart");
    await expect(page.getByTestId("cart-line")).toContainText(`Size: ${inStock.label}`);
  });
});
