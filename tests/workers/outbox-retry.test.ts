import { beforeAll, describe, expect, it, vi } from "vitest";

import { tag } from "./catalogue-helpers";
import { apiJson, call, postForm, testEnv, uniqueEmail } from "./helpers";
import { type Account, newAdmin, newCustomer, placeOrder, product } from "./order-helpers";
import { insertMail, insertOrder, mailRow, mailRows } from "./outbox-helpers";
import { MAIL_KINDS, ORDER_STATUSES, type OrderStatus } from "../../app/lib/constants";
import { createDb, schema } from "../../app/services/db.server";
import { listOrderMails, outboxValues, retryAllFailedMail, retryFailedMail, retryRefusal } from "../../app/services/outbox.server";

// "Send again" and "Send all failed mail again" on /admin/outbox send a failed order mail only while it is still true
// and still the last word: no status mail about its order written since, and the order still in the status the mail
// was written for (a confirmation: PENDING); an account notice always. The mails are the real ones the shop writes (an
// order placed, its status changed through the API); the
// failure is what the consumer leaves after five refused sends (state failed). In its own file: the storage holds no
// other mail, so "Send all"'s counts are exact.

const t = tag();
let customer: Account;
let admin: Account;
let productId: number;

beforeAll(async () => {
  [customer, admin] = await Promise.all([newCustomer("Retry Reader"), newAdmin()]);
  productId = await product({ name: `Retry Shoe ${t}`, stockQuantity: 50 });
});

async function newOrder(): Promise<number> {
  return (await placeOrder(customer.token, [{ productId, quantity: 1 }], undefined, { customerEmail: "retry.reader@example.com" })).id;
}

async function moveTo(orderId: number, status: string): Promise<void> {
  const response = await call(`/api/orders/admin/${orderId}/status?status=${status}`, { method: "PUT", headers: admin.auth });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** The order's newest mail of this kind, once the Worker's consumer has kept it (local mode). */
async function newestMail(orderId: number, kind: "ORDER_PLACED" | "ORDER_STATUS") {
  return vi.waitFor(
    async () => {
      const mail = (await mailRows("order_id = ? AND kind = ?", orderId, kind)).at(-1);
      expect(mail?.state).toBe("kept");
      return mail!;
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** Marks the mail as the consumer leaves it after its fifth refused send (after it was kept, so no consumer races it). */
async function fail(id: number): Promise<number> {
  await testEnv.DB.prepare("UPDATE email_outbox SET state = 'failed', attempts = 5, last_error = 'Daily sending quota exceeded', sent_at = NULL WHERE id = ?").bind(id).run();
  return id;
}

/** A queue producer that records the ids it is given and delivers nothing. */
function recordingQueue() {
  const sent: number[] = [];
  const queue = { sendBatch: async (messages: Iterable<{ body: { id: number } }>) => void sent.push(...[...messages].map((message) => message.body.id)) } as unknown as Queue;
  return { sent, queue };
}

const retry = (id: number) => postForm("/admin/outbox?state=failed", { intent: "retry", id: String(id) }, { cookie: admin.cookie });
const retryAll = () => postForm("/admin/outbox?state=failed", { intent: "retry-all" }, { cookie: admin.cookie });

/** The mail's card on the failed list. */
async function failedCard(id: number): Promise<string> {
  const page = await (await call("/admin/outbox?state=failed", { headers: { Cookie: admin.cookie } })).text();
  const start = page.indexOf(`data-mail-id="${id}"`);
  expect(start, `mail ${id} on the failed list`).toBeGreaterThan(-1);
  return page.slice(start, page.indexOf("</li>", start));
}

/** Ends every failed mail of the file (as if sent), so a test of "Send all" counts only its own. */
const clearFailed = () => testEnv.DB.prepare("UPDATE email_outbox SET state = 'kept' WHERE state = 'failed'").run();

describe("a status mail records the status it announces", () => {
  it("each status change's row carries the new status; the confirmation carries none", async () => {
    const orderId = await newOrder();
    await moveTo(orderId, "CONFIRMED");
    await moveTo(orderId, "SHIPPED");
    const mails = await mailRows("order_id = ?", orderId);
    expect(mails.map((mail) => [mail.kind, mail.order_status])).toEqual([
      ["ORDER_PLACED", null],
      ["ORDER_STATUS", "CONFIRMED"],
      ["ORDER_STATUS", "SHIPPED"],
    ]);
  });
});

describe("a failed status mail whose order has moved on", () => {
  it("SHIPPED failed, then CANCELLED (its mail kept): 'Send all' leaves it failed, queues nothing, and counts it skipped", async () => {
    await clearFailed();
    const orderId = await newOrder();
    await moveTo(orderId, "SHIPPED");
    const shipped = await fail((await newestMail(orderId, "ORDER_STATUS")).id);
    await moveTo(orderId, "CANCELLED");
    const cancelled = await newestMail(orderId, "ORDER_STATUS");
    expect(cancelled.subject).toBe(`Stride order #${orderId}: your order has been cancelled`);

    const { sent, queue } = recordingQueue();
    expect(await retryAllFailedMail(createDb(testEnv.DB), queue)).toEqual({ queued: 0, skipped: 1 });
    expect(sent).toEqual([]);
    expect(await mailRow(shipped)).toMatchObject({ state: "failed", attempts: 5, last_error: "Daily sending quota exceeded" });
    expect(await mailRow(cancelled.id)).toMatchObject({ state: "kept" });
  });

  it("SHIPPED failed, then back to PENDING: 'Send again' is refused (409) saying why, and the card says it in place of the button", async () => {
    const orderId = await newOrder();
    await moveTo(orderId, "SHIPPED");
    const shipped = await fail((await newestMail(orderId, "ORDER_STATUS")).id);
    await moveTo(orderId, "PENDING");

    const card = await failedCard(shipped);
    expect(card).not.toContain('data-testid="mail-retry"');
    expect(card).toContain('data-testid="mail-no-retry"');
    expect(card).toContain("Not sent again: the order is now PENDING; this mail says SHIPPED.");

    const response = await retry(shipped);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(`Mail #${shipped} is not sent again: the order is now PENDING; this mail says SHIPPED`);
    expect(await mailRow(shipped)).toMatchObject({ state: "failed", attempts: 5 });
  });

  it("is checked when the button is pressed, not when the page was read: offered, then the order moves, then refused", async () => {
    const orderId = await newOrder();
    await moveTo(orderId, "SHIPPED");
    const shipped = await fail((await newestMail(orderId, "ORDER_STATUS")).id);
    expect(await failedCard(shipped)).toContain('data-testid="mail-retry"');
    await moveTo(orderId, "CANCELLED");

    const { sent, queue } = recordingQueue();
    const result = await retryFailedMail(createDb(testEnv.DB), queue, shipped);
    expect(result).toEqual({ ok: false, status: 409, message: `Mail #${shipped} is not sent again: the order is now CANCELLED; this mail says SHIPPED` });
    expect(sent).toEqual([]);
    expect(await mailRow(shipped)).toMatchObject({ state: "failed", attempts: 5 });
  });

  it("a status mail whose order no longer exists is not sent again", async () => {
    const orderId = await newOrder();
    await moveTo(orderId, "CONFIRMED");
    const confirmed = await fail((await newestMail(orderId, "ORDER_STATUS")).id);
    await testEnv.DB.prepare("DELETE FROM orders WHERE id = ?").bind(orderId).run();
    expect(await failedCard(confirmed)).toContain("Not sent again: its order no longer exists.");
    const response = await retry(confirmed);
    expect(response.status).toBe(409);
    expect(await mailRow(confirmed)).toMatchObject({ state: "failed", order_id: null });
  });
});

describe("a failed mail that is still true", () => {
  it("a status mail whose order still has its status is sent again (and delivered once)", async () => {
    const orderId = await newOrder();
    await moveTo(orderId, "SHIPPED");
    const shipped = await fail((await newestMail(orderId, "ORDER_STATUS")).id);
    expect(await failedCard(shipped)).toContain('data-testid="mail-retry"');
    const response = await retry(shipped);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`Mail #${shipped} is queued again.`);
    await vi.waitFor(async () => expect(await mailRow(shipped)).toMatchObject({ state: "kept", attempts: 1, last_error: null }), { timeout: 15_000, interval: 100 });
  });

  it("a status mail is not sent again once a later one went out, even when the order is back in its status", async () => {
    const orderId = await newOrder();
    await moveTo(orderId, "SHIPPED");
    const first = await fail((await newestMail(orderId, "ORDER_STATUS")).id);
    await moveTo(orderId, "PROCESSING");
    await moveTo(orderId, "SHIPPED");
    // The customer already has the second "on its way": the first would be the same news twice.
    expect(await failedCard(first)).toContain("Not sent again: a later mail about this order was written since.");
    const refused = await retry(first);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(`Mail #${first} is not sent again: a later mail about this order was written since`);
    const { sent, queue } = recordingQueue();
    expect(await retryFailedMail(createDb(testEnv.DB), queue, first)).toMatchObject({ ok: false, status: 409 });
    expect(sent).toEqual([]);
  });
});

describe("the rule, as the screen words it and as the re-queueing UPDATE applies it", () => {
  it("agrees for every kind, status written for, status now, and a later status mail or none", async () => {
    const db = createDb(testEnv.DB);
    const orderId = await newOrder();
    const cases = [
      ...ORDER_STATUSES.flatMap((now) => [false, true].map((later) => ({ kind: "ORDER_PLACED" as const, announced: null, now, later }))),
      ...ORDER_STATUSES.flatMap((announced) => ORDER_STATUSES.flatMap((now) => [false, true].map((later) => ({ kind: "ORDER_STATUS" as const, announced, now, later })))),
    ];
    const write = async (kind: "ORDER_PLACED" | "ORDER_STATUS", orderStatus: (typeof ORDER_STATUSES)[number] | null, state: "failed" | "kept") => {
      const [row] = await db
        .insert(schema.emailOutbox)
        .values({ ...outboxValues({ kind, to: "retry.reader@example.com", subject: "s", text: "t", html: "h", orderId, orderStatus }), state, attempts: 5 })
        .returning({ id: schema.emailOutbox.id });
      return row.id;
    };
    let allowed = 0;
    for (const { kind, announced, now, later } of cases) {
      await testEnv.DB.prepare("DELETE FROM email_outbox WHERE order_id = ?").bind(orderId).run();
      await testEnv.DB.prepare("UPDATE orders SET status = ?, status_changed_by = ? WHERE id = ?").bind(now, admin.id, orderId).run();
      const id = await write(kind, announced, "failed");
      if (later) await write("ORDER_STATUS", now, "kept");
      const entry = (await listOrderMails(db, orderId)).find((mail) => mail.id === id)!;
      expect(entry).toMatchObject({ orderStatusNow: now, laterStatusMail: later });
      const { queue } = recordingQueue();
      const requeued = (await retryFailedMail(db, queue, id)).ok;
      expect(requeued, JSON.stringify({ kind, announced, now, later })).toBe(retryRefusal(entry) === null);
      if (requeued) allowed++;
    }
    // A confirmation while PENDING, a status mail while its order has its status: each with no later mail.
    expect(allowed).toBe(1 + ORDER_STATUSES.length);
  });
});

describe("a failed order confirmation", () => {
  it("is sent again while the order is PENDING, not once it has moved on (confirmed, or cancelled and reopened)", async () => {
    const orderId = await newOrder();
    const placed = await fail((await newestMail(orderId, "ORDER_PLACED")).id);
    const { sent, queue } = recordingQueue();
    expect(await retryFailedMail(createDb(testEnv.DB), queue, placed)).toEqual({ ok: true });
    expect(sent).toEqual([placed]);
    expect(await mailRow(placed)).toMatchObject({ state: "queued", attempts: 0, last_error: null });

    const confirmedOrder = await newOrder();
    const unconfirmed = await fail((await newestMail(confirmedOrder, "ORDER_PLACED")).id);
    // A test that bypasses the status mail: the order alone moves, so the status is what refuses it.
    await testEnv.DB.prepare("UPDATE orders SET status = 'CONFIRMED', status_changed_by = ? WHERE id = ?").bind(admin.id, confirmedOrder).run();
    expect(await failedCard(unconfirmed)).toContain("Not sent again: the order is now CONFIRMED.");

    const cancelledOrder = await newOrder();
    const beforeCancel = await fail((await newestMail(cancelledOrder, "ORDER_PLACED")).id);
    await moveTo(cancelledOrder, "CANCELLED");
    const refused = await retry(beforeCancel);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(`Mail #${beforeCancel} is not sent again: the order is now CANCELLED`);
    // Reopened: PENDING again, but the customer has had the cancellation and the reopening since.
    await moveTo(cancelledOrder, "PENDING");
    const reopened = await retry(beforeCancel);
    expect(reopened.status).toBe(409);
    expect(await reopened.text()).toContain(`Mail #${beforeCancel} is not sent again: a later mail about this order was written since`);
    expect(await mailRow(beforeCancel)).toMatchObject({ state: "failed", attempts: 5 });
  });
});

describe("'Send all failed mail again'", () => {
  it("queues the mails still true, skips the others, and its answer counts both", async () => {
    await clearFailed();
    const pending = await newOrder();
    const placed = await fail((await newestMail(pending, "ORDER_PLACED")).id);
    const stands = await newOrder();
    await moveTo(stands, "SHIPPED");
    const shipped = await fail((await newestMail(stands, "ORDER_STATUS")).id);

    const movedOn = await newOrder();
    await moveTo(movedOn, "SHIPPED");
    const stale = await fail((await newestMail(movedOn, "ORDER_STATUS")).id);
    await moveTo(movedOn, "CANCELLED");
    const cancelledConfirmation = await fail((await newestMail(movedOn, "ORDER_PLACED")).id);

    const response = await retryAll();
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("2 failed mails are queued again. 2 failed mails skipped: no longer true of their orders (each card says why).");
    for (const id of [placed, shipped]) expect(["queued", "kept"]).toContain((await mailRow(id)).state);
    for (const id of [stale, cancelledConfirmation]) expect(await mailRow(id)).toMatchObject({ state: "failed", attempts: 5 });
    await vi.waitFor(async () => expect((await mailRows(`id IN (${placed}, ${shipped}) AND state = 'kept'`)).length).toBe(2), { timeout: 15_000, interval: 100 });

    // Only mails no longer true are left failed: no button to send them all again, and a press says nothing was queued.
    expect(html).not.toContain('data-testid="retry-all"');
    const again = await (await retryAll()).text();
    expect(again).toContain("No failed mail is queued again. 2 failed mails skipped: no longer true of their orders (each card says why).");
  });
});

describe("a failed account notice (a password or e-mail changed on the profile)", () => {
  /** The notice a real profile save writes (a new e-mail, through PUT /api/auth/me), failed as the consumer leaves it. */
  async function failedNotice(): Promise<number> {
    const account = await newCustomer("Notice Reader");
    const response = await apiJson("PUT", "/api/auth/me", { name: account.name, email: uniqueEmail("moved"), address: account.address, phone: account.phone }, account.auth);
    expect(response.status).toBe(200);
    const notice = await vi.waitFor(
      async () => {
        const [row] = await mailRows("kind = 'ACCOUNT_CHANGED' AND user_id = ?", account.id);
        expect(row?.state).toBe("kept");
        return row;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(notice).toMatchObject({ order_id: null, order_status: null, to_address: account.email });
    return fail(notice.id);
  }

  it("has no order and is still sent again: the card offers it under its kind, the press queues it, the consumer delivers it", async () => {
    const id = await failedNotice();
    const card = await failedCard(id);
    expect(card).toContain("Account change notice");
    expect(card).toContain('data-testid="mail-retry"');
    expect(card).not.toContain('data-testid="mail-no-retry"');
    const response = await retry(id);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`Mail #${id} is queued again.`);
    await vi.waitFor(async () => expect(await mailRow(id)).toMatchObject({ state: "kept", attempts: 1, last_error: null }), { timeout: 15_000, interval: 100 });
  });

  it("'Send all' queues it beside the order mails still true, and skips only those no longer true", async () => {
    await clearFailed();
    const notice = await failedNotice();
    const movedOn = await newOrder();
    await moveTo(movedOn, "SHIPPED");
    const stale = await fail((await newestMail(movedOn, "ORDER_STATUS")).id);
    await moveTo(movedOn, "CANCELLED");
    const { sent, queue } = recordingQueue();
    expect(await retryAllFailedMail(createDb(testEnv.DB), queue)).toEqual({ queued: 1, skipped: 1 });
    expect(sent).toEqual([notice]);
    expect(await mailRow(notice)).toMatchObject({ state: "queued", attempts: 0, last_error: null });
    expect(await mailRow(stale)).toMatchObject({ state: "failed", attempts: 5 });
  });
});

describe("the rule the page shows (retryRefusal) and the UPDATE that re-queues (STILL_TRUE) agree", () => {
  it("for every kind of mail: with no order, an order that still has the mail's status, one moved on, one cancelled", async () => {
    const situations: { order: OrderStatus | null; announced: OrderStatus | null }[] = [
      { order: null, announced: null },
      { order: "SHIPPED", announced: "SHIPPED" },
      { order: "PENDING", announced: "SHIPPED" },
      { order: "CANCELLED", announced: null },
    ];
    const offered: Record<string, boolean[]> = {};
    for (const kind of MAIL_KINDS) {
      offered[kind] = [];
      for (const { order, announced } of situations) {
        const id = await insertMail({ kind, state: "failed", attempts: 5, order_id: order && (await insertOrder(order)), order_status: announced });
        // The page: a "Send again" button or the reason why not (retryRefusal on the row and its order as read).
        const card = await failedCard(id);
        const onPage = card.includes('data-testid="mail-retry"');
        expect(onPage || card.includes('data-testid="mail-no-retry"')).toBe(true);
        expect(retryRefusal({ kind, announcedStatus: announced, orderStatusNow: order, laterStatusMail: false }) === null).toBe(onPage);
        // The press: the UPDATE's own condition.
        const { sent, queue } = recordingQueue();
        const result = await retryFailedMail(createDb(testEnv.DB), queue, id);
        expect(result.ok, `${kind}, order ${order}, announcing ${announced}`).toBe(onPage);
        expect(sent).toEqual(onPage ? [id] : []);
        offered[kind].push(onPage);
      }
    }
    expect(offered).toEqual({
      ORDER_PLACED: [false, false, true, false],
      ORDER_STATUS: [false, true, false, false],
      PASSWORD_RESET: [false, false, false, false],
      ACCOUNT_CHANGED: [true, true, true, true],
    });
  });
});
