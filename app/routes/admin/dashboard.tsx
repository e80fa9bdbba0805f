import type { ReactNode } from "react";
import { Link, useLoaderData, useLocation } from "react-router";

import { FormAlert } from "~/components/Field";
import { OffSaleBadge, StockBadge } from "~/components/StockBadge";
import { SavedToast } from "~/components/SavedToast";
import { formatLkr } from "~/lib/format";
import { restockHref, SAVED_PARAM } from "~/lib/restock";
import { savedStockMoves } from "~/lib/stock-moves.server";
import { LOW_STOCK, ONE_SIZE } from "~/lib/sizes";
import type { Stats } from "~/lib/schemas/stats";
import { requireAdmin } from "~/services/session.server";
import { getLowStockProducts, getStats, type LowStockProduct } from "~/services/stats.server";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context, url);
  // Come back from a product form opened here: the sizes its save put at another stock than typed, for the toast.
  const savedMoves = await savedStockMoves(url, Number(url.searchParams.get(SAVED_PARAM)), context.cloudflare.env.JWT_SECRET);
  try {
    // The dozen emptiest: enough to act on, and the dashboard stays a dashboard.
    const [stats, lowStock] = await Promise.all([getStats(context.db), getLowStockProducts(context.db, 12)]);
    return { adminName: admin.name, stats: stats as Stats | null, lowStock, savedMoves, error: null };
  } catch (error) {
    console.error("Dashboard: reading the stats failed", error);
    return { adminName: admin.name, stats: null, lowStock: null, savedMoves, error: "Failed to load statistics" };
  }
}

/**
 * `money`: the figure's size follows the tile's own width (a container query), not the screen's: "LKR 99,999,999.99"
 * takes 307 px at text-3xl, more than a quarter of a laptop's row, and spilled out of its tile.
 */
function StatTile({ label, value, testId, hint, money = false, className = "" }: { label: string; value: ReactNode; testId: string; hint?: ReactNode; money?: boolean; className?: string }) {
  return (
    <div className={`card @container p-3 sm:p-5 ${className}`}>
      <dt className="text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">{label}</dt>
      <dd data-testid={testId} className={`mt-2 text-2xl font-bold tracking-tight whitespace-nowrap tabular-nums ${money ? "@[20rem]:text-3xl" : "sm:text-3xl"}`}>
        {value}
      </dd>
      {/* A second <dd>: a <dl> holds only dt/dd groups (a <p> here breaks the list for screen readers). */}
      {hint && <dd className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</dd>}
    </div>
  );
}

function ActionCard({ to, title, text, icon, badge }: { to: string; title: string; text: string; icon: ReactNode; badge?: ReactNode }) {
  return (
    <Link
      to={to}
      className="card group flex min-h-11 items-start gap-4 p-5 transition hover:border-brand-500 hover:shadow-md focus-visible:border-brand-500 dark:hover:border-brand-400"
    >
      <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-300" aria-hidden="true">
        {icon}
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap items-center gap-2">
          <span className="text-lg font-semibold group-hover:underline">{title}</span>
          {badge}
        </span>
        <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{text}</span>
      </span>
      <span aria-hidden="true" className="self-center text-xl text-slate-400 transition group-hover:translate-x-0.5 group-hover:text-brand-600 dark:group-hover:text-brand-300">
        →
      </span>
    </Link>
  );
}

const svg = (path: ReactNode) => (
  <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    {path}
  </svg>
);

export default function AdminDashboardPage() {
  const { adminName, stats, lowStock, savedMoves, error } = useLoaderData<typeof loader>();
  const pending = stats?.pendingOrders ?? 0;
  return (
    <div className="back-office-page">
      <p className="text-sm font-medium text-brand-700 dark:text-brand-300">Admin</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">Dashboard</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Welcome back, {adminName}. Here is how the shop is doing.</p>

      <section aria-labelledby="stats-heading" className="mt-8">
        <h2 id="stats-heading" className="sr-only">
          Quick stats
        </h2>
        {error ? (
          <FormAlert>{error}</FormAlert>
        ) : (
          stats && (
            // Phones, tablets and small laptops: the revenue across the top, the three counts under it; from xl four in a
            // row, the revenue's twice as wide (room for LKR 99,999,999.99 at the large size).
            <dl className="grid grid-cols-3 gap-3 sm:gap-4 xl:grid-cols-[repeat(3,minmax(0,1fr))_minmax(0,2fr)]">
              <StatTile label="Total products" value={stats.totalProducts.toLocaleString("en-US")} testId="stat-total-products" />
              <StatTile label="Total users" value={stats.totalUsers.toLocaleString("en-US")} testId="stat-total-users" />
              <StatTile
                label="Pending orders"
                value={stats.pendingOrders.toLocaleString("en-US")}
                testId="stat-pending-orders"
                hint={
                  // Straight to the orders whose slips wait (the Orders card below opens all of them, as SPEC has it).
                  stats.pendingOrders > 0 ? (
                    // 44 px tall to a finger, in the tile's small print.
                    <Link to="/admin/orders?status=PENDING" className="-my-3 inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline dark:text-brand-300" data-testid="pending-link">
                      Check their slips<span aria-hidden="true">&nbsp;→</span>
                    </Link>
                  ) : (
                    "Awaiting slip check"
                  )
                }
              />
              <StatTile label="Total revenue" value={formatLkr(stats.totalRevenue)} testId="stat-total-revenue" hint="Verified payments" money className="order-first col-span-3 xl:order-none xl:col-span-1" />
            </dl>
          )
        )}
      </section>

      <section aria-labelledby="manage-heading" className="mt-10">
        <h2 id="manage-heading" className="text-lg font-semibold">
          Manage the shop
        </h2>
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          <ActionCard
            to="/admin/orders"
            title="Orders"
            text="Check bank slips and move orders along."
            icon={svg(
              <>
                <path d="M6 3h12l1 4H5l1-4Z" />
                <path d="M5 7v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7" />
                <path d="M9 11h6M9 15h4" />
              </>,
            )}
            badge={
              stats && (
                <span
                  data-testid="pending-badge"
                  className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${
                    pending > 0
                      ? "bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-400/15 dark:text-amber-200 dark:ring-amber-400/40"
                      : "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700"
                  }`}
                >
                  {pending} pending
                </span>
              )
            }
          />
          <ActionCard
            to="/admin/users"
            title="Users"
            text="Everyone with an account, and their role."
            icon={svg(
              <>
                <circle cx="9" cy="8" r="3.5" />
                <path d="M2.5 20a6.5 6.5 0 0 1 13 0" />
                <path d="M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6.5 6.5 0 0 1 3.5 6" />
              </>,
            )}
          />
          <ActionCard
            to="/add_product"
            title="Add Product"
            text="Put a new pair or accessory on the shop."
            icon={svg(
              <>
                <rect x="3.5" y="3.5" width="17" height="17" rx="3" />
                <path d="M12 8v8M8 12h8" />
              </>,
            )}
          />
          <ActionCard
            to="/admin/outbox"
            title="Outbox"
            text="Every e-mail to customers, and whether it went."
            icon={svg(
              <>
                <rect x="3" y="5" width="18" height="14" rx="2" />
                <path d="m3.5 6.5 8.5 6.5 8.5-6.5" />
              </>,
            )}
          />
        </div>
      </section>
      {lowStock && <LowStock products={lowStock.products} total={lowStock.total} />}
      <SavedToast moves={savedMoves} />
    </div>
  );
}

/** "Sold out: EU 39, EU 40 · EU 45: 2 left": a product's low sizes in a line (none for a one-size product). */
function lowSizesLine(sizes: LowStockProduct["sizes"]): string {
  if (sizes.length === 1 && sizes[0].sizeLabel === ONE_SIZE) return "";
  const soldOut = sizes.filter((size) => size.stockQuantity === 0).map((size) => size.sizeLabel);
  const few = sizes.filter((size) => size.stockQuantity > 0).map((size) => `${size.sizeLabel}: ${size.stockQuantity} left`);
  return [soldOut.length ? `Sold out: ${soldOut.join(", ")}` : "", ...few].filter(Boolean).join(" · ");
}

const sizes = (n: number) => `${n} ${n === 1 ? "size" : "sizes"}`;

/**
 * A product's badge, true of the whole product: "Sold out" only when every size is (its stock is 0), else how many of
 * its sizes are sold out ("1 size sold out", red) or low ("2 sizes low", amber); a one-size product's pairs left.
 */
function ProductStockBadge({ product }: { product: LowStockProduct }) {
  const [emptiest] = product.sizes;
  const oneSize = product.sizes.length === 1 && emptiest.sizeLabel === ONE_SIZE;
  if (oneSize || product.productStock === 0) return <StockBadge stock={product.productStock === 0 ? 0 : emptiest.stockQuantity} />;
  const soldOut = product.sizes.filter((size) => size.stockQuantity === 0).length;
  return <StockBadge stock={emptiest.stockQuantity} label={soldOut ? `${sizes(soldOut)} sold out` : `${sizes(product.sizes.length)} low`} />;
}

/** Products running out, one line each with its low sizes, linking to its form at the emptiest to restock it. */
function LowStock({ products, total }: { products: LowStockProduct[]; total: number }) {
  const location = useLocation();
  return (
    <section aria-labelledby="low-stock-heading" className="mt-10">
      <h2 id="low-stock-heading" className="text-lg font-semibold">
        Low stock
      </h2>
      <div className="mt-1 flex flex-wrap items-baseline justify-between gap-x-4">
        <p className="text-sm text-slate-600 dark:text-slate-400">Products with sizes of {LOW_STOCK} units or fewer, the emptiest first.</p>
        {total > 0 && (
          // Every size, a page at a time and by category: the dashboard shows only the emptiest products.
          <Link to="/admin/stock" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300" data-testid="low-stock-all">
            See all {total.toLocaleString("en-US")}
            <span className="sr-only"> low-stock sizes</span>
            <span aria-hidden="true">&nbsp;→</span>
          </Link>
        )}
      </div>
      {products.length ? (
        <ul className="card mt-4 divide-y divide-slate-200 dark:divide-slate-800" data-testid="low-stock">
          {products.map((product) => {
            const [emptiest] = product.sizes;
            const line = lowSizesLine(product.sizes);
            return (
              <li key={product.productId} data-testid="low-stock-product">
                <Link to={restockHref(product.productId, emptiest.sizeId, location)} className="flex min-h-11 items-center justify-between gap-4 px-4 py-2 hover:bg-slate-50 dark:hover:bg-slate-800/60">
                  <span className="min-w-0">
                    <span className="font-medium">{product.productName}</span>
                    {!product.productAvailable && <OffSaleBadge />}
                    {line && <span className="block text-sm text-slate-600 dark:text-slate-400">{line}</span>}
                  </span>
                  <ProductStockBadge product={product} />
                </Link>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="card mt-4 p-4 text-sm">Every size has more than {LOW_STOCK} units.</p>
      )}
    </section>
  );
}

export function meta() {
  return [{ title: "Dashboard | Stride admin" }, { name: "robots", content: "noindex" }];
}
