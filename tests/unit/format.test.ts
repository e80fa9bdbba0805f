import { describe, expect, it } from "vitest";

import { centsToRupees, formatDate, formatDateTime, formatLkr, formatPrice, formatShopTimestamp, rupeesToCents, SHOP_TIME_ZONE, SHOP_UTC_OFFSET } from "~/lib/format";

// Both take rupees (the unit views and the API carry), not cents.
describe("formatPrice", () => {
  it("shows rupees with thousands separators and 2 decimals", () => {
    expect(formatPrice(12500)).toBe("Rs 12,500.00");
    expect(formatPrice(3499.5)).toBe("Rs 3,499.50");
    expect(formatPrice(0)).toBe("Rs 0.00");
    expect(formatPrice(0.05)).toBe("Rs 0.05");
    expect(formatPrice(1234567.89)).toBe("Rs 1,234,567.89");
  });

  it("agrees with the cents the database stores", () => {
    expect(formatPrice(centsToRupees(1250000))).toBe("Rs 12,500.00");
    expect(formatPrice(centsToRupees(rupeesToCents(3499.5)!))).toBe("Rs 3,499.50");
  });
});

describe("formatLkr", () => {
  it("shows LKR with 2 decimals", () => {
    expect(formatLkr(12500)).toBe("LKR 12,500.00");
    expect(formatLkr(3499.5)).toBe("LKR 3,499.50");
    expect(formatLkr(0)).toBe("LKR 0.00");
    expect(formatLkr(centsToRupees(1250000))).toBe("LKR 12,500.00");
  });
});

describe("formatDate", () => {
  it("formats YYYY-MM-DD en-US with a short month, whatever the local time zone", () => {
    expect(formatDate("2026-11-22")).toBe("Nov 22, 2026");
    expect(formatDate("2026-01-01")).toBe("Jan 1, 2026");
    expect(formatDate("2025-12-31")).toBe("Dec 31, 2025");
  });

  it("formats epoch milliseconds (in UTC)", () => {
    expect(formatDate(Date.UTC(2026, 10, 22, 4, 1, 53))).toBe("Nov 22, 2026");
    expect(formatDate(Date.UTC(2026, 10, 22, 23, 59, 59))).toBe("Nov 22, 2026");
    expect(formatDate(Date.UTC(2026, 10, 23, 0, 0, 0))).toBe("Nov 23, 2026");
  });

  it("formats a Date and an ISO timestamp", () => {
    expect(formatDate(new Date("2026-11-22T04:01:53.000Z"))).toBe("Nov 22, 2026");
    expect(formatDate("2026-11-22T04:01:53.000Z")).toBe("Nov 22, 2026");
  });
});

describe("rupeesToCents / centsToRupees", () => {
  it("converts amounts with at most 2 decimals", () => {
    expect(rupeesToCents(3499.5)).toBe(349950);
    expect(rupeesToCents(12500)).toBe(1250000);
    expect(rupeesToCents(19.99)).toBe(1999);
    expect(rupeesToCents(0.1 + 0.2)).toBe(30);
    expect(rupeesToCents(0)).toBe(0);
  });

  it("refuses more precision than a cent", () => {
    expect(rupeesToCents(1.001)).toBeNull();
    expect(rupeesToCents(0.005)).toBeNull();
    expect(rupeesToCents(10_000_000.005)).toBeNull();
  });

  it("takes a large total added up in floating point (an order's expectedTotal), whose error grows with it", () => {
    // Rs 78,952.43 × 998 and three of Rs 0.10, added as a browser adds them: 78794525.43999998, yet whole cents.
    const total = 78_952.43 * 998 + 0.1 * 3;
    expect(total).not.toBe(78_794_525.44);
    expect(rupeesToCents(total)).toBe(7_879_452_544);
  });

  it("refuses NaN and infinities", () => {
    expect(rupeesToCents(Number.NaN)).toBeNull();
    expect(rupeesToCents(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it("centsToRupees is the inverse", () => {
    expect(centsToRupees(349950)).toBe(3499.5);
    expect(centsToRupees(rupeesToCents(12500)!)).toBe(12500);
  });
});

describe("formatDateTime", () => {
  it("shows date and time in Sri Lanka's time zone (UTC+5:30), so late-evening UTC is the next day", () => {
    expect(formatDateTime("2026-11-22T04:01:53.000Z")).toBe("Nov 22, 2026, 9:31 AM");
    expect(formatDateTime(Date.UTC(2026, 10, 22, 20, 0, 0))).toBe("Nov 23, 2026, 1:30 AM");
  });
});

describe("the shop's clock", () => {
  it("SHOP_UTC_OFFSET (the SQL day ranges) agrees with SHOP_TIME_ZONE (the screens) all year, and the CSV's time follows it", () => {
    const offsetOf = (instant: Date) => {
      const parts = new Intl.DateTimeFormat("en-US", { timeZone: SHOP_TIME_ZONE, timeZoneName: "longOffset" }).formatToParts(instant);
      return parts.find((part) => part.type === "timeZoneName")?.value.replace("GMT", "");
    };
    for (const month of ["01", "04", "07", "10"]) expect(offsetOf(new Date(`2026-${month}-15T12:00:00Z`)), month).toBe(SHOP_UTC_OFFSET);
    // 1 March 2025 01:00 UTC is 06:30 in Colombo; 19:00 UTC on the 28th is already the 1st there.
    expect(formatShopTimestamp(Date.parse("2025-03-01T01:00:00Z"))).toBe("2025-03-01 06:30");
    expect(formatShopTimestamp(Date.parse("2025-02-28T19:00:00Z"))).toBe("2025-03-01 00:30");
  });
});
