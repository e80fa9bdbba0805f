import { and, count, desc, eq, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";

import type { MailKind, MailState, OrderStatus } from "~/lib/constants";
import { redactResetToken, type BankDetails, type RenderedMail } from "~/lib/emails.server";
import { createDb, type Db, schema } from "./db.server";

// The transactional outbox. A change that tells a customer something writes its mail into email_outbox in the same
// D1 batch as the change (orders.server.ts, password-reset.server.ts, auth.server.ts's profile save); once that batch
// has committed, the request puts the row ids on the mail queue. The queue consumer (workers/app.ts ->
// processMailBatch) claims each row, sends it through Cloudflare Email Service (the EMAIL send_email binding) or, with
// MAIL_MODE other than "send", keeps it, and records the outcome on the row. A row whose id never reached the queue is
// put on it again by the sweep.

const { emailOutbox, orders } = schema;

/** A row is tried this many times; after the last failure it is `failed`, with the reason, for an admin to see. */
export const MAIL_MAX_ATTEMPTS = 5;
/** How long a queued row may wait for its queue message before the sweep sends its id again. */
export const SWEEP_GRACE_MS = 5 * 60 * 1000;
/** How long a consumer holds a row while sending it; a consumer that dies frees it after this. */
export const SEND_LEASE_MS = 2 * 60 * 1000;
/**
 * Most ids one sweep puts on the queue (one sendBatch holds at most 100 messages). The sweep's statement binds a fixed
 * handful of values whatever this is (the ids never go into SQL as a list): D1 allows 100 bound parameters a statement.
 */
export const SWEEP_LIMIT = 100;
/** One Queue.sendBatch holds at most 100 messages. */
const QUEUE_BATCH_LIMIT = 100;
const ERROR_MAX_LENGTH = 500;

/** The delay before try n+1 after n failed tries: 30 s, 60 s, 120 s, 240 s, ... at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600);
}

/** The body of a queue message: the outbox row to deliver. */
export interface MailMessage {
  id: number;
}

function isMailMessage(body: unknown): body is MailMessage {
  const id = (body as MailMessage | null)?.id;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0;
}

/** What a change needs to write and announce its mails: where links point, the bank account, and the queue. */
export interface Mailer {
  /** The shop's origin for links, without a trailing slash. */
  siteUrl: string;
  bank: BankDetails;
  /** After the batch that wrote them has committed: puts the rows' ids on the queue (in the background). */
  enqueue(ids: number[]): void;
}

/** SITE_URL when it is set (production), else the origin the request came to (local runs, tests). */
export function siteUrlFor(request: Request, env: Pick<Env, "SITE_URL">): string {
  const configured = env.SITE_URL?.trim().replace(/\/+$/, "");
  return configured || new URL(request.url).origin;
}

/** The account shoppers pay into (wrangler.jsonc's BANK_* vars): for the mails, the checkout and the footer. */
export function bankDetails(env: Pick<Env, "BANK_NAME" | "BANK_BRANCH" | "BANK_ACCOUNT_NAME" | "BANK_ACCOUNT_NUMBER">): BankDetails {
  return { name: env.BANK_NAME, branch: env.BANK_BRANCH, accountName: env.BANK_ACCOUNT_NAME, accountNumber: env.BANK_ACCOUNT_NUMBER };
}

/** The shop's delivery terms (DELIVERY_NOTE), or null when empty: the cart, the checkout and the footer say nothing then. */
export const deliveryNoteOf = (env: Pick<Env, "DELIVERY_NOTE">): string | null => env.DELIVERY_NOTE?.trim() || null;

export function mailerFor(request: Request, context: AppLoadContext): Mailer {
  const { env, ctx } = context.cloudflare;
  return {
    siteUrl: siteUrlFor(request, env),
    bank: bankDetails(env),
    enqueue(ids) {
      // A send that fails here loses nothing: the row stays queued and the sweep sends its id again.
      if (ids.length) ctx.waitUntil(enqueueMail(env.MAIL_QUEUE, ids).catch((error) => console.error(`Outbox: queueing mails ${ids.join(", ")} failed`, error)));
    },
  };
}

export async function enqueueMail(queue: Queue, ids: number[]): Promise<void> {
  // In slices: a sendBatch of more than 100 messages is refused whole.
  for (let start = 0; start < ids.length; start += QUEUE_BATCH_LIMIT) {
    const slice = ids.slice(start, start + QUEUE_BATCH_LIMIT);
    await queue.sendBatch(slice.map((id) => ({ body: { id } satisfies MailMessage, contentType: "json" as const })));
  }
}

export interface NewMail extends RenderedMail {
  kind: MailKind;
  to: string;
  orderId?: number | null;
  userId?: number | null;
  /** The status an ORDER_STATUS mail announces: it is sent again only while its order has it (retryRefusal). */
  orderStatus?: OrderStatus | null;
}

/** When the sweep may first pick up a new row: the queue message written after its batch normally sends it before. */
export const firstAttemptAt = (now = Date.now()) => now + SWEEP_GRACE_MS;

/**
 * The columns of a new outbox row (for an insert inside the change's own batch). A status mail writes its row by hand
 * (changeOrderStatus: its address comes from the account in SQL): a column added here must be added there too.
 */
export function outboxValues(mail: NewMail, now = Date.now()): typeof emailOutbox.$inferInsert {
  return {
    kind: mail.kind,
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
    orderId: mail.orderId ?? null,
    userId: mail.userId ?? null,
    orderStatus: mail.orderStatus ?? null,
    nextAttemptAt: firstAttemptAt(now),
  };
}

/** The row as it is after a send or its last failure: a reset mail's link no longer works from the outbox. */
function afterDelivery(row: typeof emailOutbox.$inferSelect) {
  return row.kind === "PASSWORD_RESET" ? { textBody: redactResetToken(row.textBody), htmlBody: redactResetToken(row.htmlBody) } : {};
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name === "Error" ? "" : `${error.name}: `}${error.message}` : String(error);
  return (text || "Unknown error").slice(0, ERROR_MAX_LENGTH);
}

export type MailEnv = Pick<Env, "DB" | "EMAIL" | "MAIL_QUEUE" | "MAIL_MODE" | "MAIL_FROM">;

/** The outcome of one message, for logs and tests. */
export type DeliveryOutcome = "sent" | "kept" | "retry" | "failed" | "skipped";

/**
 * Delivers one outbox row. The claim (one UPDATE) takes a queued row that no other consumer holds and counts the try,
 * so a second message for the same id (the sweep's, or the queue's at-least-once delivery) finds nothing to do.
 */
export async function deliver(db: Db, env: MailEnv, id: number, now = Date.now()): Promise<{ outcome: DeliveryOutcome; retryDelaySeconds?: number }> {
  const [row] = await db
    .update(emailOutbox)
    .set({ attempts: sql`${emailOutbox.attempts} + 1`, lockedUntil: now + SEND_LEASE_MS, nextAttemptAt: now + SEND_LEASE_MS })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.state, "queued"), or(isNull(emailOutbox.lockedUntil), lte(emailOutbox.lockedUntil, now))))
    .returning();
  if (!row) return { outcome: "skipped" };

  if (env.MAIL_MODE !== "send") {
    // Local mode: nothing leaves the machine; the mail is read on /admin/outbox.
    await db.update(emailOutbox).set({ state: "kept", sentAt: now, lockedUntil: null, lastError: null }).where(eq(emailOutbox.id, id));
    return { outcome: "kept" };
  }
  try {
    const result = await env.EMAIL.send({
      from: { name: "Stride", email: env.MAIL_FROM },
      to: row.toAddress,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody,
    });
    await db
      .update(emailOutbox)
      .set({ state: "sent", sentAt: now, lockedUntil: null, lastError: null, messageId: result?.messageId ?? null, ...afterDelivery(row) })
      .where(eq(emailOutbox.id, id));
    return { outcome: "sent" };
  } catch (error) {
    const reason = describeError(error);
    if (row.attempts >= MAIL_MAX_ATTEMPTS) {
      await db
        .update(emailOutbox)
        .set({ state: "failed", lastError: reason, lockedUntil: null, ...afterDelivery(row) })
        .where(eq(emailOutbox.id, id));
      console.error(`Outbox: mail ${id} failed for good after ${row.attempts} tries: ${reason}`);
      return { outcome: "failed" };
    }
    const delay = retryDelaySeconds(row.attempts);
    // The queue brings the message back after the delay; the sweep only if that message is lost.
    await db
      .update(emailOutbox)
      .set({ lastError: reason, lockedUntil: null, nextAttemptAt: now + delay * 1000 + SWEEP_GRACE_MS })
      .where(eq(emailOutbox.id, id));
    console.warn(`Outbox: mail ${id}, try ${row.attempts} of ${MAIL_MAX_ATTEMPTS}, failed (${reason}); again in ${delay} s`);
    return { outcome: "retry", retryDelaySeconds: delay };
  }
}

/** The queue consumer: each message names an outbox row; afterwards, queued rows left behind go on the queue again. */
export async function processMailBatch(batch: MessageBatch<unknown>, env: MailEnv, now = Date.now()): Promise<DeliveryOutcome[]> {
  const db = createDb(env.DB);
  const outcomes: DeliveryOutcome[] = [];
  for (const message of batch.messages) {
    if (!isMailMessage(message.body)) {
      console.error(`Outbox: dropped a queue message that names no outbox row: ${JSON.stringify(message.body)}`);
      message.ack();
      continue;
    }
    try {
      const result = await deliver(db, env, message.body.id, now);
      outcomes.push(result.outcome);
      if (result.outcome === "retry") message.retry({ delaySeconds: result.retryDelaySeconds });
      else message.ack();
    } catch (error) {
      // D1 itself failed (the claim or the outcome's write): try the message again later.
      console.error(`Outbox: delivering mail ${message.body.id} failed`, error);
      outcomes.push("retry");
      message.retry({ delaySeconds: retryDelaySeconds(1) });
    }
  }
  try {
    await sweepOutbox(db, env.MAIL_QUEUE, now);
  } catch (error) {
    console.error("Outbox: the sweep after a batch failed", error);
  }
  return outcomes;
}

/**
 * Queued rows past their time (their queue message lost, or their consumer gone) go on the queue again, at most 100
 * a run, oldest deadline first; each gets a new deadline in the same statement, so the next sweep (or one running at
 * the same time) takes the next rows, and a backlog of any size drains over successive sweeps. One UPDATE whose rows
 * come from a subquery: it binds the same four values whatever the backlog, never the ids (D1 refuses a statement
 * with more than 100 bound parameters). Runs from the cron trigger and after every consumer batch. The subquery reads
 * the partial index of queued rows only.
 */
export async function sweepOutbox(db: Db, queue: Queue, now = Date.now()): Promise<number[]> {
  const due = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    // The literal (not a bound 'queued') lets SQLite use the partial index email_outbox_due_idx.
    .where(and(sql`${emailOutbox.state} = 'queued'`, lte(emailOutbox.nextAttemptAt, now), or(isNull(emailOutbox.lockedUntil), lte(emailOutbox.lockedUntil, now))))
    .orderBy(emailOutbox.nextAttemptAt)
    .limit(SWEEP_LIMIT);
  const swept = await db
    .update(emailOutbox)
    .set({ nextAttemptAt: now + SWEEP_GRACE_MS })
    .where(inArray(emailOutbox.id, due))
    .returning({ id: emailOutbox.id });
  const ids = swept.map((row) => row.id).sort((a, b) => a - b);
  if (!ids.length) return [];
  await enqueueMail(queue, ids);
  console.warn(`Outbox: swept ${ids.length} queued ${ids.length === 1 ? "mail" : "mails"} back onto the queue: ${ids.join(", ")}`);
  return ids;
}

/** Why a mail cannot be sent again, worded for the admin's form. */
export type RetryRefusal = { status: 404 | 409; message: string };

/** What decides whether a failed mail may be sent again: its kind, the status it announces, its order's status now. */
export interface RetryFacts {
  kind: MailKind;
  /** The status an ORDER_STATUS mail announces (email_outbox.order_status). */
  announcedStatus: OrderStatus | null;
  /** The status of the mail's order now; null when the mail has no order (any more). */
  orderStatusNow: OrderStatus | null;
  /** Whether a status mail about the same order was written after this one. */
  laterStatusMail: boolean;
}

/**
 * Why a failed mail is not sent again, in plain words for the admin (completing "Not sent again: ..."), or null when it
 * may be. An order's mail is sent again only while it is still true and still the last word: while no status mail
 * about the order was written after it, and the order still has the status the mail was written for (a confirmation:
 * PENDING). So a failed "on its way" never reaches the customer after "cancelled", nor a second time after a later
 * "on its way" went out; a failed confirmation never arrives once the payment was confirmed. Never a reset mail: its
 * token was removed from the outbox's copy when it failed (afterDelivery), and the token has expired or soon will; the
 * customer asks for a new link. Always an account notice (a password or e-mail changed on the profile): it tells of a
 * change that happened, at the time it names, so it stays true, and the owner must hear of it even late; it has no
 * order. STILL_TRUE below says the same in SQL; outbox-retry.test.ts runs every combination of facts through both.
 */
export function retryRefusal(mail: RetryFacts): string | null {
  if (mail.kind === "PASSWORD_RESET") return "its reset link no longer works. The customer can ask for a new one";
  if (mail.kind === "ACCOUNT_CHANGED") return null;
  if (mail.orderStatusNow === null) return "its order no longer exists";
  const writtenFor = mail.kind === "ORDER_PLACED" ? "PENDING" : mail.announcedStatus;
  if (writtenFor === null) return "it does not record the status it announces";
  if (mail.orderStatusNow !== writtenFor) {
    return mail.kind === "ORDER_PLACED" ? `the order is now ${mail.orderStatusNow}` : `the order is now ${mail.orderStatusNow}; this mail says ${writtenFor}`;
  }
  return mail.laterStatusMail ? "a later mail about this order was written since" : null;
}

/** A status mail about the same order written after this row (email_outbox_order_idx). Raw names: see STILL_TRUE. */
const LATER_STATUS_MAIL = sql`EXISTS (SELECT 1 FROM "email_outbox" AS "later" WHERE "later"."order_id" = "email_outbox"."order_id" AND "later"."kind" = 'ORDER_STATUS' AND "later"."id" > "email_outbox"."id")`;
const laterStatusMailColumn = sql<boolean>`${LATER_STATUS_MAIL}`.mapWith((value) => value === 1);

/**
 * retryRefusal's rule as a condition on an email_outbox row, for the UPDATE that re-queues: the check and the re-queue
 * are one statement, so an order that moves meanwhile cannot slip a mail through that is no longer true. Raw names
 * (Drizzle writes an UPDATE's columns unqualified, and inside the subquery they would name the orders table's).
 */
const STILL_TRUE = sql`(
  "email_outbox"."kind" = 'ACCOUNT_CHANGED'
  OR ("email_outbox"."kind" IN ('ORDER_PLACED', 'ORDER_STATUS')
    AND EXISTS (SELECT 1 FROM "orders" WHERE "orders"."id" = "email_outbox"."order_id"
      AND "orders"."status" = CASE "email_outbox"."kind" WHEN 'ORDER_PLACED' THEN 'PENDING' ELSE "email_outbox"."order_status" END)
    AND NOT ${LATER_STATUS_MAIL})
)`;

/** The columns a failed row gets when an admin sends it again: queued, no tries, no error, free for a consumer. */
function requeued(nextAttemptAt: number) {
  return { state: "queued" as const, attempts: 0, lastError: null, lockedUntil: null, nextAttemptAt };
}

/**
 * An admin sends one failed mail again: back to queued with its tries reset (the full five tries again), and its id
 * on the queue. One UPDATE that only a failed row still true of its order (STILL_TRUE) matches, so two admins pressing
 * at once queue it once, and the order's status is the one at the moment of the press, not of the page; otherwise
 * the row is read to say why not.
 */
export async function retryFailedMail(db: Db, queue: Queue, id: number, now = Date.now()): Promise<{ ok: true } | ({ ok: false } & RetryRefusal)> {
  const [row] = await db
    .update(emailOutbox)
    .set(requeued(now + SWEEP_GRACE_MS))
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.state, "failed"), STILL_TRUE))
    .returning({ id: emailOutbox.id });
  if (row) {
    // Should this send fail, nothing is lost: the row is queued and the sweep puts it on the queue after the grace.
    await enqueueMail(queue, [id]).catch((error) => console.error(`Outbox: queueing mail ${id} again failed; the sweep will`, error));
    return { ok: true };
  }
  const [current] = await db
    .select({ state: emailOutbox.state, kind: emailOutbox.kind, announcedStatus: emailOutbox.orderStatus, orderStatusNow: orders.status, laterStatusMail: laterStatusMailColumn })
    .from(emailOutbox)
    .leftJoin(orders, eq(orders.id, emailOutbox.orderId))
    .where(eq(emailOutbox.id, id));
  if (!current) return { ok: false, status: 404, message: `Mail #${id} not found` };
  if (current.state !== "failed") return { ok: false, status: 409, message: `Mail #${id} is ${current.state}: only a failed mail can be sent again` };
  if (current.kind === "PASSWORD_RESET") return { ok: false, status: 409, message: `Mail #${id} is a password reset: its link no longer works; the customer can ask for a new one` };
  // The order moved between the UPDATE and this read back to the mail's status: rare, and pressing again sends it.
  const reason = retryRefusal(current) ?? "its order changed as it was being sent; try again";
  return { ok: false, status: 409, message: `Mail #${id} is not sent again: ${reason}` };
}

/** What "Send all failed mail again" did: the mails queued, and the failed order mails left as no longer true. */
export interface RetryAllResult {
  queued: number;
  skipped: number;
}

/**
 * An admin sends every failed mail again that is still true (STILL_TRUE; never reset mails). One UPDATE with no list in
 * it, however many there are: they become queued and due at once, and the sweep hands them to the queue 100 at a time,
 * the first 100 right away, the rest after each consumer batch and from the cron. In the same D1 batch (one
 * transaction), the failed order mails it left are counted: those it skipped.
 */
export async function retryAllFailedMail(db: Db, queue: Queue, now = Date.now()): Promise<RetryAllResult> {
  const [rows, [left]] = await db.batch([
    db
      .update(emailOutbox)
      .set(requeued(now))
      .where(and(eq(emailOutbox.state, "failed"), STILL_TRUE))
      .returning({ id: emailOutbox.id }),
    db
      .select({ n: count() })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.state, "failed"), ne(emailOutbox.kind, "PASSWORD_RESET"))),
  ]);
  if (rows.length) {
    await sweepOutbox(db, queue, now).catch((error) => console.error("Outbox: the sweep after a retry of every failed mail failed; the cron will sweep", error));
  }
  return { queued: rows.length, skipped: left?.n ?? 0 };
}

export const OUTBOX_PAGE_SIZE = 20;

export interface OutboxEntry extends RetryFacts {
  id: number;
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  state: MailState;
  attempts: number;
  lastError: string | null;
  orderId: number | null;
  createdAt: string;
  sentAt: string | null;
}

const outboxEntryColumns = {
  id: emailOutbox.id,
  kind: emailOutbox.kind,
  to: emailOutbox.toAddress,
  subject: emailOutbox.subject,
  text: emailOutbox.textBody,
  state: emailOutbox.state,
  attempts: emailOutbox.attempts,
  lastError: emailOutbox.lastError,
  orderId: emailOutbox.orderId,
  createdAt: emailOutbox.createdAt,
  sentAt: emailOutbox.sentAt,
  announcedStatus: emailOutbox.orderStatus,
  // From a left join on the order (by its primary key): whether a failed mail is still true of it.
  orderStatusNow: orders.status,
  laterStatusMail: laterStatusMailColumn,
};

function toOutboxEntry(row: Omit<OutboxEntry, "createdAt" | "sentAt"> & { createdAt: number; sentAt: number | null }): OutboxEntry {
  return { ...row, createdAt: new Date(row.createdAt).toISOString(), sentAt: row.sentAt === null ? null : new Date(row.sentAt).toISOString() };
}

/**
 * One page of the outbox, newest first, optionally of one state; `hasMore` says whether another page follows. A reset
 * mail's link shows only when mail is kept, not sent (local runs read it there): a mail still waiting to be sent holds
 * a link that works, and no admin may read it to take over a customer's account.
 */
export async function listOutbox(
  db: Db,
  { state, page, showResetLinks }: { state?: MailState | null; page: number; showResetLinks: boolean },
): Promise<{ entries: OutboxEntry[]; hasMore: boolean }> {
  const rows = await db
    .select(outboxEntryColumns)
    .from(emailOutbox)
    .leftJoin(orders, eq(orders.id, emailOutbox.orderId))
    .where(state ? eq(emailOutbox.state, state) : undefined)
    .orderBy(desc(emailOutbox.id))
    .limit(OUTBOX_PAGE_SIZE + 1)
    .offset((page - 1) * OUTBOX_PAGE_SIZE);
  const shown = (row: (typeof rows)[number]) => (row.kind === "PASSWORD_RESET" && !showResetLinks ? { ...row, text: redactResetToken(row.text) } : row);
  return { entries: rows.slice(0, OUTBOX_PAGE_SIZE).map(shown).map(toOutboxEntry), hasMore: rows.length > OUTBOX_PAGE_SIZE };
}

/** The mails written about one order, newest first (from email_outbox_order_idx): a confirmation and one per status change. */
export async function listOrderMails(db: Db, orderId: number): Promise<OutboxEntry[]> {
  const rows = await db
    .select(outboxEntryColumns)
    .from(emailOutbox)
    .leftJoin(orders, eq(orders.id, emailOutbox.orderId))
    .where(eq(emailOutbox.orderId, orderId)).orderBy(desc(emailOutbox.id)).limit(100);
  return rows.map(toOutboxEntry);
}
