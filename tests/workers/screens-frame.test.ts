import { describe, expect, it } from "vitest";

import { call, postForm, register, sessionCookieFor, setCookieFor } from "./helpers";

const NAV_SEARCH = "Search shoes...";

function htmlTag(html: string): string {
  return html.match(/<html\b[^>]*>/)?.[0] ?? "";
}

describe("theme", () => {
  it("POST /theme theme=dark-theme&redirectTo=/ : 302 to / and a theme cookie", async () => {
    const response = await postForm("/theme", { theme: "dark-theme", redirectTo: "/" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const header = setCookieFor(response, "theme");
    expect(header).toMatch(/^theme=dark-theme;/);
    expect(header!.toLowerCase()).toContain("path=/");
  });

  it("redirectTo is kept on the site", async () => {
    const response = await postForm("/theme", { theme: "light-theme", redirectTo: "//evil.com/x" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  // SPEC §3 names the themes 'light-theme' and 'dark-theme': the server renders that name as <html>'s class and data-theme.
  for (const [cookie, theme] of [
    ["theme=dark-theme", "dark-theme"],
    ["theme=light-theme", "light-theme"],
    [undefined, "light-theme"],
  ] as const) {
    it(`GET / ${cookie ? `with the cookie ${cookie}` : "without a theme cookie"} renders <html class="${theme}" data-theme="${theme}">`, async () => {
      const response = await call("/", cookie ? { headers: { Cookie: cookie } } : {});
      expect(response.status).toBe(200);
      const tag = htmlTag(await response.text());
      expect(tag).toMatch(new RegExp(`\\sclass="${theme}"`));
      expect(tag).toContain(`data-theme="${theme}"`);
    });
  }

  it("the 404 page, rendered by the error boundary, carries the theme class too", async () => {
    const response = await call("/no-such-page", { headers: { Cookie: "theme=dark-theme" } });
    expect(response.status).toBe(404);
    expect(htmlTag(await response.text())).toMatch(/\sclass="dark-theme"/);
  });

  it("an unknown theme is 400 and sets no cookie", async () => {
    const response = await postForm("/theme", { theme: "neon-theme", redirectTo: "/" });
    expect(response.status).toBe(400);
    expect(setCookieFor(response, "theme")).toBeUndefined();
  });

  it("an unknown theme cookie falls back to light", async () => {
    const response = await call("/", { headers: { Cookie: "theme=%3Cscript%3E" } });
    const tag = htmlTag(await response.text());
    expect(tag).toContain('data-theme="light-theme"');
    expect(tag).toMatch(/\sclass="light-theme"/);
    expect(tag).not.toContain("script");
  });

  it("GET /theme goes home", async () => {
    const response = await call("/theme");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });
});

describe("frame and navigation", () => {
  it("every page but the account cards has a footer: the shop's phone and e-mail from its vars, delivery and payment", async () => {
    const { env } = await import("cloudflare:test");
    for (const path of ["/", "/cart", "/no-such-page"]) {
      const html = await (await call(path)).text();
      const footer = html.match(/<footer[\s\S]*<\/footer>/)?.[0] ?? "";
      expect(footer, path).toContain(`href="tel:${env.SHOP_PHONE.replace(/[^\d+]/g, "")}"`);
      expect(footer, path).toContain(`href="mailto:${env.SHOP_EMAIL}"`);
      expect(footer, path).toContain(env.DELIVERY_NOTE);
      expect(footer, path).toContain(`Pay by bank transfer to ${env.BANK_NAME}`);
    }
    // The login, register and profile cards stand alone, as they have no navigation bar (SPEC).
    expect(await (await call("/login")).text()).not.toContain("<footer");
  });

  it("/ shows the navigation bar with Login and Register for a visitor", async () => {
    const response = await call("/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(NAV_SEARCH);
    expect(html).toContain('href="/login"');
    expect(html).toContain('href="/register"');
    expect(html).not.toContain('action="/logout"');
  });

  it("a logged-in customer sees Profile and Logout instead, and no admin links", async () => {
    const user = await register({ name: "Nav Nadeesha" });
    const cookie = await sessionCookieFor(user.email, user.password);
    const html = await (await call("/", { headers: { Cookie: cookie } })).text();
    expect(html).toContain('href="/profile"');
    expect(html).toContain('action="/logout"');
    expect(html).not.toContain('href="/admin/dashboard"');
  });

  it("GET /no-such-page is a 404 HTML page with 'Page not found' inside the navigation frame", async () => {
    const response = await call("/no-such-page");
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(html).toContain(NAV_SEARCH);
  });

  it("a deeper unknown path is a 404 page too", async () => {
    const response = await call("/some/deep/unknown/path");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found");
  });

  for (const path of ["/login", "/register"]) {
    it(`${path} has no navigation bar`, async () => {
      const html = await (await call(path)).text();
      expect(html).not.toContain(NAV_SEARCH);
      expect(html).not.toContain('aria-label="Main"');
    });
  }
});
