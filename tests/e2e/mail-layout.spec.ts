import { expect, test, type TestInfo } from "@playwright/test";
import path from "node:path";

import { accountChangedMail, orderPlacedMail, orderStatusMail, passwordResetMail, type BankDetails } from "../../app/lib/emails.server";

// The HTML part of each mail, as a phone's mail app shows it: 390 px wide in Chromium. Long unbroken text (a name of
// one 100-letter word, an address holding a long URL, a long product name) must wrap, not widen the mail past the
// screen (it made it 1,200 to 3,900 px wide). Renders the pure functions of app/lib/emails.server.ts; no server.
// Screenshots for people to look at: test-results/screens/mail-<name>-<width>.png.

const bank: BankDetails = { name: "Commercial Bank of Ceylon", branch: "Colombo 03 (Kollupitiya)", accountName: "Stride Footwear (Pvt) Ltd", accountNumber: "8001 2345 6789" };
const longName = "W".repeat(100);
const longUrl = `https://maps.example.com/place/${"Kiribathgoda-Kandy-Road-".repeat(8)}?q=${"7".repeat(60)}`;
const order = { orderNumber: "1042", orderUrl: "https://stride.lk/orders/1042", customerName: longName };

const MAILS = [
  {
    name: "order-placed",
    html: orderPlacedMail(
      {
        ...order,
        items: [
          { productName: `Harbour${"Runner".repeat(14)}`, sizeLabel: "EU 42", quantity: 2, subtotal: 25000 },
          { productName: "Leather Belt", sizeLabel: "One size", quantity: 1, subtotal: 3499.5 },
        ],
        totalAmount: 28499.5,
        shippingAddress: `12 Galle Road\n${longUrl}\nColombo 03`,
      },
      bank,
    ).html,
  },
  { name: "order-cancelled-after-delivery", html: orderStatusMail(order, "CANCELLED", "DELIVERED").html },
  { name: "order-reopened", html: orderStatusMail(order, "PENDING", "CANCELLED").html },
  { name: "password-reset", html: passwordResetMail({ name: longName, resetUrl: `https://stride.lk/reset-password?token=${"a".repeat(43)}`, validMinutes: 30 }).html },
  // The account notices: a long site origin in the "Forgot password?" line, a long domain in the masked new address.
  {
    name: "account-password-changed",
    html: accountChangedMail({ name: longName, newEmail: null, passwordChanged: true, changedAt: Date.UTC(2026, 10, 22, 4, 1), siteUrl: `https://${"shop".repeat(20)}.stride.lk` }).html,
  },
  {
    name: "account-email-changed",
    html: accountChangedMail({ name: longName, newEmail: `nimal@${"mail".repeat(30)}.example.com`, passwordChanged: true, changedAt: Date.UTC(2026, 10, 22, 4, 1), siteUrl: "https://stride.lk" }).html,
  },
];

function screenshotPath(testInfo: TestInfo, file: string): string {
  const root = testInfo.config.configFile ? path.dirname(testInfo.config.configFile) : process.cwd();
  return path.join(root, "test-results", "screens", file);
}

for (const width of [390, 1280]) {
  test(`the HTML mails fit ${width} px: long unbroken text wraps, nothing scrolls sideways`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 844 });
    for (const mail of MAILS) {
      await page.setContent(mail.html);
      const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
      expect(widths.document, `${mail.name}: the page's width`).toBeLessThanOrEqual(width);
      expect(widths.body, `${mail.name}: the body's width`).toBeLessThanOrEqual(width);
      // The long words are there, wrapped: the greeting's block is taller than one line.
      const greeting = page.getByText(`Hello ${longName},`);
      await expect(greeting).toBeVisible();
      expect((await greeting.boundingBox())!.height).toBeGreaterThan(30);
      await page.screenshot({ path: screenshotPath(testInfo, `mail-${mail.name}-${width}.png`), fullPage: true });
    }
  });
}
