import type { ReactNode } from "react";

import { ONE_TIME_PARAMS } from "~/lib/one-time-params";
import { AppLink } from "./AppLink";

/** The address of a page of the listing, the rest of the query kept (the first page has no `page`). */
export function pageHref(search: URLSearchParams, target: number): string {
  const params = new URLSearchParams(search);
  // What the page said once (its toast's reason) is not carried to another page of the list.
  for (const once of ONE_TIME_PARAMS) params.delete(once);
  if (target === 1) params.delete("page");
  else params.set("page", String(target));
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/**
 * Page links that keep the rest of the query (category, sort, filters, keyword). Without a page count (a listing that
 * is not counted, such as a price range), Previous and Next only, Next while `hasMore`.
 */
export function Pagination({ page, pageCount, hasMore = false, search }: { page: number; pageCount: number | null; hasMore?: boolean; search: URLSearchParams }) {
  if (pageCount === null ? page <= 1 && !hasMore : pageCount <= 1) return null;
  const href = (target: number) => pageHref(search, target);
  const last = pageCount ?? page;
  const around = [page - 2, page - 1, page, page + 1, page + 2].filter((n) => n >= 1 && n <= last);
  // Uncounted: the pages up to this one, but no last page to link to.
  const pages = [...new Set([1, ...around, last])].sort((a, b) => a - b);
  const item = "inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-3 text-sm font-semibold";
  return (
    <nav aria-label="Pages" className="mt-10 flex flex-wrap items-center justify-center gap-1">
      {page > 1 && (
        <AppLink to={href(page - 1)} className={`${item} hover:bg-slate-100 dark:hover:bg-slate-800`} rel="prev">
          Previous
        </AppLink>
      )}
      {pages.map((n, index) => (
        <span key={n} className="contents">
          {index > 0 && n - pages[index - 1] > 1 && <span className="px-1 text-slate-400" aria-hidden="true">…</span>}
          {/* Named by the number it shows (WCAG 2.5.3, Label in Name); the nav's label says these are pages. */}
          <AppLink
            to={href(n)}
            aria-current={n === page ? "page" : undefined}
            className={`${item} ${n === page ? "bg-brand-600 text-white dark:bg-brand-400 dark:text-slate-950" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`}
          >
            {n}
          </AppLink>
        </span>
      ))}
      {(pageCount === null ? hasMore : page < pageCount) && (
        <AppLink to={href(page + 1)} className={`${item} hover:bg-slate-100 dark:hover:bg-slate-800`} rel="next">
          Next
        </AppLink>
      )}
    </nav>
  );
}

/** A back-office list's page links, from its page (ListPage): numbered while its total is exact, else Previous and Next. */
export function ListPagination({
  paging,
  search,
}: {
  paging: { page: number; pageSize: number; total: number; totalExact: boolean; hasMore: boolean };
  search: URLSearchParams;
}) {
  const pageCount = paging.totalExact ? Math.max(1, Math.ceil(paging.total / paging.pageSize)) : null;
  return <Pagination page={paging.page} pageCount={pageCount} hasMore={paging.hasMore} search={search} />;
}

/**
 * A back-office list with nothing on its page: past the first page of a list that has rows (an edited address, a list
 * that shrank meanwhile), which page and the way back to the first, since there are no page links to follow; else the
 * list's own words (`children`).
 */
export function EmptyList({ paging, noun, search, children }: { paging: { page: number; total: number } | null; noun: string; search: URLSearchParams; children: ReactNode }) {
  const pastEnd = paging !== null && paging.page > 1 && paging.total > 0;
  return (
    <p className="mt-6 rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
      {pastEnd ? (
        <>
          No {noun} on page {paging.page}: the list ends before it.{" "}
          <AppLink to={pageHref(search, 1)} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
            Back to the first page
          </AppLink>
        </>
      ) : (
        children
      )}
    </p>
  );
}
