import { describe, expect, it } from "vitest";

import { afterLoginPath, safeRedirectPath } from "~/services/session.server";

const customer = { id: 1, name: "C", email: "c@example.com", phone: "", address: "", role: "ROLE_CUSTOMER" as const };
const admin = { ...customer, id: 2, role: "ROLE_ADMIN" as const };

/** Where a browser would go from a page on http://localhost after a redirect to `location`. */
const browserTarget = (location: string) => new URL(location, "http://localhost/login").origin;

describe("safeRedirectPath", () => {
  it("keeps a path on this site, with its query", () => {
    expect(safeRedirectPath("/profile")).toBe("/profile");
    expect(safeRedirectPath("/cart?step=2")).toBe("/cart?step=2");
    expect(safeRedirectPath("/")).toBe("/");
    expect(safeRedirectPath("/a/../orders//2")).toBe("/orders//2");
  });

  it("falls back for anything that is not a local path", () => {
    for (const target of ["//evil.com", "https://evil.com", "http://evil.com/profile", "/\\evil.com", "javascript:alert(1)", "evil.com", "", null, undefined]) {
      expect(safeRedirectPath(target), String(target)).toBe("/");
    }
    expect(safeRedirectPath("//evil.com", "/admin/dashboard")).toBe("/admin/dashboard");
  });

  it("never returns a target a browser resolves to another origin", () => {
    // URL parsers drop tab, CR and LF anywhere in a URL and treat "\" like "/": "/\t/evil.com" becomes "//evil.com".
    // Dot segments resolve away: "/.//evil.com" and "/a/..//evil.com" are "//evil.com" once resolved.
    for (const target of ["/\t/evil.com", "/\n/evil.com", "/\r\n/evil.com", "\t//evil.com", "/\t\\evil.com", "/.//evil.com", "/..//evil.com", "/%2e//evil.com", "/a/..//evil.com", "/./%2E//evil.com/login"]) {
      expect(browserTarget(safeRedirectPath(target)), JSON.stringify(target)).toBe("http://localhost");
    }
  });
});

describe("afterLoginPath", () => {
  it("sends admins to the dashboard and customers to the shop, unless a local page was asked for", () => {
    expect(afterLoginPath(customer, null)).toBe("/");
    expect(afterLoginPath(admin, null)).toBe("/admin/dashboard");
    expect(afterLoginPath(customer, "/profile")).toBe("/profile");
    expect(afterLoginPath(admin, "/profile")).toBe("/profile");
    expect(afterLoginPath(admin, "https://evil.com")).toBe("/admin/dashboard");
  });
});
