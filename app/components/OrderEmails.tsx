import { Link } from "react-router";

import { MailStateBadge } from "~/components/MailStateBadge";
import type { MailState } from "~/lib/constants";
import { formatDateTime } from "~/lib/format";

/** A mail written about an order: one row of the outbox (app/services/outbox.server.ts, listOrderMails). */
export interface OrderEmail {
  id: number;
  subject: string;
  to: string;
  state: MailState;
  /** When the mail was written, and when it was sent (or kept, locally): ISO 8601. */
  createdAt: string;
  sentAt: string | null;
  attempts: number;
  lastError: string | null;
}

/** "E-mails sent" on the admin's order page: the confirmation and each status mail, newest first, with where each stands. */
export function OrderEmails({ emails }: { emails: OrderEmail[] }) {
  return (
    <section className="card p-5" aria-labelledby="order-emails-heading" data-testid="order-emails">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="order-emails-heading" className="font-semibold">
          E-mails sent
        </h2>
        <Link to="/admin/outbox" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
          Outbox
        </Link>
      </div>
      {emails.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No e-mails recorded for this order.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {emails.map((email) => {
            const at = email.sentAt ?? email.createdAt;
            return (
              <li key={email.id} className="py-3" data-testid="order-email">
                <div className="flex flex-wrap items-center gap-2">
                  <MailStateBadge state={email.state} />
                  <p className="min-w-0 flex-1 basis-48 font-medium break-words">{email.subject}</p>
                </div>
                <p className="mt-1 text-slate-600 dark:text-slate-400">
                  <span className="break-all">To {email.to}</span> ·{" "}
                  <span className="whitespace-nowrap">
                    {email.sentAt ? (email.state === "kept" ? "kept " : "sent ") : "written "}
                    <time dateTime={at}>{formatDateTime(at)}</time>
                  </span>
                  {email.attempts > 1 && ` · ${email.attempts} tries`}
                </p>
                {email.lastError && <p className="mt-1 break-words text-red-700 dark:text-red-300">{email.lastError}</p>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
