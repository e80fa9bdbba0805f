import { describe, expect, it } from "vitest";

import { compactListingUrl } from "~/lib/catalogue-filters";

describe("compactListingUrl: a listing asked with empty fields (a GET form without JavaScript)", () => {
  const compact = (url: string) => compactListingUrl(new URL(url, "http://shop.test"));

  it("leaves a URL without empty fields alone", () => {
    expect(compact("/?category=Gents&size=EU+42")).toBeNull();
    expect(compact("/search?keyword=runner")).toBeNull();
  });

  it("drops the empty ones, blank ones too, and keeps the rest in their order", () => {
    expect(compact("/?category=Gents&size=&brand=Urban+Trek&minPrice=+&maxPrice=")).toBe("/?category=Gents&brand=Urban+Trek");
    expect(compact("/search?keyword=runner&size=")).toBe("/search?keyword=runner");
    expect(compact("/?brand=")).toBe("/");
  });

  it("never answers a path that names another host", () => {
    expect(compact("http://shop.test///evil.test?brand=&x=1")).toBe("/evil.test?x=1");
  });
});
