/** The look of a status filter link on the admin lists (orders, outbox): the current one filled, the others outlined. */
export function filterPillClass(current: boolean, extra = ""): string {
  return `inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold transition-colors ${extra} ${
    current
      ? "bg-brand-600 text-white dark:bg-brand-400 dark:text-slate-950"
      : "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
  }`;
}
