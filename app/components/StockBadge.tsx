/** A low-stock size's pairs left, as the dashboard and /admin/stock show it: "Sold out" in red, "2 left" in amber. */
export function StockBadge({ stock }: { stock: number }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap tabular-nums ${
        stock === 0 ? "bg-red-100 text-red-800 dark:bg-red-400/15 dark:text-red-200" : "bg-amber-100 text-amber-900 dark:bg-amber-400/15 dark:text-amber-200"
      }`}
    >
      {stock === 0 ? "Sold out" : `${stock} left`}
    </span>
  );
}

/** Beside a low-stock size of a product taken off sale: restocking it does not put it back on sale. */
export function OffSaleBadge() {
  return (
    <span className="ml-2 inline-flex shrink-0 items-center rounded-full bg-slate-200 px-2 py-0.5 align-middle text-xs font-semibold whitespace-nowrap text-slate-800 dark:bg-slate-700 dark:text-slate-100" data-testid="off-sale">
      Off sale
    </span>
  );
}
