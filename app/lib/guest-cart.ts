import { GUEST_CART_MAX_LINES } from "./constants";
import { readCookie, serializeCookie } from "./cookies";

// A visitor's cart lives in a cookie, so the server can render it and it works without JavaScript.
export const GUEST_CART_COOKIE = "stride_cart";

export interface GuestCartLine {
  productId: number;
  /** Absent in lines saved before sizes existed, and in the API's merge for one-size products. */
  sizeId?: number;
  quantity: number;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

export function readGuestCart(cookieHeader: string | null): GuestCartLine[] {
  const raw = readCookie(cookieHeader, GUEST_CART_COOKIE);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((line): line is GuestCartLine => isId(line?.productId) && isId(line?.quantity) && (line.sizeId === undefined || isId(line.sizeId)))
      .slice(0, GUEST_CART_MAX_LINES);
  } catch {
    return [];
  }
}

/** The pairs in a visitor's cart (a customer's are counted with the session: findSessionByToken). */
export function guestCartCount(lines: GuestCartLine[]): number {
  return lines.reduce((total, line) => total + line.quantity, 0);
}

export function serializeGuestCart(lines: GuestCartLine[]): string {
  return JSON.stringify(lines.map(({ productId, sizeId, quantity }) => ({ productId, sizeId, quantity })));
}

const GUEST_CART_MAX_AGE = 30 * 24 * 60 * 60;

/** The Set-Cookie value for a visitor's cart. Readable by the page (not HttpOnly): it holds nothing secret. */
export function guestCartCookie(lines: GuestCartLine[], secure: boolean): string {
  // An empty cart deletes the cookie (empty value, Max-Age=0).
  const value = lines.length ? serializeGuestCart(lines) : "";
  return serializeCookie(GUEST_CART_COOKIE, value, { maxAge: lines.length ? GUEST_CART_MAX_AGE : 0, httpOnly: false, secure });
}
