import { expect, type Page } from "@playwright/test";

import { encodePng } from "../../scripts/images/png";

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

/**
 * A product of the demo catalogue, not one a test made ("E2E ..."): another test may change or delete those at any
 * moment, so a test that takes "the first product in stock" must skip them.
 */
export const isDemoProduct = (product: { name: string }) => !product.name.startsWith("E2E ");

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

/** Fills and submits the register form (a different confirmation when given); the caller asserts where it lands. */
export async function register(page: Page, user: ReturnType<typeof uniqueUser>, confirmPassword = user.password): Promise<void> {
  await page.getByLabel("Name", { exact: true }).fill(user.name);
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(confirmPassword);
  await page.getByLabel("Address", { exact: true }).fill(user.address);
  await page.getByLabel("Phone", { exact: true }).fill(user.phone);
  await page.getByRole("button", { name: "Register", exact: true }).click();
}

/** A PNG drawn pixel by pixel (the server judges pictures by their bytes), through the shop's own encoder. */
export function pngFromPixels(width: number, height: number, colorAt: (x: number, y: number) => readonly [number, number, number]): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set([...colorAt(x, y), 255], (y * width + x) * 4);
  }
  return Buffer.from(encodePng(width, height, rgba));
}

/** The widths a changed screen is looked at in: a desktop and a phone (label: the width, for screenshot names). */
export const SCREENSHOT_VIEWPORTS = [
  { label: "1280", viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
  { label: "390", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
] as const;
