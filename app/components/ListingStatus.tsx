import { useEffect, useRef, type RefObject } from "react";
import { useLocation } from "react-router";

/** What a listing's polite live region says of the products shown, so a screen reader hears a filter or a page take effect. */
export function listingSummary({ shown, total, page, hasMore }: { shown: number; total: number | null; page: number; hasMore: boolean }): string {
  const products = (count: number) => `${count} ${count === 1 ? "product" : "products"}`;
  if (shown === 0) return "No products";
  if (total !== null) return page > 1 ? `${products(total)}, page ${page}` : products(total);
  if (page > 1) return `Page ${page}: ${products(shown)}`;
  return hasMore ? `${products(shown)}, more on the next pages` : products(shown);
}

/**
 * The listing's summary in a polite live region. Its first text is not read (a region speaks of changes); each new
 * page, filter or sort that changes it is.
 */
export function ListingStatus(props: Parameters<typeof listingSummary>[0]) {
  return (
    <p role="status" className="sr-only" data-testid="listing-status">
      {listingSummary(props)}
    </p>
  );
}

/**
 * Where the focus goes when a move inside the listing dropped it (Next, a page number, Clear all: the link that had it is
 * gone or replaced): to the listing's heading, so the keyboard goes on from the results, not from the top of the
 * document. A move that changes the page's title is RouteAnnouncer's; a control that kept the focus keeps it.
 */
export function useListingFocus(heading: RefObject<HTMLElement | null>) {
  const { key } = useLocation();
  const titleBefore = useRef<string | null>(null);
  useEffect(() => {
    const title = document.title;
    const sameTitle = titleBefore.current === title;
    titleBefore.current = title;
    if (!sameTitle) return;
    // As RouteAnnouncer: looked at once the new results have settled.
    const settled = setTimeout(() => {
      const dropped = document.activeElement === null || document.activeElement === document.body;
      if (!dropped || !heading.current) return;
      heading.current.tabIndex = -1;
      heading.current.focus({ preventScroll: true });
    }, 50);
    return () => clearTimeout(settled);
  }, [key, heading]);
}
