import { backOfficePath } from "./restock";
import { ADMIN_PAGE_SIZE, readOrderListSearch } from "./schemas/backoffice";

// An order's page remembers the orders list it was opened from (its filters and page), so "← Orders" goes back there:
// the list's Details link carries the list's address in `back`, and the page's loader reads it back as the list's own
// parameters, rebuilt from the good ones only. A made-up `back` can therefore only ever lead to /admin/orders.

export const ORDERS_LIST = "/admin/orders";

/** The list's parameters that are no part of where the list stands: its dialogs. */
const DIALOG_PARAMS = ["manage", "slip"];

/** An order's page, opened from the list at `listSearch` (its location.search). */
export function orderPageHref(orderId: number, listSearch: string): string {
  const params = new URLSearchParams(listSearch);
  for (const name of DIALOG_PARAMS) params.delete(name);
  const search = params.toString();
  return search ? `${ORDERS_LIST}/${orderId}?${new URLSearchParams({ back: `${ORDERS_LIST}?${search}` })}` : `${ORDERS_LIST}/${orderId}`;
}

/**
 * The list an order's page goes back to, from its `back`: /admin/orders with the filters and page that `back` holds
 * and the list would keep (status, q, from, to, page, pageSize), nothing else; /admin/orders itself for anything
 * that is not the list's own address.
 */
export function ordersListHref(back: string | null): string {
  if (!backOfficePath(back)) return ORDERS_LIST;
  const url = new URL(back!, "http://stride.invalid");
  if (url.origin !== "http://stride.invalid" || url.pathname !== ORDERS_LIST) return ORDERS_LIST;
  const { filters, page, pageSize } = readOrderListSearch(url.searchParams);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, page: page > 1 ? page : undefined, pageSize: pageSize !== ADMIN_PAGE_SIZE ? pageSize : undefined })) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${ORDERS_LIST}?${search}` : ORDERS_LIST;
}
