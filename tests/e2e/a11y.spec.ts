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
  const products = (await (await request.get("/api/products?page=1&pageSize=100")).json()) as { id: number; category: string; productAvailable: boolean; stockQuantity: number; reviewCount: number }[];
  // An accessory (one size: the screens add it to carts without choosing one) with enough stock for the order below and
  // the adds of the screens (the checkout's light and dark screens and its keyboard test put one each into the same
  // customer's cart), taken from the end of the list: backoffice.spec's orders use up stock from its start.
  const inStock = products.filter((product) => product.category === "Accessories" && product.productAvailable && product.stockQuantity >= 6).reverse();
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
  {
    name: "home, a price range the wrong way round",
    as: "visitor",
    open: async (page) => {
      await gotoHydrated(page, "/?minPrice=5000&maxPrice=100");
      await expect(page.getByRole("alert").filter({ hasText: "the price range was left out" })).toBeVisible();
    },
  },
  {
    name: "home, a minimum above every price",
    as: "visitor",
    open: async (page) => {
      await gotoHydrated(page, "/?category=Gents&minPrice=99999999");
      await expect(page.getByRole("alert").filter({ hasText: "the price range was left out" })).toBeVisible();
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
  { name: "admin stock", as: "admin", open: (page) => gotoHydrated(page, "/admin/stock?category=Kids") },
  { name: "admin stock, searched", as: "admin", open: (page) => gotoHydrated(page, "/admin/stock?category=Gents&q=boot") },
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

// ---------------------------------------------------------------------------------------------------------------------
// Names that tell controls apart: a page's buttons and links of the same words each name their own product or order,
// and start with the words they show (Label in Name, WCAG 2.5.3).

test.describe("names that tell controls apart", () => {
  test("each card's Out of Stock button on the home page names its product, as Add to Cart does", async ({ page }) => {
    await gotoHydrated(page, "/");
    const cards = await page.getByTestId("product-card").evaluateAll((found) =>
      found.map((card) => ({ product: card.querySelector("h3")?.textContent ?? "", button: card.querySelector("button") })).map(({ product, button }) => ({ product, text: button?.textContent ?? null, name: button?.getAttribute("aria-label") ?? null })),
    );
    const outOfStock = cards.filter((card) => card.text === "Out of Stock");
    expect(outOfStock.length, "the home page shows products out of stock").toBeGreaterThanOrEqual(2);
    for (const card of outOfStock) {
      await expect(page.getByRole("button", { name: `Out of Stock: ${card.product}`, exact: true })).toBeDisabled();
    }
    const names = cards.flatMap((card) => (card.name ? [card.name] : []));
    expect(names.length).toBe(cards.filter((card) => card.text !== null).length);
    expect(new Set(names).size, "no two of the grid's buttons have the same name").toBe(names.length);
  });

  test("each order's Details and history link on My Orders names its order", async ({ page }) => {
    const { orderId } = given();
    await logInAsViewer(page, "customer");
    await gotoHydrated(page, "/orders");
    const link = page.getByRole("link", { name: `Details and history: Order #${orderId}`, exact: true });
    await expect(link).toHaveText("Details and history");
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`/orders/${orderId}`);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// The audit's keyboard and focus findings: what opens closes when the focus leaves it, the focus is never hidden under
// the sticky header nor dropped on <body>, a select does not navigate while the arrows move through it.

/** Whether the focused element is drawn below the sticky header (not under it) and inside the viewport. */
async function focusClearOfHeader(page: Page): Promise<{ tag: string; top: number; headerBottom: number; inView: boolean }> {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const rect = focused.getBoundingClientRect();
    const headerBottom = document.querySelector("header")!.getBoundingClientRect().bottom;
    return { tag: `${focused.tagName.toLowerCase()} ${(focused.textContent ?? "").trim().slice(0, 40)}`, top: rect.top, headerBottom, inView: rect.bottom <= innerHeight };
  });
}

/** The WCAG contrast ratio of two colours given as [r, g, b] (0-255). */
function contrast(a: number[], b: number[]): number {
  const luminance = (color: number[]) => {
    const [r, g, b] = color.map((channel) => {
      const value = Number(channel) / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

test.describe("focus and keyboard: the audit", () => {
  const searchBox = (page: Page) => page.getByRole("combobox", { name: "Search shoes" });

  test("the search suggestions close when Tab or Shift+Tab leaves the box, and on Escape", async ({ page }) => {
    await gotoHydrated(page, "/");
    const box = searchBox(page);
    const list = page.getByRole("listbox", { name: "Matching products" });
    for (const key of ["Tab", "Shift+Tab", "Escape"]) {
      await box.focus();
      await box.fill("");
      await page.keyboard.type("boot");
      await expect(list).toBeVisible();
      await page.keyboard.press("ArrowDown"); // moving through the suggestions keeps them open
      await expect(list).toBeVisible();
      await page.keyboard.press(key);
      await expect(list, `${key} closes the suggestions`).toBeHidden();
      await expect(box).toHaveAttribute("aria-expanded", "false");
      if (key === "Escape") await expect(box).toBeFocused();
      else await expect(box).not.toBeFocused();
    }
  });

  test("the size guide closes when the focus leaves it, and Escape gives the focus back to its toggle", async ({ page, request }) => {
    const products = (await (await request.get("/api/products?page=1&pageSize=100")).json()) as { id: number; category: string; productAvailable: boolean }[];
    const shoe = products.find((product) => product.category === "Gents" && product.productAvailable)!;
    await gotoHydrated(page, `/product/${shoe.id}`);
    const toggle = page.locator("summary", { hasText: "Size guide" });
    const chart = page.getByRole("table", { name: /find your size/ });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(chart).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(chart).toBeHidden();
    await expect(toggle).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(chart).toBeVisible();
    await page.keyboard.press("Tab"); // to the sizes, which the open chart would cover
    await expect(toggle).not.toBeFocused();
    await expect(chart).toBeHidden();
  });

  test("on a phone the menu and its Categories submenu stay open while the focus moves inside, and close when it leaves", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, "/");
    const menu = page.locator("header details:has(> summary[aria-label='Menu'])");
    const toggle = menu.locator("> summary");
    const categories = menu.locator("details:has(> summary:text-is('Categories'))");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Tab"); // Home
    await page.keyboard.press("Tab"); // Categories
    await expect(categories.locator("> summary")).toBeFocused();
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Enter");
    await expect(categories).toHaveAttribute("open", "");
    // Its five links (All Products and the four categories), then out of the submenu to the next item of the menu.
    for (let press = 0; press < 5; press++) await page.keyboard.press("Tab");
    await expect(categories.getByRole("link", { name: "Accessories" })).toBeFocused();
    await expect(categories).toHaveAttribute("open", "");
    await page.keyboard.press("Tab");
    await expect(categories).not.toHaveAttribute("open", "");
    await expect(menu).toHaveAttribute("open", "");
    expect(await menu.evaluate((element) => element.contains(document.activeElement))).toBe(true);

    // Escape in the submenu closes it alone; the next closes the menu; each gives the focus to its toggle.
    await categories.locator("> summary").focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect(categories).not.toHaveAttribute("open", "");
    await expect(categories.locator("> summary")).toBeFocused();
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open", "");
    await expect(toggle).toBeFocused();

    // Shift+Tab out of the open menu (to the cart link before it) closes it.
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Shift+Tab");
    await expect(menu).not.toHaveAttribute("open", "");
  });

  test("on a wide screen the Categories menu closes when Tab or Shift+Tab leaves it", async ({ page }) => {
    await gotoHydrated(page, "/");
    const categories = page.getByRole("navigation", { name: "Main" }).locator("details:has(> summary:text-is('Categories'))").first();
    const toggle = categories.locator("> summary");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(categories).toHaveAttribute("open", "");
    await page.keyboard.press("Shift+Tab");
    await expect(categories).not.toHaveAttribute("open", "");
    await toggle.focus();
    await page.keyboard.press("Enter");
    for (let press = 0; press < 5; press++) await page.keyboard.press("Tab");
    await expect(categories).toHaveAttribute("open", "");
    await page.keyboard.press("Tab");
    await expect(categories).not.toHaveAttribute("open", "");
  });

  for (const width of [390, 1280]) {
    test(`Shift+Tab back up the page and the skip link never leave the focus under the sticky header (${width}px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await gotoHydrated(page, "/");
      for (let press = 0; press < 40; press++) await page.keyboard.press("Tab");
      const hidden: string[] = [];
      for (let press = 0; press < 15; press++) {
        await page.keyboard.press("Shift+Tab");
        const stop = await focusClearOfHeader(page);
        if (stop.top < stop.headerBottom - 0.5) hidden.push(`${stop.tag}: top ${stop.top} under the header's bottom ${stop.headerBottom}`);
      }
      expect(hidden).toEqual([]);

      await gotoHydrated(page, `/product/${given().productId}`);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      const next = await focusClearOfHeader(page);
      expect(next.top, `${next.tag} after the skip link`).toBeGreaterThanOrEqual(next.headerBottom - 0.5);
    });
  }

  test("View Reviews moves the focus to the reviews' heading, in view below the header", async ({ page }) => {
    await gotoHydrated(page, `/product/${given().productId}`);
    const link = page.getByRole("link", { name: "View Reviews" });
    await link.focus();
    await page.keyboard.press("Enter");
    const heading = page.locator("#reviews-heading");
    await expect(heading).toBeFocused();
    await expect.poll(async () => (await focusClearOfHeader(page)).top >= (await focusClearOfHeader(page)).headerBottom).toBe(true);
    await expect(heading).toBeInViewport();
  });

  test("with reduced motion asked for, View Reviews jumps (no smooth scroll) and transitions are only fades", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await gotoHydrated(page, `/product/${given().productId}`);
    const transition = () => page.getByRole("link", { name: "View Reviews" }).evaluate((element) => getComputedStyle(element).transitionProperty);
    expect(await transition()).toBe("opacity");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
    // The jump is done by the time the click returns: no scroll is still under way.
    await page.getByRole("link", { name: "View Reviews" }).click();
    const settled = await page.evaluate(async () => {
      const before = scrollY;
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      return { before, after: scrollY };
    });
    expect(settled.before).toBeGreaterThan(0);
    expect(settled.after).toBe(settled.before);

    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await transition()).not.toBe("opacity");
  });

  /** Counts the loader requests (React Router's .data fetches) the page makes from now on. */
  function countNavigations(page: Page): () => number {
    let count = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.endsWith(".data")) count++;
    });
    return () => count;
  }

  for (const control of [
    { name: "Brand", select: "#filter-brand", param: "brand" },
    { name: "Size", select: "#filter-size", param: "size" },
    { name: "Sort by", select: "#sort", param: "sort" },
  ]) {
    test(`the ${control.name} select: the arrows do not navigate, Enter applies, the focus stays on it`, async ({ page }) => {
      await gotoHydrated(page, "/?category=Gents");
      const select = page.locator(control.select);
      const navigations = countNavigations(page);
      await select.focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      const chosen = await select.inputValue();
      expect(chosen).not.toBe("");
      expect(navigations(), "no navigation while the arrows move through the options").toBe(0);
      await expect(page).toHaveURL(/\/\?category=Gents$/);
      await page.keyboard.press("Enter");
      await expect.poll(() => new URL(page.url()).searchParams.get(control.param)).toBe(chosen);
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      await expect(select).toBeFocused();
      await expect(select).toHaveValue(chosen);
      expect(navigations()).toBe(1);

      // Leaving the select applies a keyboard change too, and the focus goes on to the next control.
      await page.keyboard.press("ArrowDown");
      const next = await select.inputValue();
      await page.keyboard.press("Tab");
      await expect.poll(() => new URL(page.url()).searchParams.get(control.param)).toBe(next);
      await expect(select).not.toBeFocused();
      expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
    });
  }

  test("a pick from the select's opened list applies at once, even after keys were pressed on it", async ({ page }) => {
    // macOS opens the list on the arrows (elsewhere Space or Alt+Down), and the list's Enter never reaches the page: the
    // pick arrives as a change with no key of the page's around it, as selectOption sends it.
    await gotoHydrated(page, "/?category=Gents");
    const brand = page.locator("#filter-brand");
    await brand.focus();
    await page.keyboard.press("ArrowDown");
    const browsed = await brand.inputValue();
    const values = await brand.locator("option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    const picked = values.find((value) => value && value !== browsed)!;
    await brand.selectOption(picked);
    await expect.poll(() => new URL(page.url()).searchParams.get("brand")).toBe(picked);
    await expect(brand).toBeFocused();
  });

  test("a pick with the pointer applies at once, and the fields follow the URL (Clear all)", async ({ page }) => {
    await gotoHydrated(page, "/?category=Gents");
    const brand = page.locator("#filter-brand");
    const options = await brand.locator("option").allTextContents();
    await brand.dispatchEvent("pointerdown");
    await brand.selectOption(options[1]);
    await expect.poll(() => new URL(page.url()).searchParams.get("brand")).toBe(options[1]);
    await page.getByRole("form", { name: "Filters" }).getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL(/\/\?category=Gents$/);
    await expect(brand).toHaveValue("");
  });

  test("a price problem is one alert (no list under role=alert), tied to the price fields, in words that fit the case", async ({ page }) => {
    await gotoHydrated(page, "/?category=Gents&minPrice=99999999");
    const alert = page.getByRole("form", { name: "Filters" }).getByRole("alert");
    await expect(alert).toHaveText("Prices go up to Rs 10,000,000.00; the price range was left out.");
    await expect(alert.locator("ul, li")).toHaveCount(0);
    for (const label of ["Min", "Max"]) {
      const field = page.getByLabel(label, { exact: true });
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription("Prices go up to Rs 10,000,000.00; the price range was left out.");
    }

    await gotoHydrated(page, "/?minPrice=5000&maxPrice=100");
    await expect(page.getByLabel("Min", { exact: true })).toHaveAccessibleDescription("The lowest price must not be higher than the highest; the price range was left out.");
  });

  test("the admin's More statuses closes on Escape (focus back on it) and when the focus leaves it", async ({ page }) => {
    await logInAsViewer(page, "admin");
    await gotoHydrated(page, "/admin/orders");
    const more = page.getByRole("navigation", { name: "Filter orders by status" }).locator("details");
    const toggle = more.locator("> summary");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(more).toHaveAttribute("open", "");
    await page.keyboard.press("Tab");
    await expect(more.getByRole("link", { name: "DELIVERED" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(more).not.toHaveAttribute("open", "");
    await expect(toggle).toBeFocused();

    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(more).toHaveAttribute("open", "");
    await page.keyboard.press("Tab");
    await expect(more).not.toHaveAttribute("open", "");
  });

  test("a dialog open with the page and closed with Escape leaves the focus on the page's heading, not on <body>", async ({ page }) => {
    await logInAsViewer(page, "admin");
    await gotoHydrated(page, `/admin/orders?manage=${given().orderId}`);
    const manage = dialog(page, `Manage order #${given().orderId}`);
    await expect(manage).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(manage).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeFocused();
  });

  test("the live regions are in the page before their message: the search's no-match and the add-to-cart toast", async ({ page, request }) => {
    await gotoHydrated(page, "/");
    const searchStatus = page.getByRole("banner").getByRole("status");
    await expect(searchStatus).toHaveCount(1);
    await expect(searchStatus).toHaveText("");
    await searchStatus.evaluate((element) => (element.dataset.before = "yes"));
    await searchBox(page).fill("zzqxw");
    await expect(page.locator("[data-before=yes]")).toHaveText("No shoes found with that name");

    const products = (await (await request.get("/api/products?page=1&pageSize=100")).json()) as { id: number; category: string; productAvailable: boolean; sizes: { label: string; stockQuantity: number }[] }[];
    const shoe = products.find((product) => product.category !== "Accessories" && product.productAvailable && product.sizes.some((size) => size.stockQuantity >= 3))!;
    const size = shoe.sizes.find((candidate) => candidate.stockQuantity >= 3)!;
    await gotoHydrated(page, `/product/${shoe.id}`);
    const form = page.locator("form[action='/cart/add']").filter({ has: page.getByRole("group", { name: "Size" }) });
    const toast = form.getByRole("status");
    await expect(toast).toHaveText("");
    await toast.evaluate((element) => (element.dataset.before = "yes"));
    await form.locator("label").filter({ has: page.getByText(size.label, { exact: true }) }).click();
    await form.getByRole("button", { name: `Add to Cart: ${(await page.getByRole("heading", { level: 1 }).textContent())!}` }).click();
    await expect(page.locator("[data-before=yes]")).toContainText("Added to your cart");
  });

  test("product cards' names are h3 under the h2 of their section", async ({ page }) => {
    await gotoHydrated(page, "/");
    const cards = page.getByTestId("product-card");
    await expect(cards.first()).toBeVisible();
    await expect(cards.getByRole("heading", { level: 2 })).toHaveCount(0);
    expect(await cards.getByRole("heading", { level: 3 }).count()).toBe(await cards.count());
  });

  test("no heading level is skipped on the home page, a category page and search results", async ({ page }) => {
    for (const path of ["/", "/?category=Gents", "/search?keyword=gents"]) {
      await gotoHydrated(page, path);
      await expect(page.getByTestId("product-card").first()).toBeVisible();
      const levels = await page.locator("h1, h2, h3, h4, h5, h6").evaluateAll((headings) => headings.map((heading) => Number(heading.tagName[1])));
      const skips = levels.flatMap((level, index) => (index > 0 && level > levels[index - 1] + 1 ? [`h${levels[index - 1]} then h${level}`] : []));
      expect(skips, path).toEqual([]);
    }
  });

  for (const theme of ["light", "dark"] as const) {
    test(`field borders have 3:1 against the field and the page (${theme})`, async ({ page, baseURL }) => {
      await useTheme(page, theme, baseURL);
      await gotoHydrated(page, "/register");
      const fields = await page.locator("main .field-input").evaluateAll((elements) => {
        // Computed colours come as oklch(): a canvas turns them into the sRGB the contrast formula takes.
        const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
        const rgb = (color: string) => {
          canvas.clearRect(0, 0, 1, 1);
          canvas.fillStyle = color;
          canvas.fillRect(0, 0, 1, 1);
          return Array.from(canvas.getImageData(0, 0, 1, 1).data.slice(0, 3));
        };
        return elements.map((element) => {
          let behind: Element | null = element.parentElement;
          while (behind && /rgba\(.*, 0\)$|transparent/.test(getComputedStyle(behind).backgroundColor)) behind = behind.parentElement;
          return {
            name: element.id,
            border: rgb(getComputedStyle(element).borderTopColor),
            field: rgb(getComputedStyle(element).backgroundColor),
            page: rgb(getComputedStyle(behind ?? document.body).backgroundColor),
          };
        });
      });
      expect(fields.length).toBeGreaterThan(3);
      const weak = fields.filter((field) => contrast(field.border, field.field) < 3 || contrast(field.border, field.page) < 3).map((field) => `${field.name}: rgb(${field.border}) on rgb(${field.field}) / rgb(${field.page})`);
      expect(weak).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------------
// After a form is sent: its button keeps the focus while it waits (aria-disabled: a disabled button drops the focus on
// <body>), the focus then lands where the user can go on, and what happened is said in a live region that was in the
// page before its message (a region inserted together with its text goes unannounced by many screen readers).

/** A customer of the test's own, for a test that changes what they have (a review, the profile), logged in in `page`. */
async function newCustomer(page: Page): Promise<ReturnType<typeof uniqueUser>> {
  const user = uniqueUser();
  const response = await page.request.post("/register", { form: { ...user, confirmPassword: user.password }, maxRedirects: 0 });
  expect(response.status(), await response.text()).toBe(302);
  return user;
}

/**
 * Counts the page's posts to `path` (React Router's `path.data`) and, while held, keeps each from the server until
 * released: the test can look at the page while the answer is on its way.
 */
async function holdPosts(page: Page, path: string) {
  const posts: string[] = [];
  let gate: Promise<void> | null = null;
  let open = () => {};
  await page.route(
    (url) => url.pathname === `${path}.data`,
    async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      posts.push(route.request().postData() ?? "");
      if (gate) await gate;
      await route.continue();
    },
  );
  return {
    posts,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      gate = null;
      open();
    },
  };
}

/** The live region, empty now, marked: the message must come into this very element, not a new one. */
async function emptyLiveRegion(region: Locator, mark: string): Promise<Locator> {
  await expect(region, "the live region is in the page before its message").toHaveCount(1);
  await expect(region).toHaveText("");
  expect(await region.evaluate((element) => element.getAttribute("aria-live") ?? element.getAttribute("role"))).toMatch(/^(polite|assertive|status|alert)$/);
  await region.evaluate((element, name) => (element.dataset.liveMark = name), mark);
  return region.page().locator(`[data-live-mark="${mark}"]`);
}

/** What has the focus, for a failure's message. */
const focused = (page: Page) => page.evaluate(() => `${document.activeElement?.tagName.toLowerCase()} "${(document.activeElement?.textContent ?? "").trim().slice(0, 40)}"`);

/** The focused element shows a ring: it matches :focus-visible and draws an outline. */
async function expectVisibleFocus(target: Locator) {
  await expect(target).toBeFocused();
  const ring = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    return { focusVisible: element.matches(":focus-visible"), outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1 };
  });
  expect(ring, "a visible focus ring").toEqual({ focusVisible: true, outline: true });
}

/** A review by the page's customer, through the plain form (post, redirect, get). */
async function postReview(page: Page, productId: number, comment: string) {
  const response = await page.request.post(`/product/${productId}`, { form: { intent: "review-create", comment, rating: "4", redirectTo: `/product/${productId}` }, maxRedirects: 0 });
  expect(response.status(), await response.text()).toBe(302);
}

/** Takes the customer's review of the fixture's product away again, if it is still there. */
async function removeOwnReview(page: Page, productId: number) {
  const own = await page.request.get(`/product/${productId}`).then((response) => response.text());
  const id = own.match(/aria-label="Your review"[^]*?id="review-(\d+)"/)?.[1];
  if (id) await page.request.post(`/product/${productId}`, { form: { intent: "review-delete", reviewId: id, redirectTo: `/product/${productId}` }, maxRedirects: 0 });
}

test.describe("focus and live regions after a form is sent", () => {
  test("posting a review from the keyboard: Submit Review keeps the focus while sent, then the new review has it and 'Review posted' is said", async ({ page }) => {
    const { productId } = given();
    await newCustomer(page);
    try {
      await gotoHydrated(page, `/product/${productId}`);
      const reviews = page.locator("#reviews");
      const status = await emptyLiveRegion(reviews.getByRole("status"), "reviews");
      const posts = await holdPosts(page, `/product/${productId}`);

      await reviews.getByLabel("Your review").focus();
      await page.keyboard.type("Soft and light, and they kept their shape after a month.");
      await page.keyboard.press("Tab");
      const submit = reviews.locator("button[type=submit]");
      await expect(submit).toHaveText("Submit Review");
      await expect(submit).toBeFocused();
      posts.hold();
      await page.keyboard.press("Enter");
      await expect(submit).toHaveText("Submitting...");
      await expect(submit).toHaveAttribute("aria-disabled", "true");
      await expect(submit, `the focus stays on the button while sending, not on ${await focused(page)}`).toBeFocused();
      await page.keyboard.press("Enter"); // a second press while it is sent does nothing
      posts.release();

      const own = reviews.getByRole("list", { name: "Your review" }).getByRole("listitem");
      await expect(own).toContainText("Soft and light");
      await expectVisibleFocus(own);
      await expect(status).toContainText("Review posted");
      expect(posts.posts, "one post for two presses").toHaveLength(1);
    } finally {
      await removeOwnReview(page, productId);
    }
  });

  test("saving an edited review from the keyboard: Save keeps the focus while sent, Edit has it back and 'Review saved' is said", async ({ page }) => {
    const { productId } = given();
    await newCustomer(page);
    await postReview(page, productId, "Comfortable from the first day.");
    try {
      await gotoHydrated(page, `/product/${productId}`);
      const reviews = page.locator("#reviews");
      const status = await emptyLiveRegion(reviews.getByRole("status"), "reviews");
      const posts = await holdPosts(page, `/product/${productId}`);
      const own = reviews.getByRole("list", { name: "Your review" });

      await own.getByRole("link", { name: "Edit your review" }).focus();
      await page.keyboard.press("Enter");
      await expect(own.getByLabel("Edit your review")).toBeFocused();
      await page.keyboard.press("End");
      await page.keyboard.type(" Still comfortable a month on.");
      await page.keyboard.press("Tab");
      const save = own.locator("button[type=submit]");
      await expect(save).toBeFocused();
      posts.hold();
      await page.keyboard.press("Enter");
      await expect(save).toHaveText("Saving...");
      await expect(save).toHaveAttribute("aria-disabled", "true");
      await expect(save, `the focus stays on Save while sending, not on ${await focused(page)}`).toBeFocused();
      posts.release();

      await expect(own).toContainText("Still comfortable a month on.");
      await expect(own.getByRole("link", { name: "Edit your review" })).toBeFocused();
      await expect(status).toContainText("Review saved");
      expect(posts.posts).toHaveLength(1);
    } finally {
      await removeOwnReview(page, productId);
    }
  });

  test("deleting a review from the keyboard: the reviews' heading has the focus with a visible ring, and 'Review deleted' is said", async ({ page }) => {
    const { productId } = given();
    await newCustomer(page);
    await postReview(page, productId, "Good, but they run a little small.");
    try {
      await gotoHydrated(page, `/product/${productId}`);
      const reviews = page.locator("#reviews");
      const status = await emptyLiveRegion(reviews.getByRole("status"), "reviews");
      page.on("dialog", (dialog) => void dialog.accept());

      await reviews.getByRole("link", { name: "Delete your review" }).focus();
      await page.keyboard.press("Enter");
      await expect(reviews.getByRole("heading", { name: "Write a review" })).toBeVisible();
      await expectVisibleFocus(page.locator("#reviews-heading"));
      await expect(status).toContainText("Review deleted");
    } finally {
      await removeOwnReview(page, productId);
    }
  });

  test("saving the profile from the keyboard: Save keeps the focus while sent and after, and the status region says it each time", async ({ page }) => {
    const user = await newCustomer(page);
    await gotoHydrated(page, "/profile");
    const status = await emptyLiveRegion(page.getByRole("status"), "profile");
    const posts = await holdPosts(page, "/profile");
    const name = page.getByLabel("Name", { exact: true });
    const password = page.getByLabel("New password", { exact: true });
    const confirm = page.getByLabel("Confirm new password", { exact: true });
    const save = page.locator("form button[type=submit]");

    await name.focus();
    await page.keyboard.press("End");
    await page.keyboard.type(" Renamed");
    await password.focus();
    await page.keyboard.type("NewPass#123");
    await confirm.focus();
    await page.keyboard.type("NewPass#123");
    for (const round of [1, 2]) {
      await save.focus();
      posts.hold();
      await page.keyboard.press("Enter");
      await expect(save).toHaveText("Saving...");
      await expect(save).toHaveAttribute("aria-disabled", "true");
      await expect(save, `round ${round}: the focus stays on Save while sending, not on ${await focused(page)}`).toBeFocused();
      // Emptied while sent, so that the same words said again are read out again.
      await expect(status).toHaveText("");
      await page.keyboard.press("Enter"); // a second press while it is sent does nothing
      posts.release();

      await expect(status).toHaveText("Profile updated successfully.");
      await expect(save).toHaveText("Save changes");
      await expect(save, `round ${round}: the focus is on Save after the save, not on ${await focused(page)}`).toBeFocused();
      await expect(name).toHaveValue(`${user.name} Renamed`);
      await expect(password).toHaveValue("");
      await expect(confirm).toHaveValue("");
      expect(posts.posts).toHaveLength(round);
    }
  });

  test("asking for a reset link from the keyboard: Send reset link keeps the focus while sent, then the answer has it", async ({ page }) => {
    await gotoHydrated(page, "/forgot-password");
    const posts = await holdPosts(page, "/forgot-password");
    await page.getByLabel("Email", { exact: true }).focus();
    await page.keyboard.type(uniqueUser().email);
    await page.keyboard.press("Tab");
    const send = page.locator("form button[type=submit]");
    await expect(send).toBeFocused();
    posts.hold();
    await page.keyboard.press("Enter");
    await expect(send).toHaveText("Sending...");
    await expect(send).toHaveAttribute("aria-disabled", "true");
    await expect(send, `the focus stays on the button while sending, not on ${await focused(page)}`).toBeFocused();
    await page.keyboard.press("Enter");
    posts.release();
    await expect(page.getByTestId("forgot-password-sent")).toBeFocused();
    expect(posts.posts).toHaveLength(1);
  });

  test("a bank slip of the wrong type is said in the slip's live region as it is chosen, the focus staying on the field", async ({ page }) => {
    await newCustomer(page);
    await addToCart(page);
    await gotoHydrated(page, "/cart?checkout");
    const checkout = dialog(page, "Checkout");
    const slip = checkout.getByLabel("Bank slip");
    const region = await emptyLiveRegion(checkout.locator("#bankSlip-error"), "slip");
    await slip.focus();
    await slip.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("these are my notes, not a slip") });
    await expect(region).toHaveText("Please upload a valid image (JPEG, PNG) or PDF file");
    await expect(slip).toHaveAttribute("aria-invalid", "true");
    await expect(slip).toHaveAccessibleDescription(/Please upload a valid image \(JPEG, PNG\) or PDF file/);
    await expect(slip).toBeFocused();
  });
});

test.describe("two-colour focus rings", () => {
  for (const [theme, fill] of [["light-theme", "rgb(255, 255, 255)"], ["dark-theme", "oklch(0.129 0.042 264.695)"]] as const) {
    test(`a gallery arrow, which has a shadow of its own, gets the page's colour between it and its ring (${theme})`, async ({ page, context, baseURL }) => {
      await context.addCookies([{ name: "theme", value: theme, url: baseURL! }]);
      // Every demo shoe has three pictures or more (the list does not carry them, the product does).
      const products = (await (await page.request.get("/api/products?page=1&pageSize=100")).json()) as { id: number; category: string; name: string }[];
      const shoe = products.find((product) => product.category === "Gents" && !product.name.startsWith("E2E "));
      const pictures = ((await (await page.request.get(`/api/product/${shoe!.id}`)).json()) as { images: unknown[] }).images;
      expect(pictures.length, "a demo shoe's pictures").toBeGreaterThanOrEqual(2);
      await gotoHydrated(page, `/product/${shoe!.id}`);
      const next = page.getByRole("link", { name: "Next picture" });
      await next.focus();
      // Focused from the keyboard, so :focus-visible applies: Shift+Tab back and Tab again.
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      await expect(next).toBeFocused();
      const shadow = await next.evaluate((link) => getComputedStyle(link).boxShadow);
      expect(shadow).toContain(`${fill} 0px 0px 0px 2px`);
    });
  }
});
