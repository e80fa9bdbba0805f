import { and, eq, gt, isNull, sql } from "drizzle-orm";

import { base64url } from "~/lib/base64url";
import { passwordResetMail } from "~/lib/emails.server";
import { badRequest } from "~/lib/http";
import { RESET_LINK_INVALID, RESET_LINK_MINUTES } from "~/lib/password-reset";
import type { ResetPasswordInput } from "~/lib/schemas/auth";
import { takeAttempt, type RateLimit } from "./auth.server";
import { type Db, schema } from "./db.server";
import { outboxValues, type Mailer } from "./outbox.server";
import { hashPassword } from "./password.server";

// "Forgot password?": a one-time link by e-mail, valid for 30 minutes. The token travels only in the mail; the
// database keeps its SHA-256 (a copy of the database resets nothing). Asking always answers the same, whether or not
// an account uses the e-mail, and is rate-limited per e-mail like the login. Using the link sets the new password and
// ends every session of the account (the session version), in one batch that happens only if this request is the one
// that used the link.

const { users, passwordResets, emailOutbox, loginAttempts } = schema;

const RESET_LINK_MS = RESET_LINK_MINUTES * 60 * 1000;

/** Requests per e-mail: enough for a lost mail or two, too few to flood someone's inbox. */
export const RESET_RATE_LIMIT: RateLimit = {
  max: 5,
  windowMs: 15 * 60 * 1000,
  message: "Too many password reset requests for this e-mail. Please try again later.",
};

// Counted in login_attempts beside the login's failures; ':' cannot appear in an e-mail the schemas accept.
const rateKey = (email: string) => `reset:${email}`;

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return base64url(bytes);
}

/** The stored form of a token: its SHA-256, hex. */
export async function hashResetToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const resetLink = (siteUrl: string, token: string) => `${siteUrl}/reset-password?${new URLSearchParams({ token })}`;

/**
 * Asks for a reset link. For an account with that e-mail, a new link replaces any unused one and its mail joins the
 * outbox in the same batch; for none, only the attempt is counted. Either way the caller answers FORGOT_PASSWORD_ANSWER.
 */
export async function requestPasswordReset(db: Db, email: string, mailer: Mailer, now = Date.now()): Promise<void> {
  await takeAttempt(db, rateKey(email), now, RESET_RATE_LIMIT);
  const [user] = await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.email, email)).limit(1);
  if (!user) return;
  const token = newToken();
  const mail = passwordResetMail({ name: user.name, resetUrl: resetLink(mailer.siteUrl, token), validMinutes: RESET_LINK_MINUTES });
  const results = await db.batch([
    db.delete(passwordResets).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt))),
    db.insert(passwordResets).values({ userId: user.id, tokenHash: await hashResetToken(token), expiresAt: now + RESET_LINK_MS }),
    db
      .insert(emailOutbox)
      .values(outboxValues({ kind: "PASSWORD_RESET", to: user.email, userId: user.id, ...mail }, now))
      .returning({ id: emailOutbox.id }),
  ]);
  mailer.enqueue((results.at(-1) as { id: number }[]).map((row) => row.id));
}

/** The link's account while the link can be used (not used, not expired), else null: the reset screen asks first. */
export async function findUsableReset(db: Db, token: string, now = Date.now()): Promise<{ id: number; userId: number } | null> {
  const [reset] = await db
    .select({ id: passwordResets.id, userId: passwordResets.userId })
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, await hashResetToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
    .limit(1);
  return reset ?? null;
}

/**
 * Sets a new password with a reset link: 400 RESET_LINK_INVALID for a link unknown (tampered), used or expired. One
 * batch marks the link used and, only if that statement did (SQLite's changes(): two requests with the same link, one
 * wins), sets the password, bumps the session version (every session of the account ends, as endAllSessions does) and
 * drops the account's other unused links.
 */
export async function resetPassword(db: Db, input: ResetPasswordInput, now = Date.now()): Promise<void> {
  const reset = await findUsableReset(db, input.token, now);
  if (!reset) throw badRequest(RESET_LINK_INVALID, { token: [RESET_LINK_INVALID] });
  const passwordHash = await hashPassword(input.password);
  const [, changed] = await db.batch([
    db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, reset.id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now))),
    db
      .update(users)
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(and(eq(users.id, reset.userId), sql`changes() = 1`))
      .returning({ email: users.email }),
    db.delete(passwordResets).where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt), sql`changes() = 1`)),
  ]);
  if (!changed.length) throw badRequest(RESET_LINK_INVALID, { token: [RESET_LINK_INVALID] });
  // The owner proved the mailbox: failed logins counted against the e-mail no longer keep them out.
  await db.delete(loginAttempts).where(eq(loginAttempts.email, changed[0].email));
}
