import { expect, test, type Page } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { gotoHydrated, pngFromPixels } from "./helpers";

// The low-stock sizes in a real browser: from the dashboard's "See all N" to /admin/stock, a second page, a category,
// a search, and a row to its product's form, where the admin restocks it. Other tests change stock meanwhile, so these
// only assert what those changes cannot move: the pages are disjoint, a category holds its own, and its own product's rows.

/** A product of this test's own (other tests skip "E2E" products), with a picture, through the API; its id. */
async function createProduct(page: Page, product: Record<string, unknown>): Promise<number> {
  const created = await page.request.post("/api/product", {
    multipart: { product: JSON.stringify(product), imageFile: { name: "shoe.png", mimeType: "image/png", buffer: pngFromPixels(8, 8, () => [40, 90, 160]) } },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

test("the admin follows 'See all' from the dashboard, pages the low-stock sizes, picks a category and opens a row's product form", async ({ page }) => {
  await logInAs(page);
  const name = `E2E Low Stock ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  // Twelve sold-out sizes of its own (other tests skip "E2E" products), so the list surely runs past one page.
  const sizes = Array.from({ length: 12 }, (_, i) => ({ label: `EU ${24 + i}`, stockQuantity: 0 }));
  const product = { name, brand: "E2E Brand", description: "Made for an end-to-end test.", price: 2500, category: "Kids", stockQuantity: 0, releaseDate: "2026-01-01", productAvailable: true, sizes };
  const id = await createProduct(page, product);
  try {
    await gotoHydrated(page, "/admin/dashboard");
    const seeAll = page.getByRole("link", { name: /^See all [\d,]+ low-stock sizes/ });
    const total = Number((await seeAll.innerText()).replace(/[^\d]/g, ""));
    expect(total).toBeGreaterThan(20);
    await seeAll.click();
    await expect(page).toHaveURL("/admin/stock");
    await expect(page.getByRole("heading", { level: 1, name: "Low stock" })).toBeVisible();

    const rows = page.getByTestId("stock-row");
    const shown = () => rows.evaluateAll((found) => found.map((row) => (row as HTMLElement).dataset.sizeId));
    await expect(rows).toHaveCount(20);
    const first = await shown();
    const pages = page.getByRole("navigation", { name: "Pages" });
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL("/admin/stock?page=2");
    await expect(pages.getByRole("link", { name: "2", exact: true })).toHaveAttribute("aria-current", "page");
    const second = await shown();
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((sizeId) => first.includes(sizeId))).toEqual([]);

    // One category: its link starts on page 1 and lists only that category's sizes.
    await page.getByRole("navigation", { name: "Filter sizes by category" }).getByRole("link", { name: /^Kids/ }).click();
    await expect(page).toHaveURL("/admin/stock?category=Kids");
    await expect(rows.first()).toBeVisible();
    for (const category of await rows.locator("td:nth-child(3)").allInnerTexts()) expect(category).toMatch(/Kids$/);

    // Its own sold-out sizes are among the first of Kids (sold out comes first); paging on until they show.
    const mine = rows.filter({ hasText: name });
    for (let n = 2; n <= 6 && (await mine.count()) === 0; n++) {
      await pages.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(`/admin/stock?category=Kids&page=${n}`);
    }
    await expect(mine.first()).toContainText("EU 24");
    await expect(mine.first()).toContainText("Sold out");
    const listUrl = new URL(page.url());
    const sizeId = await mine.first().getAttribute("data-size-id");
    await mine.first().getByRole("link", { name }).click();

    // The form opens at that size: its stock field has the focus, so the admin types the new figure at once.
    await expect(page).toHaveURL(`/product/update/${id}?${new URLSearchParams({ size: sizeId!, back: listUrl.pathname + listUrl.search })}`);
    await expect(page.getByRole("heading", { level: 1, name: "Update Product" })).toBeVisible();
    await expect(page.getByLabel("Size 1", { exact: true })).toHaveValue("EU 24");
    const stock = page.getByLabel("Stock of size 1", { exact: true });
    await expect(stock).toHaveValue("0");
    await expect(stock).toBeFocused();
    await expect(stock).toBeInViewport();
    await page.keyboard.type("9");
    await page.getByRole("button", { name: "Update Product" }).click();

    // Saved, back on the same page of the list, which says so; EU 24 (9 now) has left it, EU 25 is still there.
    await expect(page).toHaveURL(`${listUrl.pathname}${listUrl.search}&saved=${id}`);
    await expect(page.getByRole("status").filter({ hasText: "Product saved" })).toBeVisible();
    await expect(rows.filter({ hasText: name }).filter({ hasText: /EU 24\b/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "← Low stock" })).toHaveCount(0);
    // The pages, the categories and the rows go on without the toast.
    await expect(rows.first()).toBeVisible();
    await expect(page.locator("main a[href*='saved='], main a[href*='saved%3D']")).toHaveCount(0);
  } finally {
    await page.request.delete(`/api/product/${id}`);
  }
});

test("the admin searches the low-stock sizes for one product, keeps the search across categories, clears it and opens the product's form", async ({ page }) => {
  await logInAs(page);
  const word = `srch${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const name = `E2E Stock Search ${word}`;
  // One low size (1 left) and one that is not (5 left).
  const sizes = [
    { label: "EU 41", stockQuantity: 1 },
    { label: "EU 42", stockQuantity: 5 },
  ];
  const product = { name, brand: "E2E Brand", description: "Made for an end-to-end test.", price: 2500, category: "Gents", stockQuantity: 6, releaseDate: "2026-01-01", productAvailable: true, sizes };
  const id = await createProduct(page, product);
  try {
    await gotoHydrated(page, "/admin/stock");
    const search = page.getByRole("search", { name: "Search low-stock sizes" });
    const rows = page.getByTestId("stock-row");
    // Typed in capitals: the search ignores case.
    await search.getByRole("searchbox", { name: "Search" }).fill(word.toUpperCase());
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(`/admin/stock?q=${word.toUpperCase()}`);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(name);
    await expect(rows.first()).toContainText("EU 41");
    await expect(rows.first()).toContainText("1 left");
    await expect(page.getByTestId("stock-count")).toContainText(`1 size matching “${word.toUpperCase()}”`);

    // A category keeps the search: its own category holds the row, another none, and says what was searched.
    const categories = page.getByRole("navigation", { name: "Filter sizes by category" });
    await categories.getByRole("link", { name: "Gents", exact: true }).click();
    await expect(page).toHaveURL(`/admin/stock?category=Gents&q=${word.toUpperCase()}`);
    await expect(rows).toHaveCount(1);
    await categories.getByRole("link", { name: "Kids", exact: true }).click();
    await expect(page).toHaveURL(`/admin/stock?category=Kids&q=${word.toUpperCase()}`);
    await expect(rows).toHaveCount(0);
    await expect(page.getByText(`No Kids size with 3 units or fewer matches “${word.toUpperCase()}”.`)).toBeVisible();

    // Clear: the category without the search, and an empty box.
    await search.getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL("/admin/stock?category=Kids");
    await expect(search.getByRole("searchbox", { name: "Search" })).toHaveValue("");
    await expect(search.getByRole("link", { name: "Clear" })).toHaveCount(0);

    // Searched within All again, by two words of the name, and on to the product's form.
    await categories.getByRole("link", { name: /^All/ }).click();
    await search.getByRole("searchbox", { name: "Search" }).fill(`search ${word}`);
    await search.getByRole("searchbox", { name: "Search" }).press("Enter");
    await expect(page).toHaveURL(`/admin/stock?q=search+${word}`);
    await expect(rows).toHaveCount(1);
    // The box keeps the focus and what was typed: the form stays from one search to the next.
    await expect(search.getByRole("searchbox", { name: "Search" })).toBeFocused();
    await expect(search.getByRole("searchbox", { name: "Search" })).toHaveValue(`search ${word}`);
    await rows.first().getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`^[^?]+/product/update/${id}\\?size=\\d+&back=%2Fadmin%2Fstock%3Fq%3Dsearch%2B${word}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Update Product" })).toBeVisible();
    await expect(page.getByLabel("Size 1", { exact: true })).toHaveValue("EU 41");
    await expect(page.getByLabel("Stock of size 1", { exact: true })).toHaveValue("1");
    // The way back to the list, as it was.
    await page.getByRole("link", { name: "← Low stock" }).click();
    await expect(page).toHaveURL(`/admin/stock?q=search+${word}`);
  } finally {
    await page.request.delete(`/api/product/${id}`);
  }
});
