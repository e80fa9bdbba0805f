import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";

import app from "../../workers/app";
import { testEnv } from "./helpers";

/** The Worker's handlers, typed as the runtime calls them (with the execution context). */
export const worker = app as ExportedHandler<Env>;

// Helpers for the outbox and password reset tests: rows of email_outbox, and the Worker's own queue and scheduled
// handlers called with real message batches (cloudflare:test's createMessageBatch / getQueueResult).

export interface MailRow {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  order_id: number | null;
  user_id: number | null;
  order_status: string | null;
  state: string;
  attempts: number;
  last_error: string | null;
  message_id: string | null;
  sent_at: number | null;
  next_attempt_at: number;
  locked_until: number | null;
}

/** The bindings of the tests' Worker, with the second send_email binding vitest.workers.config.ts adds. */
export const mailEnv = testEnv as typeof testEnv & { REFUSING_EMAIL: SendEmail };

export async function mailRows(where = "1 = 1", ...bindings: unknown[]): Promise<MailRow[]> {
  const { results } = await testEnv.DB.prepare(`SELECT * FROM email_outbox WHERE ${where} ORDER BY id`)
    .bind(...bindings)
    .all<MailRow>();
  return results;
}

export const mailsOfOrder = (orderId: number) => mailRows("order_id = ?", orderId);

export async function mailRow(id: number): Promise<MailRow> {
  const [row] = await mailRows("id = ?", id);
  return row;
}

export async function countMails(): Promise<number> {
  return (await testEnv.DB.prepare("SELECT count(*) AS n FROM email_outbox").first<{ n: number }>())!.n;
}

/** A queued row straight into D1, with no queue message for it (so no consumer but the test's touches it). */
export async function insertMail(overrides: Partial<MailRow> = {}): Promise<number> {
  const row = {
    kind: "ORDER_STATUS",
    to_address: `buyer-${crypto.randomUUID()}@example.com`,
    subject: "Stride order #1: your order is on its way",
    text_body: "Hello,\n\nYour order is on its way.\n",
    html_body: "<p>Your order is on its way.</p>",
    next_attempt_at: Date.now() + 60 * 60 * 1000,
    ...overrides,
  };
  const columns = Object.keys(row);
  const result = await testEnv.DB.prepare(`INSERT INTO email_outbox (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING id`)
    .bind(...Object.values(row))
    .first<{ id: number }>();
  return result!.id;
}

/** An order row straight into D1 with this status and no lines: what a mail about an order needs of it. */
export async function insertOrder(status = "SHIPPED"): Promise<number> {
  const row = await testEnv.DB.prepare(
    `INSERT INTO orders (customer_name, customer_email, customer_phone, shipping_address, total_cents, status)
     VALUES ('Mail Reader', 'mail.reader@example.com', '0771234567', '12 Galle Road, Colombo 03', 0, ?) RETURNING id`,
  )
    .bind(status)
    .first<{ id: number }>();
  return row!.id;
}

/**
 * Runs the Worker's queue handler on one batch of messages naming these outbox rows, with the test's bindings and
 * any overrides (MAIL_MODE, EMAIL), and returns what it did with each message.
 */
export async function runConsumer(bodies: unknown[], overrides: Partial<Record<keyof typeof mailEnv, unknown>> = {}) {
  const batch = createMessageBatch(
    "stride-mail",
    bodies.map((body, index) => ({ id: `message-${index}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body })),
  );
  // getQueueResult says which messages were retried but not after how long: each retry's delay is recorded here.
  const retryDelays: (number | undefined)[] = [];
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    message.retry = (options) => {
      retryDelays.push(options?.delaySeconds);
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await worker.queue!(batch, { ...mailEnv, ...overrides } as Env, ctx);
  return { ...(await getQueueResult(batch, ctx)), retryDelays };
}

export const sendMode = (email: SendEmail = mailEnv.EMAIL) => ({ MAIL_MODE: "send", EMAIL: email });
