import { expect, test } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { gotoHydrated, pngFromPixels } from "./helpers";

// The low-stock sizes in a real browser: from the dashboard's "See all N" to /admin/stock, a second page, a category,
// and a row to its product's form, where the admin restocks it. Other tests change stock meanwhile, so this one only
// asserts what those changes cannot move: the pages are disjoint, a category holds its own, and its own product's row.

test("the admin follows 'See all' from the dashboard, pages the low-stock sizes, picks a category and opens a row's product form", async ({ page }) => {
  await logInAs(page);
  const name = `E2E Low Stock ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  // Twelve sold-out sizes of its own (other tests skip "E2E" products), so the list surely runs past one page.
  const sizes = Array.from({ length: 12 }, (_, i) => ({ label: `EU ${24 + i}`, stockQuantity: 0 }));
  const product = { name, brand: "E2E Brand", description: "Made for an end-to-end test.", price: 2500, category: "Kids", stockQuantity: 0, releaseDate: "2026-01-01", productAvailable: true, sizes };
  const created = await page.request.post("/api/product", {
    multipart: { product: JSON.stringify(product), imageFile: { name: "shoe.png", mimeType: "image/png", buffer: pngFromPixels(8, 8, () => [40, 90, 160]) } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
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
    await mine.first().getByRole("link", { name }).click();
    await expect(page).toHaveURL(`/product/update/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Update Product" })).toBeVisible();
    await expect(page.getByLabel("Size 1", { exact: true })).toHaveValue("EU 24");
    await expect(page.getByLabel("Stock of size 1", { exact: true })).toHaveValue("0");
  } finally {
    await page.request.delete(`/api/product/${id}`);
  }
});
