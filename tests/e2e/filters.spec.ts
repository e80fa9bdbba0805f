import { expect, test, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";

import { gotoHydrated, waitForHydration } from "./helpers";

// The catalogue's filters (size, brand, price range, Clear all) on the grid and the search results, with and without
// JavaScript, and "You may also like" on a product page, against the demo catalogue. Other tests add and delete
// products of their own (names starting "E2E "), so these assert what every card shows rather than exact counts.

const SHOTS = "/tmp/filters-shots";
const cards = (page: Page) => page.getByTestId("product-card");
const filters = (page: Page) => page.getByRole("form", { name: "Filters" });
const brandSelect = (page: Page) => filters(page).getByLabel("Brand");
/** The phone's "Filters" disclosure button. */
const disclosure = (page: Page) => page.locator("details.filters-panel > summary");

/** Every card's brand (upper-cased by CSS, so read from the DOM) and price. */
async function cardFacts(page: Page): Promise<{ brand: string; price: number }[]> {
  return cards(page).evaluateAll((nodes) =>
    nodes.map((node) => ({
      brand: node.querySelector("p")?.textContent ?? "",
      price: Number((node.querySelector("[data-testid=card-price]")?.textContent ?? "").replace(/[^\d.]/g, "")),
    })),
  );
}

test.describe("filters with JavaScript, wide screen", () => {
  test("brand applies on change, prices on Apply, Clear all keeps the category, Clear Filter resets everything", async ({ page }) => {
    await gotoHydrated(page, "/?category=Gents");
    // A bar on wide screens: no "Filters" disclosure button to press.
    await expect(disclosure(page)).toBeHidden();
    await expect(brandSelect(page)).toBeVisible();
    // The category's brands only: Serendib Studio makes no Gents shoes in the demo catalogue.
    await expect(brandSelect(page).locator("option")).toContainText(["All brands", "Coastline", "Kandy Leather Co.", "Stride Classics", "Urban Trek"]);
    await expect(brandSelect(page).locator("option", { hasText: "Serendib Studio" })).toHaveCount(0);

    await brandSelect(page).selectOption("Urban Trek");
    await expect(page).toHaveURL(/\/\?category=Gents&brand=Urban\+Trek$/);
    await expect(page.getByRole("region", { name: "Category filter" })).toContainText("Showing Gents");
    const byBrand = await cardFacts(page);
    expect(byBrand.length).toBeGreaterThanOrEqual(3);
    for (const card of byBrand) expect(card.brand).toBe("Urban Trek");

    await filters(page).getByLabel("Min").fill("14000");
    await filters(page).getByLabel("Max").fill("20000");
    await filters(page).getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/category=Gents&brand=Urban\+Trek&minPrice=14000&maxPrice=20000/);
    await expect(cards(page)).not.toHaveCount(byBrand.length);
    for (const card of await cardFacts(page)) {
      expect(card.brand).toBe("Urban Trek");
      expect(card.price).toBeGreaterThanOrEqual(14000);
      expect(card.price).toBeLessThanOrEqual(20000);
    }
    await expect(cards(page).getByRole("heading", { name: "Galle Face Runner" })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/grid-applied-light-1280.png`, fullPage: true });

    // The sort keeps the filters.
    await page.getByLabel("Sort by").selectOption("price-desc");
    await expect(page).toHaveURL(/brand=Urban\+Trek&minPrice=14000&maxPrice=20000&sort=price-desc|sort=price-desc.*brand=Urban\+Trek/);
    await expect(brandSelect(page)).toHaveValue("Urban Trek");

    await filters(page).getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL(/\/\?category=Gents&sort=price-desc$/);
    await expect(brandSelect(page)).toHaveValue("");
    await expect(filters(page).getByLabel("Min")).toHaveValue("");

    await page.getByRole("link", { name: "Clear Filter" }).click();
    await expect(page).toHaveURL(/\/$/);
    await waitForHydration(page);
    await expect(brandSelect(page).locator("option", { hasText: "Serendib Studio" })).toHaveCount(1);
  });

  test("a price typed while a brand chosen just before is applied is kept, not wiped by the new page", async ({ page }) => {
    await gotoHydrated(page, "/?category=Gents");
    // A slow network: the brand's page arrives while the shopper types the price.
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.data(\?|$)/, async (route) => {
      await arrived;
      await route.continue();
    });
    await brandSelect(page).focus();
    await page.keyboard.press("ArrowDown"); // Coastline, applied on leaving the select
    await page.keyboard.press("Tab");
    const min = filters(page).getByLabel("Min");
    await expect(min).toBeFocused();
    await page.keyboard.type("5");
    release();
    await expect(page).toHaveURL(/brand=Coastline/);
    await page.keyboard.type("000");
    await expect(min).toHaveValue("5000");
    await page.unroute(/\.data(\?|$)/);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/\?category=Gents&brand=Coastline&minPrice=5000$/);
    await expect(min).toHaveValue("5000");
    // Clear all still empties every field it changes.
    await filters(page).getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL(/\/\?category=Gents$/);
    await expect(min).toHaveValue("");
    await expect(brandSelect(page)).toHaveValue("");
  });

  test("search results narrow by brand and keep the keyword", async ({ page }) => {
    await gotoHydrated(page, "/search?keyword=sandal");
    const all = await cardFacts(page);
    expect(new Set(all.map((card) => card.brand)).size).toBeGreaterThan(1);
    await brandSelect(page).selectOption("Coastline");
    await expect(page).toHaveURL(/\/search\?keyword=sandal&brand=Coastline$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “sandal”");
    const narrowed = await cardFacts(page);
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.length).toBeLessThan(all.length);
    for (const card of narrowed) expect(card.brand).toBe("Coastline");
    await filters(page).getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL(/\/search\?keyword=sandal$/);
    await expect(cards(page)).toHaveCount(all.length);
  });

  test("a price range the wrong way round is set aside with a message", async ({ page }) => {
    await gotoHydrated(page, "/?minPrice=20000&maxPrice=1000");
    await expect(filters(page).getByRole("alert")).toContainText("the price range was left out");
    await expect(cards(page).first()).toBeVisible();
  });
});

test.describe("filters without JavaScript, on a phone", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fold behind a Filters disclosure; the GET form filters and Clear all clears", async ({ page }) => {
    await page.goto("/?category=Ladies");
    await expect(brandSelect(page)).toBeHidden();
    await disclosure(page).click();
    await expect(brandSelect(page)).toBeVisible();
    await brandSelect(page).selectOption("Serendib Studio");
    await filters(page).getByLabel("Max").fill("20000");
    await filters(page).getByRole("button", { name: "Apply" }).click();
    // The browser sends the empty fields too (size=&minPrice=); the page sends it on to the choice's own address.
    await expect(page).toHaveURL(/\/\?category=Ladies&brand=Serendib\+Studio&maxPrice=20000$/);
    const facts = await cardFacts(page);
    expect(facts.length).toBeGreaterThan(0);
    for (const card of facts) {
      expect(card.brand).toBe("Serendib Studio");
      expect(card.price).toBeLessThanOrEqual(20000);
    }
    // Closed again after the page load; the button says how many filters are on.
    await expect(disclosure(page)).toHaveText(/Filters\s*2 applied/);
    await disclosure(page).click();
    await filters(page).getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL(/\/\?category=Ladies$/);
    expect(await cards(page).count()).toBeGreaterThan(facts.length);
  });
});

/** The product ids of the cards shown, read from their links. */
async function cardIds(page: Page): Promise<number[]> {
  const hrefs = await cards(page).evaluateAll((nodes) => nodes.map((node) => node.querySelector('a[href^="/product/"]')?.getAttribute("href") ?? ""));
  return hrefs.map((href) => Number(href.match(/^\/product\/(\d+)/)?.[1]));
}

/** Every card shown is, says the API, a Gents product with `label` in stock; and no Gents product lacking it is shown. */
async function expectOnlyInStock(page: Page, label: string) {
  const shown = await cardIds(page);
  expect(shown.length).toBeGreaterThan(0);
  for (const id of shown) {
    const product = (await (await page.request.get(`/api/product/${id}`)).json()) as { category: string; sizes: { label: string; stockQuantity: number }[] };
    expect(product.category, `product ${id}`).toBe("Gents");
    expect(product.sizes.find((size) => size.label === label)?.stockQuantity ?? 0, `product ${id} in ${label}`).toBeGreaterThan(0);
  }
  // The Gents products without it in stock (sold out, or not made in it), which the unfiltered grid does show.
  const gents = (await (await page.request.get("/api/products?category=Gents")).json()) as { id: number; sizes: { label: string; stockQuantity: number }[] }[];
  const without = gents.filter((product) => !product.sizes.some((size) => size.label === label && size.stockQuantity > 0)).map((product) => product.id);
  for (const id of without) expect(shown).not.toContain(id);
}

test.describe("the size filter", () => {
  test("with JavaScript: a Gents size applies on change, shows only products in stock in it, and Clear all clears it", async ({ page }) => {
    await gotoHydrated(page, "/?category=Gents");
    const sizeSelect = filters(page).getByLabel("Size");
    await expect(sizeSelect.locator("option")).toHaveText(["All sizes", "EU 39", "EU 40", "EU 41", "EU 42", "EU 43", "EU 44", "EU 45", "EU 46"]);
    await sizeSelect.selectOption("EU 42");
    await expect(page).toHaveURL(/\/\?category=Gents&size=EU\+42$/);
    await expect(sizeSelect).toHaveValue("EU 42");
    await expectOnlyInStock(page, "EU 42");
    // Not counted: the banner gives no total.
    await expect(page.getByRole("region", { name: "Category filter" })).not.toContainText("products");
    // The sort keeps it.
    await page.getByLabel("Sort by").selectOption("name");
    await expect(page).toHaveURL(/size=EU\+42/);
    await expect(sizeSelect).toHaveValue("EU 42");
    await expectOnlyInStock(page, "EU 42");
    await filters(page).getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL(/\/\?category=Gents&sort=name$/);
    await expect(sizeSelect).toHaveValue("");
  });

});

test.describe("the size filter without JavaScript, on a phone", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the GET form filters by size and the Filters button counts it", async ({ page }) => {
    await page.goto("/?category=Gents");
    await disclosure(page).click();
    await filters(page).getByLabel("Size").selectOption("EU 42");
    await filters(page).getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/\/\?category=Gents&size=EU\+42$/);
    await expectOnlyInStock(page, "EU 42");
    await expect(disclosure(page)).toHaveText(/Filters\s*1 applied/);
    await disclosure(page).click();
    await filters(page).getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL(/\/\?category=Gents$/);
  });
});

// Screenshots for people to look at (not compared): /tmp/sizefilter-shots/grid-size-<theme>-<width>.png.
test.describe("size filter screenshots", () => {
  for (const theme of ["light-theme", "dark-theme"] as const) {
    for (const width of [390, 1280]) {
      test(`${theme} at ${width}`, async ({ page, context, baseURL }) => {
        mkdirSync("/tmp/sizefilter-shots", { recursive: true });
        await context.addCookies([{ name: "theme", value: theme, url: baseURL! }]);
        await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
        await gotoHydrated(page, "/?category=Gents&size=EU+42");
        if (width < 500) await disclosure(page).click();
        await expect(filters(page).getByLabel("Size")).toHaveValue("EU 42");
        await page.screenshot({ path: `/tmp/sizefilter-shots/grid-size-${theme.replace("-theme", "")}-${width}.png`, fullPage: false });
      });
    }
  }
});

test.describe("You may also like", () => {
  test("four other products of the category, as cards that open their pages", async ({ page, request }) => {
    const products = (await (await request.get("/api/products?category=Kids")).json()) as { id: number; name: string }[];
    const viewed = products.find((product) => product.name === "Rainbow Splash Sandal")!;
    await gotoHydrated(page, `/product/${viewed.id}`);
    const related = page.getByRole("region", { name: "You may also like" });
    await expect(related.getByRole("heading", { level: 2, name: "You may also like" })).toBeVisible();
    await expect(related.getByTestId("product-card")).toHaveCount(4);
    const names = await related.getByTestId("product-card").getByRole("heading").allTextContents();
    expect(names).not.toContain("Rainbow Splash Sandal");
    const kids = new Set(products.map((product) => product.name));
    // (Another test's own products, "E2E ...", may be new in the category meanwhile.)
    for (const name of names) expect(kids.has(name) || name.startsWith("E2E "), name).toBe(true);
    // In stock first: the sold-out Puddle Jumper Boot is not among four when four others are in stock.
    expect(names).not.toContain("Puddle Jumper Boot");
    await related.getByRole("link", { name: names[0], exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(names[0]);
  });
});

// Screenshots for people to look at (not compared): /tmp/filters-shots/<screen>-<theme>-<width>.png.
test.describe("filter screenshots", () => {
  for (const theme of ["light-theme", "dark-theme"] as const) {
    for (const width of [390, 1280]) {
      test(`${theme} at ${width}`, async ({ page, context, baseURL }) => {
        mkdirSync(SHOTS, { recursive: true });
        await context.addCookies([{ name: "theme", value: theme, url: baseURL! }]);
        await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
        const name = (screen: string) => `${SHOTS}/${screen}-${theme.replace("-theme", "")}-${width}.png`;
        await gotoHydrated(page, "/?category=Gents&brand=Urban+Trek&minPrice=10000&maxPrice=30000");
        if (width < 500) await disclosure(page).click();
        await expect(brandSelect(page)).toBeVisible();
        await page.screenshot({ path: name("grid-filters"), fullPage: false });
        await gotoHydrated(page, "/search?keyword=sandal&brand=Coastline");
        if (width < 500) await disclosure(page).click();
        await page.screenshot({ path: name("search-filters"), fullPage: false });
        const products = (await (await page.request.get("/api/products?category=Kids")).json()) as { id: number; name: string }[];
        await gotoHydrated(page, `/product/${products.find((product) => product.name === "Rainbow Splash Sandal")!.id}`);
        const related = page.getByRole("region", { name: "You may also like" });
        await related.scrollIntoViewIfNeeded();
        await related.evaluate(async (node) => {
          for (const image of Array.from(node.querySelectorAll("img"))) image.loading = "eager";
          await Promise.all(Array.from(node.querySelectorAll("img")).map((image) => image.decode().catch(() => undefined)));
        });
        await related.screenshot({ path: name("related") });
        await expect(related.getByTestId("product-card")).toHaveCount(4);
      });
    }
  }
});

test.describe("filters with JavaScript, on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the panel stays open from one choice to the next, with Clear all in reach", async ({ page }) => {
    await gotoHydrated(page, "/?category=Gents");
    await disclosure(page).click();
    await brandSelect(page).selectOption("Urban Trek");
    await expect(page).toHaveURL(/brand=Urban\+Trek/);
    // Still open for the next choice, which a shopper makes at once.
    await filters(page).getByLabel("Size").selectOption("EU 42");
    await expect(page).toHaveURL(/brand=Urban\+Trek&size=EU\+42|size=EU\+42&brand=Urban\+Trek/);
    await expect(disclosure(page)).toHaveText(/Filters\s*2 applied/);
    await expect(filters(page).getByRole("link", { name: "Clear all" })).toBeVisible();
    await filters(page).getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL(/\/\?category=Gents$/);
  });
});

test.describe("filters and pages from the keyboard and for a screen reader", () => {
  const listingStatus = (page: Page) => page.getByTestId("listing-status");

  test("on a phone, a price applied with Enter keeps the page where it was, and the results are announced", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, "/?category=Gents");
    await expect(listingStatus(page)).toHaveText(/^\d+ products?$/);
    await disclosure(page).click();
    const min = filters(page).getByLabel("Min");
    await min.fill("3000");
    // The field at the top of the screen, the cards below it: the page is scrolled down to it.
    await min.evaluate((field) => field.scrollIntoView({ block: "start" }));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(100);
    await min.press("Enter");
    await expect(page).toHaveURL(/minPrice=3000/);
    await expect(min).toBeFocused();
    await expect(min).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    // The polite region says what the shopper now has, as many as the cards shown.
    const shown = await cards(page).count();
    await expect(listingStatus(page)).toHaveText(new RegExp(`^${shown} products?( shown)?(, more on the next pages)?$`));
  });

  test("Next opened with Enter: the listing's heading takes the focus, not <body>, and the page is said", async ({ page }) => {
    await gotoHydrated(page, "/");
    const next = page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" });
    await next.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(page.getByRole("heading", { name: "All Products" })).toBeFocused();
    await expect(listingStatus(page)).toHaveText(/page 2/i);
  });

  test("Clear all opened with Enter: the category's heading takes the focus", async ({ page }) => {
    await gotoHydrated(page, "/?category=Gents&brand=Urban+Trek");
    const clear = filters(page).getByRole("link", { name: "Clear all" });
    await clear.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/\?category=Gents$/);
    await expect(page.getByRole("heading", { level: 1, name: "Gents" })).toBeFocused();
  });
});

test.describe("on the narrowest phone", () => {
  test.use({ viewport: { width: 320, height: 740 }, isMobile: true, hasTouch: true });

  test("the open Filters panel and a search for one long word fit the screen: nothing scrolls sideways", async ({ page }) => {
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await gotoHydrated(page, "/?category=Gents&minPrice=abc");
    // A price that is no number opens the panel with its message.
    await expect(filters(page).getByLabel("Max")).toBeVisible();
    expect(await sideways()).toBeLessThanOrEqual(0);
    await gotoHydrated(page, `/search?keyword=${"x".repeat(100)}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("x".repeat(100));
    expect(await sideways()).toBeLessThanOrEqual(0);
  });
});
