import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";

import { createDb } from "../../app/services/db.server";
import { retryAllFailedMail, SWEEP_GRACE_MS, SWEEP_LIMIT } from "../../app/services/outbox.server";
import { testEnv } from "./helpers";
import { mailRows, worker } from "./outbox-helpers";

// The sweep after a queue outage: far more overdue rows than one sweep takes. D1 refuses a statement with more than
// 100 bound parameters ("too many SQL variables"), so a sweep that bound its ids as a list broke at 99 overdue rows,
// every time, on the same oldest rows. In its own file: its storage holds no other mail, so every count is exact.

const BACKLOG = 230;

/** A queue producer that records what the Worker sends it, batch by batch, and delivers nothing. */
function recordingQueue() {
  const batches: number[][] = [];
  const queue = {
    async send(body: { id: number }) {
      batches.push([body.id]);
    },
    async sendBatch(messages: Iterable<{ body: { id: number } }>) {
      const ids = [...messages].map((message) => message.body.id);
      // The real queue refuses a sendBatch of more than 100 messages.
      if (ids.length > 100) throw new Error(`sendBatch of ${ids.length} messages`);
      batches.push(ids);
    },
  };
  return { batches, queue: queue as unknown as Queue };
}

/** The Worker's own cron handler (the five-minute sweep) with these bindings. */
async function cronSweep(env: Env): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/**
 * BACKLOG queued rows, overdue by 1 to BACKLOG minutes (the first the most), written in one D1 batch: each the "on
 * its way" mail of its own SHIPPED order (so still true and its order's last word, should it fail and be sent again).
 */
async function insertBacklog(): Promise<number[]> {
  const now = Date.now();
  const order = testEnv.DB.prepare(
    `INSERT INTO orders (customer_name, customer_email, customer_phone, shipping_address, total_cents, status)
     VALUES ('Mail Reader', ?, '0771234567', '12 Galle Road, Colombo 03', 0, 'SHIPPED')`,
  );
  // last_insert_rowid(): the order just written (a trigger's own inserts do not change it once the trigger ends).
  const mail = testEnv.DB.prepare(
    "INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, order_id, order_status, next_attempt_at) VALUES ('ORDER_STATUS', ?, ?, 'Hello', '<p>Hello</p>', last_insert_rowid(), 'SHIPPED', ?) RETURNING id",
  );
  const results = await testEnv.DB.batch<{ id: number }>(
    Array.from({ length: BACKLOG }, (_, i) => [order.bind(`backlog-${i}@example.com`), mail.bind(`backlog-${i}@example.com`, `Backlog ${i}`, now - (BACKLOG - i) * 60_000)]).flat(),
  );
  return results.filter((_, index) => index % 2 === 1).map((result) => result.results[0].id);
}

describe("a backlog of more overdue mails than one sweep takes", () => {
  it("is handed to the queue over successive sweeps, oldest first, each at most 100, every row once", async () => {
    const ids = await insertBacklog();
    const { batches, queue } = recordingQueue();
    const env = { ...testEnv, MAIL_QUEUE: queue } as Env;

    const perSweep: number[][] = [];
    for (let sweep = 0; sweep < 5; sweep++) {
      const before = batches.length;
      await cronSweep(env);
      perSweep.push(batches.slice(before).flat());
    }
    expect(perSweep.map((swept) => swept.length)).toEqual([SWEEP_LIMIT, SWEEP_LIMIT, BACKLOG - 2 * SWEEP_LIMIT, 0, 0]);
    // The oldest deadlines first: the first sweep takes the 100 most overdue rows, the next the next 100.
    expect(perSweep[0]).toEqual(ids.slice(0, SWEEP_LIMIT));
    expect(perSweep[1]).toEqual(ids.slice(SWEEP_LIMIT, 2 * SWEEP_LIMIT));
    // Every row once, none twice.
    expect(perSweep.flat().sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));

    // Every row still queued, with a new deadline past the grace: the sweep does not send it again before then.
    const rows = await mailRows();
    expect(rows).toHaveLength(BACKLOG);
    for (const row of rows) {
      expect(row.state).toBe("queued");
      expect(row.next_attempt_at).toBeGreaterThan(Date.now() + SWEEP_GRACE_MS - 60_000);
    }
  });

  it("through the real queue, the Worker's consumer delivers every row (kept: the tests run in local mode)", async () => {
    // The same backlog overdue again, as after an outage longer than the grace.
    await testEnv.DB.prepare("UPDATE email_outbox SET next_attempt_at = ? - id").bind(Date.now()).run();
    await cronSweep(testEnv);
    // The first sweep put 100 on the queue; each consumer batch sweeps again afterwards, and so does the cron.
    await vi.waitFor(
      async () => {
        const left = await testEnv.DB.prepare("SELECT count(*) AS n FROM email_outbox WHERE state <> 'kept'").first<{ n: number }>();
        if (left!.n > 0) await cronSweep(testEnv);
        expect(left!.n).toBe(0);
      },
      { timeout: 60_000, interval: 500 },
    );
    const rows = await mailRows();
    expect(rows).toHaveLength(BACKLOG);
    expect(rows.every((row) => row.state === "kept" && row.attempts === 1)).toBe(true);
  });
});

describe("sending every failed mail again, more than one sweep takes", () => {
  it("queues them all in one statement; the first 100 go to the queue at once, the rest with the next sweep", async () => {
    // Every row of this file failed for good (a day's quota used up, say).
    await testEnv.DB.prepare("UPDATE email_outbox SET state = 'failed', attempts = 5, last_error = 'Daily sending quota exceeded'").run();
    const { batches, queue } = recordingQueue();
    expect(await retryAllFailedMail(createDb(testEnv.DB), queue)).toEqual({ queued: BACKLOG, skipped: 0 });
    expect(batches.flat()).toHaveLength(SWEEP_LIMIT);
    const rows = await mailRows();
    expect(rows.every((row) => row.state === "queued" && row.attempts === 0 && row.last_error === null)).toBe(true);

    await cronSweep({ ...testEnv, MAIL_QUEUE: queue } as Env);
    await cronSweep({ ...testEnv, MAIL_QUEUE: queue } as Env);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(rows.map((row) => row.id));
  });
});
