import { z } from "zod";

import { apiResource, endpoint, json } from "~/lib/api.server";
import { apiProductSchema, listQuerySchema, searchQuerySchema } from "~/lib/schemas/product";
import { listProducts, searchProducts, UNPAGED_LIMIT, WHOLE_PRODUCT } from "~/services/catalogue.server";
import { withSizes } from "~/services/sizes.server";

const products = { description: "Products, newest first, each with its sizes", schema: z.array(apiProductSchema) };

export const productsApi = apiResource("/api/products", {
  "GET /": endpoint({
    summary: `The catalogue, newest first, optionally by category. With page, that page alone and X-Total-Count; without, the first ${UNPAGED_LIMIT}.`,
    auth: "none",
    query: listQuerySchema,
    responses: { 200: products, 400: { description: "Unknown category or a bad page or pageSize" } },
    handler: async ({ context, query }) => {
      const paged = query.page !== undefined;
      const result = await listProducts(
        context.db,
        {
          category: query.category,
          sort: query.sort,
          page: query.page ?? 1,
          pageSize: query.pageSize ?? (paged ? undefined : UNPAGED_LIMIT),
        },
        WHOLE_PRODUCT,
      );
      return json(await withSizes(context.db, result.items), paged ? { headers: { "X-Total-Count": String(result.total) } } : {});
    },
  }),
  "GET /search": endpoint({
    summary: `Products whose name, brand or category contains the keyword (case-insensitive; % and _ are ordinary characters). At most ${UNPAGED_LIMIT} without page.`,
    auth: "none",
    query: searchQuerySchema,
    responses: { 200: products, 400: { description: "Missing keyword, or longer than 100 characters" } },
    handler: async ({ context, query }) => {
      const { items } = await searchProducts(context.db, query.keyword, { page: query.page, pageSize: query.pageSize }, WHOLE_PRODUCT);
      return json(await withSizes(context.db, items));
    },
  }),
});
