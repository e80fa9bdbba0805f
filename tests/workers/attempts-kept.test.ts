import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";

import { EMAIL_MAX } from "~/lib/constants";
import { ATTEMPTS_KEPT_MS, LOGIN_RATE_LIMIT } from "~/services/auth.server";
import { RESET_RATE_LIMIT } from "~/services/password-reset.server";
import { expectApiError } from "./catalogue-helpers";
import { apiJson, postForm, registerBody, testEnv, uniqueEmail } from "./helpers";
import { worker } from "./outbox-helpers";

// What an anonymous client can make the shop keep. A login or a reset asked for is counted under its e-mail before
// anything else (the rate limit), so an e-mail of any length, each one new, was a row of that length kept for good:
// enough of them would fill the database, and every write (orders, carts, logins) would fail.

const attemptRows = async () => (await testEnv.DB.prepare("SELECT count(*) AS n, coalesce(sum(length(email)), 0) AS bytes FROM login_attempts").first<{ n: number; bytes: number }>())!;

/** A well-formed address of `length` characters: a short name at a domain of labels of at most 60 letters. */
function addressOfLength(length: number): string {
  const labels: string[] = [];
  let room = length - "shopper@".length - ".test".length;
  while (room > 0) {
    const label = Math.min(60, room - (labels.length ? 1 : 0));
    labels.push("x".repeat(label));
    room -= label + (labels.length > 1 ? 1 : 0);
  }
  return `shopper@${labels.join(".")}.test`;
}

describe("an e-mail longer than an address can be", () => {
  it("is refused (400, fieldErrors.email) by login, forgot-password and register, and nothing is stored", async () => {
    const email = addressOfLength(EMAIL_MAX + 1);
    expect(email).toHaveLength(EMAIL_MAX + 1);
    const before = await attemptRows();
    for (const [path, body] of [
      ["/api/auth/login", { email, password: "whatever1" }],
      ["/api/auth/forgot-password", { email }],
      ["/api/auth/register", registerBody({ email })],
    ] as const) {
      const error = await expectApiError(await apiJson("POST", path, body), 400);
      expect(error.fieldErrors?.email?.join(" "), path).toBe(`Email must be at most ${EMAIL_MAX} characters`);
    }
    // The screens' forms take the same rule.
    expect((await postForm("/forgot-password", { email })).status).toBe(400);
    expect(await attemptRows()).toEqual(before);
    expect(await testEnv.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("an address of exactly the longest length is still taken", async () => {
    const email = addressOfLength(EMAIL_MAX);
    expect(email).toHaveLength(EMAIL_MAX);
    expect((await apiJson("POST", "/api/auth/forgot-password", { email })).status).toBe(200);
    expect((await apiJson("POST", "/api/auth/register", registerBody({ email }))).status).toBe(201);
  });
});

describe("counted attempts", () => {
  it("are kept longer than any rate limit's window", () => {
    for (const limit of [LOGIN_RATE_LIMIT, RESET_RATE_LIMIT]) expect(limit.windowMs).toBeLessThan(ATTEMPTS_KEPT_MS);
  });

  it("the nightly cron forgets those older than a day, whether or not their e-mail is tried again, and keeps the rest", async () => {
    const now = Date.now();
    const old = uniqueEmail("old-attempt");
    const recent = uniqueEmail("recent-attempt");
    await testEnv.DB.batch([
      testEnv.DB.prepare("INSERT INTO login_attempts (email, attempted_at) VALUES (?, ?)").bind(old, now - ATTEMPTS_KEPT_MS - 60_000),
      testEnv.DB.prepare("INSERT INTO login_attempts (email, attempted_at) VALUES (?, ?)").bind(recent, now - ATTEMPTS_KEPT_MS + 60 * 60_000),
    ]);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(now), cron: "30 21 * * *" }), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    const left = await testEnv.DB.prepare("SELECT email FROM login_attempts WHERE email IN (?, ?)").bind(old, recent).all<{ email: string }>();
    expect(left.results.map((row) => row.email)).toEqual([recent]);
  });
});
