import { z } from "zod";

import { apiResource, endpoint, json } from "~/lib/api.server";
import { UNCOUNTED_DEPTH } from "~/lib/catalogue-filters";
import { apiProductSchema, listQuerySchema, searchQuerySchema } from "~/lib/schemas/product";
import { API_PRODUCT, listProducts, searchProducts, UNPAGED_LIMIT } from "~/services/catalogue.server";
import { pagingHeaders } from "./paging.server";

const products = { description: "Products, newest first, each with its sizes", schema: z.array(apiProductSchema) };

export const productsApi = apiResource("/api/products", {
  "GET /": endpoint({
    summary: `The catalogue, newest first, optionally by category, size (a size label such as "EU 42", exactly: products with that size in stock), brand (exact; an unknown brand gives []) and price range (minPrice and maxPrice in rupees, inclusive). With page, that page alone, with X-Total-Count (left out with a size or a price range, which are not counted) and a Link header (rel="next") while more pages follow; without, the first ${UNPAGED_LIMIT}. A size or a price range lists its first ${UNCOUNTED_DEPTH} products: a page that starts after them is [] (and the page before has no rel="next").`,
    auth: "none",
    query: listQuerySchema,
    responses: { 200: products, 400: { description: "Unknown category, a bad page or pageSize, or a bad size (empty, over 20 characters, control characters), brand (the same) or price range (minPrice above maxPrice, negative, not a number)" } },
    handler: async ({ context, query, url }) => {
      const paged = query.page !== undefined;
      const result = await listProducts(
        context.db,
        {
          category: query.category,
          sort: query.sort,
          page: query.page ?? 1,
          pageSize: query.pageSize ?? (paged ? undefined : UNPAGED_LIMIT),
          filters: { size: query.size, brand: query.brand, minPrice: query.minPrice, maxPrice: query.maxPrice },
        },
        API_PRODUCT,
      );
      if (!paged) return json(result.items);
      return json(result.items, { headers: pagingHeaders(url, result.page, result.hasMore, result.total) });
    },
  }),
  "GET /search": endpoint({
    summary: `Products whose name, brand or category contains the keyword (case-insensitive; % and _ are ordinary characters), optionally in stock in one size, of one brand and in a price range (as GET /products). At most ${UNPAGED_LIMIT} without page. A search lists its first ${UNCOUNTED_DEPTH} products: a page that starts after them is []. With fallback=words, when no product contains the keyword as typed, the products that contain every word of it instead (each made singular: "kids shoes" finds a "Shoe for Kids"; words under 3 characters are left out), and an X-Search-Match header, phrase or words, says which these are. With fallback=spelling, as with words, and when the words find nothing either, the products of the keyword with each word the catalogue does not have (4 letters or more) replaced by the closest it has ("snekers" finds the sneakers): X-Search-Match is then spelling and X-Search-Corrected the corrected keyword (URI-encoded).`,
    auth: "none",
    query: searchQuerySchema,
    responses: { 200: products, 400: { description: "Missing keyword, longer than 100 characters or with control characters; a bad size, brand or price range; a fallback other than words or spelling" } },
    handler: async ({ context, query }) => {
      const filters = { size: query.size, brand: query.brand, minPrice: query.minPrice, maxPrice: query.maxPrice };
      const match = query.fallback ? "phrase-or-words" : "phrase";
      const spelling = query.fallback === "spelling";
      const { items, matched, corrected } = await searchProducts(context.db, query.keyword, { page: query.page, pageSize: query.pageSize, filters, match, spelling }, API_PRODUCT);
      // Without fallback the answer is API.md's, header for header. A header holds Latin-1 only: the corrected keyword
      // keeps whatever else was typed ("snekers café"), so it is URI-encoded.
      if (!query.fallback) return json(items);
      return json(items, { headers: { "X-Search-Match": matched, ...(corrected ? { "X-Search-Corrected": encodeURIComponent(corrected) } : {}) } });
    },
  }),
});
