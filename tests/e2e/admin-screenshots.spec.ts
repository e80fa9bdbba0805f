import { expect, test, type TestInfo } from "@playwright/test";
import path from "node:path";

import { bankSlipPdf, logInAs, placeOrderAsNewCustomer } from "./admin-helpers";
import { waitForHydration } from "./helpers";

// Screenshots of the admin back office, light and dark, desktop and phone, for people to look at:
// test-results/screens/admin-<screen>-<theme>-<width>.png. Each asserts only that its page or dialog rendered.

const VIEWPORTS = [
  { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
  { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
] as const;
const THEMES = [
  { name: "light", cookie: "light-theme" },
  { name: "dark", cookie: "dark-theme" },
] as const;

let pngOrder = 0;
let pdfOrder = 0;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  pngOrder = (await placeOrderAsNewCustomer(request)).id;
  pdfOrder = (await placeOrderAsNewCustomer(request, { slip: { name: "slip.pdf", mimeType: "application/pdf", buffer: bankSlipPdf() } })).id;
  await request.dispose();
  // The outbox's failed filter shows failed mails written before the run (global-setup.ts): one to send again, and a
  // reset mail that is not offered again.
});

const SCREENS = () => [
  { name: "dashboard", path: "/admin/dashboard", heading: "Dashboard" },
  { name: "users", path: "/admin/users", heading: "Users" },
  { name: "orders", path: "/admin/orders", heading: "Orders" },
  { name: "outbox", path: "/admin/outbox", heading: "Outbox" },
  { name: "outbox-failed", path: "/admin/outbox?state=failed", heading: "Outbox" },
  { name: "orders-manage", path: `/admin/orders?manage=${pngOrder}`, dialog: `Manage order #${pngOrder}` },
  { name: "orders-slip", path: `/admin/orders?slip=${pngOrder}`, dialog: `Bank slip · Order #${pngOrder}` },
  { name: "orders-slip-pdf", path: `/admin/orders?slip=${pdfOrder}`, dialog: `Bank slip · Order #${pdfOrder}` },
  { name: "order-page", path: `/admin/orders/${pngOrder}`, heading: `Order #${pngOrder}` },
  { name: "orders-more", path: "/admin/orders?status=DELIVERED", heading: "Orders" },
  { name: "stock", path: "/admin/stock", heading: "Low stock" },
  { name: "stock-kids-page-2", path: "/admin/stock?category=Kids&page=2", heading: "Low stock" },
  { name: "stock-search", path: "/admin/stock?category=Gents&q=boot", heading: "Low stock" },
];

function screenshotPath(testInfo: TestInfo, file: string): string {
  const root = testInfo.config.configFile ? path.dirname(testInfo.config.configFile) : process.cwd();
  return path.join(root, "test-results", "screens", file);
}

for (const { viewport, isMobile, hasTouch } of VIEWPORTS) {
  test.describe(`admin ${viewport.width}`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of THEMES) {
      test(`admin screens (${theme.name})`, async ({ page, context, baseURL }, testInfo) => {
        await context.addCookies([{ name: "theme", value: theme.cookie, url: baseURL! }]);
        await logInAs(page);
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
        page.on("console", (message) => {
          if (message.type() === "error") problems.push(`console.error: ${message.text()}`);
        });
        for (const screen of SCREENS()) {
          await page.goto(screen.path);
          await waitForHydration(page);
          if (screen.dialog) await expect(page.getByRole("dialog", { name: screen.dialog })).toBeVisible();
          else await expect(page.getByRole("heading", { level: 1, name: screen.heading })).toBeVisible();
          await page.evaluate(async () => {
            await Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined)));
            await document.fonts.ready;
          });
          if (screen.name === "orders-slip-pdf") await page.waitForTimeout(1500); // the PDF viewer draws after load
          const file = screenshotPath(testInfo, `admin-${screen.name}-${theme.name}-${viewport.width}.png`);
          await page.screenshot({ path: file, fullPage: !screen.dialog, animations: "disabled", caret: "hide" });
        }
        for (const problem of problems) testInfo.annotations.push({ type: "browser problem", description: problem });
        expect(problems.filter((problem) => !problem.includes("favicon"))).toEqual([]);
      });
    }
  });
}
