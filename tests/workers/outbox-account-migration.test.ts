import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";

import { testEnv } from "./helpers";

// The migration that lets email_outbox take ACCOUNT_CHANGED rebuilds the table (its CHECK on kind is the table's own).
// Here it runs on an outbox that already holds mails of every kind and state, every column set: MIGRATION_DB (empty,
// of this file alone) gets the migrations before it, then the rows as the shop wrote them, then the rest.

const db = (env as unknown as { MIGRATION_DB: D1Database }).MIGRATION_DB;
const migrations = testEnv.TEST_MIGRATIONS;
const at = migrations.findIndex((migration) => migration.name.endsWith("_outbox_account_mail.sql"));

const rows = async <T = Record<string, unknown>>(sql: string, ...bindings: unknown[]) => (await db.prepare(sql).bind(...bindings).all<T>()).results;

/** The schema's objects (tables, indexes, triggers, views) as SQLite stores them, by name. */
const schemaObjects = () => rows<{ type: string; name: string; tbl_name: string; sql: string | null }>("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name");

let before: Record<string, unknown>[];
let objectsBefore: Awaited<ReturnType<typeof schemaObjects>>;

beforeAll(async () => {
  expect(at).toBeGreaterThan(0);
  await applyD1Migrations(db, migrations.slice(0, at));
  await db.batch([
    db.prepare("INSERT INTO users (id, name, email, password_hash) VALUES (1, 'Kasun', 'kasun@example.com', 'x'), (2, 'Nimal', 'nimal@example.com', 'x')"),
    db.prepare(
      "INSERT INTO orders (id, user_id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status) VALUES (1, 1, 'Kasun', 'kasun@example.com', '0771234567', 'Colombo', 100, 'SHIPPED'), (2, 2, 'Nimal', 'nimal@example.com', '0771234567', 'Kandy', 100, 'PENDING')",
    ),
  ]);
  const insert = db.prepare(
    `INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, order_id, user_id, order_status, state, attempts, last_error, message_id, created_at, sent_at, next_attempt_at, locked_until)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  await db.batch([
    insert.bind("ORDER_PLACED", "kasun@example.com", "Stride order #1: we have your order", "Hello Kasun,\n", "<p>Hello Kasun,</p>", 1, 1, null, "sent", 1, null, "msg-1", 1_700_000_000_001, 1_700_000_000_500, 1_700_000_300_001, null),
    insert.bind("ORDER_STATUS", "kasun@example.com", "Stride order #1: your order is on its way", "On its way\n", "<p>On its way</p>", 1, 1, "SHIPPED", "failed", 5, "Daily sending quota exceeded", null, 1_700_000_000_002, null, 1_700_000_300_002, null),
    insert.bind("PASSWORD_RESET", "nimal@example.com", "Reset your Stride password", "token=[removed]\n", "<a>token=[removed]</a>", null, 2, null, "kept", 1, null, null, 1_700_000_000_003, 1_700_000_000_600, 1_700_000_300_003, null),
    insert.bind("ORDER_STATUS", "nimal@example.com", "Stride order #2: we are checking your bank slip", "Checking\n", "<p>Checking</p>", 2, 2, "PENDING", "queued", 2, "Timeout", null, 1_700_000_000_004, null, 1_700_000_300_004, 1_700_000_120_004),
  ]);
  before = await rows("SELECT * FROM email_outbox ORDER BY id");
  objectsBefore = await schemaObjects();
  // This migration alone: later ones change other tables.
  await applyD1Migrations(db, migrations.slice(0, at + 1));
});

describe("the outbox's rebuild for ACCOUNT_CHANGED, on an outbox with mails", () => {
  it("keeps every row with every column as it was, ids included", async () => {
    expect(before).toHaveLength(4);
    expect(await rows("SELECT * FROM email_outbox ORDER BY id")).toEqual(before);
  });

  it("keeps the same indexes, and touches nothing but email_outbox", async () => {
    const after = await schemaObjects();
    const others = (objects: typeof after) => objects.filter((object) => object.tbl_name !== "email_outbox");
    expect(others(after)).toEqual(others(objectsBefore));
    const indexes = (objects: typeof after) => objects.filter((object) => object.tbl_name === "email_outbox" && object.type === "index");
    expect(indexes(after).map((index) => index.name)).toEqual(["email_outbox_due_idx", "email_outbox_order_idx", "email_outbox_state_idx", "email_outbox_user_idx"]);
    expect(indexes(after)).toEqual(indexes(objectsBefore));
    // Nothing names the temporary table any more.
    expect(after.filter((object) => object.sql?.includes("__new_"))).toEqual([]);
    expect(await rows("PRAGMA foreign_key_check")).toEqual([]);
  });

  it("takes an ACCOUNT_CHANGED mail, numbered after the last mail, and still refuses a kind, a state or a status it does not know", async () => {
    const added = await db
      .prepare("INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, user_id, next_attempt_at) VALUES ('ACCOUNT_CHANGED', 'kasun@example.com', 'Your Stride password was changed', 't', 'h', 1, 0) RETURNING id, state, attempts, created_at")
      .first<{ id: number; state: string; attempts: number; created_at: number }>();
    expect(added).toMatchObject({ id: 5, state: "queued", attempts: 0 });
    expect(added!.created_at).toBeGreaterThan(1_700_000_000_004);
    const bad = (column: string, value: string) => db.prepare(`UPDATE email_outbox SET ${column} = ? WHERE id = 1`).bind(value).run();
    await expect(bad("kind", "NEWSLETTER")).rejects.toThrow(/CHECK constraint failed: email_outbox_kind_check/);
    await expect(bad("state", "lost")).rejects.toThrow(/CHECK constraint failed: email_outbox_state_check/);
    await expect(bad("order_status", "LOST")).rejects.toThrow(/CHECK constraint failed: email_outbox_order_status_check/);
  });

  it("keeps its foreign keys: a mail's order or user deleted leaves the mail, without them", async () => {
    await expect(db.prepare("UPDATE email_outbox SET order_id = 99 WHERE id = 1").run()).rejects.toThrow(/FOREIGN KEY constraint failed/);
    await db.batch([db.prepare("DELETE FROM order_items WHERE order_id = 2"), db.prepare("DELETE FROM orders WHERE id = 2")]);
    expect(await rows("SELECT id, order_id, user_id FROM email_outbox WHERE id = 4")).toEqual([{ id: 4, order_id: null, user_id: 2 }]);
  });
});
