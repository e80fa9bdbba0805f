import { useEffect, useRef } from "react";
import { Form, isRouteErrorResponse, redirect, useLoaderData, useNavigation, useSearchParams, useSubmit } from "react-router";

import { AppLink } from "~/components/AppLink";
import { Filters } from "~/components/Filters";
import { DepthNote, EmptyPage } from "~/components/DepthNote";
import { ListingStatus, useListingFocus } from "~/components/ListingStatus";
import { Pagination, pageHref } from "~/components/Pagination";
import { ProductsLoadError } from "~/components/ErrorPage";
import { ReturnedAddToast } from "~/components/AddToCartButton";
import { EmptyState, ProductGrid } from "~/components/ProductGrid";
import { useSelectCommit } from "~/components/useSelectCommit";
import { activeFilterCount, compactListingUrl, FILTER_PARAMS, nonEmptyParams, withoutFilters } from "~/lib/catalogue-filters";
import { CATEGORIES, SORTS, type Sort } from "~/lib/constants";
import { listQuerySchema, PAGE_SIZE } from "~/lib/schemas/product";
import { filterSizes } from "~/lib/sizes";
import { readScreenQuery } from "~/services/catalogue-filters.server";
import { listProducts, PRODUCT_CARD } from "~/services/catalogue.server";
import type { Route } from "./+types/home";

const SORT_LABELS: Record<Sort, string> = {
  newest: "Newest",
  "price-asc": "Price: low to high",
  "price-desc": "Price: high to low",
  name: "Name",
};

export async function loader({ context, url }: Route.LoaderArgs) {
  const compact = compactListingUrl(url);
  if (compact) throw redirect(compact);
  // A hand-edited query (unknown category, page 0) falls back to the whole catalogue rather than an error page.
  const { query, problems } = readScreenQuery(listQuerySchema, url.searchParams);
  const { category, sort, size, brand, minPrice, maxPrice } = query ?? {};
  const filters = { size, brand, minPrice, maxPrice };
  const page = await listProducts(context.db, { category, sort, page: query?.page, pageSize: PAGE_SIZE, filters, withBrands: true }, PRODUCT_CARD);
  return {
    products: page.items,
    category: category ?? null,
    sort: sort ?? "newest",
    page: page.page,
    // null with a size or a price range, which are not counted: the pages then go by Previous and Next.
    pageCount: page.total === null ? null : Math.max(1, Math.ceil(page.total / PAGE_SIZE)),
    hasMore: page.hasMore,
    depthReached: page.depthReached,
    total: page.total,
    filters,
    sizes: filterSizes(category),
    brands: page.brands ?? [],
    problems,
  };
}

/**
 * The sort: a pick with the pointer applies at once, one with the keyboard on Enter or on leaving the select
 * (useSelectCommit). It stays mounted from one URL to the next, so the focus stays on it; the select follows the URL.
 */
function SortControl({ sort }: { sort: Sort }) {
  const submit = useSubmit();
  const [searchParams] = useSearchParams();
  const select = useRef<HTMLSelectElement>(null);
  // The page stays where it is: the sort is in view, and the results below it change.
  const commit = useSelectCommit((form) => submit(form, { preventScrollReset: true }));
  useEffect(() => {
    if (select.current) select.current.value = sort;
  }, [sort]);
  // The category and the filters go along with a new sort (the page does not).
  const keep = Object.entries(nonEmptyParams(searchParams)).filter(([name]) => name === "category" || (FILTER_PARAMS as readonly string[]).includes(name));
  return (
    <Form
      method="get"
      className="flex items-center gap-2"
      onPointerDown={commit.onPointerDown}
      onKeyDown={commit.onKeyDown}
      onChange={commit.onChange}
      onBlur={commit.onBlur}
      onSubmit={commit.clearPending}
    >
      {keep.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor="sort" className="text-sm text-slate-600 dark:text-slate-400">
        Sort by
      </label>
      <select ref={select} id="sort" name="sort" defaultValue={sort} className="field-input w-auto py-1.5 pr-8 text-sm">
        {SORTS.map((value) => (
          <option key={value} value={value}>
            {SORT_LABELS[value]}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn-secondary">
          Apply
        </button>
      </noscript>
    </Form>
  );
}

export default function Home() {
  const { products, category, sort, page, pageCount, hasMore, depthReached, total, filters, sizes, brands, problems } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/";
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  useListingFocus(resultsHeading);

  return (
    <div className="mx-auto max-w-7xl px-4 pb-16 sm:px-6">
      {category ? (
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-brand-50 px-5 py-4 dark:bg-slate-900" role="region" aria-label="Category filter">
          <p className="text-sm">
            Showing <strong className="font-semibold">{category}</strong>
            {total !== null && (
              <>
                {" "}
                · {total} {total === 1 ? "product" : "products"}
              </>
            )}
          </p>
          {/* A full page load, as the spec asks: the filter is reset everywhere. */}
          <a href="/" className="btn-secondary">
            Clear Filter
          </a>
        </div>
      ) : (
        // On a short screen (a phone lying down) the hero filled the whole first screen: there it keeps the heading and
        // the categories, smaller, and the products' heading and sort show under it.
        <section className="mt-6 overflow-hidden rounded-3xl bg-gradient-to-br from-slate-900 via-slate-800 to-brand-700 px-6 py-8 text-white sm:px-10 sm:py-14 short:mt-4 short:py-5 dark:from-slate-900 dark:via-slate-900 dark:to-brand-700/60">
          <p className="text-sm font-semibold uppercase tracking-widest text-brand-100 short:hidden">New season</p>
          <h1 className="mt-2 max-w-xl text-3xl font-extrabold tracking-tight sm:text-4xl short:mt-0 short:max-w-none short:text-2xl">Shoes for every step, delivered across Sri Lanka.</h1>
          <p className="mt-3 max-w-lg text-slate-200 short:hidden">Gents, ladies, kids and accessories. Pay by bank transfer; we confirm your slip and ship.</p>
          {/* One tap to a category from the first screen: on a phone the navigation's categories are two taps into the menu. */}
          <nav aria-label="Shop by category" className="mt-6 flex flex-wrap gap-2 short:mt-4">
            {CATEGORIES.map((name) => (
              <AppLink
                key={name}
                to={`/?category=${name}`}
                className="inline-flex min-h-11 items-center rounded-full bg-white/10 px-4 text-sm font-semibold text-white ring-1 ring-white/30 ring-inset hover:bg-white/20"
              >
                {name}
              </AppLink>
            ))}
          </nav>
        </section>
      )}

      <div className="mt-8 flex flex-wrap items-end justify-between gap-4">
        {/* A category page has no hero: its name is the page's heading. */}
        {category ? (
          <h1 ref={resultsHeading} className="text-2xl font-bold tracking-tight">
            {category}
          </h1>
        ) : (
          <h2 ref={resultsHeading} className="text-xl font-bold tracking-tight">
            All Products
          </h2>
        )}
        <SortControl sort={sort} />
      </div>
      <Filters
        sizes={sizes}
        brands={brands}
        values={filters}
        keep={{ ...(category ? { category } : {}), ...(sort !== "newest" ? { sort } : {}) }}
        clearHref={withoutFilters(searchParams)}
        problems={problems}
      />

      <ListingStatus shown={products.length} total={total} page={page} hasMore={hasMore} />
      <div className="relative mt-6" aria-busy={loading}>
        {loading && (
          <div className="absolute inset-0 z-10 flex items-start justify-center bg-white/70 pt-24 dark:bg-slate-950/70" role="status">
            <p className="rounded-full bg-white px-5 py-2 text-sm font-semibold shadow dark:bg-slate-800">Loading products...</p>
          </div>
        )}
        {products.length ? (
          <>
            {/* A category page's heading is its h1: the cards' names (h3) sit under an h2, as on the home page's "All Products". */}
            {category && <h2 className="sr-only">Products</h2>}
            <ProductGrid products={products} />
          </>
        ) : page > 1 ? (
          <EmptyPage page={page} pastDepth={depthReached} firstPage={pageHref(searchParams, 1)} />
        ) : (
          <EmptyState title="No Products Available">
            {activeFilterCount(filters) > 0 ? (
              <>
                Try other filters, or{" "}
                <AppLink to={withoutFilters(searchParams)} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  clear all filters
                </AppLink>
                .
              </>
            ) : (
              "Try another category, or come back soon."
            )}
          </EmptyState>
        )}
      </div>
      {depthReached && products.length > 0 && <DepthNote />}
      {/* An empty page's way back is its message; links to the pages around it would lead to more empty pages. */}
      {products.length > 0 && <Pagination page={page} pageCount={pageCount} hasMore={hasMore} search={searchParams} />}
      <ReturnedAddToast otherwise={searchParams.has("deleted") ? "Product deleted" : null} />
    </div>
  );
}

export function meta({ data }: Route.MetaArgs) {
  const category = data?.category;
  return [
    { title: category ? `${category} | Stride` : "Stride | Shoes and accessories in Sri Lanka" },
    { name: "description", content: category ? `Shop ${category.toLowerCase()} at Stride, with prices in LKR.` : "Shop shoes for gents, ladies and kids, and accessories, with prices in LKR and bank transfer checkout." },
  ];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ProductsLoadError />;
}
