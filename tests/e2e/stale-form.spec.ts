import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { gotoHydrated, pngFromPixels } from "./helpers";

// Two admins on one product's form: the one who saves second, from the form as it was before the other's save, is
// told so and changes nothing (before, that save silently removed the size the other had added, with its stock and
// shoppers' cart lines). Reloaded, the form shows the other's change.

const CHANGED = "The product was changed by someone else meanwhile; reload it and try again";
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/stale-form-shots";

interface ApiProduct {
  id: number;
  version: number;
  sizes: { id: number; label: string; stockQuantity: number }[];
}

/** A shoe of the test's own (EU 40 = 5, EU 41 = 2), made through the API as the logged-in admin. */
async function newShoe(request: APIRequestContext, name: string): Promise<ApiProduct> {
  const product = { name, brand: "Stridewell", description: "Two admins edit it.", price: 9990, category: "Gents", stockQuantity: 7, releaseDate: "2026-05-01", productAvailable: true, sizes: [{ label: "EU 40", stockQuantity: 5 }, { label: "EU 41", stockQuantity: 2 }] };
  const response = await request.post("/api/product", {
    multipart: { product: JSON.stringify(product), imageFile: { name: "shoe.png", mimeType: "image/png", buffer: pngFromPixels(4, 4, () => [30, 90, 160]) } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ApiProduct;
}

const stockOf = (page: Page, row: number) => page.getByLabel(`Stock of size ${row}`, { exact: true });
const labelOf = (page: Page, row: number) => page.getByLabel(`Size ${row}`, { exact: true });

test("the second admin's save from the older form shows the message and changes nothing; reloaded, it shows the first's size", async ({ browser }) => {
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const [a, b] = [await contextA.newPage(), await contextB.newPage()];
  let id: number | undefined;
  try {
    await logInAs(a);
    await logInAs(b);
    const shoe = await newShoe(a.request, `E2E Two Admins ${Date.now().toString(36)}`);
    id = shoe.id;
    await gotoHydrated(a, `/product/update/${shoe.id}`);
    await gotoHydrated(b, `/product/update/${shoe.id}`);

    // A adds EU 42 = 7 and saves.
    await labelOf(a, 3).fill("EU 42");
    await stockOf(a, 3).fill("7");
    await a.getByRole("button", { name: "Update Product" }).click();
    await expect(a).toHaveURL(`/product/${shoe.id}?saved=1`);

    // B, still on the form as it was, makes EU 40 nine and saves: refused, with the message, on the form.
    await stockOf(b, 1).fill("9");
    await b.getByRole("button", { name: "Update Product" }).click();
    await expect(b.getByRole("alert").filter({ hasText: CHANGED })).toBeVisible();
    await expect(b).toHaveURL(`/product/update/${shoe.id}`);
    await expect(stockOf(b, 1), "what B typed is still there").toHaveValue("9");
    // A second try from the same form is refused too (the form still carries the version it was loaded with).
    await b.getByRole("button", { name: "Update Product" }).click();
    await expect(b.getByRole("alert").filter({ hasText: CHANGED })).toBeVisible();

    const saved = (await (await b.request.get(`/api/product/${shoe.id}`)).json()) as ApiProduct;
    expect(saved.sizes.map((size) => [size.label, size.stockQuantity])).toEqual([["EU 40", 5], ["EU 41", 2], ["EU 42", 7]]);

    // Reloaded, B sees A's size and can make its change.
    await b.getByRole("link", { name: "Reload the product" }).click();
    await expect(labelOf(b, 3)).toHaveValue("EU 42");
    await expect(stockOf(b, 1)).toHaveValue("5");
    await b.locator("html[data-hydrated='true']").waitFor();
    await stockOf(b, 1).fill("9");
    await b.getByRole("button", { name: "Update Product" }).click();
    await expect(b).toHaveURL(`/product/${shoe.id}?saved=1`);
    const after = (await (await b.request.get(`/api/product/${shoe.id}`)).json()) as ApiProduct;
    expect(after.sizes.map((size) => [size.label, size.stockQuantity])).toEqual([["EU 40", 9], ["EU 41", 2], ["EU 42", 7]]);
  } finally {
    if (id !== undefined) await a.request.delete(`/api/product/${id}`).catch(() => undefined);
    await contextA.close();
    await contextB.close();
  }
});

for (const { label, viewport, isMobile } of [
  { label: "1280", viewport: { width: 1280, height: 900 }, isMobile: false },
  { label: "390", viewport: { width: 390, height: 844 }, isMobile: true },
] as const) {
  for (const theme of ["light", "dark"] as const) {
    test(`screenshot: the message on the form (${label}, ${theme})`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ viewport, isMobile, hasTouch: isMobile });
      await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
      const page = await context.newPage();
      let id: number | undefined;
      try {
        await logInAs(page);
        const shoe = await newShoe(page.request, `E2E Stale Shot ${Date.now().toString(36)}`);
        id = shoe.id;
        await gotoHydrated(page, `/product/update/${shoe.id}`);
        // Another save of the product (an API client sending no version) while this form is open.
        const other = await page.request.put(`/api/product/${shoe.id}`, {
          multipart: { product: JSON.stringify({ name: "E2E Stale Shot", brand: "Stridewell", description: "Saved elsewhere.", price: 9990, category: "Gents", stockQuantity: 7, releaseDate: "2026-05-01", productAvailable: true }) },
        });
        expect(other.status()).toBe(200);
        await page.getByRole("button", { name: "Update Product" }).click();
        const alert = page.getByRole("alert").filter({ hasText: CHANGED });
        await expect(alert).toBeVisible();
        await alert.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/stale-${label}-${theme}.png` });
      } finally {
        if (id !== undefined) await page.request.delete(`/api/product/${id}`).catch(() => undefined);
        await context.close();
      }
    });
  }
}
