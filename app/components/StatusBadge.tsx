import type { OrderStatus } from "~/lib/constants";

// SPEC's colours: PENDING warning, CONFIRMED info, PROCESSING primary, SHIPPED and DELIVERED success, CANCELLED danger.
const STYLES: Record<OrderStatus, string> = {
  PENDING: "bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-400/15 dark:text-amber-200 dark:ring-amber-400/40",
  CONFIRMED: "bg-sky-100 text-sky-900 ring-sky-300 dark:bg-sky-400/15 dark:text-sky-200 dark:ring-sky-400/40",
  PROCESSING: "bg-blue-100 text-blue-900 ring-blue-300 dark:bg-blue-400/15 dark:text-blue-200 dark:ring-blue-400/40",
  SHIPPED: "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-400/15 dark:text-emerald-200 dark:ring-emerald-400/40",
  DELIVERED: "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-400/15 dark:text-emerald-200 dark:ring-emerald-400/40",
  CANCELLED: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-400/15 dark:text-red-200 dark:ring-red-400/40",
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${STYLES[status]}`}>{status}</span>;
}
