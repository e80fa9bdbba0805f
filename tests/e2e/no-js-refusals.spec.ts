import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

import { customerWithCart, goodSlip, ownShoe } from "./cart-helpers";
import { SCREENSHOT_VIEWPORTS, uniqueUser } from "./helpers";

// Forms refused without JavaScript, as an accessibility audit with scripts off met them: a refused checkout kept
// what was typed (not the profile's values) and says the slip must be chosen again; an add without a size comes
// back at the size picker, which says it under the sizes; a refused review comes back at its form; the toast of an
// add closes without JavaScript, and its Close reads at 4.5:1 on the error toast's red in both themes. Screenshots of
// each, light and dark, 390 and 1280 wide, under /tmp/nojs-shots (SHOTS_DIR).

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/nojs-shots";
const SELECT_A_SIZE = "Please select a size";
const ABOVE_STOCK = "Cannot add more than available stock";
const chooseAgain = (name: string) => `Please choose your bank slip (${name}) again: a chosen file does not stay when the page reloads`;

/** A shoe of the test's own with two sizes in stock, so its page asks for a size. */
const twoSizeShoe = (request: Parameters<typeof ownShoe>[0]) =>
  ownShoe(request, 0, [
    { label: "EU 41", stockQuantity: 3 },
    { label: "EU 42", stockQuantity: 3 },
  ]);

/** A new customer, logged in in the page's context through the register form's action (as a browser posts it). */
async function registerPlain(page: Page) {
  const shopper = uniqueUser();
  const registered = await page.request.post("/register", { form: { ...shopper, confirmPassword: shopper.password }, maxRedirects: 0 });
  expect(registered.status()).toBe(302);
  return shopper;
}

/** The checkout, filled as the audit did: another name and address for this order, the phone left blank, a slip. */
async function refusedCheckout(page: Page) {
  await page.goto("/cart?checkout");
  const dialog = page.getByRole("dialog", { name: "Checkout" });
  await dialog.getByLabel("Full name").fill("Kamala Silva");
  await dialog.getByLabel("Shipping address").fill("12 Temple Rd, Kandy");
  await dialog.getByLabel("Phone").fill("");
  await dialog.getByLabel("Bank slip").setInputFiles(goodSlip);
  await dialog.getByRole("button", { name: /^Place Order/ }).click();
  await expect(page).toHaveURL("/cart?checkout");
  return dialog;
}

/** Add to Cart pressed with no size chosen. */
async function addWithoutSize(page: Page, shoe: { id: number; name: string }) {
  await page.goto(`/product/${shoe.id}`);
  await page.getByRole("button", { name: `Add to Cart: ${shoe.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${shoe.id}\\?cartError=[^#]+#size-picker-${shoe.id}$`));
}

/** Submit Review pressed with no comment. */
async function emptyReview(page: Page, productId: number) {
  await page.goto(`/product/${productId}`);
  await page.getByRole("link", { name: "View Reviews" }).click();
  await page.getByRole("button", { name: "Submit Review" }).click();
  await expect(page).toHaveURL(`/product/${productId}#write-review`);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a refused checkout shows what was typed and asks for the slip again; the order then ships to the typed address", async ({ page, context, request, baseURL }) => {
    const shoe = await ownShoe(request, 5);
    try {
      const user = await customerWithCart(context, request, baseURL!, shoe);
      const dialog = await refusedCheckout(page);
      await expect(dialog.getByLabel("Full name")).toHaveValue("Kamala Silva");
      await expect(dialog.getByLabel("Shipping address")).toHaveValue("12 Temple Rd, Kandy");
      const phone = dialog.getByLabel("Phone");
      // Blank as sent, not the profile's number under "Please enter your phone number".
      await expect(phone).toHaveValue("");
      await expect(phone).toHaveAccessibleDescription("Please enter your phone number");
      const slip = dialog.getByLabel("Bank slip");
      await expect(slip).toHaveAccessibleDescription(new RegExp(`^${chooseAgain("bank-slip.png").replace(/[().]/g, "\\$&")}`));
      const orders = await request.get("/api/orders/my", { headers: { Authorization: `Bearer ${user.token}` } });
      expect(await orders.json()).toEqual([]);

      // The phone and the slip again: the order goes to the address typed, not the profile's.
      await phone.fill("0712345678");
      await slip.setInputFiles(goodSlip);
      await dialog.getByRole("button", { name: /^Place Order/ }).click();
      await expect(page).toHaveURL(/\/orders\/\d+\?placed=1$/);
      const delivery = page.getByRole("region", { name: "Delivery", exact: true });
      await expect(delivery).toContainText("Kamala Silva");
      await expect(delivery).toContainText("12 Temple Rd, Kandy");
      await expect(delivery).not.toContainText(user.address);
    } finally {
      await shoe.remove();
    }
  });

  test("Add to Cart without a size comes back at the picker, which says it under the sizes, once", async ({ page, request }) => {
    const shoe = await twoSizeShoe(request);
    try {
      await addWithoutSize(page, shoe);
      const group = page.getByRole("group", { name: "Size" });
      const alert = page.getByRole("alert").filter({ hasText: SELECT_A_SIZE });
      await expect(group).toBeInViewport();
      await expect(alert).toBeInViewport();
      await expect(group).toHaveAccessibleDescription(new RegExp(`^${SELECT_A_SIZE}`));
      // Under the sizes, not in a toast as well.
      await expect(page.getByRole("status").filter({ hasText: SELECT_A_SIZE })).toHaveCount(0);
    } finally {
      await shoe.remove();
    }
  });

  test("the toast of an add, and of a refused add, closes by its Close", async ({ page, request }) => {
    const shoe = await ownShoe(request, 1);
    try {
      const add = () => page.getByRole("button", { name: `Add to Cart: ${shoe.name}` }).click();
      const close = page.getByRole("link", { name: "Close", exact: true });
      await page.goto(`/product/${shoe.id}`);
      await add();
      await expect(page).toHaveURL(`/product/${shoe.id}?added=${shoe.id}`);
      await expect(page.getByRole("status").filter({ hasText: "Added to your cart" })).toBeVisible();
      await close.click();
      await expect(page).toHaveURL(`/product/${shoe.id}`);
      await expect(page.getByText("Added to your cart")).toHaveCount(0);

      // The only pair is in the cart: one more is refused.
      await add();
      await expect(page).toHaveURL(/\?cartError=/);
      await expect(page.getByRole("status").filter({ hasText: ABOVE_STOCK })).toBeVisible();
      await close.click();
      await expect(page).toHaveURL(`/product/${shoe.id}`);
      await expect(page.getByText(ABOVE_STOCK)).toHaveCount(0);
    } finally {
      await shoe.remove();
    }
  });

  for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
    test.describe(`${label} wide`, () => {
      test.use({ viewport, isMobile, hasTouch });

      test("a refused review comes back at its form, and a refused edit at the review, with the message in view", async ({ page, request }) => {
        const shoe = await ownShoe(request, 3);
        try {
          await registerPlain(page);
          await emptyReview(page, shoe.id);
          const comment = page.getByLabel("Your review");
          await expect(comment).toHaveAccessibleDescription("Comment is required");
          await expect(page.getByText("Comment is required")).toBeInViewport();
          await expect(page.getByText("Please correct the highlighted fields.")).toBeInViewport();

          await comment.fill("Light and quick");
          await page.getByRole("button", { name: "Submit Review" }).click();
          await expect(page).toHaveURL(`/product/${shoe.id}#reviews`);
          const own = page.getByRole("list", { name: "Your review" });
          await own.getByRole("link", { name: "Edit your review" }).click();
          await own.getByLabel("Edit your review").fill(" ");
          await own.getByRole("button", { name: "Save" }).click();
          await expect(page).toHaveURL(new RegExp(`/product/${shoe.id}#review-\\d+$`));
          await expect(own.getByText("Failed to update review. Please try again.")).toBeInViewport();
          await expect(own.getByText("Comment is required")).toBeInViewport();
          await expect(own.getByLabel("Edit your review")).toHaveValue(" ");
        } finally {
          await shoe.remove();
        }
      });
    });
  }
});

test.describe("the error toast's Close", () => {
  for (const theme of ["light", "dark"] as const) {
    test(`reads at 4.5:1 or more on the toast's red (${theme}, axe color-contrast)`, async ({ page, context, request, baseURL }) => {
      const shoe = await ownShoe(request, 1);
      try {
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        await page.goto(`/product/${shoe.id}?cartError=${encodeURIComponent(ABOVE_STOCK)}`);
        const close = page.getByRole("link", { name: "Close", exact: true });
        await expect(close).toBeVisible();
        // The pointer on the toast's message keeps it (it hides itself after 5 s otherwise); not on Close, whose
        // hover style is not what it reads at.
        await page.getByRole("status").filter({ hasText: ABOVE_STOCK }).hover();
        const results = await new AxeBuilder({ page }).include('div:has(> [aria-live="polite"])').withRules(["color-contrast"]).analyze();
        expect(results.passes.map((rule) => rule.id), "axe looked at the toast").toContain("color-contrast");
        expect(results.violations.flatMap((violation) => violation.nodes.map((node) => `${node.html}: ${node.failureSummary}`))).toEqual([]);
      } finally {
        await shoe.remove();
      }
    });
  }
});

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`screenshots ${label}`, () => {
    test.use({ viewport, isMobile, hasTouch, javaScriptEnabled: false });
    for (const theme of ["light", "dark"] as const) {
      test(`the refused checkout, the size picker's message, the error toast and the refused review (${theme})`, async ({ page, context, request, baseURL }) => {
        test.slow();
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        // Each screen is looked at by a person; here, none of them may scroll sideways.
        const shot = async (name: string) => {
          expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
          await page.screenshot({ path: `${SHOTS}/${name}-${theme}-${label}.png` });
        };
        const shoe = await twoSizeShoe(request);
        try {
          await customerWithCart(context, request, baseURL!, shoe);
          const dialog = await refusedCheckout(page);
          await dialog.getByLabel("Phone").scrollIntoViewIfNeeded();
          await shot("checkout-refused");
          await dialog.getByLabel("Bank slip").scrollIntoViewIfNeeded();
          await shot("checkout-refused-slip");

          await addWithoutSize(page, shoe);
          await shot("size-missing");

          await page.goto(`/product/${shoe.id}?cartError=${encodeURIComponent(ABOVE_STOCK)}`);
          await shot("toast-error");

          await emptyReview(page, shoe.id);
          await shot("review-refused");
        } finally {
          await shoe.remove();
        }
      });
    }
  });
}
