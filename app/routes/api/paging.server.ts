import type { ListPage } from "~/services/backoffice.server";

/**
 * The headers of a page of a list: X-Total-Count when the total is known exactly (null when it is not counted, or
 * counted only so far: a lower bound would mislead a client), and a Link to the same query one page on while one
 * follows. `url` is the request's own (the endpoint's `url`).
 */
export function pagingHeaders(url: URL, page: number, hasMore: boolean, exactTotal: number | null): Headers {
  const headers = new Headers();
  if (exactTotal !== null) headers.set("X-Total-Count", String(exactTotal));
  if (hasMore) {
    const next = new URL(url);
    next.searchParams.set("page", String(page + 1));
    headers.set("Link", `<${next}>; rel="next"`);
  }
  return headers;
}

/** The paging headers of a page of a back office list (its total is exact, or a lower bound). */
export function pageHeaders(url: URL, page: ListPage<unknown>): Headers {
  return pagingHeaders(url, page.page, page.hasMore, page.totalExact ? page.total : null);
}
