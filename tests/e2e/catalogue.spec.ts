import { expect, test, type APIRequestContext, type Locator, type Page, type Request } from "@playwright/test";

import { DEMO_ADMIN, DEMO_CUSTOMER, gotoHydrated, isDemoProduct, logIn, pngFromPixels, waitForHydration } from "./helpers";

// The catalogue in a real browser against the real Worker, D1 and R2 (no mocks): categories, the live search, an
// admin's add / update / delete of a product, the product form's validation and guards, add to cart from a card,
// and the product page. Every test starts from a fresh browser context and reads what it needs from the API, so none
// depends on another or on the order they run in; the one product a test creates is deleted again (also on failure).
//
// Desktop only (1280x800, as playwright.config.ts sets): below 1024px the navigation folds behind "Menu".

interface ApiProduct {
  id: number;
  name: string;
  brand: string;
  description: string;
  price: number;
  category: "Gents" | "Ladies" | "Kids" | "Accessories";
  stockQuantity: number;
  releaseDate: string;
  productAvailable: boolean;
  imageUrl: string | null;
}

const GRID_PAGE_SIZE = 24; // PAGE_SIZE in app/lib/schemas/product.ts
const NO_MATCH = "No shoes found with that name";

const formatRs = (amount: number) => `Rs ${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A unique mark for the names and brands a test writes, so they never meet another test's (or an earlier run's). */
const uniqueMark = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** A width x height RGB PNG: diagonal orange and teal stripes, so a preview or a card plainly shows it. */
function stripedPng(width: number, height: number): Buffer {
  return pngFromPixels(width, height, (x, y) => (Math.floor((x + y) / 8) % 2 ? [249, 115, 22] : [13, 148, 136]));
}

const PICTURE_WIDTH = 96;
const picture = { name: "e2e-shoe.png", mimeType: "image/png", buffer: stripedPng(PICTURE_WIDTH, 64) };

// ---- page helpers ----

/** The first 100 products, newest first, without the ones tests create (which another test may delete at any time). */
async function demoProducts(request: APIRequestContext): Promise<ApiProduct[]> {
  const response = await request.get("/api/products");
  expect(response.ok()).toBe(true);
  return ((await response.json()) as ApiProduct[]).filter(isDemoProduct);
}

/** The navigation bar (desktop): the phone copy inside the folded menu is hidden and so never matches. */
const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const searchBox = (page: Page) => page.getByRole("combobox", { name: "Search shoes" });
const cards = (page: Page) => page.getByTestId("product-card");
const cardNames = (page: Page) => cards(page).getByRole("heading", { level: 3 }).allTextContents();
const cardOf = (page: Page, name: string) => cards(page).filter({ has: page.getByRole("heading", { level: 3, name, exact: true }) });
const insideOf = (inner: { x: number; y: number; width: number; height: number }, outer: typeof inner) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
const cartLink = (page: Page, count: number) => mainNav(page).getByRole("link", { name: `Cart, ${count} ${count === 1 ? "item" : "items"}` });

/** An image that the browser has really loaded and decoded: its natural width, or 0. */
const naturalWidth = (image: Locator) => image.evaluate((element: HTMLImageElement) => (element.complete ? element.naturalWidth : 0));

async function logInAsAdmin(page: Page, landing: string): Promise<void> {
  await gotoHydrated(page, `/login?redirect=${encodeURIComponent(landing)}`);
  await logIn(page, DEMO_ADMIN);
  await expect(page).toHaveURL(landing);
  await waitForHydration(page);
}

// ---- 1. categories ----

test("choosing a category shows only its products, and Clear Filter brings the whole catalogue back", async ({ page }) => {
  await gotoHydrated(page, "/");
  const nav = mainNav(page);
  // A <details> (role group); the phone copy in the folded menu is hidden, so only the desktop one matches.
  const categories = nav.getByRole("group").filter({ has: page.getByText("Categories", { exact: true }) });
  await expect(categories).toHaveCount(1);
  await expect(categories.getByRole("link", { name: "Ladies", exact: true })).toBeHidden();
  await categories.getByText("Categories", { exact: true }).click();
  await expect(categories).toHaveJSProperty("open", true);
  for (const name of ["All Products", "Gents", "Ladies", "Kids", "Accessories"]) await expect(categories.getByRole("link", { name, exact: true })).toBeVisible();

  await categories.getByRole("link", { name: "Ladies", exact: true }).click();
  await expect(page).toHaveURL("/?category=Ladies");
  await waitForHydration(page);

  // What the shop holds in Ladies now (read after the page, so a product added meanwhile cannot make it wrong).
  const response = await page.request.get(`/api/products?category=Ladies&page=1&pageSize=100`);
  expect(response.ok()).toBe(true);
  const ladies = (await response.json()) as ApiProduct[];
  const total = Number(response.headers()["x-total-count"]);
  expect(total).toBeGreaterThan(0);
  expect(ladies.every((product) => product.category === "Ladies")).toBe(true);

  const banner = page.getByRole("region", { name: "Category filter" });
  await expect(banner).toContainText(`Showing Ladies · ${total} ${total === 1 ? "product" : "products"}`);
  await expect(page.getByRole("heading", { level: 1, name: "Ladies", exact: true })).toBeVisible();
  await expect(page).toHaveTitle("Ladies | Stride");

  await expect(cards(page)).toHaveCount(Math.min(total, GRID_PAGE_SIZE));
  const ladiesNames = new Set(ladies.map((product) => product.name));
  for (const name of await cardNames(page)) expect(ladiesNames, `"${name}" is a Ladies product`).toContain(name);

  // Clear Filter: a full page load back to the whole catalogue.
  await banner.getByRole("link", { name: "Clear Filter" }).click();
  await expect(page).toHaveURL("/");
  await waitForHydration(page);
  await expect(banner).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 2, name: "All Products", exact: true })).toBeVisible();
  const everything = await page.request.get("/api/products?page=1");
  const grandTotal = Number(everything.headers()["x-total-count"]);
  expect(grandTotal).toBeGreaterThan(total);
  await expect(cards(page)).toHaveCount(Math.min(grandTotal, GRID_PAGE_SIZE));
  const names = await cardNames(page);
  expect(names.some((name) => !ladiesNames.has(name)), "the grid shows more than Ladies again").toBe(true);
  if (grandTotal > GRID_PAGE_SIZE) await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "2", exact: true })).toBeVisible();
});

// ---- 2. search ----

/** A demo product and a piece of its name (lower case) that matches that product alone, by name, brand or category. */
async function productWithUniqueKeyword(request: APIRequestContext): Promise<{ product: ApiProduct; keyword: string }> {
  for (const product of await demoProducts(request)) {
    for (const word of product.name.split(/\s+/)) {
      if (!/^[A-Za-z]{6,}$/.test(word)) continue;
      const keyword = word.slice(0, 5).toLowerCase();
      const matches = (await (await request.get(`/api/products/search?${new URLSearchParams({ keyword })}`)).json()) as ApiProduct[];
      if (matches.length === 1 && matches[0].id === product.id) return { product, keyword };
    }
  }
  throw new Error("no demo product has a word of its own in its name");
}

test("the navigation search suggests a product and opens it from the keyboard", async ({ page }) => {
  const { product, keyword } = await productWithUniqueKeyword(page.request);
  await gotoHydrated(page, "/");
  const input = searchBox(page);
  await expect(input).toHaveAttribute("placeholder", "Search shoes...");

  await input.fill(keyword);
  const list = page.getByRole("listbox", { name: "Matching products" });
  await expect(list).toBeVisible();
  await expect(input).toHaveAttribute("aria-expanded", "true");
  const options = list.getByRole("option");
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText(product.name);
  await expect(options.first()).toHaveAttribute("href", `/product/${product.id}`); // the option is the link

  // ArrowDown marks the suggestion (aria-activedescendant, aria-selected); Enter opens it.
  await input.press("ArrowDown");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await expect(input).toHaveAttribute("aria-activedescendant", (await options.first().getAttribute("id"))!);
  await input.press("Enter");
  await expect(page).toHaveURL(`/product/${product.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
  await expect(list).toBeHidden();
});

test("a plural finds its singular: 'sneakers' suggests the sneakers, and Enter shows them under a note", async ({ page }) => {
  // No product has "sneakers" in it; the demo catalogue's sneakers have "Sneaker".
  const query = { keyword: "sneakers", page: "1", pageSize: String(GRID_PAGE_SIZE) };
  expect(await (await page.request.get(`/api/products/search?${new URLSearchParams(query)}`)).json()).toEqual([]);
  const answer = await page.request.get(`/api/products/search?${new URLSearchParams({ ...query, fallback: "words" })}`);
  expect(answer.headers()["x-search-match"]).toBe("words");
  const sneakers = ((await answer.json()) as ApiProduct[]).filter(isDemoProduct);
  expect(sneakers.length).toBeGreaterThan(1);

  await gotoHydrated(page, "/");
  const input = searchBox(page);
  await input.fill("sneakers");
  const list = page.getByRole("listbox", { name: "Matching products" });
  await expect(list).toBeVisible();
  await expect(page.getByRole("banner").getByText("No exact match. Products matching “sneaker”:")).toBeVisible();
  await expect(list.getByRole("option").filter({ hasText: sneakers[0].name })).toHaveCount(1);
  await expect(page.getByText(NO_MATCH, { exact: true })).toHaveCount(0);

  await input.press("Enter");
  await expect(page).toHaveURL((url) => url.pathname === "/search" && url.searchParams.get("keyword") === "sneakers");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “sneakers”");
  await expect(page.getByRole("main").getByRole("note")).toHaveText("No product has “sneakers” in its name. Showing products matching “sneaker”.");
  for (const sneaker of sneakers) await expect(cardOf(page, sneaker.name)).toHaveCount(1);
  await expect(page.getByText(NO_MATCH, { exact: true })).toHaveCount(0);
});

test("a misspelt keyword: 'snekers' asks 'Did you mean “sneakers”?', and Enter shows the sneakers under a note", async ({ page }) => {
  // Neither "snekers" nor its words are in any product; the demo catalogue's sneakers have "Sneaker".
  const query = { keyword: "snekers", page: "1", pageSize: String(GRID_PAGE_SIZE) };
  expect(await (await page.request.get(`/api/products/search?${new URLSearchParams({ ...query, fallback: "words" })}`)).json()).toEqual([]);
  const answer = await page.request.get(`/api/products/search?${new URLSearchParams({ ...query, fallback: "spelling" })}`);
  expect(answer.headers()["x-search-match"]).toBe("spelling");
  expect(answer.headers()["x-search-corrected"]).toBe("sneakers");
  const sneakers = ((await answer.json()) as ApiProduct[]).filter(isDemoProduct);
  expect(sneakers.length).toBeGreaterThan(1);

  await gotoHydrated(page, "/");
  const input = searchBox(page);
  await input.fill("snekers");
  const list = page.getByRole("listbox", { name: "Matching products" });
  await expect(list).toBeVisible();
  await expect(page.getByRole("banner").getByText("Did you mean “sneakers”?")).toBeVisible();
  await expect(list.getByRole("option").filter({ hasText: sneakers[0].name })).toHaveCount(1);
  await expect(page.getByText(NO_MATCH, { exact: true })).toHaveCount(0);

  await input.press("Enter");
  await expect(page).toHaveURL((url) => url.pathname === "/search" && url.searchParams.get("keyword") === "snekers");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “snekers”");
  await expect(page.getByRole("main").getByRole("note")).toHaveText("No product has “snekers” in its name. Showing results for “sneakers”.");
  for (const sneaker of sneakers) await expect(cardOf(page, sneaker.name)).toHaveCount(1);
  await expect(page.getByText(NO_MATCH, { exact: true })).toHaveCount(0);
});

test("a product page opened from the grid says 'Loading...' until it is loaded (SPEC)", async ({ page }) => {
  await gotoHydrated(page, "/?category=Accessories");
  const card = page.getByTestId("product-card").first();
  const name = (await card.getByRole("heading", { level: 3 }).textContent())!;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/product/*.data*", async (route) => {
    await held;
    await route.continue();
  });
  await card.getByRole("link", { name }).click();
  await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toBeVisible();
  release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toHaveCount(0);
});

test("a search that fails is only logged: the page stays, and the next one suggests again", async ({ page }) => {
  const { product, keyword } = await productWithUniqueKeyword(page.request);
  await gotoHydrated(page, "/");
  const logged: string[] = [];
  page.on("console", (message) => message.type() === "error" && logged.push(message.text()));
  await page.route("**/api/products/search?*", (route) => route.abort("internetdisconnected"));
  const input = searchBox(page);
  await input.fill(keyword);
  await expect.poll(() => logged.some((text) => text.includes("Search failed"))).toBe(true);
  await expect(page.getByRole("listbox", { name: "Matching products" })).toBeHidden();
  await expect(page.getByTestId("product-card").first()).toBeVisible();
  await expect(page.getByText("Unexpected Application Error!")).toHaveCount(0);

  await page.unroute("**/api/products/search?*");
  await input.fill(`${keyword} `);
  await expect(page.getByRole("listbox", { name: "Matching products" }).getByRole("option").first()).toContainText(product.name);
});

test("the search says when nothing matches, Escape closes it, and Enter opens the results page", async ({ page }) => {
  const [product] = await demoProducts(page.request);
  await gotoHydrated(page, "/");
  const input = searchBox(page);

  // Nothing matches: the message, not an empty list.
  await input.fill("zzqxw");
  await expect(page.getByText(NO_MATCH, { exact: true })).toBeVisible();
  await expect(page.getByRole("listbox")).toHaveCount(0);

  // Escape closes the dropdown and keeps the text (only a second Escape lets the browser empty the box).
  await input.press("Escape");
  await expect(page.getByText(NO_MATCH, { exact: true })).toBeHidden();
  await expect(input).toHaveAttribute("aria-expanded", "false");

  // A suggestion list closes on Escape too.
  const keyword = product.brand;
  await input.fill(keyword);
  const list = page.getByRole("listbox", { name: "Matching products" });
  await expect(list).toBeVisible();
  await expect(list.getByRole("option").filter({ hasText: product.name })).toHaveCount(1);
  await input.press("Escape");
  await expect(list).toBeHidden();
  await expect(input).toHaveAttribute("aria-expanded", "false");

  // Enter (nothing picked) submits the keyword: the results page lists what the API finds.
  const expected = (await (await page.request.get(`/api/products/search?${new URLSearchParams({ keyword, page: "1", pageSize: String(GRID_PAGE_SIZE) })}`)).json()) as ApiProduct[];
  expect(expected.length).toBeGreaterThan(0);
  await input.fill(""); // Escape kept the text; type it afresh
  await input.fill(keyword);
  await expect(list).toBeVisible();
  await input.press("Enter");
  await expect(page).toHaveURL((url) => url.pathname === "/search" && url.searchParams.get("keyword") === keyword);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Results for “${keyword}”`);
  await expect(cards(page)).toHaveCount(expected.length);
  expect((await cardNames(page)).sort()).toEqual(expected.map((p) => p.name).sort());
  // The box keeps the keyword on the results page.
  await expect(searchBox(page)).toHaveValue(keyword);

  // A keyword that matches nothing, by Enter: the results page says so. (Enter once the dropdown has answered: an
  // Enter sooner than that can reopen the dropdown over the results page, a reported SearchBox bug.)
  await searchBox(page).fill("zzqxw");
  await expect(page.getByRole("banner").getByText(NO_MATCH, { exact: true })).toBeVisible();
  await searchBox(page).press("Enter");
  await expect(page).toHaveURL("/search?keyword=zzqxw");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “zzqxw”");
  await expect(page.getByRole("main").getByText(NO_MATCH, { exact: true })).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
});

test.describe("on a touch screen", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("a search sent from the box lets go of it, so the phone's keyboard does not cover the results", async ({ page }) => {
    await gotoHydrated(page, "/");
    const input = searchBox(page);
    await input.fill("sneakers");
    await input.press("Enter");
    await expect(page).toHaveURL((url) => url.pathname === "/search" && url.searchParams.get("keyword") === "sneakers");
    await waitForHydration(page);
    await expect(input).toHaveValue("sneakers");
    await expect(input).not.toBeFocused();
    // The results' heading has the focus instead (a screen reader starts there).
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  });

  test("a category is one tap away on the first screen, in the home page's 'Shop by category'", async ({ page }) => {
    await gotoHydrated(page, "/");
    const shortcuts = page.getByRole("navigation", { name: "Shop by category" });
    await expect(shortcuts.getByRole("link")).toHaveText(["Gents", "Ladies", "Kids", "Accessories"]);
    const kids = shortcuts.getByRole("link", { name: "Kids" });
    expect((await kids.boundingBox())!.y + 44).toBeLessThan(844);
    await kids.tap();
    await expect(page).toHaveURL("/?category=Kids");
    await expect(page.getByRole("heading", { level: 1, name: "Kids" })).toBeVisible();
  });
});

// ---- 3. admin add / update / delete ----

test("an admin adds a product with a picture, finds it on the grid, updates it and deletes it", async ({ page }) => {
  test.slow(); // about 20 steps, two uploads and a deletion, on a machine that may be busy
  const mark = uniqueMark();
  const name = `E2E Trail Sandal ${mark}`;
  const brand = `E2E Brand ${mark}`;
  const description = "A light trail sandal for the hill country.\nMade for an end-to-end test.";
  const releaseDate = new Date().toISOString().slice(0, 10); // today: first on the grid sorted by newest
  let createdId: number | undefined;

  try {
    await logInAsAdmin(page, "/add_product");
    await expect(page.getByRole("heading", { level: 1, name: "Add Product" })).toBeVisible();

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Brand", { exact: true }).fill(brand);
    await page.getByLabel("Description", { exact: true }).fill(description);
    await page.getByLabel("Price (LKR)", { exact: true }).fill("12345");
    await page.getByLabel("Category", { exact: true }).selectOption("Accessories");
    await page.getByLabel("Stock of size 1", { exact: true }).fill("7"); // the one size ("One size") of an accessory
    await page.getByLabel("Release date", { exact: true }).fill(releaseDate);
    const available = page.getByLabel("Product Available", { exact: true });
    await expect(available).toBeChecked(); // new products are for sale unless unticked
    await available.check();

    // The picture: a preview appears before anything is uploaded.
    await expect(page.getByRole("img", { name: "Preview of new picture 1" })).toHaveCount(0);
    await page.getByLabel("Pictures (the first is the card's)", { exact: true }).setInputFiles(picture);
    const preview = page.getByRole("img", { name: "Preview of new picture 1" });
    await expect(preview).toBeVisible();
    await expect(preview).toHaveAttribute("src", /^blob:/);
    await expect.poll(() => naturalWidth(preview)).toBe(PICTURE_WIDTH);

    await page.getByRole("button", { name: "Add Product", exact: true }).click();
    await expect(page).toHaveURL(/\/product\/\d+\?saved=1$/);
    createdId = Number(new URL(page.url()).pathname.split("/").pop());
    const id = createdId;
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page.getByText(brand, { exact: true })).toBeVisible();
    await expect(page.getByText(formatRs(12345), { exact: true })).toBeVisible();
    await expect(page.getByText("Stock available: 7", { exact: true })).toBeVisible();
    const pageImage = page.getByRole("img", { name: `${brand} ${name}` });
    await expect(pageImage).toHaveAttribute("src", new RegExp(`/api/product/${id}/image`));
    await expect.poll(() => naturalWidth(pageImage)).toBe(PICTURE_WIDTH);

    // Stored as entered.
    const stored = (await (await page.request.get(`/api/product/${id}`)).json()) as ApiProduct;
    // (The browser sends a textarea's line breaks as CRLF, and the server keeps them: compare the text, not the breaks.)
    expect({ ...stored, description: stored.description.replace(/\r\n/g, "\n") }).toMatchObject({ id, name, brand, description, price: 12345, category: "Accessories", stockQuantity: 7, releaseDate, productAvailable: true });

    // The home grid, newest first: the card with its picture and its price.
    await gotoHydrated(page, "/?sort=newest");
    const card = cardOf(page, name);
    await expect(card).toHaveCount(1);
    const cardImage = card.getByRole("img", { name: `${brand} ${name}` });
    await expect(cardImage).toHaveAttribute("src", new RegExp(`/api/product/${id}/image`));
    await expect.poll(() => naturalWidth(cardImage)).toBe(PICTURE_WIDTH);
    await expect(card.getByText(formatRs(12345), { exact: true })).toBeVisible();
    await expect(card.getByRole("button", { name: `Add to Cart: ${name}`, exact: true })).toBeEnabled();

    // Update: the form comes prefilled; a new name and price, the picture kept.
    await card.getByRole("heading", { level: 3 }).getByRole("link").click();
    await expect(page).toHaveURL(`/product/${id}`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "Update Product" }).click();
    await expect(page).toHaveURL(`/product/update/${id}`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Update Product" })).toBeVisible();
    const nameField = page.getByLabel("Name", { exact: true });
    await expect(nameField).toHaveValue(name);
    await expect(page.getByLabel("Brand", { exact: true })).toHaveValue(brand);
    await expect(page.getByLabel("Price (LKR)", { exact: true })).toHaveValue("12345");
    await expect(page.getByLabel("Category", { exact: true })).toHaveValue("Accessories");
    await expect(page.getByLabel("Stock of size 1", { exact: true })).toHaveValue("7");
    await expect(page.getByTestId("sizes-total")).toHaveText("7");
    await expect(page.getByLabel("Release date", { exact: true })).toHaveValue(releaseDate);
    // The current pictures: the one added, as picture 1 (served by /images/1).
    await expect(page.getByRole("img", { name: `${brand} ${name}`, exact: true })).toHaveAttribute("src", new RegExp(`/api/product/${id}/images/1\\?v=`));

    const newName = `${name} Mk II`;
    await nameField.fill(newName);
    await page.getByLabel("Price (LKR)", { exact: true }).fill("15999.5");
    await page.getByRole("button", { name: "Update Product", exact: true }).click();
    await expect(page).toHaveURL(`/product/${id}?saved=1`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(newName);
    await expect(page.getByText(formatRs(15999.5), { exact: true })).toBeVisible();
    await expect(page.getByText(formatRs(12345), { exact: true })).toHaveCount(0);
    const keptImage = page.getByRole("img", { name: `${brand} ${newName}` });
    await expect(keptImage).toHaveAttribute("src", new RegExp(`/api/product/${id}/image`));
    await expect.poll(() => naturalWidth(keptImage)).toBe(PICTURE_WIDTH);
    expect(await (await page.request.get(`/api/product/${id}`)).json()).toMatchObject({ name: newName, price: 15999.5, brand, stockQuantity: 7 });

    // Delete: the browser asks first; accepted, the product is gone.
    const dialogs: string[] = [];
    page.once("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole("link", { name: "Delete Product" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/");
    expect(dialogs).toEqual([`Delete "${newName}"? This cannot be undone.`]);
    await waitForHydration(page);
    expect((await page.request.get(`/api/product/${id}`)).status()).toBe(404);
    expect((await page.request.get(`/api/product/${id}/image`)).status()).toBe(404);
    await expect(cardOf(page, newName)).toHaveCount(0);
    createdId = undefined;
  } finally {
    // A failure half-way must not leave the product on the shop for other tests (the session cookie is the admin's).
    if (createdId !== undefined) await page.request.delete(`/api/product/${createdId}`).catch(() => undefined);
  }
});

// ---- 4. validation ----

test("the add form refuses an empty name, says so next to the field, and creates nothing", async ({ page }) => {
  const mark = uniqueMark();
  const brand = `E2E Nameless ${mark}`;
  await logInAsAdmin(page, "/add_product");

  // Everything but the name.
  await page.getByLabel("Brand", { exact: true }).fill(brand);
  await page.getByLabel("Description", { exact: true }).fill("Should never be saved.");
  await page.getByLabel("Price (LKR)", { exact: true }).fill("4990");
  await page.getByLabel("Category", { exact: true }).selectOption("Kids");
  await page.getByLabel("Stock of size 1", { exact: true }).fill("3");
  await page.getByLabel("Release date", { exact: true }).fill("2026-01-15");
  await page.getByLabel("Pictures (the first is the card's)", { exact: true }).setInputFiles(picture);
  await page.getByRole("button", { name: "Add Product", exact: true }).click();

  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Name is required");
  await expect(page.locator("#name-error")).toHaveText("Name is required");
  await expect(page.getByRole("alert")).toBeVisible(); // the form's summary line
  await expect(page).toHaveURL("/add_product");
  // Only the name is wrong: the other fields are neither flagged nor emptied.
  await expect(page.getByLabel("Brand", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Brand", { exact: true })).toHaveValue(brand);
  await expect(page.getByLabel("Price (LKR)", { exact: true })).toHaveValue("4990");

  // Nothing was stored.
  const found = (await (await page.request.get(`/api/products/search?${new URLSearchParams({ keyword: brand })}`)).json()) as ApiProduct[];
  expect(found).toEqual([]);
});

// ---- 5. who may add products ----

test("a customer who opens /add_product lands on the shop", async ({ page }) => {
  await gotoHydrated(page, "/login");
  await logIn(page, DEMO_CUSTOMER);
  await expect(page).toHaveURL("/");
  await expect(mainNav(page).getByRole("link", { name: "Add Product" })).toHaveCount(0);

  await page.goto("/add_product");
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1, name: "Add Product" })).toHaveCount(0);
});

test("a visitor who opens /add_product is asked to log in first", async ({ page }) => {
  await page.goto("/add_product");
  await expect(page).toHaveURL("/login?redirect=%2Fadd_product");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
});

// ---- 6. add to cart from a card ----

test("a visitor adds a product from its card: a toast that hides itself, and the cart count rises", async ({ page }) => {
  await gotoHydrated(page, "/");
  await expect(cartLink(page, 0)).toBeVisible();
  await expect(cartLink(page, 0).getByTestId("cart-count")).toHaveText("0");

  // Any product but one a test made (another test may delete it meanwhile).
  const button = cards(page).getByRole("button", { name: /^Add to Cart: (?!E2E )/ }).first();
  await button.click();
  const toast = page.getByRole("status").filter({ hasText: "Added to your cart" });
  // Timed in the page, every frame: Playwright's own polling backs off to a second, which on a busy machine would
  // shorten a time measured from Node by as much.
  const pageTimeWhen = async (shown: boolean, timeout: number) =>
    (
      await page.waitForFunction(
        (expected) => {
          const present = Array.from(document.querySelectorAll("[role=status]")).some((element) => element.textContent?.includes("Added to your cart"));
          return present === expected ? performance.now() : 0;
        },
        shown,
        { polling: "raf", timeout },
      )
    ).jsonValue();
  const shownAt = await pageTimeWhen(true, 10_000);
  await expect(toast).toBeVisible();
  await expect(cartLink(page, 1)).toBeVisible();
  await expect(cartLink(page, 1).getByTestId("cart-count")).toHaveText("1");

  // It goes by itself after about 5 s: not much sooner, and within 8 s.
  const hiddenAt = await pageTimeWhen(false, 8_000);
  expect(hiddenAt - shownAt, "the toast stayed about 5 s").toBeGreaterThan(4_000);
  await expect(toast).toBeHidden();
  await expect(cartLink(page, 1)).toBeVisible();
});

test("the toast of an add offers View cart, which opens the cart holding the product", async ({ page }) => {
  const [product] = (await demoProducts(page.request)).filter((item) => item.stockQuantity > 0 && item.productAvailable && item.category === "Accessories");
  await gotoHydrated(page, `/?category=${product.category}`);
  await cardOf(page, product.name).getByRole("button", { name: `Add to Cart: ${product.name}`, exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added to your cart" })).toBeVisible();
  await page.getByRole("link", { name: "View cart" }).click();
  await expect(page).toHaveURL("/cart");
  await expect(page.getByRole("main").getByText(product.name, { exact: true })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a card's Add to Cart posts a plain form and comes back to the same page, one more in the cart", async ({ page }) => {
    // A one-size product: a shoe's card sends the shopper to its page to choose a size (tests/e2e/sizes.spec.ts).
    const [product] = (await demoProducts(page.request)).filter((item) => item.stockQuantity > 0 && item.productAvailable && item.category === "Accessories");
    await page.goto(`/?category=${product.category}`);
    await expect(cartLink(page, 0)).toBeVisible();
    await cardOf(page, product.name).getByRole("button", { name: `Add to Cart: ${product.name}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`^[^?]+\\?category=${product.category}&added=`));
    await expect(cartLink(page, 1)).toBeVisible();

    await expect(page.getByRole("status").filter({ hasText: "Added to your cart" })).toBeVisible();
    await page.getByRole("link", { name: "View cart" }).click();
    await expect(page).toHaveURL("/cart");
    await expect(page.getByRole("main").getByText(product.name, { exact: true })).toBeVisible();
  });

  test("an add from the search results comes back to them and says so", async ({ page }) => {
    const [product] = (await demoProducts(page.request)).filter((item) => item.stockQuantity > 0 && item.productAvailable && item.category === "Accessories");
    await page.goto(`/search?keyword=${encodeURIComponent(product.name)}`);
    await cardOf(page, product.name).getByRole("button", { name: `Add to Cart: ${product.name}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`^[^?]+/search\\?keyword=[^&]+&added=${product.id}$`));
    await expect(page.getByRole("status").filter({ hasText: "Added to your cart" })).toBeVisible();
    await expect(page.getByRole("link", { name: "View cart" })).toBeVisible();
    await expect(cardOf(page, product.name)).toBeVisible();
    await expect(cartLink(page, 1)).toBeVisible();
  });
});

// ---- 7. the product page ----

test("View Reviews scrolls the reviews into view", async ({ page }) => {
  const [product] = (await demoProducts(page.request)).filter((p) => p.productAvailable && p.stockQuantity > 0);
  await gotoHydrated(page, `/product/${product.id}`);
  const reviews = page.getByRole("heading", { level: 2, name: "Customer reviews" });
  await expect(reviews).not.toBeInViewport();

  await page.getByRole("link", { name: "View Reviews" }).click();
  await expect(reviews).toBeInViewport();
  await expect(page).toHaveURL(`/product/${product.id}`); // scrolled in place, no navigation
});

test("an out-of-stock product shows a disabled Out of Stock button, and its card the Out of Stock badge", async ({ page }) => {
  const soldOut = (await demoProducts(page.request)).filter((product) => product.stockQuantity === 0);
  expect(soldOut.length, "demo data has products with no stock").toBeGreaterThanOrEqual(2);

  for (const product of soldOut.slice(0, 2)) {
    await gotoHydrated(page, `/product/${product.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
    // Named by its product, as Add to Cart is (the cards of "You may also like" may have their own).
    await expect(page.getByRole("button", { name: `Out of Stock: ${product.name}`, exact: true })).toBeDisabled();
    // No Add to Cart for this product (the cards of "You may also like" below have their own, named by their product).
    await expect(page.getByRole("button", { name: `Add to Cart: ${product.name}`, exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Add to Cart/ })).toHaveCount(await page.getByRole("region", { name: "You may also like" }).getByRole("button", { name: /^Add to Cart/ }).count());
    await expect(page.getByText(product.productAvailable ? "Out of stock" : "Currently unavailable", { exact: true })).toBeVisible();

    // On the grid (its category, so it is on the first page): the badge over the picture and the same disabled button.
    await gotoHydrated(page, `/?category=${product.category}`);
    const card = cardOf(page, product.name);
    await expect(card).toHaveCount(1);
    const badge = card.locator("span", { hasText: /^Out of Stock$/ });
    await expect(badge).toBeVisible();
    const [badgeBox, pictureBox] = [await badge.boundingBox(), await card.getByRole("img").boundingBox()];
    expect(badgeBox && pictureBox && insideOf(badgeBox, pictureBox), "the badge sits over the picture").toBe(true);
    await expect(card.getByRole("button", { name: `Out of Stock: ${product.name}`, exact: true })).toBeDisabled();
  }
});

test("on a phone every card is at least 250px wide (SPEC), whole, and nothing scrolls sideways", async ({ page }) => {
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await gotoHydrated(page, "/?category=Gents");
    const widths = await page.getByTestId("product-card").evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().width));
    expect(widths.length, `${width}`).toBeGreaterThan(1);
    expect(Math.min(...widths), `${width}: the narrowest card`).toBeGreaterThanOrEqual(250);
    // Nothing in a card is cut or wrapped out of it: its price and button each on one line, inside the card.
    const overflowing = await page.getByTestId("product-card").evaluateAll((cards) =>
      cards.filter((card) => Array.from(card.querySelectorAll<HTMLElement>("[data-testid=card-price], a.btn-secondary, button")).some((part) => part.scrollWidth > part.clientWidth + 1 || part.getBoundingClientRect().right > card.getBoundingClientRect().right)).length,
    );
    expect(overflowing, `${width}: cards whose price or button overflows`).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width}`).toBeLessThanOrEqual(width);
  }
});

test("a card is one link to its product: a click on the picture opens it, the Add to Cart button does not", async ({ page }) => {
  const [product] = (await demoProducts(page.request)).filter((item) => item.stockQuantity > 0 && item.productAvailable && item.category === "Accessories");
  await gotoHydrated(page, `/?category=${product.category}`);
  const card = cardOf(page, product.name);
  await expect(card.getByRole("link")).toHaveCount(1);
  await expect(card.getByRole("link")).toHaveAccessibleName(product.name);

  await card.getByRole("button", { name: `Add to Cart: ${product.name}`, exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added to your cart" })).toBeVisible();
  await expect(page).toHaveURL(`/?category=${product.category}`);

  // Pointing at the card prefetches the product's data, as <Link prefetch="intent"> does.
  const picture = (await card.getByRole("img").boundingBox())!;
  await page.mouse.move(picture.x + picture.width / 2, picture.y + picture.height / 2);
  await expect(page.locator(`link[rel="prefetch"][href^="/product/${product.id}.data"]`)).toHaveCount(1);

  // Where a shopper clicks: the middle of the picture, which the name's link covers. The page is not reloaded: the
  // grid navigates in the app, as a <Link> would (a marker on window survives).
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.mouse.click(picture.x + picture.width / 2, picture.y + picture.height / 2);
  await expect(page).toHaveURL(`/product/${product.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
  expect(await page.evaluate(() => "sameDocument" in window), "navigated without reloading the page").toBe(true);

  // From the keyboard: the link takes focus and Enter opens the product.
  await page.goBack();
  await expect(page).toHaveURL(`/?category=${product.category}`);
  await cardOf(page, product.name).getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/product/${product.id}`);
});

test("two products added one right after the other both show Adding..., go one at a time, are both answered and both in the cart", async ({ page }) => {
  const [first, second] = (await demoProducts(page.request)).filter((item) => item.stockQuantity > 0 && item.productAvailable && item.category === "Accessories");
  await gotoHydrated(page, "/?category=Accessories");
  await expect(cartLink(page, 0)).toBeVisible();
  // The first add answers slowly, so the second click comes while the first is still on its way.
  let delayed = false;
  await page.route("**/cart/add*", async (route) => {
    if (!delayed) {
      delayed = true;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    await route.continue().catch(() => {}); // the page may be gone by then
  });
  const aborted: string[] = [];
  page.on("requestfailed", (request) => request.url().includes("/cart/add") && aborted.push(request.url()));
  // A visitor's cart is one cookie that each add writes whole from the one its request carried: an add sent before
  // the one ahead of it is answered starts from the old cart, and the later answer drops the other's line (that lost
  // a product now and then when the server was slow). So the page sends the second add once the first is answered.
  const traffic: string[] = [];
  const productOf = (request: Request) => new URLSearchParams(request.postData() ?? "").get("productId");
  page.on("request", (request) => request.url().includes("/cart/add") && traffic.push(`sent ${productOf(request)}`));
  page.on("requestfinished", (request) => request.url().includes("/cart/add") && traffic.push(`answered ${productOf(request)}`));

  // The name starts with the words shown: "Add to Cart: {name}", then "Adding to Cart: {name}" while it is on its way.
  const buttonOf = (product: ApiProduct, verb = "Add") => cardOf(page, product.name).getByRole("button", { name: `${verb} to Cart: ${product.name}`, exact: true });
  await buttonOf(first).click();
  await buttonOf(second).click();
  // Each product has its own fetcher: neither add cancels the other, and the one waiting its turn says so too.
  await expect(buttonOf(first, "Adding")).toHaveText("Adding...");
  await expect(buttonOf(second, "Adding")).toHaveText("Adding...");
  // And each its own answer: two toasts.
  await expect(page.getByRole("status").filter({ hasText: "Added to your cart" })).toHaveCount(2);
  await expect(cartLink(page, 2)).toBeVisible();
  expect(aborted, "no add was cancelled").toEqual([]);
  expect(traffic).toEqual([`sent ${first.id}`, `answered ${first.id}`, `sent ${second.id}`, `answered ${second.id}`]);

  await page.unroute("**/cart/add*");
  await cartLink(page, 2).click();
  await expect(page).toHaveURL("/cart");
  for (const product of [first, second]) await expect(page.getByRole("main").getByText(product.name, { exact: true })).toBeVisible();
});

test("the bar's and the pagination's links navigate in the app, and the bar marks the current page", async ({ page }) => {
  await gotoHydrated(page, "/");
  await expect(mainNav(page).getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");
  // A marker on window survives only navigations in the app, not page loads.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const sameDocument = () => page.evaluate(() => "sameDocument" in window);

  // A page link is named by the number it shows.
  const page2 = page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "2", exact: true });
  await page2.click();
  await expect(page).toHaveURL("/?page=2");
  await expect(page2).toHaveAttribute("aria-current", "page");
  expect(await sameDocument(), "Page 2 opened without reloading the page").toBe(true);
  // As with <Link>, a link to the page already shown adds no second history entry.
  const historyLength = await page.evaluate(() => history.length);
  await page2.click();
  await page2.click();
  expect(await page.evaluate(() => history.length)).toBe(historyLength);

  const categories = mainNav(page).getByRole("group").filter({ has: page.getByText("Categories", { exact: true }) });
  // The Page 2 clicks reload the page's data, and their page may land after the menu opened, which closes it, as a
  // new page closes open menus: then open it again.
  await expect(async () => {
    await categories.getByText("Categories", { exact: true }).click();
    await categories.getByRole("link", { name: "Kids", exact: true }).click({ timeout: 2_000 });
  }).toPass();
  await expect(page).toHaveURL("/?category=Kids");
  await expect(page.getByRole("heading", { level: 1, name: "Kids" })).toBeVisible();
  expect(await sameDocument(), "the category opened without reloading the page").toBe(true);

  await cartLink(page, 0).click();
  await expect(page).toHaveURL("/cart");
  await expect(cartLink(page, 0)).toHaveAttribute("aria-current", "page");
  await expect(mainNav(page).getByRole("link", { name: "Home", exact: true })).not.toHaveAttribute("aria-current");
  expect(await sameDocument(), "the cart opened without reloading the page").toBe(true);
});

// ---- menus and the search box behave as menus do ----

test.describe("menus and search box", () => {
  test("the Categories menu closes once a category is chosen", async ({ page }) => {
    await gotoHydrated(page, "/");
    const categories = mainNav(page).getByRole("group").filter({ has: page.getByText("Categories", { exact: true }) });
    await categories.getByText("Categories", { exact: true }).click();
    await categories.getByRole("link", { name: "Ladies", exact: true }).click();
    await expect(page).toHaveURL("/?category=Ladies");
    await expect(page.getByRole("region", { name: "Category filter" })).toBeVisible();
    await expect(categories.getByRole("link", { name: "Gents", exact: true })).toBeHidden({ timeout: 3_000 });
  });

  test("Escape closes the suggestions and keeps what was typed", async ({ page }) => {
    await gotoHydrated(page, "/");
    await searchBox(page).fill("zzqxw");
    await expect(page.getByRole("banner").getByText(NO_MATCH, { exact: true })).toBeVisible();
    await searchBox(page).press("Escape");
    await expect(searchBox(page)).toHaveAttribute("aria-expanded", "false");
    await expect(searchBox(page)).toHaveValue("zzqxw", { timeout: 2_000 });
  });
});
