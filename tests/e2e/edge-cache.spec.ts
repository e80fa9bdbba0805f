import { expect, test, type APIRequestContext } from "@playwright/test";

import { DEMO_CUSTOMER, gotoHydrated, isDemoProduct, logIn, waitForHydration } from "./helpers";

// The shared edge cache against the built Worker (the Cache API stands in for Workers Caching under Miniflare; README,
// "Edge cache and read replicas"): hits carry their age, a cached page's CSP names its own scripts by their hashes, and a
// shopper's own page is never the one stored.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

interface Answer {
  status: string | undefined;
  age: string | undefined;
  csp: string;
  html: string;
  cacheControl: string | undefined;
}

/**
 * Anonymous loads of a page until one is a hit, at most five. A load right after a miss may come before the miss's
 * copy is stored (the Worker stores it after answering, in waitUntil), or after another test's product change purged
 * the grids (the e2e tests run side by side): then a later load is the hit.
 */
async function loadUntilHit(request: APIRequestContext, path: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let load = 0; load < 5 && answers.at(-1)?.status !== "HIT"; load++) {
    if (load > 1) await new Promise((resolve) => setTimeout(resolve, 100 * load));
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const headers = response.headers();
    answers.push({ status: headers["cf-cache-status"], age: headers["age"], csp: headers["content-security-policy"], html: await response.text(), cacheControl: headers["cache-control"] });
  }
  return answers;
}

test("a second anonymous load is a hit, whose CSP allows the page's own scripts by their hashes and no nonce", async ({ request }) => {
  const answers = await loadUntilHit(request, `/?sort=name&e2e=${unique()}`);
  for (const { csp, html } of answers) {
    const scriptSrc = csp.match(/script-src ([^;]*)/)![1].split(" ");
    expect(scriptSrc[0]).toBe("'self'");
    expect(scriptSrc.slice(1).length).toBeGreaterThan(1);
    for (const source of scriptSrc.slice(1)) expect(source).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
    expect(html).not.toMatch(/\snonce=/);
  }
  expect(answers[0].status).toBe("MISS");
  const hit = answers.at(-1)!;
  expect(hit.status).toBe("HIT");
  expect(Number(hit.age)).toBeGreaterThanOrEqual(0);
  expect(hit.cacheControl).toBe("public, no-cache");
  // The hit is a stored miss, served with the CSP it was rendered with.
  const stored = answers.slice(0, -1).find((miss) => miss.html === hit.html);
  expect(stored, "the hit is the page a miss rendered").toBeDefined();
  expect(hit.csp).toBe(stored!.csp);
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
  const answers = await loadUntilHit(stranger.request, path);
  expect(answers.at(-1)!.status).toBe("HIT");
  for (const { html } of answers) expect(html).toContain("Cart, 0 items");
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
