import { formatDateTime } from "~/lib/format";

/** An e-mail about an order, as the outbox will list it (issue 16 item 1). */
export interface OrderEmail {
  id: number | string;
  subject: string;
  recipient: string;
  /** The outbox row's state, in its own words (e.g. sent, pending, failed). */
  state: string;
  /** When it was sent, or last tried: ISO 8601. */
  at: string;
  /** Why it failed, when it did. */
  error?: string | null;
}

/**
 * "E-mails sent" on the admin's order page. OUTBOX MERGE: the page passes an empty list until the outbox branch lands;
 * then its loader passes the order's outbox rows (app/routes/admin/order.tsx, look for "OUTBOX MERGE").
 */
export function OrderEmails({ emails }: { emails: OrderEmail[] }) {
  return (
    <section className="card p-5" aria-labelledby="order-emails-heading" data-testid="order-emails">
      <h2 id="order-emails-heading" className="font-semibold">
        E-mails sent
      </h2>
      {emails.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No e-mails recorded for this order.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {emails.map((email) => (
            <li key={email.id} className="py-2">
              <p className="font-medium">{email.subject}</p>
              <p className="text-slate-600 dark:text-slate-400">
                To {email.recipient} · {email.state} · <time dateTime={email.at}>{formatDateTime(email.at)}</time>
              </p>
              {email.error && <p className="text-red-700 dark:text-red-300">{email.error}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
