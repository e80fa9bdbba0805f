import type { MailState } from "~/lib/constants";

const STATE_STYLES: Record<MailState, string> = {
  queued: "bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-400/15 dark:text-amber-200 dark:ring-amber-400/40",
  sent: "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-400/15 dark:text-emerald-200 dark:ring-emerald-400/40",
  kept: "bg-sky-100 text-sky-900 ring-sky-300 dark:bg-sky-400/15 dark:text-sky-200 dark:ring-sky-400/40",
  failed: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-400/15 dark:text-red-200 dark:ring-red-400/40",
};

/** Where an outbox mail stands (queued, sent, kept locally, failed), on /admin/outbox and an order's page. */
export function MailStateBadge({ state }: { state: MailState }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ring-1 ring-inset ${STATE_STYLES[state]}`} data-testid="mail-state">
      {state}
    </span>
  );
}
