import { expect, test, type Locator, type Page } from "@playwright/test";

import { DEMO_CUSTOMER, gotoHydrated } from "./helpers";

// The in-between widths a QA pass met broken (tablets upright and lying down, a phone lying down, small laptops, a
// wide desktop): what can be measured of each finding is measured here, a rule per test. The other tests keep to
// 1280 and 390.

async function logInCustomer(page: Page, account: { email: string; password: string } = DEMO_CUSTOMER) {
  const response = await page.request.post("/login", { form: account, maxRedirects: 0 });
  expect(response.status(), `${account.email} can log in`).toBe(302);
}

const box = async (locator: Locator) => (await locator.boundingBox())!;

test("the bar leaves the search box a usable width from 640 to 1280 px, its links a tap into the menu where they do not fit", async ({ page }) => {
  for (const who of ["visitor", "customer"] as const) {
    if (who === "customer") await logInCustomer(page);
    for (const width of [640, 768, 844, 1024, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await gotoHydrated(page, "/");
      // At 768 a customer's box was 70 px wide (a visitor's 129): "Search shoes..." cut, suggestions a word a line.
      expect((await box(page.locator("#nav-search"))).width, `${who} at ${width}`).toBeGreaterThanOrEqual(240);
      // SPEC's bar: every link in the bar, or in its menu.
      const menu = page.getByLabel("Menu", { exact: true });
      const header = page.locator("header");
      if (await menu.isVisible()) await menu.click();
      const links = who === "customer" ? ["Home", "My Orders", /^Profile/, "Logout"] : ["Home", "Login", "Register"];
      for (const name of links) await expect(header.getByRole(name === "Logout" ? "button" : "link", { name, exact: typeof name === "string" }).filter({ visible: true })).toHaveCount(1);
      await expect(header.getByText("Categories", { exact: true }).filter({ visible: true })).toHaveCount(1);
    }
  }
});

test("the search suggestions are at least 20rem wide, and on a phone lying down end above the screen's bottom, the last one reachable", async ({ page }) => {
  await logInCustomer(page);
  for (const { width, height } of [
    { width: 768, height: 1024 },
    { width: 844, height: 390 },
  ]) {
    await page.setViewportSize({ width, height });
    await gotoHydrated(page, "/");
    await page.locator("#nav-search").fill("s");
    const list = page.getByRole("listbox", { name: "Matching products" });
    await expect(list.getByRole("option")).toHaveCount(8);
    const panel = list.locator("..");
    const panelBox = await box(panel);
    expect(panelBox.width, `${width}: the dropdown's width`).toBeGreaterThanOrEqual(320);
    expect(panelBox.x + panelBox.width, `${width}: inside the screen`).toBeLessThanOrEqual(width);
    // The panel hangs from the sticky bar: the page's scroll never reaches what is below the screen's edge.
    expect(panelBox.y + panelBox.height, `${width}: the dropdown's bottom`).toBeLessThanOrEqual(height);
    await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await expect(list.getByRole("option").last()).toBeInViewport({ ratio: 1 });
    // Nothing of a suggestion is cut: its name and its brand within it.
    const cut = await list.getByRole("option").evaluateAll((options) =>
      options.filter((option) => Array.from(option.children).some((part) => part.scrollWidth > part.clientWidth + 1 || part.getBoundingClientRect().right > option.getBoundingClientRect().right + 0.5)).length,
    );
    expect(cut, `${width}: suggestions with a part cut`).toBe(0);
  }
});
