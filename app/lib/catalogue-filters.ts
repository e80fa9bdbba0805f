// The catalogue's filters as the grid, the search results and GET /api/products take them from the URL. Shared by
// client and server, without zod (the home page's client code imports it): the query schemas that read these
// parameters are in schemas/product.ts.

import { formatPrice } from "./format";

/** The URL parameters of the filters beside the category and the sort. */
export const FILTER_PARAMS = ["size", "brand", "minPrice", "maxPrice"] as const;
export type FilterParam = (typeof FILTER_PARAMS)[number];

export interface CatalogueFilters {
  /** A size label ("EU 42"), exactly: products with that size in stock. An unknown label matches nothing. */
  size?: string;
  /** Exactly as the catalogue spells it; an unknown brand matches nothing. */
  brand?: string;
  /** In rupees, inclusive. */
  minPrice?: number;
  maxPrice?: number;
}

/** How many filters are set, a price range counting once: the count the phone's "Filters" button shows. */
export function activeFilterCount(filters: CatalogueFilters): number {
  const price = filters.minPrice !== undefined || filters.maxPrice !== undefined;
  return (filters.size !== undefined ? 1 : 0) + (filters.brand !== undefined ? 1 : 0) + (price ? 1 : 0);
}

/**
 * Whether a listing with these filters can be counted from the kept totals (catalogue_counts, catalogue_brands).
 * A price range or a size would mean reading every matching product (stock changes with every order, so no kept total
 * per size), so such listings say only whether another page follows.
 */
export function isCountable(filters: CatalogueFilters): boolean {
  return filters.size === undefined && filters.minPrice === undefined && filters.maxPrice === undefined;
}

/**
 * How deep a listing without a total can be paged: its first UNCOUNTED_DEPTH products (100 pages of 24). Such a listing
 * (a size or a price filter, a search) finds a page by walking an index from its start, checking rows until the page
 * is full, so a page costs more the deeper it is: at 100,000 products, page 4,000 of a size filter read the whole
 * catalogue (about 280 ms of D1, which runs one statement at a time) to answer nothing. Shoppers narrow a filter long
 * before; past the depth a listing answers no products and the screens say why (DepthNote).
 */
export const UNCOUNTED_DEPTH = 2_400;

/** Whether a page of a listing without a total starts past UNCOUNTED_DEPTH, so is answered without reading. */
export function pastUncountedDepth(page: number, pageSize: number): boolean {
  return (page - 1) * pageSize >= UNCOUNTED_DEPTH;
}

/** The query without the filters and the page: what "Clear all" links to (the category, sort or keyword stay). */
export function withoutFilters(search: URLSearchParams): string {
  const params = new URLSearchParams(search);
  for (const param of [...FILTER_PARAMS, "page"]) params.delete(param);
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/**
 * The listing's own address when a GET form without JavaScript sent its empty fields (`?brand=&minPrice=`), else null:
 * the screens send the browser there, so a choice has one URL to share, bookmark and keep in the edge cache.
 */
export function compactListingUrl(url: URL): string | null {
  const search = new URLSearchParams(nonEmptyParams(url.searchParams));
  if (search.size === url.searchParams.size) return null;
  // One leading slash: "//x" in a Location would name another host.
  const path = url.pathname.replace(/^\/+/, "/");
  return search.size ? `${path}?${search}` : path;
}

/** The URL's parameters with empty values left out: a GET form without JavaScript sends its empty fields as `brand=`. */
export function nonEmptyParams(search: URLSearchParams): Record<string, string> {
  return Object.fromEntries([...search].filter(([, value]) => value.trim() !== ""));
}

/** A part of the URL's filters a screen set aside, and why: the form marks that field and shows the message. */
export interface FilterProblem {
  field: "size" | "brand" | "price";
  message: string;
}

const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * Why a price range from the URL was set aside, in the words a shopper needs: an end that is not an amount, an end
 * above the highest price a product can have (`max`, rupees), or a lowest price above the highest. Given the raw
 * values (absent or blank ends count as not given).
 */
export function priceProblem(minPrice: string | undefined, maxPrice: string | undefined, max: number): string {
  const ends = [minPrice, maxPrice].map((end) => end?.trim() ?? "").filter((end) => end !== "");
  const leftOut = "the price range was left out.";
  if (ends.some((end) => !AMOUNT.test(end))) return `Prices must be amounts in rupees, such as 5000 or 4999.50; ${leftOut}`;
  if (ends.some((end) => Number(end) > max)) return `Prices go up to ${formatPrice(max)}; ${leftOut}`;
  return `The lowest price must not be higher than the highest; ${leftOut}`;
}
