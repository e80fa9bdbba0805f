import { resolve } from "node:path";

import { CONFIG_PATH, miniflarePersistRoot, ROOT } from "../../scripts/lib/local-state";

// A mail that failed for good, written straight into the local D1 of the server under test. The local server keeps
// every mail (MAIL_MODE=keep), so no send ever fails there; this row is what a refused send (a day's quota used up)
// leaves behind in production. Written through Wrangler's own local bindings (getPlatformProxy, as `npm run seed`
// does) on the same state folder the server uses.

/** The server's state folder: the one playwright.config.ts gives it, or, against a running server, npm start's. */
function stateDir(): string {
  if (!process.env.BASE_URL) return resolve(ROOT, ".wrangler/e2e-state");
  return resolve(ROOT, process.env.STRIDE_STATE ?? ".wrangler/state");
}

/** The little of D1 this needs (the Workers types are not the e2e tests' types). */
interface LocalD1 {
  prepare(query: string): { bind(...values: unknown[]): { first<T>(): Promise<T | null> } };
}

/**
 * A failed mail as the tests need it: an "on its way" mail of an order of its own, which has `orderStatus` now
 * (SHIPPED: still true, so it may be sent again; anything else: not sent again), or a reset mail (no order).
 */
type FailedMail = { to: string } & ({ kind: "PASSWORD_RESET"; subject: string; text: string } | { kind: "ORDER_STATUS"; orderStatus: "SHIPPED" | "CANCELLED" });

/**
 * The failed mails the tests use, one per use, named by this run (global-setup.ts sets E2E_RUN): they are written once,
 * before any test runs, because a second process writing the server's SQLite while the server writes too makes one of
 * them fail with SQLITE_BUSY (a login answered 500 mid-run). A test finds its mail on /admin/outbox by its recipient.
 */
export function failedMails() {
  const run = process.env.E2E_RUN ?? "run";
  return {
    retryWithJavaScript: { to: `failed.js.${run}@example.com`, kind: "ORDER_STATUS", orderStatus: "SHIPPED" },
    retryWithoutJavaScript: { to: `failed.nojs.${run}@example.com`, kind: "ORDER_STATUS", orderStatus: "SHIPPED" },
    // Its order was cancelled after the mail failed: "on its way" is no longer true, so it is not sent again.
    noLongerTrue: { to: `failed.cancelled.${run}@example.com`, kind: "ORDER_STATUS", orderStatus: "CANCELLED" },
    screenshotReset: {
      to: `reset.failed.${run}@example.com`,
      subject: "Reset your Stride password",
      kind: "PASSWORD_RESET",
      text: "Hello,\n\nChoose a new password: http://localhost/reset-password?token=[removed]\n",
    },
    screenshotQuota: { to: `quota.failed.${run}@example.com`, kind: "ORDER_STATUS", orderStatus: "SHIPPED" },
  } satisfies Record<string, FailedMail>;
}

/** Writes the rows, through one proxy. The offline machines: no `cf` object fetched, no metrics sent. */
export async function insertFailedMails(mails: FailedMail[]): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<{ DB: LocalD1 }>({ configPath: CONFIG_PATH, persist: { path: miniflarePersistRoot(stateDir()) }, remoteBindings: false });
  try {
    for (const mail of mails) {
      let orderId: number | null = null;
      let subject: string;
      let text: string;
      if (mail.kind === "ORDER_STATUS") {
        // The order the mail is about (one line, of a product since deleted), with the status it has now.
        const order = await proxy.env.DB.prepare(
          `INSERT INTO orders (customer_name, customer_email, customer_phone, shipping_address, total_cents, status)
           VALUES ('Outbox Reader', ?, '0771234567', '12 Galle Road, Colombo 03', 1250000, ?) RETURNING id`,
        )
          .bind(mail.to, mail.orderStatus)
          .first<{ id: number }>();
        orderId = order!.id;
        await proxy.env.DB.prepare(
          `INSERT INTO order_items (order_id, product_name, size_label, unit_price_cents, quantity) VALUES (?, 'Harbour Runner', 'EU 42', 1250000, 1) RETURNING id`,
        )
          .bind(orderId)
          .first();
        subject = `Stride order #${orderId}: your order is on its way`;
        text = `Hello Outbox Reader,\n\nYour order is on its way.\n`;
      } else {
        subject = mail.subject;
        text = mail.text;
      }
      await proxy.env.DB.prepare(
        `INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, order_id, order_status, state, attempts, last_error, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'failed', 5, ?, ?) RETURNING id`,
      )
        .bind(
          mail.kind,
          mail.to,
          subject,
          text,
          `<p>${text}</p>`,
          orderId,
          mail.kind === "ORDER_STATUS" ? "SHIPPED" : null,
          "Daily sending quota exceeded for this account",
          Date.now(),
        )
        .first<{ id: number }>();
    }
  } finally {
    await proxy.dispose();
  }
}
