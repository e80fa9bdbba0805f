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

/** Writes the row and returns its id. The offline machines: no `cf` object fetched, no metrics sent. */
export async function insertFailedMail(mail: { to: string; subject: string; kind?: "ORDER_STATUS" | "PASSWORD_RESET"; text?: string }): Promise<number> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<{ DB: LocalD1 }>({ configPath: CONFIG_PATH, persist: { path: miniflarePersistRoot(stateDir()) }, remoteBindings: false });
  try {
    const row = await proxy.env.DB.prepare(
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
    return row!.id;
  } finally {
    await proxy.dispose();
  }
}
