import { expect, test } from "@playwright/test";

import { DEMO_CUSTOMER, gotoHydrated, isDemoProduct, logIn, waitForHydration } from "./helpers";

// The shared edge cache against the built Worker (the Cache API stands in for Workers Caching under Miniflare; README,
// "Edge cache and read replicas"): hits carry their age, a cached page's CSP names its own scripts by their hashes, and a
// shopper's own page is never the one stored.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test("a second anonymous load is a hit, whose CSP allows the page's own scripts by their hashes and no nonce", async ({ request }) => {
  const path = `/?sort=name&e2e=${unique()}`;
  const answers = [];
  for (let i = 0; i < 2; i++) {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const html = await response.text();
    const csp = response.headers()["content-security-policy"];
    const scriptSrc = csp.match(/script-src ([^;]*)/)![1].split(" ");
    expect(scriptSrc[0]).toBe("'self'");
    expect(scriptSrc.slice(1).length).toBeGreaterThan(1);
    for (const source of scriptSrc.slice(1)) expect(source).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
    expect(html).not.toMatch(/\snonce=/);
    answers.push({ status: response.headers()["cf-cache-status"], age: response.headers()["age"], csp, html, cacheControl: response.headers()["cache-control"] });
  }
  expect(answers.map((answer) => answer.status)).toEqual(["MISS", "HIT"]);
  expect(Number(answers[1].age)).toBeGreaterThanOrEqual(0);
  expect(answers[1].csp).toBe(answers[0].csp);
  expect(answers[1].html).toBe(answers[0].html);
  expect(answers[1].cacheControl).toBe("public, no-cache");
});

test("a cached page hydrates under its CSP, and a visitor's cart makes their page their own", async ({ page, browser }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
  });
  const path = `/?category=Accessories&e2e=${unique()}`;
  await page.goto(path);
  await gotoHydrated(page, path);
  expect(violations).toEqual([]);
  await expect(page.getByRole("link", { name: "Cart, 0 items" })).toBeVisible();

  // Not a product another test made (it may be deleted meanwhile).
  await page.getByRole("button", { name: /^Add to Cart: (?!E2E )/ }).first().click();
  await expect(page.getByRole("link", { name: "Cart, 1 item" })).toBeVisible();
  const own = await page.request.get(path);
  expect(own.headers()["cache-control"]).toBe("private, no-store");
  expect(own.headers()["cf-cache-status"]).toBeUndefined();
  await page.reload();
  await expect(page.getByRole("link", { name: "Cart, 1 item" })).toBeVisible();

  // Someone else, with no cart, gets the shared page, not the shopper's: the one stored before, or (when another
  // test's product change purged the grids meanwhile, as the e2e tests run side by side) a fresh anonymous one,
  // stored for the next stranger. Never the page with the shopper's cart.
  const stranger = await browser.newContext();
  let response = await stranger.request.get(path);
  expect(await response.text()).toContain("Cart, 0 items");
  if (response.headers()["cf-cache-status"] === "MISS") response = await stranger.request.get(path);
  expect(response.headers()["cf-cache-status"]).toBe("HIT");
  expect(await response.text()).toContain("Cart, 0 items");
  await stranger.close();
});

test("a product page with its JSON-LD hydrates under its CSP: from the cache (hashes) and for a shopper (nonce)", async ({ page, request }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
  });
  const products = (await (await request.get("/api/products")).json()) as { id: number; name: string }[];
  const product = products.find(isDemoProduct)!;
  await page.goto(`/product/${product.id}`);
  const cached = await page.goto(`/product/${product.id}`);
  expect(cached!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
  await waitForHydration(page);
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(1);
  expect(JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!).name).toBe(product.name);

  await page.goto(`/login?redirect=${encodeURIComponent(`/product/${product.id}`)}`);
  await logIn(page, DEMO_CUSTOMER);
  await expect(page).toHaveURL(`/product/${product.id}`);
  await waitForHydration(page);
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(1);
  expect(violations).toEqual([]);
});

test("a visitor's 404 page, rendered like the shared pages but never stored, hydrates under its CSP too", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto("/product/987654321");
  expect(response!.status()).toBe(404);
  expect(response!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
  await waitForHydration(page);
  expect(violations).toEqual([]);
});

test("static assets are immutable for a year, and never sniffed", async ({ request }) => {
  const html = await (await request.get("/")).text();
  const script = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
  expect(script).toBeTruthy();
  const response = await request.get(script!);
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  // The files outside /assets/ too (they are served before the Worker, which adds the header to everything else).
  expect((await request.get("/favicon.svg")).headers()["x-content-type-options"]).toBe("nosniff");
});
