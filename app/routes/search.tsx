import { Link, useLoaderData } from "react-router";

import { EmptyState, ProductGrid } from "~/components/ProductGrid";
import { NO_MATCH } from "~/components/SearchBox";
import { PAGE_SIZE, searchQuerySchema } from "~/lib/schemas/product";
import { PRODUCT_CARD, searchProducts } from "~/services/catalogue.server";
import type { Route } from "./+types/search";

// The full results page that Enter in the search box opens; a plain GET form, so it works without JavaScript.
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const parsed = searchQuerySchema.safeParse({ keyword: url.searchParams.get("keyword") ?? "", page: url.searchParams.get("page") ?? undefined });
  if (!parsed.success) return { keyword: (url.searchParams.get("keyword") ?? "").trim(), products: [], page: 1, hasMore: false };
  const { keyword, page = 1 } = parsed.data;
  const { items, hasMore } = await searchProducts(context.db, keyword, { page, pageSize: PAGE_SIZE }, PRODUCT_CARD);
  return { keyword, products: items, page, hasMore };
}

export default function SearchPage() {
  const { keyword, products, page, hasMore } = useLoaderData<typeof loader>();
  const pageHref = (target: number) => `/search?${new URLSearchParams({ keyword, ...(target > 1 ? { page: String(target) } : {}) })}`;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold tracking-tight">{keyword ? <>Results for “{keyword}”</> : "Search"}</h1>
      <div className="mt-6">
        {products.length ? (
          <ProductGrid products={products} />
        ) : (
          <EmptyState title={keyword ? NO_MATCH : "Type a shoe name, brand or category in the search box"}>
            <Link to="/" className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
              Browse all products
            </Link>
          </EmptyState>
        )}
      </div>
      {(page > 1 || hasMore) && (
        <nav aria-label="Pages" className="mt-10 flex justify-center gap-3">
          {page > 1 && (
            <Link to={pageHref(page - 1)} className="btn-secondary" rel="prev">
              Previous
            </Link>
          )}
          {hasMore && (
            <Link to={pageHref(page + 1)} className="btn-secondary" rel="next">
              Next
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.keyword ? `“${data.keyword}” | Search | Stride` : "Search | Stride" }, { name: "robots", content: "noindex" }];
}
