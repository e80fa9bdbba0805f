import { Link, useLoaderData, useLocation } from "react-router";

import { AppLink } from "~/components/AppLink";
import { FormAlert, IgnoredFilters } from "~/components/Field";
import { Pagination } from "~/components/Pagination";
import { DetailCell, RecordTable } from "~/components/RecordTable";
import { StockBadge } from "~/components/StockBadge";
import { CATEGORIES, type Category } from "~/lib/constants";
import { filterPillClass } from "~/lib/filter-pill";
import { readLowStockSearch } from "~/lib/schemas/backoffice";
import { LOW_STOCK } from "~/lib/sizes";
import { cheapPage } from "~/services/backoffice.server";
import { readTogether } from "~/services/db.server";
import { lowStockCountsPlan, lowStockPagePlan } from "~/services/low-stock.server";
import { requireAdminWhileReading } from "~/services/session.server";
import type { Route } from "./+types/stock";

// Every size with LOW_STOCK units or fewer, emptiest first, a page at a time (the dashboard shows the first dozen), of
// one category or all: the admin goes through them and restocks each from its product's form.

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // A bad parameter (page=0, page=abc, an unknown category) is dropped and named on the page, never a failure.
  const { filters, page, pageSize, dropped } = readLowStockSearch(url.searchParams);
  // One D1 batch with the session's row: the page's sizes, its total and every category's count (the kept rows).
  const read = () => readTogether(context.db, { list: lowStockPagePlan(context.db, filters, page, pageSize), counts: lowStockCountsPlan(context.db) });
  const { result } = await requireAdminWhileReading(request, context, url, read, cheapPage(page, pageSize));
  try {
    const { list, counts } = await result;
    const { items, ...paging } = list;
    return { sizes: items, paging, counts, category: filters.category ?? null, dropped, error: null };
  } catch (error) {
    console.error("Admin stock: reading the low-stock sizes failed", error);
    return { sizes: [], paging: null, counts: null, category: filters.category ?? null, dropped, error: "Failed to load the stock" };
  }
}

const count = new Intl.NumberFormat("en-US");
const sizesCount = (n: number) => `${count.format(n)} ${n === 1 ? "size" : "sizes"}`;

/** All, then each category, with how many of its sizes are low: links, so the filter lives in the URL without JavaScript. */
function CategoryFilter({ active, counts }: { active: Category | null; counts: Record<"" | Category, number> | null }) {
  const options: Array<{ category: Category | null; label: string }> = [{ category: null, label: "All" }, ...CATEGORIES.map((category) => ({ category, label: category }))];
  return (
    <nav aria-label="Filter sizes by category" className="mt-6">
      <ul className="flex flex-wrap gap-2">
        {options.map(({ category, label }) => {
          const current = category === active;
          const n = counts?.[category ?? ""];
          return (
            <li key={label}>
              {/* A new category starts on its first page. */}
              <AppLink to={category ? `/admin/stock?category=${category}` : "/admin/stock"} aria-current={current ? "page" : undefined} keepScroll className={filterPillClass(current, "gap-2")}>
                {label}
                {n !== undefined && (
                  <span className={`text-xs tabular-nums ${current ? "opacity-90" : "text-slate-500 dark:text-slate-400"}`}>
                    <span className="sr-only">: </span>
                    {count.format(n)}
                  </span>
                )}
              </AppLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export default function AdminStockPage() {
  const { sizes, paging, counts, category, dropped, error } = useLoaderData<typeof loader>();
  const location = useLocation();
  const what = category ? `${category} sizes` : "Sizes";
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <Link to="/admin/dashboard" className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
        ← Dashboard
      </Link>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Low stock</h1>
      {paging && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="stock-count">
          {category ? `${sizesCount(paging.total)} in ${category}` : sizesCount(paging.total)} with {LOW_STOCK} units or fewer, the emptiest first. Open a product to restock it.
        </p>
      )}
      <CategoryFilter active={category} counts={counts} />
      <IgnoredFilters dropped={dropped} />

      {error ? (
        <div className="mt-6">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : sizes.length === 0 ? (
        <p className="mt-6 rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
          {paging && paging.page > 1 && paging.total > 0 ? "No sizes on this page" : `Every ${category ? `${category} ` : ""}size has more than ${LOW_STOCK} units.`}
        </p>
      ) : (
        <RecordTable caption={`${what} with ${LOW_STOCK} units or fewer, the emptiest first`} headings={["Product", "Brand", "Category", "Size", "Stock"]} testId="stock-table">
          {sizes.map((size) => (
            <tr key={size.sizeId} role="row" data-testid="stock-row" data-size-id={size.sizeId}>
              <th role="rowheader" scope="row">
                {/* To the product's update form, where its sizes' stock is edited (as the dashboard's rows do). */}
                <Link to={`/product/update/${size.productId}`} className="inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  {size.productName}
                </Link>
              </th>
              <DetailCell label="Brand">{size.brand}</DetailCell>
              <DetailCell label="Category">{size.category}</DetailCell>
              <DetailCell label="Size" className="md:whitespace-nowrap">
                {size.sizeLabel}
              </DetailCell>
              <td role="cell" data-aside="" className="md:whitespace-nowrap">
                <StockBadge stock={size.stockQuantity} />
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      {paging && (
        <Pagination page={paging.page} pageCount={Math.max(1, Math.ceil(paging.total / paging.pageSize))} hasMore={paging.hasMore} search={new URLSearchParams(location.search)} />
      )}
    </div>
  );
}

export function meta() {
  return [{ title: "Low stock | Stride admin" }, { name: "robots", content: "noindex" }];
}
