import { Link, useLoaderData, useLocation } from "react-router";

import { AppLink } from "~/components/AppLink";
import { FormAlert, IgnoredFilters } from "~/components/Field";
import { ListSearch } from "~/components/ListSearch";
import { SavedToast } from "~/components/SavedToast";
import { EmptyList, ListPagination } from "~/components/Pagination";
import { DetailCell, RecordTable } from "~/components/RecordTable";
import { OffSaleBadge, StockBadge } from "~/components/StockBadge";
import { CATEGORIES, type Category } from "~/lib/constants";
import { filterPillClass } from "~/lib/filter-pill";
import { restockHref, SAVED_PARAM } from "~/lib/restock";
import { readLowStockSearch } from "~/lib/schemas/backoffice";
import { savedStockMoves } from "~/lib/stock-moves.server";
import { LOW_STOCK } from "~/lib/sizes";
import { cheapRead } from "~/services/backoffice.server";
import { readTogether } from "~/services/db.server";
import { lowStockCountsPlan, lowStockPagePlan } from "~/services/low-stock.server";
import { requireAdminWhileReading } from "~/services/session.server";
import type { Route } from "./+types/stock";

// Every size with LOW_STOCK units or fewer, emptiest first, a page at a time (the dashboard shows the first dozen), of
// one category or all, or of the products an admin searches for by name or brand: the admin goes through them and
// restocks each from its product's form.

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // A bad parameter (page=0, page=abc, an unknown category, a q too long) is dropped and named on the page, never a failure.
  const { filters, page, pageSize, dropped } = readLowStockSearch(url.searchParams);
  // One D1 batch with the session's row: the page's sizes, its total and (without a search) every category's count,
  // the kept rows. A search's matches are not what those count, so its category links go without.
  const list = lowStockPagePlan(context.db, filters, page, pageSize);
  const read = async () => (filters.q ? { ...(await readTogether(context.db, { list })), counts: null } : readTogether(context.db, { list, counts: lowStockCountsPlan(context.db) }));
  // A search that finds few walks every low size: only after the admin check, as a deep page is.
  const { result } = await requireAdminWhileReading(request, context, url, read, cheapRead(page, pageSize, Boolean(filters.q)));
  // Come back from a product form opened here: the sizes its save put at another stock than typed, for the toast.
  const savedMoves = await savedStockMoves(url, Number(url.searchParams.get(SAVED_PARAM)), context.cloudflare.env.JWT_SECRET);
  const shown = { category: filters.category ?? null, q: filters.q ?? "", dropped, savedMoves };
  try {
    const { list, counts } = await result;
    const { items, ...paging } = list;
    return { sizes: items, paging, counts, ...shown, error: null };
  } catch (error) {
    console.error("Admin stock: reading the low-stock sizes failed", error);
    return { sizes: [], paging: null, counts: null, ...shown, error: "Failed to load the stock" };
  }
}

const count = new Intl.NumberFormat("en-US");
/** "23 sizes", "1 size", "1,000+ sizes": as far as the list was counted. */
const sizesCount = (paging: { total: number; totalExact: boolean }) =>
  `${count.format(paging.total)}${paging.totalExact ? "" : "+"} ${paging.total === 1 && paging.totalExact ? "size" : "sizes"}`;

/** The list's address for a category and a search (no page: a new filter starts on the first page). */
function stockHref(category: Category | null, q: string): string {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (q) params.set("q", q);
  const search = params.toString();
  return search ? `/admin/stock?${search}` : "/admin/stock";
}

/**
 * All, then each category, with how many of its sizes are low (none while searching): links that keep the search, so
 * the filter lives in the URL without JavaScript.
 */
function CategoryFilter({ active, q, counts }: { active: Category | null; q: string; counts: Record<"" | Category, number> | null }) {
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
              <AppLink to={stockHref(category, q)} aria-current={current ? "page" : undefined} keepScroll className={filterPillClass(current, "gap-2")}>
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
  const { sizes, paging, counts, category, q, dropped, savedMoves, error } = useLoaderData<typeof loader>();
  const location = useLocation();
  const listSearch = new URLSearchParams(location.search);
  const what = category ? `${category} sizes` : "Sizes";
  const matching = q ? ` matching “${q}”` : "";
  return (
    <div className="back-office-page">
      <Link to="/admin/dashboard" className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
        ← Dashboard
      </Link>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Low stock</h1>
      {paging && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="stock-count" role="status">
          {sizesCount(paging)}
          {matching}
          {category && ` in ${category}`} with {LOW_STOCK} units or fewer, the emptiest first. Open a product to restock it.
        </p>
      )}
      <CategoryFilter active={category} q={q} counts={counts} />
      <ListSearch
        action="/admin/stock"
        id="stock-q"
        label="Search low-stock sizes"
        placeholder="Product name or brand"
        q={q}
        keep={category ? { category } : {}}
        clearTo={stockHref(category, "")}
      />
      <IgnoredFilters dropped={dropped} />

      {error ? (
        <div className="mt-6">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : sizes.length === 0 ? (
        <EmptyList paging={paging} noun="sizes" search={listSearch}>
          {q ? `No ${category ? `${category} ` : ""}size with ${LOW_STOCK} units or fewer matches “${q}”.` : `Every ${category ? `${category} ` : ""}size has more than ${LOW_STOCK} units.`}
        </EmptyList>
      ) : (
        <RecordTable caption={`${what}${matching} with ${LOW_STOCK} units or fewer, the emptiest first`} headings={["Product", "Brand", "Category", "Size", "Stock"]} testId="stock-table">
          {sizes.map((size) => (
            <tr key={size.sizeId} role="row" data-testid="stock-row" data-size-id={size.sizeId}>
              <th role="rowheader" scope="row">
                {/* To the product's update form at this size, coming back here once saved (as the dashboard's rows do). */}
                <Link to={restockHref(size.productId, size.sizeId, location)} className="inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  {size.productName}
                </Link>
                {!size.productAvailable && <OffSaleBadge />}
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
      {paging && <ListPagination paging={paging} search={listSearch} />}
      <SavedToast moves={savedMoves} />
    </div>
  );
}

export function meta() {
  return [{ title: "Low stock | Stride admin" }, { name: "robots", content: "noindex" }];
}
