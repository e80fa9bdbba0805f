import type { ListPage } from "~/services/backoffice.server";

/**
 * The headers of a page of a back office list: X-Total-Count when the total is exact (a search or a date range is
 * counted only so far, and a lower bound would mislead a client), and a Link to the next page while one follows, as
 * GET /api/products does.
 */
export function pageHeaders(requestUrl: Request | string, page: ListPage<unknown>): Headers {
  const headers = new Headers();
  if (page.totalExact) headers.set("X-Total-Count", String(page.total));
  if (page.hasMore) {
    const next = new URL(typeof requestUrl === "string" ? requestUrl : requestUrl.url);
    next.searchParams.set("page", String(page.page + 1));
    headers.set("Link", `<${next}>; rel="next"`);
  }
  return headers;
}
