import { useEffect, useRef } from "react";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { formIdField, z } from "~/lib/zod";

import { FormAlert } from "~/components/Field";
import { RenderedFor } from "~/components/RenderedFor";
import { MailStateBadge } from "~/components/MailStateBadge";
import { Pagination } from "~/components/Pagination";
import { filterPillClass } from "~/lib/filter-pill";
import { MAIL_STATES, type MailKind, type MailState } from "~/lib/constants";
import { formatDateTime } from "~/lib/format";
import { answerOr, submitted } from "~/lib/client-action";
import { readFormData } from "~/lib/forms";
import { RenderedForRefusal } from "~/lib/http";
import { listOutbox, retryAllFailedMail, retryFailedMail, retryRefusal, type OutboxEntry, type RetryAllResult } from "~/services/outbox.server";
import { requireAdmin, requireFormAdmin } from "~/services/session.server";
import type { Route } from "./+types/outbox";

// Every e-mail the shop has written, newest first: what it says, to whom, and where it stands. In local mode
// (MAIL_MODE=keep) this is where mail ends up instead of an inbox; in production it is where a failed mail shows,
// and where an admin sends it again (one, or every failed mail at once) once the cause is gone (a daily quota, say).

const FILTERS = ["all", ...MAIL_STATES] as const;
const MAX_PAGE = 100_000;
const PREVIEW_CHARS = 240;

const KIND_LABELS: Record<MailKind, string> = {
  ORDER_PLACED: "Order confirmation",
  ORDER_STATUS: "Order status",
  PASSWORD_RESET: "Password reset",
  ACCOUNT_CHANGED: "Account change notice",
};

/** A page number from the URL: anything but 1 to MAX_PAGE is the first page. */
function readPage(value: string | null): number {
  const page = value && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return page >= 1 && page <= MAX_PAGE ? page : 1;
}

function readState(value: string | null): MailState | null {
  return MAIL_STATES.includes(value as MailState) ? (value as MailState) : null;
}

/**
 * A listed mail, with whether it may be sent again and, for a failed one that may not, why (decided on the server:
 * retryRefusal lives in a .server module). The action checks again when the button is pressed.
 */
type ListedMail = OutboxEntry & { retryable: boolean; noRetry: string | null };

function listed(entry: OutboxEntry): ListedMail {
  const noRetry = entry.state === "failed" ? retryRefusal(entry) : null;
  return { ...entry, retryable: entry.state === "failed" && noRetry === null, noRetry };
}

const mails = (n: number) => `${n} failed ${n === 1 ? "mail" : "mails"}`;

/** The answer to "Send all failed mail again": what it queued, and what it skipped as no longer true. */
function retryAllMessage({ queued, skipped }: RetryAllResult): string {
  if (queued === 0 && skipped === 0) return "No failed mail to send again.";
  const sent = queued === 0 ? "No failed mail is queued again." : `${mails(queued)} ${queued === 1 ? "is" : "are"} queued again.`;
  if (skipped === 0) return sent;
  return `${sent} ${mails(skipped)} skipped: no longer true of ${skipped === 1 ? "its order" : "their orders"} (each card says why).`;
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  await requireAdmin(request, context, url);
  const page = readPage(url.searchParams.get("page"));
  const state = readState(url.searchParams.get("state"));
  const mode = context.cloudflare.env.MAIL_MODE === "send" ? ("send" as const) : ("keep" as const);
  try {
    const { entries, hasMore } = await listOutbox(context.db, { state, page, showResetLinks: mode === "keep" });
    return { entries: entries.map(listed), hasMore, page, state, mode, error: null };
  } catch (error) {
    console.error("Admin outbox: reading the outbox failed", error);
    return { entries: [] as ListedMail[], hasMore: false, page, state, mode, error: "Failed to load the outbox" };
  }
}

const RETRY_FAILED = "Failed to send the mail again";
const mailId = formIdField("Mail not found");
const retryFormSchema = z.discriminatedUnion("intent", [z.object({ intent: z.literal("retry"), id: mailId }), z.object({ intent: z.literal("retry-all") })], {
  error: "Unknown action",
});

export const clientAction = async ({ request, serverAction }: Route.ClientActionArgs) => {
  const form = await submitted(request);
  const failed = { kind: "error" as const, id: Number(form.get("id")) || null, message: RETRY_FAILED };
  return answerOr(serverAction, () => failed);
};

/**
 * Sends a failed mail (intent=retry, id) or every failed mail (intent=retry-all) again. Admins only; a form from
 * another site never gets here (workers/app.ts refuses a cross-origin write), and the session cookie is SameSite=Lax.
 * The page's loader runs again after it, so the mail's card shows its new state.
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const form = await readFormData(request);
  try {
    await requireFormAdmin(request, context, url, form);
  } catch (error) {
    if (error instanceof RenderedForRefusal) return data({ kind: "error" as const, id: null, message: error.message }, { status: error.status });
    throw error;
  }
  const parsed = retryFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return data({ kind: "error" as const, id: null, message: `${RETRY_FAILED}: ${parsed.error.issues[0]?.message ?? "invalid input"}` }, { status: 400 });
  }
  const queue = context.cloudflare.env.MAIL_QUEUE;
  try {
    if (parsed.data.intent === "retry-all") {
      const message = retryAllMessage(await retryAllFailedMail(context.db, queue));
      return data({ kind: "retried" as const, id: null, message });
    }
    const { id } = parsed.data;
    const result = await retryFailedMail(context.db, queue, id);
    if (!result.ok) return data({ kind: "error" as const, id, message: `${RETRY_FAILED}: ${result.message}` }, { status: result.status });
    return data({ kind: "retried" as const, id, message: `Mail #${id} is queued again.` });
  } catch (error) {
    console.error("Admin outbox: sending failed mail again failed", error);
    return data({ kind: "error" as const, id: null, message: RETRY_FAILED }, { status: 500 });
  }
}

function StateFilter({ active }: { active: MailState | null }) {
  return (
    <nav aria-label="Filter mails by state" className="mt-6">
      <ul className="flex flex-wrap gap-2">
        {FILTERS.map((filter) => {
          const current = filter === "all" ? active === null : active === filter;
          return (
            <li key={filter}>
              <Link
                to={filter === "all" ? "/admin/outbox" : `/admin/outbox?state=${filter}`}
                aria-current={current ? "page" : undefined}
                className={filterPillClass(current, "capitalize")}
              >
                {filter}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS).trimEnd()}…` : flat;
}

const dash = <span className="text-slate-400 dark:text-slate-500">—</span>;

/** The one-button form that sends a failed mail again: a plain POST, so it works without JavaScript. */
function RetryForm({ mail, busy }: { mail: ListedMail; busy: boolean }) {
  if (mail.state !== "failed") return null;
  if (!mail.retryable) {
    return (
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-400" data-testid="mail-no-retry">
        {`Not sent again: ${mail.noRetry}.`}
      </p>
    );
  }
  return (
    <Form method="post" className="mt-3">
      <input type="hidden" name="intent" value="retry" />
      <input type="hidden" name="id" value={mail.id} />
      <RenderedFor />
      <button type="submit" className="btn-secondary w-full sm:w-auto" disabled={busy} data-testid="mail-retry">
        {busy ? "Queueing..." : "Send again"}
        <span className="sr-only"> mail {mail.id}</span>
      </button>
    </Form>
  );
}

function MailCard({ mail, busy }: { mail: ListedMail; busy: boolean }) {
  const headingId = `mail-${mail.id}-subject`;
  return (
    <li className="card overflow-hidden" data-testid="outbox-mail" data-mail-id={mail.id} data-state={mail.state} aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 bg-slate-50 px-4 py-3 dark:border-slate-800 dark:bg-slate-900/60 sm:px-5">
        <MailStateBadge state={mail.state} />
        <h2 id={headingId} className="min-w-0 flex-1 basis-60 font-semibold break-words" data-testid="mail-subject">
          {mail.subject}
        </h2>
        <span className="text-xs font-medium uppercase tracking-wider text-slate-500 dark:text-slate-400">{KIND_LABELS[mail.kind]}</span>
      </div>
      <div className="grid gap-4 p-4 sm:p-5 md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] md:gap-6">
        <div className="min-w-0">
          <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500 dark:text-slate-400">To</dt>
            <dd className="break-all" data-testid="mail-to">
              {mail.to}
            </dd>
            {mail.orderId !== null && (
              <>
                <dt className="text-slate-500 dark:text-slate-400">Order</dt>
                <dd>
                  {/* 44 px tall and wide to a finger, yet a line of the list (the negative margins). */}
                  <Link
                    to={`/admin/orders/${mail.orderId}`}
                    className="-my-3 -ml-2 inline-flex min-h-11 min-w-11 items-center px-2 font-medium text-brand-700 hover:underline dark:text-brand-300"
                    aria-label={`Order #${mail.orderId}`}
                  >
                    #{mail.orderId}
                  </Link>
                </dd>
              </>
            )}
            <dt className="text-slate-500 dark:text-slate-400">Written</dt>
            <dd>
              <time dateTime={mail.createdAt}>{formatDateTime(mail.createdAt)}</time>
            </dd>
            <dt className="text-slate-500 dark:text-slate-400">{mail.state === "kept" ? "Kept" : "Sent"}</dt>
            <dd>{mail.sentAt ? <time dateTime={mail.sentAt}>{formatDateTime(mail.sentAt)}</time> : dash}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Tries</dt>
            <dd className="tabular-nums" data-testid="mail-attempts">
              {mail.attempts}
            </dd>
            {mail.lastError && (
              <>
                <dt className="text-slate-500 dark:text-slate-400">Last error</dt>
                <dd className="break-words text-red-700 dark:text-red-300" data-testid="mail-error">
                  {mail.lastError}
                </dd>
              </>
            )}
          </dl>
          <RetryForm mail={mail} busy={busy} />
        </div>
        <div className="min-w-0 text-sm">
          <p className="text-slate-700 dark:text-slate-300" data-testid="mail-preview">
            {preview(mail.text)}
          </p>
          <details className="mt-2">
            <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-700 hover:underline dark:text-brand-300">
              Full text<span className="sr-only"> of mail {mail.id}</span>
            </summary>
            <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-lg bg-slate-100 p-3 font-mono text-xs text-slate-800 dark:bg-slate-950 dark:text-slate-200" data-testid="mail-text">
              {mail.text}
            </pre>
          </details>
        </div>
      </div>
    </li>
  );
}

export default function AdminOutboxPage() {
  const { entries, hasMore, page, state, mode, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  // The button pressed is gone (its mail is queued now) or was disabled meanwhile: the focus goes to the answer.
  const answer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) answer.current?.focus();
  }, [result]);
  const navigation = useNavigation();
  const posting = navigation.state === "submitting" ? navigation.formData : undefined;
  const retryingAll = posting?.get("intent") === "retry-all";
  const retryingId = posting?.get("intent") === "retry" ? Number(posting.get("id")) : null;
  const search = new URLSearchParams(state ? { state } : {});
  return (
    <div className="back-office-page">
      <Link to="/admin/dashboard" className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
        ← Dashboard
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Outbox</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="mail-mode">
          {mode === "send" ? "Mail is sent through Cloudflare Email Service." : "Local mode: mail is kept here, never sent."}
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Every e-mail the shop has written, newest first{page > 1 ? `; page ${page}` : ""}.</p>
      <StateFilter active={state} />
      {entries.some((mail) => mail.retryable) && (
        // Every failed mail still true, not only this page's (see retryRefusal); the answer counts those it skipped.
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="retry-all" />
          <RenderedFor />
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={retryingAll} data-testid="retry-all">
            {retryingAll ? "Queueing..." : "Send all failed mail again"}
          </button>
        </Form>
      )}
      {result && (
        <div ref={answer} tabIndex={-1} className="mt-4 outline-none" data-testid="retry-result">
          <FormAlert tone={result.kind === "retried" ? "success" : "error"}>{result.message}</FormAlert>
        </div>
      )}

      {error ? (
        <div className="mt-6">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : entries.length === 0 ? (
        <p className="mt-6 rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          {page > 1 ? "No more mails." : state ? `No ${state} mails.` : "No mails yet."}
        </p>
      ) : (
        <ul className="mt-6 space-y-4" aria-label="Mails, newest first">
          {entries.map((mail) => (
            <MailCard key={mail.id} mail={mail} busy={retryingAll || retryingId === mail.id} />
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={null} hasMore={hasMore} search={search} />
    </div>
  );
}

export function meta() {
  return [{ title: "Outbox | Stride admin" }, { name: "robots", content: "noindex" }];
}

/**
 * Every error goes on to the app's (root.tsx), as it would without this; but with a boundary of its own the route's
 * failed action leaves the root's loader to run, so the app's error page, the refusal of a form posted without
 * JavaScript after another account logged in (adminFormRefusal) among them, has the shopper's theme and bar.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps): never {
  throw error;
}
