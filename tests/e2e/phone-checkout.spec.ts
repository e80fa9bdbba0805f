import { randomBytes } from "node:crypto";

import { expect, test, type Page } from "@playwright/test";

import { ABOVE_STOCK } from "../../app/lib/availability";
import { customerWithCart, goodSlip, ownShoe, tokenOf, visitorCart } from "./cart-helpers";
import { gotoHydrated, logIn, SCREENSHOT_VIEWPORTS, uniqueUser } from "./helpers";

// What a phone shopper met on the way from the cart to an order (a QA pass at 390 x 844, touch): the cart's message at
// a size's stock comes under the stepper, so + stays under the finger; a slip found wrong makes Place Order
// unavailable (and says why) until a good one is chosen; the account number and the amount each have a Copy button for
// the banking app; a login that put the visit's items into a saved cart says so on the page it lands on. Screenshots
// of each, light and dark, 390 and 1280 wide, under /tmp/phone-shots (SHOTS_DIR).

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/phone-shots";
// SPEC's slip messages (app/lib/file-types.ts) and the login's notice (app/lib/one-time-params.ts), in their words.
const SLIP_TYPE = "Please upload a valid image (JPEG, PNG) or PDF file";
const SLIP_SIZE = "File size must be less than 10MB";
const CART_MERGED_MESSAGE = "We added the items from this visit to your saved cart";
const PHONE = SCREENSHOT_VIEWPORTS.find((viewport) => viewport.label === "390")!;

const notASlip = { name: "notes.png", mimeType: "image/png", buffer: Buffer.from("these are my notes, not a slip") };
const tooLargeSlip = () => ({ name: "statement.pdf", mimeType: "application/pdf", buffer: Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(11 * 1024 * 1024)]) });

/** The orders the page posts (with JavaScript, /api/orders; without, the cart's action). */
function ordersPosted(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === "POST" && (path === "/api/orders" || path.startsWith("/cart"))) posts.push(path);
  });
  return posts;
}

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`the cart at ${label} wide`, () => {
    test.use({ viewport, isMobile, hasTouch });

    test("+ at the stock says so under the stepper: the button does not move from under the finger", async ({ page, context, request, baseURL }) => {
      const shoe = await ownShoe(request, 2);
      try {
        await visitorCart(context, baseURL!, shoe, 2);
        await gotoHydrated(page, "/cart");
        const row = page.getByTestId("cart-line");
        const more = row.getByRole("button", { name: /^One more / });
        await expect(more).toHaveAttribute("aria-disabled", "true");
        const before = await more.boundingBox();
        // aria-disabled, yet it answers a press (there is no tooltip to hover on a phone): Playwright presses it only forced.
        if (hasTouch) await more.tap({ force: true });
        else await more.click({ force: true });
        const alert = row.getByRole("alert");
        await expect(alert).toHaveText(ABOVE_STOCK);
        expect(await more.boundingBox()).toEqual(before);
        // Under the stepper, in its column (where the finger and the eyes are), and on the screen with it.
        const stepper = (await row.getByRole("form", { name: /^Quantity of / }).boundingBox())!;
        const said = (await alert.boundingBox())!;
        expect(said.y).toBeGreaterThanOrEqual(stepper.y + stepper.height);
        expect(said.x < stepper.x + stepper.width && said.x + said.width > stepper.x, "the message overlaps the stepper's column").toBe(true);
        await expect(alert).toBeInViewport({ ratio: 1 });
        await expect(row.getByTestId("cart-quantity")).toHaveText("2");
        // A press that fits takes the message away.
        await row.getByRole("button", { name: /^One fewer / }).click();
        await expect(row.getByTestId("cart-quantity")).toHaveText("1");
        await row.getByRole("button", { name: /^One more / }).click();
        await expect(row.getByTestId("cart-quantity")).toHaveText("2");
        await expect(alert).toHaveCount(0);
      } finally {
        await shoe.remove();
      }
    });
  });
}

test.describe("the checkout on a phone", () => {
  test.use({ viewport: PHONE.viewport, isMobile: PHONE.isMobile, hasTouch: PHONE.hasTouch });

  test("a slip found wrong (its type, its size) makes Place Order unavailable, saying why, until a good slip is chosen", async ({ page, context, request, baseURL }) => {
    test.slow(); // an 11 MB file goes into the page
    const shoe = await ownShoe(request, 5);
    try {
      await customerWithCart(context, request, baseURL!, shoe);
      await gotoHydrated(page, "/cart?checkout");
      const dialog = page.getByRole("dialog", { name: "Checkout" });
      const slip = dialog.getByLabel("Bank slip");
      const placeOrder = dialog.getByRole("button", { name: /^Place Order/ });
      const posts = ordersPosted(page);
      await expect(placeOrder).toBeDisabled(); // no slip yet (SPEC)

      for (const [file, message] of [
        [notASlip, SLIP_TYPE],
        [tooLargeSlip(), SLIP_SIZE],
      ] as const) {
        await slip.setInputFiles(file);
        await expect(slip).toHaveAccessibleDescription(new RegExp(`^${message.replace(/[()]/g, "\\$&")}`));
        // Unavailable, yet reachable with the reason: aria-disabled and described by the slip's message.
        await expect(placeOrder).toHaveAttribute("aria-disabled", "true");
        await expect(placeOrder).toHaveAccessibleDescription(message);
        // A tap, or Enter on it, sends nothing and takes the shopper to the slip's field.
        await placeOrder.tap({ force: true });
        await expect(slip).toBeFocused();
        await placeOrder.focus();
        await page.keyboard.press("Enter");
        await expect(slip).toBeFocused();
        expect(posts, file.name).toEqual([]);
      }

      await slip.setInputFiles(goodSlip);
      await expect(dialog.getByRole("img", { name: "Preview of your bank slip" })).toBeVisible();
      await expect(placeOrder).toBeEnabled();
      await expect(placeOrder).not.toHaveAttribute("aria-disabled");
      await expect(placeOrder).toHaveAccessibleDescription("");
    } finally {
      await shoe.remove();
    }
  });

  test("Copy puts the account number and the amount on the clipboard, by tap or keyboard, and says 'Copied'", async ({ page, context, request, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
    const shoe = await ownShoe(request, 5);
    try {
      await customerWithCart(context, request, baseURL!, shoe);
      await gotoHydrated(page, "/cart?checkout");
      const dialog = page.getByRole("dialog", { name: "Checkout" });
      const details = dialog.getByTestId("bank-details");
      const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

      const copyNumber = details.getByRole("button", { name: "Copy account number" });
      const copyAmount = details.getByRole("button", { name: "Copy amount to transfer" });
      for (const button of [copyNumber, copyAmount]) {
        await expect(button).toHaveText("Copy");
        expect((await button.boundingBox())!.height, "a tap target 44 px tall").toBeGreaterThanOrEqual(44);
      }

      // A tap: the number as a banking app's field takes it, without the spaces that group it for reading.
      const shown = (await details.getByTestId("bank-account-number").textContent())!;
      expect(shown).toMatch(/\d \d/);
      await copyNumber.tap();
      expect(await clipboard()).toBe(shown.replace(/\s+/g, ""));
      const said = details.getByTestId("copy-status");
      await expect(said.first()).toHaveText("Copied");
      await expect(said.first()).toHaveAttribute("aria-live", "polite");
      await expect(said.first()).toHaveText("", { timeout: 5_000 }); // it goes after a moment

      // The keyboard: the amount, in plain figures with its cents (12,500.00 for one pair).
      await expect(details.getByTestId("bank-amount")).toHaveText("LKR 12,500.00");
      await expect(dialog.getByTestId("checkout-total")).toHaveText("LKR 12,500.00");
      await copyAmount.focus();
      await page.keyboard.press("Enter");
      await expect(said.nth(1)).toHaveText("Copied");
      expect(await clipboard()).toBe("12500.00");
      await page.evaluate(() => navigator.clipboard.writeText(""));
      await page.keyboard.press("Space");
      await expect.poll(clipboard).toBe("12500.00");
    } finally {
      await shoe.remove();
    }
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the bank details are there to select, without a Copy button that could not work", async ({ page, context, request, baseURL }) => {
      const shoe = await ownShoe(request, 5);
      try {
        await customerWithCart(context, request, baseURL!, shoe);
        await page.goto("/cart?checkout");
        const details = page.getByRole("dialog", { name: "Checkout" }).getByTestId("bank-details");
        await expect(details.getByTestId("bank-account-number")).toHaveText(/\d/);
        await expect(details.getByTestId("bank-amount")).toHaveText("LKR 12,500.00");
        await expect(details.getByRole("button")).toHaveCount(0);
      } finally {
        await shoe.remove();
      }
    });
  });
});

test("a login that puts the visit's items into a saved cart with lines says so once, on the page it lands on", async ({ page, context, request, baseURL }) => {
  const shoe = await ownShoe(request, 5);
  const other = await ownShoe(request, 5);
  try {
    // A customer with one pair saved, and a visit (not logged in) that put another shoe in the cart.
    const user = uniqueUser();
    expect((await request.post("/api/auth/register", { data: user })).status()).toBe(201);
    expect((await request.post(`/api/cart/add?productId=${shoe.id}&sizeId=${shoe.sizeId}`, { headers: { Authorization: `Bearer ${await tokenOf(request, user)}` } })).status()).toBe(200);
    await visitorCart(context, baseURL!, other, 1);

    await gotoHydrated(page, "/login?redirect=%2F");
    await logIn(page, user);
    await expect(page).toHaveURL("/?merged=1");
    const toast = page.getByText(CART_MERGED_MESSAGE, { exact: true });
    await expect(toast).toBeVisible();
    // Its way on is the cart, which holds both.
    await page.getByRole("link", { name: "View cart" }).click();
    await expect(page).toHaveURL("/cart");
    await expect(page.getByTestId("cart-line")).toHaveCount(2);
    await expect(toast).toHaveCount(0);
  } finally {
    await shoe.remove();
    await other.remove();
  }
});

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`screenshots ${label}`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of ["light", "dark"] as const) {
      test(`the cart's stock message, the checkout's Copy and refused slip, the login and registration toasts (${theme})`, async ({ page, context, request, baseURL }) => {
        test.slow();
        await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}-${theme}-${label}.png` });
        const shoe = await ownShoe(request, 2);
        try {
          // The cart: + pressed at the stock.
          await visitorCart(context, baseURL!, shoe, 2);
          await gotoHydrated(page, "/cart");
          await page.getByRole("button", { name: /^One more / }).click({ force: true });
          await expect(page.getByRole("alert")).toHaveText(ABOVE_STOCK);
          await shot("cart-stock");

          // The checkout: the account number copied; then a slip refused, with Place Order unavailable.
          await context.clearCookies({ name: "stride_cart" });
          const user = await customerWithCart(context, request, baseURL!, shoe);
          await gotoHydrated(page, "/cart?checkout");
          const dialog = page.getByRole("dialog", { name: "Checkout" });
          await dialog.getByRole("button", { name: "Copy account number" }).click();
          await expect(dialog.getByTestId("copy-status").first()).toHaveText("Copied");
          await shot("checkout-copy");
          await dialog.getByLabel("Bank slip").setInputFiles(notASlip);
          await expect(dialog.getByRole("button", { name: /^Place Order/ })).toHaveAttribute("aria-disabled", "true");
          await dialog.getByRole("button", { name: /^Place Order/ }).scrollIntoViewIfNeeded();
          await shot("checkout-refused-slip");

          // The toasts, as the pages a login and a registration land on show them.
          await gotoHydrated(page, "/cart?merged=1");
          await expect(page.getByText(CART_MERGED_MESSAGE)).toBeVisible();
          await shot("login-merged");
          await gotoHydrated(page, "/?merged=1");
          await expect(page.getByRole("link", { name: "View cart" })).toBeVisible();
          await shot("login-merged-home");
          await gotoHydrated(page, "/?welcome=1");
          await expect(page.getByText(`Welcome to Stride, ${user.name.split(" ")[0]}: your account is ready`)).toBeVisible();
          await shot("register-welcome");
        } finally {
          await shoe.remove();
        }
      });
    }
  });
}
