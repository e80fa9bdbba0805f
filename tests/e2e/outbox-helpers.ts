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

/** A failed mail as the tests need it. */
interface FailedMail {
  to: string;
  subject: string;
  kind?: "ORDER_STATUS" | "PASSWORD_RESET";
  text?: string;
}

/**
 * The failed mails the tests use, one per use, named by this run (global-setup.ts sets E2E_RUN): they are written once,
 * before any test runs, because a second process writing the server's SQLite while the server writes too makes one of
 * them fail with SQLITE_BUSY (a login answered 500 mid-run). A test finds its mail on /admin/outbox by its recipient.
 */
export function failedMails() {
  const run = process.env.E2E_RUN ?? "run";
  return {
    retryWithJavaScript: { to: `failed.js.${run}@example.com`, subject: "Stride order #1: your order is on its way" },
    retryWithoutJavaScript: { to: `failed.nojs.${run}@example.com`, subject: "Stride order #1: your order is on its way" },
    screenshotReset: {
      to: `reset.failed.${run}@example.com`,
      subject: "Reset your Stride password",
      kind: "PASSWORD_RESET",
      text: "Hello,\n\nChoose a new password: http://localhost/reset-password?token=[removed]\n",
    },
    screenshotQuota: { to: `quota.failed.${run}@example.com`, subject: "Stride order #1: your order is on its way" },
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
      await proxy.env.DB.prepare(
        `INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, state, attempts, last_error, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, 'failed', 5, ?, ?) RETURNING id`,
      )
        .bind(
          mail.kind ?? "ORDER_STATUS",
          mail.to,
          mail.subject,
          mail.text ?? "Hello,\n\nYour order is on its way.\n",
          `<p>${mail.text ?? "Your order is on its way."}</p>`,
          "Daily sending quota exceeded for this account",
          Date.now(),
        )
        .first<{ id: number }>();
    }
  } finally {
    await proxy.dispose();
  }
}
