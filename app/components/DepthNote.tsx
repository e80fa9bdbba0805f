import { UNCOUNTED_DEPTH } from "~/lib/catalogue-filters";
import { AppLink } from "./AppLink";
import { EmptyState } from "./ProductGrid";

const DEPTH = new Intl.NumberFormat("en-US").format(UNCOUNTED_DEPTH);

/** Where a filtered list or a search stops (UNCOUNTED_DEPTH), and how a shopper finds the rest. */
function depthMessage(search: boolean): string {
  return search
    ? `Search results list their first ${DEPTH} products. Add a word or a filter to find the rest.`
    : `Filtered lists show their first ${DEPTH} products. Narrow the filters (a category, a brand, a smaller price range) to find the rest.`;
}

/** Under the last page a filtered list or a search can show. */
export function DepthNote({ search = false }: { search?: boolean }) {
  return (
    <p role="note" className="mt-8 text-center text-sm text-slate-600 dark:text-slate-400">
      {depthMessage(search)}
    </p>
  );
}

/**
 * A page with nothing on it past the first (an edited address, a bookmark of a list that has shrunk): which page, why,
 * and the way back. Past UNCOUNTED_DEPTH, the list's depth is the reason given: whether it would have had more is not
 * read.
 */
export function EmptyPage({ page, pastDepth, firstPage }: { page: number; pastDepth: boolean; firstPage: string }) {
  return (
    <EmptyState title={`No products on page ${page}`}>
      {pastDepth ? `Filtered lists and search results show at most their first ${DEPTH} products.` : "The list ends before this page."}{" "}
      <AppLink to={firstPage} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
        Back to the first page
      </AppLink>
    </EmptyState>
  );
}
