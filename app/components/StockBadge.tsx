/**
 * A low-stock size's pairs left, as /admin/stock shows it: "Sold out" in red, "2 left" in amber. `label` words it for
 * more than one size (the dashboard's products: "1 size sold out"), in the tone of `stock`.
 */
export function StockBadge({ stock, label }: { stock: number; label?: string }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap tabular-nums ${
        stock === 0 ? "bg-red-100 text-red-800 dark:bg-red-400/15 dark:text-red-200" : "bg-amber-100 text-amber-900 dark:bg-amber-400/15 dark:text-amber-200"
      }`}
    >
      {label ?? (stock === 0 ? "Sold out" : `${stock} left`)}
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
