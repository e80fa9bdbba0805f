import { useRef } from "react";
import { Link, redirect, useLoaderData, useSearchParams } from "react-router";

import { ReturnedAddToast } from "~/components/AddToCartButton";
import { Filters } from "~/components/Filters";
import { DepthNote, EmptyPage } from "~/components/DepthNote";
import { ListingStatus, useListingFocus } from "~/components/ListingStatus";
import { Pagination, pageHref } from "~/components/Pagination";
import { EmptyState, ProductGrid } from "~/components/ProductGrid";
import { NO_MATCH } from "~/components/SearchBox";
import { activeFilterCount, compactListingUrl, withoutFilters } from "~/lib/catalogue-filters";
import { PAGE_SIZE, searchScreenQuerySchema } from "~/lib/schemas/product";
import { quotedWords, shownSearchWords } from "~/lib/search-index";
import { filterSizes } from "~/lib/sizes";
import { readScreenQuery } from "~/services/catalogue-filters.server";
import { PRODUCT_CARD, searchProducts } from "~/services/catalogue.server";
import type { Route } from "./+types/search";

// The full results page that Enter in the search box opens; a plain GET form, so it works without JavaScript. The
// filters (size, brand, price range) narrow the results; the brands and sizes offered are the whole catalogue's. When no
// product has the keyword as typed ("sneakers", "night shift sneaker"), the page shows those with every word of it,
// made singular, and says so; its page links carry match=words, so page 2 continues that list. When those find nothing
// either ("snekers"), the keyword with its misspelt words corrected ("sneakers"), said in the same way; each of its pages
// corrects the keyword again (see searchScreenQuerySchema).
export async function loader({ context, url }: Route.LoaderArgs) {
  const compact = compactListingUrl(url);
  if (compact) throw redirect(compact);
  const keywordAsked = (url.searchParams.get("keyword") ?? "").trim();
  const { query, problems } = readScreenQuery(searchScreenQuerySchema, url.searchParams);
  // Without a keyword no filter is shown, so no brands are read.
  if (!query?.keyword) return { keyword: keywordAsked, products: [], page: 1, hasMore: false, depthReached: false, filters: {}, brands: [] as string[], words: null, corrected: null, problems };
  const { keyword, page = 1, size, brand, minPrice, maxPrice, match } = query;
  const filters = { size, brand, minPrice, maxPrice };
  const options = { page, pageSize: PAGE_SIZE, filters, withBrands: true };
  const found = await searchProducts(context.db, keyword, { ...options, match: match ?? "phrase-or-words", spelling: !match }, PRODUCT_CARD);
  const { items, hasMore, depthReached, brands = [] } = found;
  // What the note above the grid names: the corrected keyword, or the words searched for, when these are their products.
  const corrected = found.corrected ?? null;
  const words = !corrected && found.matched === "words" ? found.words : null;
  return { keyword, products: items, page, hasMore, depthReached, filters, brands, words, corrected, problems };
}

export default function SearchPage() {
  const { keyword, products, page, hasMore, depthReached, filters, brands, words, corrected, problems } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  useListingFocus(resultsHeading);
  // The words' results page on as the words' results, whatever a new product named since would change.
  const listParams = new URLSearchParams(searchParams);
  if (words) listParams.set("match", "words");
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      {/* A keyword of one long word (a pasted link, a held-down key) wraps instead of widening the page. */}
      <h1 ref={resultsHeading} className="text-2xl font-bold tracking-tight wrap-anywhere">{keyword ? <>Results for “{keyword}”</> : "Search"}</h1>
      {keyword && (
        <Filters sizes={filterSizes(undefined)} brands={brands} values={filters} keep={{ keyword }} clearHref={`/search${withoutFilters(searchParams)}`} problems={problems} />
      )}
      {(words || corrected) && products.length > 0 && (
        <p role="note" className="mt-6 rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700 wrap-anywhere dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-300">
          No product has “{keyword}” in its name.{" "}
          {corrected ? <>Showing results for “{corrected}”.</> : <>Showing products matching {quotedWords(shownSearchWords(keyword))}.</>}
        </p>
      )}
      {keyword && <ListingStatus shown={products.length} total={null} page={page} hasMore={hasMore} />}
      <div className="mt-6">
        {products.length ? (
          <>
            {/* The cards' names are h3: no level skipped under the page's h1. */}
            <h2 className="sr-only">Products</h2>
            <ProductGrid products={products} />
          </>
        ) : page > 1 ? (
          <EmptyPage page={page} pastDepth={depthReached} firstPage={pageHref(searchParams, 1)} />
        ) : (
          <EmptyState title={keyword ? NO_MATCH : "Type a shoe name, brand or category in the search box"}>
            {activeFilterCount(filters) > 0 ? (
              <Link to={`/search${withoutFilters(searchParams)}`} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
                Clear all filters
              </Link>
            ) : (
              <Link to="/" className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
                Browse all products
              </Link>
            )}
          </EmptyState>
        )}
      </div>
      {depthReached && products.length > 0 && <DepthNote search />}
      {/* The keyword and filters stay; the search is never counted, so Previous and Next. An empty page has its own way back. */}
      {products.length > 0 && <Pagination page={page} pageCount={null} hasMore={hasMore} search={listParams} />}
      <ReturnedAddToast />
    </div>
  );
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.keyword ? `“${data.keyword}” | Search | Stride` : "Search | Stride" }, { name: "robots", content: "noindex" }];
}
