import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { Result } from "axe-core";

import { logInAs, placeOrderAsNewCustomer } from "./admin-helpers";
import { DEMO_ADMIN, gotoHydrated, uniqueUser } from "./helpers";

// Accessibility in a real browser against the real Worker: axe-core on every screen, in the light and the dark theme,
// fails on any violation of impact "serious" or "critical" (lesser ones are listed in the test's annotations); then
// the keyboard: every control of the login and register forms is reached by Tab and shows a focus ring, and the
// checkout and the admin's Manage dialogs keep the focus inside and give it back to their opener when they close.
//
// Each worker registers its own customer and places one order for them through the API, so the customer and admin
// screens have an order to show; the demo accounts' carts and orders are left alone.

type Viewer = "visitor" | "customer" | "admin";
type Theme = "light" | "dark";

interface Fixture {
  customer: ReturnType<typeof uniqueUser>;
  orderId: number;
  /** An in-stock product with reviews, so the product page shows its whole review block. */
  productId: number;
}

let fixture: Fixture | undefined;

async function setUp(request: APIRequestContext): Promise<Fixture> {
  const products = (await (await request.get("/api/products?page=1&pageSize=100")).json()) as { id: number; productAvailable: boolean; stockQuantity: number; reviewCount: number }[];
  const inStock = products.filter((product) => product.productAvailable && product.stockQuantity >= 3);
  const product = inStock.find((candidate) => candidate.reviewCount > 0) ?? inStock[0];
  expect(product, "an in-stock product in the demo catalogue").toBeDefined();

  const { customer, id: orderId } = await placeOrderAsNewCustomer(request, { productId: product!.id });
  return { customer, orderId, productId: product!.id };
}

test.beforeAll(async ({ request }) => {
  fixture = await setUp(request);
});

function given(): Fixture {
  if (!fixture) throw new Error("beforeAll did not run");
  return fixture;
}

async function useTheme(page: Page, theme: Theme, baseURL: string | undefined) {
  if (theme === "light") return; // the default: no cookie
  await page.context().addCookies([{ name: "theme", value: "dark-theme", url: baseURL ?? "http://localhost:8788" }]);
}

async function logInAsViewer(page: Page, viewer: Viewer) {
  if (viewer === "customer") await logInAs(page, { email: given().customer.email, password: given().customer.password }, "/");
  if (viewer === "admin") await logInAs(page, DEMO_ADMIN);
}

/** One line per failing element: the rule, its impact, what to fix and where. */
function describe(violations: Result[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `[${violation.impact}] ${violation.id}: ${violation.help}\n    at ${node.target.join(" ")}\n    ${node.html.slice(0, 200)}\n    ${(node.failureSummary ?? "").replace(/\n\s*/g, " ")}\n    ${violation.helpUrl}`,
    ),
  );
}

/**
 * axe-core on the page as it is now; fails on serious and critical violations and notes the others. Also on is
 * label-content-name-mismatch (WCAG 2.5.3 Label in Name, "serious"), which axe 4.13 ships off as experimental: a
 * control's aria-label must contain its visible text, so "click Add to Cart" by voice finds the button.
 */
async function expectAccessible(page: Page, scope?: string) {
  const builder = new AxeBuilder({ page }).options({ rules: { "label-content-name-mismatch": { enabled: true } } });
  if (scope) builder.include(scope);
  const results = await builder.analyze();
  const blocking = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  const minor = results.violations.filter((violation) => !blocking.includes(violation));
  for (const line of describe(minor)) test.info().annotations.push({ type: "axe (minor/moderate)", description: line });
  expect(describe(blocking), `axe-core found serious or critical violations on ${page.url()}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------------------------
// Every screen, both themes

interface Screen {
  name: string;
  as: Viewer;
  /** Opens the screen (after the login and the theme are set) and waits until it shows what axe should look at. */
  open: (page: Page) => Promise<void>;
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole("dialog", { name });

async function addToCart(page: Page) {
  const response = await page.request.post("/cart/add", { form: { productId: String(given().productId) } });
  expect(response.ok(), await response.text()).toBeTruthy();
}

const SCREENS: Screen[] = [
  { name: "home", as: "visitor", open: (page) => gotoHydrated(page, "/") },
  { name: "home, Kids category", as: "visitor", open: (page) => gotoHydrated(page, "/?category=Kids") },
  {
    name: "home on a phone, menu open",
    as: "customer",
    open: async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await gotoHydrated(page, "/");
      await page.getByLabel("Menu", { exact: true }).click();
      await expect(page.getByRole("link", { name: "My Orders" }).last()).toBeVisible();
    },
  },
  { name: "product page", as: "visitor", open: (page) => gotoHydrated(page, `/product/${given().productId}`) },
  {
    name: "product page with the review form",
    as: "customer",
    open: async (page) => {
      await gotoHydrated(page, `/product/${given().productId}`);
      await expect(page.getByRole("heading", { name: "Write a review" })).toBeVisible();
    },
  },
  {
    name: "product page with the admin's actions",
    as: "admin",
    open: async (page) => {
      await gotoHydrated(page, `/product/${given().productId}`);
      await expect(page.getByRole("link", { name: "Update Product" })).toBeVisible();
    },
  },
  { name: "search results", as: "visitor", open: (page) => gotoHydrated(page, "/search?keyword=boot") },
  {
    name: "search dropdown open",
    as: "visitor",
    open: async (page) => {
      await gotoHydrated(page, "/");
      await page.getByRole("combobox", { name: "Search shoes" }).first().fill("boot");
      await expect(page.getByRole("listbox", { name: "Matching products" })).toBeVisible();
    },
  },
  {
    name: "empty cart",
    as: "visitor",
    open: async (page) => {
      await gotoHydrated(page, "/cart");
      await expect(page.getByText("Your cart is empty")).toBeVisible();
    },
  },
  {
    name: "cart with items",
    as: "visitor",
    open: async (page) => {
      await addToCart(page);
      await gotoHydrated(page, "/cart");
      await expect(page.getByTestId("cart-line").first()).toBeVisible();
    },
  },
  {
    name: "checkout dialog",
    as: "customer",
    open: async (page) => {
      await addToCart(page);
      await gotoHydrated(page, "/cart?checkout");
      await expect(dialog(page, "Checkout")).toBeVisible();
    },
  },
  { name: "login", as: "visitor", open: (page) => gotoHydrated(page, "/login") },
  { name: "register", as: "visitor", open: (page) => gotoHydrated(page, "/register") },
  { name: "forgot password", as: "visitor", open: (page) => gotoHydrated(page, "/forgot-password") },
  { name: "reset password, bad link", as: "visitor", open: (page) => gotoHydrated(page, "/reset-password?token=no-such-token") },
  { name: "profile", as: "customer", open: (page) => gotoHydrated(page, "/profile") },
  {
    name: "my orders",
    as: "customer",
    open: async (page) => {
      await gotoHydrated(page, "/orders");
      await expect(page.getByTestId("order").first()).toBeVisible();
    },
  },
  { name: "an order", as: "customer", open: (page) => gotoHydrated(page, `/orders/${given().orderId}`) },
  { name: "add product", as: "admin", open: (page) => gotoHydrated(page, "/add_product") },
  { name: "update product", as: "admin", open: (page) => gotoHydrated(page, `/product/update/${given().productId}`) },
  { name: "admin dashboard", as: "admin", open: (page) => gotoHydrated(page, "/admin/dashboard") },
  { name: "admin users", as: "admin", open: (page) => gotoHydrated(page, "/admin/users") },
  { name: "admin orders", as: "admin", open: (page) => gotoHydrated(page, "/admin/orders") },
  { name: "admin outbox", as: "admin", open: (page) => gotoHydrated(page, "/admin/outbox") },
  {
    name: "admin Manage dialog",
    as: "admin",
    open: async (page) => {
      await gotoHydrated(page, `/admin/orders?manage=${given().orderId}`);
      await expect(dialog(page, `Manage order #${given().orderId}`)).toBeVisible();
    },
  },
  {
    name: "admin bank slip dialog",
    as: "admin",
    open: async (page) => {
      await gotoHydrated(page, `/admin/orders?slip=${given().orderId}`);
      const slip = dialog(page, `Bank slip · Order #${given().orderId}`);
      await expect(slip).toBeVisible();
      await expect.poll(() => slip.getByTestId("slip-image").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    },
  },
  {
    name: "404 page",
    as: "visitor",
    open: async (page) => {
      await gotoHydrated(page, "/no-such-page");
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    },
  },
];

for (const theme of ["light", "dark"] as const) {
  test.describe(`axe-core, ${theme} theme`, () => {
    for (const screen of SCREENS) {
      test(`${screen.name} (${screen.as})`, async ({ page, baseURL }) => {
        await useTheme(page, theme, baseURL);
        await logInAsViewer(page, screen.as);
        await screen.open(page);
        await expect(page.locator("html")).toHaveAttribute("data-theme", `${theme}-theme`);
        await expectAccessible(page);
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// The keyboard

interface FocusStop {
  /** What a person would call it: its label, its text or its name. */
  name: string;
  tag: string;
  type: string | null;
  /** The radio group, for radios: Tab stops at one radio of a group and the arrows move within it. */
  group: string | null;
  focusVisible: boolean;
  /** An outline, or a box-shadow ring that was not there before the focus, on the control or (for a visually hidden input) on its label. */
  ring: string | null;
}

/** Marks every control of `root` that Tab should reach, and notes how each looks before it has the focus. */
async function markControls(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const selector = "a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";
    const controls = Array.from(element.querySelectorAll<HTMLElement>(selector)).filter((control) => control.getClientRects().length > 0 && getComputedStyle(control).visibility !== "hidden");
    return controls.map((control, index) => {
      control.dataset.a11yControl = String(index);
      const styled = control.getBoundingClientRect().width <= 1 ? (control.closest("label") ?? control) : control;
      styled.dataset.a11yBaseShadow = getComputedStyle(styled).boxShadow;
      const label = control.id ? document.querySelector(`label[for="${control.id}"]`)?.textContent : control.closest("label")?.textContent;
      return `${control.tagName.toLowerCase()} "${(control.getAttribute("aria-label") ?? label ?? control.textContent ?? "").trim()}"`;
    });
  });
}

/** Where the focus is now, and whether it can be seen. */
async function focusStop(page: Page): Promise<FocusStop & { index: string | null }> {
  return page.evaluate(() => {
    const control = document.activeElement as HTMLElement;
    // A visually hidden input (the login's "Login as" radios) shows its focus on the label around it.
    const styled = control.getBoundingClientRect().width <= 1 ? (control.closest("label") ?? control) : control;
    const style = getComputedStyle(styled);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1 && !/rgba\(.*, 0\)$/.test(style.outlineColor) ? `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}` : null;
    // A box-shadow ring counts when it was not there before the focus and has a layer that shows: a colour that is
    // not transparent, and a blur or a spread.
    const showing = (layer: string) => {
      const color = layer.match(/[a-z-]+\([^)]*\)/)?.[0] ?? "";
      const alpha = color.startsWith("rgba(") ? Number(color.slice(5, -1).split(",")[3]) : color.includes("/") ? parseFloat(color.split("/")[1]) : 1;
      const lengths = layer.replace(color, "").match(/-?[\d.]+px/g)?.map(parseFloat) ?? [];
      return alpha > 0 && lengths.slice(2).some((length) => length > 0);
    };
    const layers = style.boxShadow === "none" ? [] : style.boxShadow.split(/,(?![^(]*\))/);
    const shadow = style.boxShadow !== styled.dataset.a11yBaseShadow && layers.some(showing) ? `box-shadow ${style.boxShadow}` : null;
    const label = control.id ? document.querySelector(`label[for="${control.id}"]`)?.textContent : control.closest("label")?.textContent;
    return {
      index: control.dataset.a11yControl ?? null,
      name: (control.getAttribute("aria-label") ?? label ?? control.textContent ?? "").trim(),
      tag: control.tagName.toLowerCase(),
      type: control.getAttribute("type"),
      group: control.getAttribute("type") === "radio" ? control.getAttribute("name") : null,
      focusVisible: control.matches(":focus-visible"),
      ring: outline ?? shadow,
    };
  });
}

/** Tabs through the whole page once and checks every control of `root` was reached with a visible focus ring. */
async function expectEveryControlReachableByTab(page: Page, root: Locator) {
  const controls = await markControls(root);
  expect(controls.length).toBeGreaterThan(0);
  const reached = new Set<string>();
  const groupsReached = new Set<string>();
  const withoutRing: string[] = [];
  await page.locator("body").focus();
  for (let press = 0; press < controls.length + 20; press++) {
    await page.keyboard.press("Tab");
    const stop = await focusStop(page);
    if (stop.index === null) continue; // outside the form (the skip link) or back at the document
    reached.add(stop.index);
    if (stop.group) groupsReached.add(stop.group);
    if ((!stop.focusVisible || !stop.ring) && !withoutRing.includes(`${stop.tag} "${stop.name}"`)) withoutRing.push(`${stop.tag} "${stop.name}"`);
  }
  // A radio group is one Tab stop: reaching one radio of the group reaches the group.
  const radioGroups = await root.evaluate((element) =>
    Object.fromEntries(Array.from(element.querySelectorAll<HTMLInputElement>("[data-a11y-control][type=radio]")).map((radio) => [radio.dataset.a11yControl!, radio.name])),
  );
  const missed = controls.filter((_, index) => !reached.has(String(index)) && !(radioGroups[index] && groupsReached.has(radioGroups[index])));
  expect(missed, "controls Tab never reached").toEqual([]);
  expect(withoutRing, "controls that had the focus without a visible focus ring").toEqual([]);
}

test.describe("keyboard", () => {
  for (const theme of ["light", "dark"] as const) {
    test(`every control of the login form is reached by Tab with a visible focus ring (${theme})`, async ({ page, baseURL }) => {
      await useTheme(page, theme, baseURL);
      await gotoHydrated(page, "/login");
      // The password's show/hide button is a control too; it is checked like the others.
      await expectEveryControlReachableByTab(page, page.locator("main"));
    });

    test(`every control of the register form is reached by Tab with a visible focus ring (${theme})`, async ({ page, baseURL }) => {
      await useTheme(page, theme, baseURL);
      await gotoHydrated(page, "/register");
      await expectEveryControlReachableByTab(page, page.locator("main"));
    });
  }

  /** The controls Tab can stop at inside the dialog, first to last. */
  async function tabbables(dialogBox: Locator): Promise<Locator[]> {
    const count = await dialogBox.evaluate((element) => {
      const selector = "a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";
      const found = Array.from(element.querySelectorAll<HTMLElement>(selector)).filter((control) => control.getClientRects().length > 0 && control.tabIndex >= 0);
      element.querySelectorAll("[data-a11y-tabbable]").forEach((control) => control.removeAttribute("data-a11y-tabbable"));
      found.forEach((control, index) => (control.dataset.a11yTabbable = String(index)));
      return found.length;
    });
    return Array.from({ length: count }, (_, index) => dialogBox.locator(`[data-a11y-tabbable="${index}"]`));
  }

  /** Tab from the last control goes to the first, Shift+Tab from the first to the last, and Tab never leaves. */
  async function expectFocusTrapped(page: Page, dialogBox: Locator) {
    await expect.poll(() => dialogBox.evaluate((element) => element.contains(document.activeElement)), { message: "the dialog takes the focus when it opens" }).toBe(true);
    const controls = await tabbables(dialogBox);
    expect(controls.length).toBeGreaterThan(1);
    const first = controls[0];
    const last = controls[controls.length - 1];

    await last.focus();
    await page.keyboard.press("Tab");
    await expect(first).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(last).toBeFocused();

    // A full round of Tabs stays inside.
    for (let press = 0; press < controls.length + 1; press++) {
      await page.keyboard.press("Tab");
      expect(await dialogBox.evaluate((element) => element.contains(document.activeElement)), `Tab ${press + 1} stays in the dialog`).toBe(true);
    }
  }

  test("the checkout dialog traps the focus and gives it back to Proceed to Checkout on Escape", async ({ page }) => {
    await logInAsViewer(page, "customer");
    await addToCart(page);
    await gotoHydrated(page, "/cart");
    const opener = page.getByRole("link", { name: "Proceed to Checkout" });
    await opener.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/cart\?checkout$/);
    const checkout = dialog(page, "Checkout");
    await expect(checkout).toBeVisible();

    await expectFocusTrapped(page, checkout);

    await page.keyboard.press("Escape");
    await expect(checkout).toBeHidden();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(opener).toBeFocused();
  });

  test("the admin's Manage dialog traps the focus and gives it back to its Manage link on Escape", async ({ page }) => {
    const { orderId } = given();
    await logInAsViewer(page, "admin");
    await gotoHydrated(page, "/admin/orders");
    const opener = page.getByRole("link", { name: `Manage order #${orderId}`, exact: true });
    await opener.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/admin/orders\\?manage=${orderId}$`));
    const manage = dialog(page, `Manage order #${orderId}`);
    await expect(manage).toBeVisible();
    await expect(manage.getByLabel("New status")).toBeFocused(); // its first field, ready to change

    await expectFocusTrapped(page, manage);

    await page.keyboard.press("Escape");
    await expect(manage).toBeHidden();
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(opener).toBeFocused();
  });
});
