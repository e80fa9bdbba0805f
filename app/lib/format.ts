// Money is integer cents everywhere but at the edge of the screen or the JSON answer.
const rupees = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function centsToRupees(cents: number): number {
  return cents / 100;
}

/** Rupees from a client (at most 2 decimals) to cents; null when the amount has more precision than a cent. */
export function rupeesToCents(rupees: number): number | null {
  const cents = Math.round(rupees * 100);
  // Floating-point error grows with the amount (a large order's total): allowed in proportion, never a cent's worth.
  return Math.abs(cents - rupees * 100) <= Math.max(1e-6, Math.abs(cents) * 1e-12) ? cents : null;
}

/** 'Rs 12,500.00': the grid and the product page. Takes rupees, as views and the API carry them. */
export function formatPrice(amount: number): string {
  return `Rs ${rupees.format(amount)}`;
}

/** 'LKR 12,500.00': checkout totals and revenue. */
export function formatLkr(amount: number): string {
  return `LKR ${rupees.format(amount)}`;
}

const shortDate = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** en-US with a short month: 'Nov 22, 2026'. Accepts epoch ms, a Date or 'YYYY-MM-DD'. */
export function formatDate(value: number | string | Date): string {
  const date = typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  return shortDate.format(date);
}

/** The shop's clock: order times are shown as shoppers and staff in Sri Lanka read them. */
export const SHOP_TIME_ZONE = "Asia/Colombo";
/**
 * The same clock as an offset, for SQL ranges of the shop's days: Asia/Colombo keeps +05:30 all year (no summer time
 * since 2006). tests/unit/format.test.ts checks the two agree.
 */
export const SHOP_UTC_OFFSET = "+05:30";
const shopDateTime = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: SHOP_TIME_ZONE,
});

/** 'Nov 22, 2026, 9:31 AM', date and time both in the shop's time zone. */
export function formatDateTime(value: number | string | Date): string {
  return shopDateTime.format(new Date(value));
}

// Swedish writes dates as ISO does: "2025-03-01 06:30".
const shopTimestamp = new Intl.DateTimeFormat("sv-SE", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: SHOP_TIME_ZONE });

/** "2025-03-01 06:30" on the shop's clock, as a spreadsheet reads a time (the orders' CSV). */
export function formatShopTimestamp(value: number | string | Date): string {
  return shopTimestamp.format(new Date(value));
}

/** "2025-03-01": the shop's calendar day at that moment (the CSV's file name), read off the same clock as its rows. */
export function formatShopDay(value: number | string | Date): string {
  return formatShopTimestamp(value).slice(0, 10);
}
