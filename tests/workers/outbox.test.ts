import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { expectApiError, tag } from "./catalogue-helpers";
import { call, postForm, testEnv } from "./helpers";
import { type Account, checkoutForm, newAdmin, newCustomer, orderForm, orderBody, placeOrder, postCheckout, postOrder, product, setStock, stockOf } from "./order-helpers";
import { createDb } from "../../app/services/db.server";
import { retryFailedMail } from "../../app/services/outbox.server";
import { countMails, insertMail, insertOrder, worker, mailEnv, mailRow, mailRows, mailsOfOrder, runConsumer, sendMode } from "./outbox-helpers";

// The transactional outbox: the mail rows written in the same D1 batch as the order or the status change (and never
// without it), the queue consumer that sends or keeps them, retries with backoff and ends failed with the reason, the
// sweep that puts lost rows back on the queue, and /admin/outbox.

const t = tag();
let customer: Account;
let admin: Account;

beforeAll(async () => {
  [customer, admin] = await Promise.all([newCustomer("Outbox Customer"), newAdmin()]);
});

/** A product with two sizes, EU 42 and EU 43, each with this stock. */
async function twoSizeProduct(name: string, price: number, stock = 5): Promise<{ id: number; eu42: number; eu43: number }> {
  const id = await product({ name, price, stockQuantity: stock });
  await testEnv.DB.prepare("UPDATE product_sizes SET label = 'EU 42' WHERE product_id = ?").bind(id).run();
  const eu43 = await testEnv.DB.prepare("INSERT INTO product_sizes (product_id, label, position, stock_quantity) VALUES (?, 'EU 43', 1, ?) RETURNING id").bind(id, stock).first<{ id: number }>();
  const eu42 = await testEnv.DB.prepare("SELECT id FROM product_sizes WHERE product_id = ? AND label = 'EU 42'").bind(id).first<{ id: number }>();
  return { id, eu42: eu42!.id, eu43: eu43!.id };
}

function putStatus(orderId: number, status: string): Promise<Response> {
  return call(`/api/orders/admin/${orderId}/status?status=${status}`, { method: "PUT", headers: admin.auth });
}

describe("the order confirmation", () => {
  it("is written with the order: items with sizes, quantities, the total in LKR, the bank details and the order's link", async () => {
    const shoe = await twoSizeProduct(`Harbour Runner ${t}`, 12500);
    const belt = await product({ name: `Leather Belt ${t}`, price: 3499.5, stockQuantity: 4 });
    const order = await placeOrder(
      customer.token,
      [
        { productId: shoe.id, sizeId: shoe.eu42, quantity: 2 },
        { productId: belt, quantity: 1 },
      ],
      undefined,
      { customerEmail: "kasun.confirm@example.com", customerName: "Kasun Confirm" },
    );
    const mails = await mailsOfOrder(order.id);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    // To the account that placed it: the address typed at checkout is the order's contact, never a mail's recipient.
    expect(mail).toMatchObject({ kind: "ORDER_PLACED", to_address: customer.email, user_id: customer.id, order_id: order.id });
    expect(await mailRows("to_address = ?", "kasun.confirm@example.com")).toEqual([]);
    expect(mail.subject).toBe(`Stride order #${order.id}: we have your order`);
    // The placeholder the batch renders with is gone everywhere: the real order id stands in its place.
    for (const part of [mail.subject, mail.text_body, mail.html_body]) expect(part).not.toMatch(/ORDER-[0-9a-f-]{36}/);
    expect(mail.text_body).toContain("Hello Kasun Confirm,");
    expect(mail.text_body).toContain(`- Harbour Runner ${t} (EU 42) x 2: LKR 25,000.00`);
    expect(mail.text_body).toContain(`- Leather Belt ${t} x 1: LKR 3,499.50`);
    expect(mail.text_body).toContain("Total: LKR 28,499.50");
    expect(mail.text_body).toContain(`Bank: ${testEnv.BANK_NAME}`);
    expect(mail.text_body).toContain(`Account number: ${testEnv.BANK_ACCOUNT_NUMBER}`);
    // Said after payment: the slip is checked against the account, and no reference is asked for (the customer paid
    // before the order, and its number, existed).
    expect(mail.text_body).toContain("We check your slip against a transfer into this account, and we will confirm your order once we have matched your slip to the transfer.");
    expect(mail.text_body).not.toContain("reference");
    expect(mail.text_body).toContain(`See your order: http://localhost/orders/${order.id}`);
    expect(mail.html_body).toContain(`href="http://localhost/orders/${order.id}"`);
    expect(mail.html_body).toContain("LKR 28,499.50");
    expect(mail.html_body).toContain(`Harbour Runner ${t} (EU 42) &times; 2`);
  });

  it("is written by the checkout form too (no JavaScript)", async () => {
    const id = await product({ name: `Form Shoe ${t}`, stockQuantity: 3 });
    const buyer = await newCustomer("Form Buyer");
    const added = await call(`/api/cart/add?productId=${id}&quantity=1`, { method: "POST", headers: buyer.auth });
    expect(added.status).toBe(200);
    const response = await postCheckout(checkoutForm({ customerEmail: "form.buyer@example.com" }), buyer.cookie);
    expect(response.status).toBe(302);
    const orderId = Number(response.headers.get("Location")!.match(/\/orders\/(\d+)/)![1]);
    expect(await mailsOfOrder(orderId)).toMatchObject([{ kind: "ORDER_PLACED", to_address: buyer.email }]);
  });

  it("escapes every value in the HTML part: the customer's words and the catalogue's", async () => {
    const id = await product({ name: `<b>Bold</b> & "Quoted" ${t}`, stockQuantity: 3 });
    const order = await placeOrder(customer.token, [{ productId: id, quantity: 1 }], undefined, {
      customerName: `<script>alert("name")</script>`,
      shippingAddress: `<img src=x onerror="alert('address')"> Lane`,
    });
    const [mail] = await mailsOfOrder(order.id);
    expect(mail.html_body).not.toContain("<script>");
    expect(mail.html_body).not.toContain("<img");
    expect(mail.html_body).not.toContain("<b>Bold");
    expect(mail.html_body).toContain("Hello &lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;,");
    expect(mail.html_body).toContain("&lt;img src=x onerror=&quot;alert(&#39;address&#39;)&quot;&gt; Lane");
    expect(mail.html_body).toContain(`&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;Quoted&quot; ${t}`);
    // The plain-text part is text: the words as they were typed.
    expect(mail.text_body).toContain(`Hello <script>alert("name")</script>,`);
  });

  it("is not written when the order is refused before its batch (409 on stock)", async () => {
    const id = await product({ name: `Scarce Shoe ${t}`, stockQuantity: 1 });
    const before = await countMails();
    const response = await postOrder(orderForm(orderBody([{ productId: id, quantity: 2 }])), customer.token);
    await expectApiError(response, 409);
    expect(await countMails()).toBe(before);
  });

  it("is not written when the order's batch fails on the stock CHECK: the order, its stock and its mail go together", async () => {
    const id = await product({ name: `Raced Shoe ${t}`, stockQuantity: 2 });
    // Another shopper takes the last pairs between the order's stock check and its batch: a trigger empties the size
    // as the batch writes the first order line, so the batch's own stock update then breaks the CHECK.
    await testEnv.DB.prepare(
      `CREATE TRIGGER raced_${t} BEFORE INSERT ON order_items WHEN new.product_id = ${id}
       BEGIN UPDATE product_sizes SET stock_quantity = 0 WHERE product_id = ${id}; END`,
    ).run();
    try {
      const before = await countMails();
      const orders = (await testEnv.DB.prepare("SELECT count(*) AS n FROM orders").first<{ n: number }>())!.n;
      const response = await postOrder(orderForm(orderBody([{ productId: id, quantity: 1 }])), customer.token);
      // The batch rolled back the trigger's write too, so the stock is there again when the answer is worded.
      await expectApiError(response, 409);
      expect(await stockOf(id)).toBe(2);
      expect(await countMails()).toBe(before);
      expect((await testEnv.DB.prepare("SELECT count(*) AS n FROM orders").first<{ n: number }>())!.n).toBe(orders);
    } finally {
      await testEnv.DB.prepare(`DROP TRIGGER raced_${t}`).run();
    }
  });

  it("of concurrent orders for the last pairs: one mail per order placed, none for the refused", async () => {
    const id = await product({ name: `Last Pairs ${t}`, stockQuantity: 3 });
    const buyers = await Promise.all(Array.from({ length: 6 }, (_, i) => newCustomer(`Racer ${i}`)));
    const responses = await Promise.all(buyers.map((buyer) => postOrder(orderForm(orderBody([{ productId: id, quantity: 1 }])), buyer.token)));
    const placed = responses.filter((response) => response.status === 201);
    expect(placed).toHaveLength(3);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(3);
    const orderIds = (await Promise.all(placed.map((response) => response.json() as Promise<{ id: number }>))).map((order) => order.id).sort((a, b) => a - b);
    const mails = await mailRows(`kind = 'ORDER_PLACED' AND order_id IN (SELECT order_id FROM order_items WHERE product_id = ?)`, id);
    expect(mails.map((mail) => mail.order_id).sort((a, b) => a! - b!)).toEqual(orderIds);
  });
});

describe("status mails", () => {
  let orderId: number;
  let productId: number;

  beforeAll(async () => {
    productId = await product({ name: `Status Mail Shoe ${t}`, stockQuantity: 4 });
    orderId = (await placeOrder(customer.token, [{ productId, quantity: 2 }], undefined, { customerEmail: "status.mail@example.com", customerName: "Status Reader" })).id;
  });

  const statusMails = () => mailRows("order_id = ? AND kind = 'ORDER_STATUS'", orderId);

  it("each status change writes one, in the customer's words, to the account that placed the order", async () => {
    expect((await putStatus(orderId, "CONFIRMED")).status).toBe(200);
    const [confirmed] = await statusMails();
    expect(confirmed).toMatchObject({ to_address: customer.email, user_id: customer.id, subject: `Stride order #${orderId}: your payment is confirmed` });
    expect(await mailRows("to_address = ?", "status.mail@example.com")).toEqual([]);
    expect(confirmed.text_body).toContain("Hello Status Reader,");
    expect(confirmed.text_body).toContain("We have received your bank transfer and your order is confirmed.");
    expect(confirmed.text_body).toContain(`http://localhost/orders/${orderId}`);

    for (const status of ["PROCESSING", "SHIPPED", "DELIVERED"]) expect((await putStatus(orderId, status)).status).toBe(200);
    const subjects = (await statusMails()).map((mail) => mail.subject.replace(`Stride order #${orderId}: `, ""));
    expect(subjects).toEqual(["your payment is confirmed", "we are packing your order", "your order is on its way", "your order has been delivered"]);
  });

  it("back to PENDING says the slip is being checked", async () => {
    expect((await putStatus(orderId, "PENDING")).status).toBe(200);
    const last = (await statusMails()).at(-1)!;
    expect(last.subject).toBe(`Stride order #${orderId}: we are checking your bank slip`);
    expect(last.text_body).toContain("We are checking your bank slip.");
  });

  it("setting the status it already has writes nothing", async () => {
    const before = (await statusMails()).length;
    expect((await putStatus(orderId, "PENDING")).status).toBe(200);
    expect(await statusMails()).toHaveLength(before);
  });

  it("a reopening refused for want of stock (the CHECK fails the batch) writes nothing", async () => {
    expect((await putStatus(orderId, "CANCELLED")).status).toBe(200);
    const cancelled = (await statusMails()).at(-1)!;
    expect(cancelled.subject).toBe(`Stride order #${orderId}: your order has been cancelled`);
    const before = (await statusMails()).length;
    await setStock(productId, 1);
    const response = await putStatus(orderId, "CONFIRMED");
    expect(response.status).toBe(409);
    expect(await statusMails()).toHaveLength(before);
  });

  it("is worded for the move: a cancellation after delivery speaks of a return and a refund; a reopening says so", async () => {
    const id = (await placeOrder(customer.token, [{ productId: await product({ stockQuantity: 2 }), quantity: 1 }], undefined, { customerName: "Move Reader" })).id;
    for (const status of ["SHIPPED", "DELIVERED", "CANCELLED"]) expect((await putStatus(id, status)).status).toBe(200);
    const cancelled = (await mailRows("order_id = ? AND kind = 'ORDER_STATUS'", id)).at(-1)!;
    expect(cancelled).toMatchObject({ subject: `Stride order #${id}: your order has been cancelled`, order_status: "CANCELLED" });
    for (const part of [cancelled.text_body, cancelled.html_body]) {
      expect(part).toContain("This order has been cancelled after it was delivered. We will contact you about returning the shoes and a refund of what you paid.");
      expect(part).not.toContain("will not be sent");
    }

    expect((await putStatus(id, "PENDING")).status).toBe(200);
    const reopened = (await mailRows("order_id = ? AND kind = 'ORDER_STATUS'", id)).at(-1)!;
    expect(reopened).toMatchObject({ subject: `Stride order #${id}: your order has been reopened`, order_status: "PENDING" });
    expect(reopened.text_body).toContain("Hello Move Reader,\n\nYour order has been reopened.\n\nWe have reopened your cancelled order. Your order is waiting for us to match");
    expect(reopened.html_body).toContain("We have reopened your cancelled order.");
  });

  it("the admin's screen writes one too", async () => {
    const id = (await placeOrder(customer.token, [{ productId: await product({ stockQuantity: 2 }), quantity: 1 }])).id;
    const response = await postForm("/admin/orders", { intent: "status", orderId: String(id), status: "SHIPPED" }, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect((await mailRows("order_id = ? AND kind = 'ORDER_STATUS'", id)).map((mail) => mail.subject)).toEqual([`Stride order #${id}: your order is on its way`]);
  });

  it("a correction the admin chose not to tell the customer about writes no mail, and moves the order all the same", async () => {
    const id = (await placeOrder(customer.token, [{ productId: await product({ stockQuantity: 2 }), quantity: 1 }])).id;
    expect((await putStatus(id, "DELIVERED")).status).toBe(200);
    const delivered = await mailRows("order_id = ? AND kind = 'ORDER_STATUS'", id);
    // The screen's form: its box unticked sends notify=no, and the answer says so.
    const screen = await postForm("/admin/orders", { intent: "status", orderId: String(id), status: "CONFIRMED", statusWas: "DELIVERED", notify: "no" }, { cookie: admin.cookie });
    expect(screen.status).toBe(200);
    expect(await screen.text()).toContain(`Order #${id} is now CONFIRMED. The customer was not e-mailed.`);
    // The API: notify=false.
    const api = await call(`/api/orders/admin/${id}/status?status=DELIVERED&notify=false`, { method: "PUT", headers: admin.auth });
    expect(api.status).toBe(200);
    expect(((await api.json()) as { status: string }).status).toBe("DELIVERED");
    expect(await mailRows("order_id = ? AND kind = 'ORDER_STATUS'", id)).toEqual(delivered);
    // Ticked (notify=yes) or true, the customer is told as before.
    expect((await postForm("/admin/orders", { intent: "status", orderId: String(id), status: "SHIPPED", notify: "yes" }, { cookie: admin.cookie })).status).toBe(200);
    expect((await call(`/api/orders/admin/${id}/status?status=DELIVERED&notify=true`, { method: "PUT", headers: admin.auth })).status).toBe(200);
    expect((await mailRows("order_id = ? AND kind = 'ORDER_STATUS'", id)).map((mail) => mail.order_status)).toEqual(["DELIVERED", "SHIPPED", "DELIVERED"]);
  });

  it("a notify that is neither is 400 and changes nothing", async () => {
    const id = (await placeOrder(customer.token, [{ productId: await product({ stockQuantity: 2 }), quantity: 1 }])).id;
    const body = await expectApiError(await call(`/api/orders/admin/${id}/status?status=CONFIRMED&notify=no`, { method: "PUT", headers: admin.auth }), 400);
    expect(body.fieldErrors?.notify).toBeDefined();
    expect((await postForm("/admin/orders", { intent: "status", orderId: String(id), status: "CONFIRMED", notify: "false" }, { cookie: admin.cookie })).status).toBe(400);
    const [row] = (await testEnv.DB.prepare("SELECT status FROM orders WHERE id = ?").bind(id).all<{ status: string }>()).results;
    expect(row.status).toBe("PENDING");
    expect(await mailRows("order_id = ? AND kind = 'ORDER_STATUS'", id)).toEqual([]);
  });

  it("two admins moving the order at once: the one whose update changed it writes the mail", async () => {
    const id = (await placeOrder(customer.token, [{ productId: await product({ stockQuantity: 2 }), quantity: 1 }])).id;
    const responses = await Promise.all([putStatus(id, "CONFIRMED"), putStatus(id, "CONFIRMED"), putStatus(id, "CONFIRMED")]);
    for (const response of responses) expect(response.status).toBe(200);
    expect(await mailRows("order_id = ? AND kind = 'ORDER_STATUS'", id)).toHaveLength(1);
  });
});

describe("the queue consumer", () => {
  it("keeps the mail in local mode (MAIL_MODE=keep): nothing is sent, the row says kept", async () => {
    const id = await insertMail();
    const result = await runConsumer([{ id }], { MAIL_MODE: "keep" });
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    expect(await mailRow(id)).toMatchObject({ state: "kept", attempts: 1, last_error: null, locked_until: null, message_id: null });
    expect((await mailRow(id)).sent_at).toBeGreaterThan(0);
  });

  it("sends through the send_email binding with MAIL_MODE=send and records the message id", async () => {
    const id = await insertMail();
    const result = await runConsumer([{ id }], sendMode());
    expect(result.explicitAcks).toHaveLength(1);
    const row = await mailRow(id);
    expect(row).toMatchObject({ state: "sent", attempts: 1, last_error: null, locked_until: null });
    expect(row.message_id).toEqual(expect.any(String));
  });

  it("a message for a row already delivered, or for no row, is acknowledged without a second try", async () => {
    const id = await insertMail();
    await runConsumer([{ id }], { MAIL_MODE: "keep" });
    const again = await runConsumer([{ id }, { id: 999_999_999 }, { nonsense: true }], sendMode());
    expect(again.explicitAcks).toHaveLength(3);
    expect(again.retryMessages).toEqual([]);
    expect(await mailRow(id)).toMatchObject({ state: "kept", attempts: 1 });
  });

  it("the same row in two deliveries at once is sent once", async () => {
    const id = await insertMail();
    await Promise.all([runConsumer([{ id }], sendMode()), runConsumer([{ id }], sendMode())]);
    expect(await mailRow(id)).toMatchObject({ state: "sent", attempts: 1 });
  });

  it("retries a refused send with growing delays and ends failed with the reason after 5 tries", async () => {
    // REFUSING_EMAIL is Miniflare's real binding, limited to one recipient: it refuses this one.
    const id = await insertMail({ to_address: "refused@example.com" });
    const refusing = sendMode(mailEnv.REFUSING_EMAIL);
    const delays: (number | undefined)[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const result = await runConsumer([{ id }], refusing);
      expect(result.explicitAcks).toEqual([]);
      expect(result.retryMessages).toHaveLength(1);
      delays.push(result.retryDelays[0]);
      const row = await mailRow(id);
      expect(row).toMatchObject({ state: "queued", attempts: attempt, locked_until: null });
      expect(row.last_error).toContain("refused@example.com not allowed");
      // Due for the sweep only well after the queue should have brought it back.
      expect(row.next_attempt_at).toBeGreaterThan(Date.now() + delays.at(-1)! * 1000);
    }
    expect(delays).toEqual([30, 60, 120, 240]);

    const last = await runConsumer([{ id }], refusing);
    expect(last.explicitAcks).toHaveLength(1);
    expect(last.retryMessages).toEqual([]);
    const row = await mailRow(id);
    expect(row).toMatchObject({ state: "failed", attempts: 5, locked_until: null, sent_at: null });
    expect(row.last_error).toMatch(/email to refused@example\.com not allowed/);

    // A failed row is never tried again.
    await runConsumer([{ id }], sendMode());
    expect(await mailRow(id)).toMatchObject({ state: "failed", attempts: 5 });
  });

  it("a row another consumer is sending (its lease not over) is left to it", async () => {
    const id = await insertMail({ locked_until: Date.now() + 60_000, attempts: 1 });
    const result = await runConsumer([{ id }], sendMode());
    expect(result.explicitAcks).toHaveLength(1);
    expect(await mailRow(id)).toMatchObject({ state: "queued", attempts: 1 });
  });
});

describe("the sweep", () => {
  it("puts a queued row whose queue message was lost back on the queue, and the consumer keeps it", async () => {
    // A row written by a batch whose queue send never happened, now past its deadline.
    const id = await insertMail({ next_attempt_at: Date.now() - 1000 });
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    // Its deadline moves on at once (the next sweep does not send it twice) ...
    expect((await mailRow(id)).next_attempt_at).toBeGreaterThan(Date.now() + 60_000);
    // ... and the Worker's own consumer, fed by the real queue, delivers it (kept: the tests run in local mode).
    await vi.waitFor(async () => expect((await mailRow(id)).state).toBe("kept"), { timeout: 15_000, interval: 200 });
  });

  it("leaves rows that are not due, and rows already delivered", async () => {
    const notDue = await insertMail();
    const failed = await insertMail({ next_attempt_at: Date.now() - 1000, state: "failed", attempts: 5 });
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(await mailRow(notDue)).toMatchObject({ state: "queued", attempts: 0 });
    expect(await mailRow(failed)).toMatchObject({ state: "failed", attempts: 5 });
  });
});

describe("a placed order's mail reaches the queue", () => {
  it("the request puts the row on the queue after the batch; the Worker's consumer keeps it (local mode)", async () => {
    const order = await placeOrder(customer.token, [{ productId: await product({ stockQuantity: 2 }), quantity: 1 }]);
    const [mail] = await mailsOfOrder(order.id);
    await vi.waitFor(async () => expect((await mailRow(mail.id)).state).toBe("kept"), { timeout: 15_000, interval: 200 });
  });
});

describe("/admin/outbox", () => {
  it("is for admins: a visitor goes to the login page, a customer to the shop", async () => {
    const anonymous = await call("/admin/outbox");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/login?redirect=%2Fadmin%2Foutbox");
    const asCustomer = await call("/admin/outbox", { headers: { Cookie: customer.cookie } });
    expect(asCustomer.status).toBe(302);
    expect(asCustomer.headers.get("Location")).toBe("/");
    const data = await call("/admin/outbox.data", { headers: { Cookie: customer.cookie } });
    expect(await data.text()).not.toContain("@example.com");
  });

  it("lists the mails newest first with state, recipient, subject, tries, last error and the text", async () => {
    const failed = await insertMail({ to_address: `failed-${t}@example.com`, subject: `Failed subject ${t}`, state: "failed", attempts: 5, last_error: `Refused <${t}>` });
    const newest = await insertMail({ to_address: `newest-${t}@example.com`, subject: `Newest subject ${t}`, text_body: `Body of <the> newest ${t}` });
    const response = await call("/admin/outbox", { headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html.indexOf(`Newest subject ${t}`)).toBeGreaterThan(-1);
    expect(html.indexOf(`Newest subject ${t}`)).toBeLessThan(html.indexOf(`Failed subject ${t}`));
    expect(html).toContain(`newest-${t}@example.com`);
    expect(html).toContain(`Body of &lt;the&gt; newest ${t}`);
    expect(html).toContain(`Refused &lt;${t}&gt;`);
    expect(html).toMatch(new RegExp(`data-mail-id="${failed}"[^>]*data-state="failed"`));
    expect(html).toMatch(new RegExp(`data-mail-id="${newest}"[^>]*data-state="queued"`));
  });

  it("filters by state and pages through the URL", async () => {
    for (let i = 0; i < 22; i++) await insertMail({ subject: `Paged ${t} ${i}`, state: "kept", attempts: 1 });
    const first = await (await call("/admin/outbox?state=kept", { headers: { Cookie: admin.cookie } })).text();
    const second = await (await call("/admin/outbox?state=kept&page=2", { headers: { Cookie: admin.cookie } })).text();
    expect(first).toContain(`Paged ${t} 21`);
    expect(first).not.toContain(`Paged ${t} 1<`);
    expect(first).toContain('rel="next"');
    expect(second).toContain(`Paged ${t} 1<`);
    expect(second).not.toContain(`Paged ${t} 21`);
    expect(first).not.toMatch(/data-state="(queued|sent|failed)"/);
  });

  it("answers a bad page or state with the first page of everything, not an error", async () => {
    for (const query of ["?page=0", "?page=abc", "?page=99999999999999999999", "?state=lost", "?state="]) {
      const response = await call(`/admin/outbox${query}`, { headers: { Cookie: admin.cookie } });
      expect(response.status, query).toBe(200);
    }
  });
});

describe("sending a failed mail again from /admin/outbox", () => {
  const retry = (id: number | string, cookie = admin.cookie) => postForm("/admin/outbox?state=failed", { intent: "retry", id: String(id) }, { cookie });
  // A failed "on its way" mail of an order that is still SHIPPED: true, so it may be sent again (outbox-retry.test.ts
  // has the mails no longer true of their order).
  let shipped: number;
  beforeAll(async () => {
    shipped = await insertOrder("SHIPPED");
  });
  const failedMail = (overrides: Parameters<typeof insertMail>[0] = {}) =>
    insertMail({
      state: "failed",
      attempts: 5,
      last_error: "Daily sending quota exceeded",
      subject: `Failed again ${t} ${crypto.randomUUID()}`,
      order_id: shipped,
      order_status: "SHIPPED",
      ...overrides,
    });

  it("is for admins: a customer goes to the shop and a visitor to the login page, and the mail stays failed", async () => {
    const id = await failedMail();
    const asCustomer = await retry(id, customer.cookie);
    expect(asCustomer.status).toBe(302);
    expect(asCustomer.headers.get("Location")).toBe("/");
    const anonymous = await postForm("/admin/outbox", { intent: "retry", id: String(id) });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/login\?redirect=/);
    const all = await postForm("/admin/outbox", { intent: "retry-all" }, { cookie: customer.cookie });
    expect(all.status).toBe(302);
    expect(await mailRow(id)).toMatchObject({ state: "failed", attempts: 5 });
  });

  it("a form posted from another site is refused (403), even with the admin's cookie", async () => {
    const id = await failedMail();
    const response = await call("/admin/outbox", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example", Cookie: admin.cookie },
      body: new URLSearchParams({ intent: "retry", id: String(id) }).toString(),
    });
    expect(response.status).toBe(403);
    expect(await mailRow(id)).toMatchObject({ state: "failed", attempts: 5 });
  });

  it("refuses a mail that was sent (409) or does not exist (404), saying why, and changes nothing", async () => {
    const sent = await insertMail({ state: "sent", attempts: 1, sent_at: Date.now(), message_id: "sent-message" });
    const response = await retry(sent);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(`Mail #${sent} is sent: only a failed mail can be sent again`);
    expect(await mailRow(sent)).toMatchObject({ state: "sent", attempts: 1, message_id: "sent-message" });

    const missing = await retry(999_999_999);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Mail #999999999 not found");
  });

  it("refuses a failed password reset (its link was removed from the outbox's copy), and offers no button for it", async () => {
    const id = await failedMail({ kind: "PASSWORD_RESET", subject: `Reset your Stride password ${t}`, order_id: null, order_status: null });
    const response = await retry(id);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("its link no longer works");
    expect(await mailRow(id)).toMatchObject({ state: "failed", attempts: 5 });
    const page = await (await call("/admin/outbox?state=failed", { headers: { Cookie: admin.cookie } })).text();
    const card = page.slice(page.indexOf(`data-mail-id="${id}"`), page.indexOf("</li>", page.indexOf(`data-mail-id="${id}"`)));
    expect(card).toContain('data-testid="mail-no-retry"');
    expect(card).not.toContain('data-testid="mail-retry"');
  });

  it("answers bad input with 400 and changes nothing", async () => {
    const id = await failedMail();
    for (const fields of [{ intent: "retry", id: "abc" }, { intent: "retry" }, { intent: "delete", id: String(id) }, {}]) {
      const response = await postForm("/admin/outbox", fields as Record<string, string>, { cookie: admin.cookie });
      expect(response.status, JSON.stringify(fields)).toBe(400);
    }
    expect(await mailRow(id)).toMatchObject({ state: "failed", attempts: 5 });
  });

  it("without JavaScript: the page comes back saying so, the mail queued with its tries reset; the Worker's queue delivers it", async () => {
    const id = await failedMail();
    // From the unfiltered list, where the mail stays in view after it leaves the failed ones.
    const response = await postForm("/admin/outbox", { intent: "retry", id: String(id) }, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`Mail #${id} is queued again.`);
    // The card shows its new state (queued, or already kept if the queue's consumer was quicker than the render).
    expect(html).toMatch(new RegExp(`data-mail-id="${id}"[^>]*data-state="(queued|kept)"`));
    const row = await mailRow(id);
    expect(["queued", "kept"]).toContain(row.state);
    if (row.state === "queued") expect(row).toMatchObject({ attempts: 0, last_error: null, locked_until: null });
    // Handed to the real queue: the Worker's consumer delivers it once (kept: the tests run in local mode).
    await vi.waitFor(async () => expect(await mailRow(id)).toMatchObject({ state: "kept", attempts: 1, last_error: null }), { timeout: 15_000, interval: 200 });

    // A second press finds nothing failed to send.
    const again = await retry(id);
    expect(again.status).toBe(409);
  });

  it("a failed mail sent again goes out through the send_email binding (MAIL_MODE=send): sent, with a message id", async () => {
    const id = await failedMail();
    const sentIds: number[] = [];
    const queue = { sendBatch: async (messages: Iterable<{ body: { id: number } }>) => void sentIds.push(...[...messages].map((m) => m.body.id)) } as unknown as Queue;
    const result = await retryFailedMail(createDb(testEnv.DB), queue, id);
    expect(result).toEqual({ ok: true });
    expect(sentIds).toEqual([id]);
    expect(await mailRow(id)).toMatchObject({ state: "queued", attempts: 0, last_error: null });
    const consumed = await runConsumer(sentIds.map((sentId) => ({ id: sentId })), sendMode());
    expect(consumed.explicitAcks).toHaveLength(1);
    const row = await mailRow(id);
    expect(row).toMatchObject({ state: "sent", attempts: 1, last_error: null });
    expect(row.message_id).toEqual(expect.any(String));
  });

  it("'Send all failed mail again' queues every failed mail still true (never reset mails), and the page says how many", async () => {
    // Each the last word of its own SHIPPED order (a later status mail of the same order would stand in its way).
    const ids = [await failedMail({ order_id: await insertOrder("SHIPPED") }), await failedMail({ order_id: await insertOrder("SHIPPED") }), await failedMail({ order_id: await insertOrder("SHIPPED") })];
    const reset = await failedMail({ kind: "PASSWORD_RESET", order_id: null, order_status: null });
    // This file's earlier failed mails belong to no order, or are not their order's last: those are skipped (counted
    // apart, outbox-retry.test.ts).
    const queued = (
      await mailRows(
        "state = 'failed' AND kind = 'ORDER_STATUS' AND order_status = 'SHIPPED' AND order_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM email_outbox AS later WHERE later.order_id = email_outbox.order_id AND later.kind = 'ORDER_STATUS' AND later.id > email_outbox.id)",
      )
    ).length;
    const skipped = (await mailRows("state = 'failed' AND kind <> 'PASSWORD_RESET'")).length - queued;
    expect(queued).toBeGreaterThanOrEqual(ids.length);
    expect(skipped).toBeGreaterThan(0);
    const page = await (await call("/admin/outbox?state=failed", { headers: { Cookie: admin.cookie } })).text();
    expect(page).toContain('data-testid="retry-all"');
    const response = await postForm("/admin/outbox?state=failed", { intent: "retry-all" }, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`${queued} failed mails are queued again. ${skipped} failed mail${skipped === 1 ? "" : "s"} skipped`);
    for (const id of ids) expect(["queued", "kept"]).toContain((await mailRow(id)).state);
    expect(await mailRow(reset)).toMatchObject({ state: "failed", attempts: 5 });
    await vi.waitFor(async () => expect((await mailRows(`id IN (${ids.join(", ")}) AND state = 'kept'`)).length).toBe(ids.length), { timeout: 15_000, interval: 200 });
    // Nothing failed is left to send again: the button is gone, and a second press says so.
    const after = await postForm("/admin/outbox?state=failed", { intent: "retry-all" }, { cookie: admin.cookie });
    const html = await after.text();
    expect(html).toContain(`No failed mail is queued again. ${skipped} failed mail${skipped === 1 ? "" : "s"} skipped`);
    expect(html).not.toContain('data-testid="retry-all"');
  });
});
