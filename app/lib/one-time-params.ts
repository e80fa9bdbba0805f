import { SAVED_PARAM } from "./restock";
import { STOCK_MOVES_PARAM } from "./stock-moves";

// What a page says once, in a toast, when a form or a login comes back to it: the reason rides in the address of the
// redirect (so it works without JavaScript) as a one-time parameter, which links built from the page's address leave
// out (pageHref), so the toast stays on the page it was said on.

/** After a login that put the visit's cart into a saved cart that already had lines (startSession). */
export const CART_MERGED_PARAM = "merged";
/** After a registration (startSession). */
export const WELCOME_PARAM = "welcome";

/** An add to the cart, a refused add, a product deleted or saved (and its stock moves), a cart merged at login, a new account. */
export const ONE_TIME_PARAMS: readonly string[] = ["added", "cartError", "deleted", SAVED_PARAM, STOCK_MOVES_PARAM, CART_MERGED_PARAM, WELCOME_PARAM];

export const CART_MERGED_MESSAGE = "We added the items from this visit to your saved cart";

/** The name's first word: "Welcome to Stride, Nimal: your account is ready". */
export function welcomeMessage(name: string): string {
  const first = name.trim().split(/\s+/u)[0];
  return first ? `Welcome to Stride, ${first}: your account is ready` : "Welcome to Stride: your account is ready";
}

const BASE = "http://stride.invalid";

/** A local path (with its query and hash) less the one-time parameters it carries; untouched when it has none. */
export function withoutOneTimeParams(path: string): string {
  const url = new URL(path, BASE);
  const carried = ONE_TIME_PARAMS.filter((name) => url.searchParams.has(name));
  if (!carried.length) return path;
  for (const name of carried) url.searchParams.delete(name);
  return url.pathname + url.search + url.hash;
}

/**
 * A local path with a one-time parameter added before its hash, for a path without it (withoutOneTimeParams first).
 * The rest of its query is kept as written: a bare "?checkout" stays bare rather than becoming "?checkout=".
 */
export function withOneTimeParam(path: string, name: string, value = "1"): string {
  const url = new URL(path, BASE);
  return `${url.pathname}${url.search ? `${url.search}&` : "?"}${name}=${encodeURIComponent(value)}${url.hash}`;
}
