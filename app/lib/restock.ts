// Restocking from the back office's low-stock lists (the dashboard's and /admin/stock): a size's row opens its
// product's form at that size, and the saved form goes back to the list it came from.

import { STOCK_MOVES_PARAM } from "./stock-moves";

/** Said on the list a saved form comes back to. */
export const SAVED_PARAM = "saved";

/**
 * The back-office page a product form was opened from (`back` in its address), to go back to once it is saved: one of
 * the back office's own pages only, else null (never another site: "//", a backslash or a control character is refused).
 */
export function backOfficePath(back: string | null): string | null {
  if (!back?.startsWith("/admin/") || back.includes("//") || /[\u0000-\u001F\u007F\\]/.test(back)) return null;
  return back;
}

/** The list's own address, less the toast of an earlier save. */
function listAddress(list: { pathname: string; search: string }): string {
  const params = new URLSearchParams(list.search);
  params.delete(SAVED_PARAM);
  params.delete(STOCK_MOVES_PARAM);
  const search = params.toString();
  return search ? `${list.pathname}?${search}` : list.pathname;
}

/** The product's form, opened at the size to restock, coming back to the list (`list`: where the admin is). */
export function restockHref(productId: number, sizeId: number, list: { pathname: string; search: string }): string {
  return `/product/update/${productId}?${new URLSearchParams({ size: String(sizeId), back: listAddress(list) })}`;
}

/** Where a saved form goes: the list it came from, saying so. */
export function savedReturn(back: string, productId: number): string {
  const url = new URL(back, "http://stride.invalid");
  url.searchParams.delete(STOCK_MOVES_PARAM);
  url.searchParams.set(SAVED_PARAM, String(productId));
  return url.pathname + url.search;
}
