import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";

import { ORDER_STATUSES } from "../../app/lib/constants";
import { STATUS_WORDS } from "../../app/lib/emails.server";
import { createDb } from "../../app/services/db.server";
import { retryAllFailedMail } from "../../app/services/outbox.server";
import { testEnv } from "./helpers";

// Migration 0016 on an outbox that already holds mails: MIGRATION_DB (empty, of this test alone) gets the migrations
// before 0016, then mails as the shop wrote them until now (no order_status), then 0016, which gives each status
// mail the status its subject announces, so a failed one is sent again only while its order still has it.

const db = (env as unknown as { MIGRATION_DB: D1Database }).MIGRATION_DB;
const before = testEnv.TEST_MIGRATIONS.filter((migration) => migration.name < "0016");

/** The subject the shop wrote for a status (orderStatusMail before 0016). */
const subjectOf = (orderId: number, status: (typeof ORDER_STATUSES)[number]) => `Stride order #${orderId}: ${STATUS_WORDS[status].headline.toLowerCase()}`;

beforeAll(async () => {
  expect(before.at(-1)?.name).toBe("0015_reopen_needs_every_size.sql");
  await applyD1Migrations(db, before);
  await db.batch([
    db.prepare("INSERT INTO orders (id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status) VALUES (1, 'Kasun', 'kasun@example.com', '0771234567', 'Colombo', 100, 'CANCELLED')"),
    db.prepare("INSERT INTO orders (id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status) VALUES (2, 'Nimal', 'nimal@example.com', '0771234567', 'Kandy', 100, 'SHIPPED')"),
  ]);
  const insert = db.prepare(
    "INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, order_id, state, attempts, next_attempt_at) VALUES (?, 'kasun@example.com', ?, 'Hello', '<p>Hello</p>', ?, ?, ?, 0)",
  );
  await db.batch([
    ...ORDER_STATUSES.map((status) => insert.bind("ORDER_STATUS", subjectOf(1, status), 1, "sent", 1)),
    insert.bind("ORDER_PLACED", "Stride order #1: we have your order", 1, "sent", 1),
    insert.bind("PASSWORD_RESET", "Reset your Stride password", null, "sent", 1),
    insert.bind("ORDER_STATUS", "Stride order #1: a subject of no status", 1, "failed", 5),
    // Failed "on its way" mails: order 1 was cancelled since, order 2 is still on its way.
    insert.bind("ORDER_STATUS", subjectOf(1, "SHIPPED"), 1, "failed", 5),
    insert.bind("ORDER_STATUS", subjectOf(2, "SHIPPED"), 2, "failed", 5),
  ]);
  await applyD1Migrations(db, testEnv.TEST_MIGRATIONS);
});

describe("0016_outbox_order_status on an outbox with mails", () => {
  it("gives each status mail the status its subject announces, and other mails none", async () => {
    const { results } = await db.prepare("SELECT kind, subject, order_status FROM email_outbox ORDER BY id").all<{ kind: string; subject: string; order_status: string | null }>();
    expect(results.map((row) => [row.kind, row.order_status])).toEqual([
      ...ORDER_STATUSES.map((status) => ["ORDER_STATUS", status]),
      ["ORDER_PLACED", null],
      ["PASSWORD_RESET", null],
      ["ORDER_STATUS", null],
      ["ORDER_STATUS", "SHIPPED"],
      ["ORDER_STATUS", "SHIPPED"],
    ]);
  });

  it("refuses a status the shop does not have", async () => {
    await expect(db.prepare("UPDATE email_outbox SET order_status = 'LOST' WHERE id = 1").run()).rejects.toThrow(/CHECK constraint failed/);
  });

  it("then 'Send all' sends again only the failed mail still true of its order", async () => {
    const sent: number[] = [];
    const queue = { sendBatch: async (messages: Iterable<{ body: { id: number } }>) => void sent.push(...[...messages].map((message) => message.body.id)) } as unknown as Queue;
    expect(await retryAllFailedMail(createDb(db), queue)).toEqual({ queued: 1, skipped: 2 });
    const { results } = await db.prepare("SELECT order_id, subject, state FROM email_outbox WHERE kind = 'ORDER_STATUS' AND attempts = 5 OR state = 'queued' ORDER BY id").all();
    expect(results).toEqual([
      { order_id: 1, subject: "Stride order #1: a subject of no status", state: "failed" },
      { order_id: 1, subject: subjectOf(1, "SHIPPED"), state: "failed" },
      { order_id: 2, subject: subjectOf(2, "SHIPPED"), state: "queued" },
    ]);
    expect(sent).toHaveLength(1);
  });
});
