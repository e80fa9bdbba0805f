import { describe, expect, it } from "vitest";

import { backOfficePath, restockHref, savedReturn } from "~/lib/restock";

describe("backOfficePath: only the back office's own pages", () => {
  it("keeps an admin page with its query", () => {
    expect(backOfficePath("/admin/stock?category=Kids&page=3")).toBe("/admin/stock?category=Kids&page=3");
    expect(backOfficePath("/admin/dashboard")).toBe("/admin/dashboard");
  });

  for (const back of [null, "", "/", "/product/3", "https://evil.example/admin/", "//evil.example/admin/", "/admin//evil", "/admin/\\evil", "/admin/stock\nSet-Cookie: x", "admin/stock", "/administrator"]) {
    it(`refuses ${JSON.stringify(back)}`, () => expect(backOfficePath(back)).toBeNull());
  }
});

describe("restockHref and savedReturn", () => {
  it("opens the form at the size, coming back to the list without an earlier save's toast", () => {
    const href = restockHref(12, 345, { pathname: "/admin/stock", search: "?category=Kids&saved=9&page=2" });
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe("/product/update/12");
    expect(Object.fromEntries(url.searchParams)).toEqual({ size: "345", back: "/admin/stock?category=Kids&page=2" });
    expect(restockHref(1, 2, { pathname: "/admin/dashboard", search: "" })).toBe("/product/update/1?size=2&back=%2Fadmin%2Fdashboard");
  });

  it("goes back to the list, saying which product was saved", () => {
    expect(savedReturn("/admin/stock?category=Kids&page=2", 12)).toBe("/admin/stock?category=Kids&page=2&saved=12");
    expect(savedReturn("/admin/dashboard", 3)).toBe("/admin/dashboard?saved=3");
    expect(savedReturn("/admin/stock?saved=1", 3)).toBe("/admin/stock?saved=3");
  });
});
