// The Cache-Tag names of the shared cache's pages (workers/edge-cache.ts stores them, workers/catalogue-purge.ts purges
// them): one rule for which page shows what.

/** Every grid, search page and sitemap: any change to any product may move, add or drop a card there. */
export const CATALOGUE_TAG = "catalogue";
/** Every product page, for a change too wide to name its products one by one. */
export const PRODUCT_PAGES_TAG = "product-pages";
/** The pages that show this product: its own and those that list it under "You may also like". */
export const productTag = (id: number) => `product:${id}`;

/** The Cache-Tag of a product page: the page, every product it shows, and the whole set of product pages. */
export function productPageTags(productId: number, relatedIds: number[]): string {
  return [PRODUCT_PAGES_TAG, ...[productId, ...relatedIds].map(productTag)].join(",");
}
