import { expect, test, type Page, type TestInfo } from "@playwright/test";
import path from "node:path";

import { DEMO_CUSTOMER, waitForHydration } from "./helpers";

// Full-page screenshots of the screens, light and dark, desktop and phone, for people to look at:
// test-results/screens/<screen>-<theme>-<width>.png. The only assertion is that each page rendered its main heading.

const VIEWPORTS = [
  { label: "desktop", viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
  { label: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
] as const;

const THEMES = [
  { name: "light", cookie: "light-theme" },
  { name: "dark", cookie: "dark-theme" },
] as const;

interface Screen {
  name: string;
  path: string;
  /** The main heading's text; the home page's wording changes with the shop, so any h1 will do there. */
  heading?: string;
  loggedIn?: boolean;
}

const SCREENS: Screen[] = [
  { name: "home", path: "/" },
  { name: "login", path: "/login", heading: "Welcome back" },
  { name: "register", path: "/register", heading: "Create your account" },
  { name: "forgot-password", path: "/forgot-password", heading: "Forgot your password?" },
  { name: "reset-password-bad-link", path: "/reset-password?token=no-such-token", heading: "Choose a new password" },
  { name: "profile", path: "/profile", heading: "Your profile", loggedIn: true },
  { name: "not-found", path: "/no-such-page", heading: "Page not found" },
];

function screenshotPath(testInfo: TestInfo, file: string): string {
  const root = testInfo.config.configFile ? path.dirname(testInfo.config.configFile) : process.cwd();
  return path.join(root, "test-results", "screens", file);
}

/** Logs the demo customer in through the login form's action, so the session cookie lands in the page's context. */
async function logInDemoCustomer(page: Page): Promise<void> {
  const response = await page.request.post("/login", { form: DEMO_CUSTOMER, maxRedirects: 0 });
  expect(response.status(), "the demo customer can log in").toBe(302);
  expect(response.headers()["location"]).toBe("/");
}

/** Loads every picture now (lazy ones too) and waits until they are decoded and the fonts are in: full-page shots show everything. */
async function settle(page: Page): Promise<void> {
  // Twice: a picture that fails is swapped for the placeholder, which must load as well.
  for (let pass = 0; pass < 2; pass++) {
    await page.evaluate(async () => {
      const images = Array.from(document.images);
      for (const image of images) if (image.loading === "lazy") image.loading = "eager";
      await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
    });
  }
  await page.evaluate(() => document.fonts.ready);
}

for (const { label, viewport, isMobile, hasTouch } of VIEWPORTS) {
  test.describe(`${label} ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport, isMobile, hasTouch });

    for (const theme of THEMES) {
      for (const screen of SCREENS) {
        test(`${screen.name} (${theme.name})`, async ({ page, context, baseURL }, testInfo) => {
          await context.addCookies([{ name: "theme", value: theme.cookie, url: baseURL! }]);
          if (screen.loggedIn) await logInDemoCustomer(page);

          // Anything the page throws or logs as an error is kept with the result, for whoever reads the screenshots.
          const problems: string[] = [];
          page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
          page.on("console", (message) => {
            if (message.type() === "error") problems.push(`console.error: ${message.text()}`);
          });

          await page.goto(screen.path);
          await waitForHydration(page);
          const heading = page.getByRole("heading", { level: 1, ...(screen.heading ? { name: screen.heading, exact: true } : {}) });
          await expect(heading).toBeVisible();
          await expect(heading, "not an error page").not.toHaveText(/Unexpected Application Error|couldn't load/i);
          await expect(page).toHaveURL(screen.path);
          await settle(page);

          const file = screenshotPath(testInfo, `${screen.name}-${theme.name}-${viewport.width}.png`);
          await page.screenshot({ path: file, fullPage: true, animations: "disabled", caret: "hide" });
          for (const problem of problems) testInfo.annotations.push({ type: "browser problem", description: problem });
        });
      }
    }
  });
}
