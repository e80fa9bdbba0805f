import { describe, expect, it } from "vitest";

import { compactListingUrl, priceProblem } from "~/lib/catalogue-filters";

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

describe("priceProblem: why a screen set the URL's price range aside", () => {
  const MAX = 10_000_000;

  it("names a single minimum above every price as too high, not as a range the wrong way round", () => {
    const message = priceProblem("99999999", undefined, MAX);
    expect(message).toBe("Prices go up to Rs 10,000,000.00; the price range was left out.");
    expect(message).not.toContain("lowest");
    expect(priceProblem(undefined, "10000000.01", MAX)).toBe("Prices go up to Rs 10,000,000.00; the price range was left out.");
  });

  it("names a range the wrong way round as such", () => {
    expect(priceProblem("5000", "100", MAX)).toBe("The lowest price must not be higher than the highest; the price range was left out.");
  });

  it("asks for amounts when an end is not one (a sign, letters, too many decimals), before anything else", () => {
    for (const [min, max] of [["-5", undefined], ["abc", "100"], ["5000", "1.234"], ["99999999999", "1"]]) {
      expect(priceProblem(min, max, MAX)).toBe("Prices must be amounts in rupees, such as 5000 or 4999.50; the price range was left out.");
    }
  });

  it("ignores blank ends", () => {
    expect(priceProblem(" ", "20000000", MAX)).toBe("Prices go up to Rs 10,000,000.00; the price range was left out.");
  });
});
