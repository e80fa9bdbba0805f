import { and, count, eq, gt, isNull, lt, min, notExists, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";

import type { Role } from "~/lib/constants";
import { accountChangedMail, type RenderedMail } from "~/lib/emails.server";
import { HttpError, conflict, unauthorized } from "~/lib/http";
import { INVALID_CREDENTIALS, type LoginInput, type ProfileInput, type PublicUser, type RegisterInput } from "~/lib/schemas/auth";
import { constraintFailure, type Db, readWithNext, schema } from "./db.server";
import { outboxValues, type Mailer } from "./outbox.server";
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from "./password.server";
import { issueToken, readToken, unverifiedClaims, type TokenClaims } from "./token.server";

const { users, loginAttempts, endedSessions, passwordResets } = schema;

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const EMAIL_TAKEN = "Email is already registered";

/** A user as screens and the API may show them: never the password's hash nor the session version. */
export const publicColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  address: users.address,
  role: users.role,
} as const;

export type SessionUser = PublicUser;

export async function findUserById(db: Db, id: number): Promise<SessionUser | null> {
  const [user] = await db.select(publicColumns).from(users).where(eq(users.id, id)).limit(1);
  return user ?? null;
}

/**
 * The user a token belongs to, read from D1 each time so a deleted user or a changed role takes effect at once; and
 * only while the token's session version is the user's and its session was not ended, so a new password or a logout
 * ends it (one statement, on two primary keys).
 * With it, the pairs in their cart: every screen shows the count beside the user, and one statement costs less than
 * two (a D1 call costs as much CPU as a small page's rendering). The read starts, from what the token claims, while
 * its signature is checked, and rides with the page's own first read (readWithNext); its row counts only for a token
 * whose checked claims are the same.
 */
export async function findSessionByToken(db: Db, token: string, secret: string): Promise<{ user: SessionUser; cartCount: number } | null> {
  const claimed = unverifiedClaims(token);
  if (!claimed) return null;
  const sessionRow = readWithNext(db, sessionPlan(db, claimed));
  const claims = await readToken(token, secret);
  if (!claims || claims.userId !== claimed.userId || claims.sessionVersion !== claimed.sessionVersion || claims.sessionId !== claimed.sessionId) {
    sessionRow.drop();
    return null;
  }
  const row = await sessionRow.answer();
  if (!row) return null;
  const { cartCount, ...user } = row;
  return { user, cartCount };
}

function sessionPlan(db: Db, { userId, sessionVersion, sessionId }: TokenClaims) {
  const ended = sessionId === null ? undefined : notExists(db.select({ id: endedSessions.id }).from(endedSessions).where(eq(endedSessions.id, sessionId)));
  const row = db
    .select({
      ...publicColumns,
      // Written out: Drizzle leaves the columns of a one-table select unqualified, and "id" would be cart_items' own.
      cartCount: sql<number>`(SELECT coalesce(sum(cart_items.quantity), 0) FROM cart_items WHERE cart_items.user_id = users.id)`.mapWith(Number),
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.sessionVersion, sessionVersion), ended))
    .limit(1);
  return { statements: [row] as [typeof row], assemble: ([rows]: unknown[]) => (rows as Array<Awaited<typeof row>[number]>)[0] ?? null };
}

/**
 * The statement that ends every session of a user (every token issued so far, bearer or cookie, on every device):
 * it bumps the session version, and answers the new one. A statement, not a call, so it can join a D1 batch with the
 * change that calls for it (a password set by a reset link, say) and happen only if that change does.
 */
export function endAllSessionsStatement(db: Db, userId: number) {
  return db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ sessionVersion: users.sessionVersion });
}

/**
 * Ends the session a token names, on this device alone (a logout): its id joins ended_sessions until the token would
 * have expired anyway. A token issued before sessions had ids can only be ended with every other session of its user.
 */
export async function endSession(db: Db, claims: TokenClaims): Promise<void> {
  if (claims.sessionId === null) return void (await endAllSessions(db, claims.userId));
  await db.insert(endedSessions).values({ id: claims.sessionId, expiresAt: claims.expiresAt }).onConflictDoNothing();
}

/** The nightly cron's: ended sessions whose tokens have expired since are forgotten (a dead token stays dead). */
export async function forgetExpiredEndedSessions(db: Db, now = Date.now()): Promise<void> {
  await db.delete(endedSessions).where(lt(endedSessions.expiresAt, Math.floor(now / 1000)));
}

/**
 * How long a counted attempt (a login, a reset asked for) is kept: a day, longer than any RateLimit's window. A key's
 * old attempts are dropped when it is tried again; the nightly cron drops those of keys never tried again, which would
 * otherwise stay for good (each new e-mail tried is a row).
 */
export const ATTEMPTS_KEPT_MS = 24 * 60 * 60 * 1000;

export async function forgetOldAttempts(db: Db, now = Date.now()): Promise<void> {
  await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, now - ATTEMPTS_KEPT_MS));
}

/** Ends every session of a user; the new session version (for a fresh token), or null when there is no such user. */
export async function endAllSessions(db: Db, userId: number): Promise<number | null> {
  const [row] = await endAllSessionsStatement(db, userId);
  return row?.sessionVersion ?? null;
}

export async function registerUser(db: Db, input: RegisterInput, role: Role = "ROLE_CUSTOMER"): Promise<SessionUser> {
  const passwordHash = await hashPassword(input.password);
  try {
    const [user] = await db
      .insert(users)
      .values({ name: input.name, email: input.email, phone: input.phone, address: input.address, passwordHash, role })
      .returning(publicColumns);
    return user;
  } catch (error) {
    if (constraintFailure(error) === "unique") throw conflict(EMAIL_TAKEN);
    throw error;
  }
}

/** A limit on attempts per key (an e-mail) within a sliding window, counted in login_attempts. */
export interface RateLimit {
  max: number;
  windowMs: number;
  message: string;
}

export const LOGIN_RATE_LIMIT: RateLimit = {
  max: LOGIN_MAX_FAILURES,
  windowMs: LOGIN_WINDOW_MS,
  message: "Too many failed login attempts. Please try again later.",
};

/**
 * Counts one attempt under `key` (login: the e-mail), or answers 429 with Retry-After when the window already holds
 * `limit.max`. The count and the check are one statement, so attempts sent in parallel cannot all pass a check made
 * before any of them was counted; a refused attempt is not counted. Attempts that left the window are forgotten.
 */
export async function takeAttempt(db: Db, key: string, now: number, limit: RateLimit = LOGIN_RATE_LIMIT): Promise<void> {
  const windowStart = now - limit.windowMs;
  const inWindow = and(eq(loginAttempts.email, key), gt(loginAttempts.attemptedAt, windowStart));
  const counted = db.select({ count: count() }).from(loginAttempts).where(inWindow);
  // INSERT ... SELECT: one row when the window has room, none when it is full (Drizzle wants every column; a NULL id
  // is the next rowid).
  const attempt = db
    .select({ id: sql<number>`NULL`.as("id"), email: sql<string>`${key}`.as("email"), attemptedAt: sql<number>`${now}`.as("attempted_at") })
    .from(sql`(SELECT 1)`)
    .where(sql`(${counted}) < ${limit.max}`);
  const [taken, [oldest]] = await db.batch([
    db.insert(loginAttempts).select(attempt).returning({ id: loginAttempts.id }),
    db.select({ attemptedAt: min(loginAttempts.attemptedAt) }).from(loginAttempts).where(inWindow),
    db.delete(loginAttempts).where(and(eq(loginAttempts.email, key), lt(loginAttempts.attemptedAt, windowStart))),
  ]);
  if (taken.length) return;
  // Blocked until the oldest attempt in the window falls out of it.
  const retryAfterSeconds = Math.max(1, Math.ceil(((oldest?.attemptedAt ?? now) + limit.windowMs - now) / 1000));
  throw new HttpError(429, limit.message, undefined, { "Retry-After": String(retryAfterSeconds) });
}

export async function login(db: Db, input: LoginInput, secret: string, now = Date.now()) {
  // Counted before the password is checked (a success forgets the e-mail's attempts below).
  await takeAttempt(db, input.email, now);
  const [found] = await db
    .select({ ...publicColumns, passwordHash: users.passwordHash, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.email, input.email))
    .limit(1);
  // An unknown e-mail still pays for one hash, so timing does not tell which e-mails have accounts.
  const valid = await verifyPassword(input.password, found?.passwordHash ?? DUMMY_HASH);
  if (!found || !valid) throw new HttpError(401, INVALID_CREDENTIALS);
  const { passwordHash, sessionVersion, ...user } = found;
  const upgrades = needsRehash(passwordHash)
    ? [db.update(users).set({ passwordHash: await hashPassword(input.password) }).where(eq(users.id, user.id))]
    : [];
  await db.batch([db.delete(loginAttempts).where(eq(loginAttempts.email, input.email)), ...upgrades]);
  return { token: await issueToken(user.id, sessionVersion, secret), user };
}

export interface ProfileUpdate {
  user: SessionUser;
  /** Set when the password changed: every earlier session has ended, and a token at this version keeps the caller in. */
  newSessionVersion: number | null;
}

/** The row the profile's UPDATE answers, as D1 names its columns (the batch goes to D1 directly). */
interface UpdatedRow extends Omit<SessionUser, "role"> {
  role: Role;
  session_version: number;
}

/**
 * The notices of a profile save (kind ACCOUNT_CHANGED), as statements for its batch: INSERT ... SELECT from the
 * account's row before the UPDATE changes it, so whether the e-mail changes, and the old address the notice goes to,
 * are the row's own at the moment of the save, not what this request read earlier. Of the statements, at most one
 * writes a row:
 * - the e-mail changes: one notice to the old address (saying the new password too, when there is one);
 * - the password alone changes: one notice to the account's address (which the save keeps);
 * - neither: none (no statement at all without a password; the first finds the e-mail unchanged).
 * The greeting uses the name as it was (`user`, the session's): whoever changed the profile cannot put their words
 * into the owner's mailbox.
 */
function accountNotices(d1: D1Database, user: SessionUser, input: ProfileInput, mailer: Mailer, now: number): D1PreparedStatement[] {
  const said = { name: user.name, passwordChanged: Boolean(input.password), changedAt: now, siteUrl: mailer.siteUrl };
  // `emailChanges`: written only if the save changes the row's e-mail (to its old address), else only if it keeps it.
  const notice = (emailChanges: boolean, mail: RenderedMail) => {
    // The address is the row's (users.email in the SELECT); `to` here is only the one this request expects.
    const row = outboxValues({ kind: "ACCOUNT_CHANGED", to: emailChanges ? user.email : input.email, userId: user.id, ...mail }, now);
    return d1
      .prepare(
        `INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, user_id, next_attempt_at)
         SELECT ?, users.email, ?, ?, ?, users.id, ? FROM users WHERE users.id = ? AND users.email ${emailChanges ? "<>" : "="} ? RETURNING id`,
      )
      .bind(row.kind, row.subject, row.textBody, row.htmlBody, row.nextAttemptAt, user.id, input.email);
  };
  const statements = [notice(true, accountChangedMail({ ...said, newEmail: input.email }))];
  if (input.password) statements.push(notice(false, accountChangedMail({ ...said, newEmail: null })));
  return statements;
}

/**
 * Saves the logged-in user's profile. SPEC's form does not ask for the current password, so a change of the password
 * or the e-mail tells the owner (accountNotices): the notice's outbox row is written in the same D1 batch as the change,
 * so a refused save (the e-mail taken) writes none, and its id goes on the mail queue once the batch has committed.
 */
export async function updateProfile(db: Db, user: SessionUser, input: ProfileInput, mailer: Mailer, now = Date.now()): Promise<ProfileUpdate> {
  const changes: SQLiteUpdateSetSource<typeof users> = {
    name: input.name,
    email: input.email,
    address: input.address,
    phone: input.phone,
  };
  if (input.password) {
    changes.passwordHash = await hashPassword(input.password);
    // A new password ends every other session in the same statement (whoever knew the old one is out).
    changes.sessionVersion = sql`${users.sessionVersion} + 1`;
  }
  // A reset link sent before the password or the e-mail changed is cancelled: whoever still reads the old mailbox (or
  // knew the old password and asked for a link) could otherwise take the account back within its 30 minutes. First in
  // the batch, so it compares the e-mail as it was; a refused update (e-mail taken) cancels nothing.
  const credentialsChanged = input.password ? undefined : sql`(SELECT users.email FROM users WHERE users.id = ${user.id}) <> ${input.email}`;
  const cancelResets = db.delete(passwordResets).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt), credentialsChanged)).toSQL();
  const update = db
    .update(users)
    .set(changes)
    .where(eq(users.id, user.id))
    .returning({ ...publicColumns, sessionVersion: users.sessionVersion })
    .toSQL();
  // Written for D1 directly: Drizzle cannot put a statement of raw SQL with parameters (the notices) into a batch.
  const d1 = db.$client;
  const notices = accountNotices(d1, user, input, mailer, now);
  try {
    const results = await d1.batch<Record<string, unknown>>([
      d1.prepare(cancelResets.sql).bind(...cancelResets.params),
      ...notices,
      d1.prepare(update.sql).bind(...update.params),
    ]);
    const row = results.at(-1)?.results[0] as UpdatedRow | undefined;
    if (!row) throw unauthorized();
    mailer.enqueue(results.slice(1, -1).flatMap((result) => result.results.map((mail) => mail.id as number)));
    const { session_version: sessionVersion, ...updated } = row;
    return { user: updated, newSessionVersion: input.password ? sessionVersion : null };
  } catch (error) {
    if (constraintFailure(error) === "unique") throw conflict(EMAIL_TAKEN);
    throw error;
  }
}
