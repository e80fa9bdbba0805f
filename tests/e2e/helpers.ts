import { expect, type Page } from "@playwright/test";

/** The demo accounts that `scripts/start.mjs` seeds into a fresh state folder. */
export const DEMO_CUSTOMER = { email: "customer@stride.test", password: "Customer#12345" } as const;
export const DEMO_ADMIN = { email: "admin@stride.test", password: "Admin#12345" } as const;

/** Opens a page and waits until React has hydrated it: a click before hydration is lost. */
export async function gotoHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** A user nobody else (no other test, no earlier run) has registered. */
export function uniqueUser() {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return {
    name: `E2E Shopper ${id}`,
    email: `e2e-${id}@stride.test`,
    password: `Pass#${id}`,
    address: "12 Galle Road, Colombo 03",
    phone: "0771234567",
  };
}

/** Fills and submits the login form; the caller asserts where it lands. */
export async function logIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
}
