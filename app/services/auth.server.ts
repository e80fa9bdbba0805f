import { and, asc, eq, gt, lt } from "drizzle-orm";

import type { Role } from "~/lib/constants";
import { HttpError, conflict, unauthorized } from "~/lib/http";
import type { LoginInput, ProfileInput, PublicUser, RegisterInput } from "~/lib/schemas/auth";
import { constraintFailure, type Db, schema } from "./db.server";
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from "./password.server";
import { issueToken, readTokenSubject } from "./token.server";

const { users, loginAttempts } = schema;

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_CREDENTIALS = "Invalid email or password.";
export const EMAIL_TAKEN = "Email is already registered";

const publicColumns = {
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

/** The user a token belongs to, read from D1 each time so a deleted user or a changed role takes effect at once. */
export async function findUserByToken(db: Db, token: string, secret: string): Promise<SessionUser | null> {
  const id = await readTokenSubject(token, secret);
  return id === null ? null : findUserById(db, id);
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

async function assertNotRateLimited(db: Db, email: string, now: number) {
  const windowStart = now - LOGIN_WINDOW_MS;
  const recent = await db
    .select({ attemptedAt: loginAttempts.attemptedAt })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, email), gt(loginAttempts.attemptedAt, windowStart)))
    .orderBy(asc(loginAttempts.attemptedAt))
    .limit(LOGIN_MAX_FAILURES);
  if (recent.length < LOGIN_MAX_FAILURES) return;
  // Blocked until the oldest failure in the window falls out of it.
  const retryAfterSeconds = Math.max(1, Math.ceil((recent[0].attemptedAt + LOGIN_WINDOW_MS - now) / 1000));
  throw new HttpError(429, "Too many failed login attempts. Please try again later.", undefined, {
    "Retry-After": String(retryAfterSeconds),
  });
}

async function recordFailure(db: Db, email: string, now: number) {
  await db.batch([
    db.insert(loginAttempts).values({ email, attemptedAt: now }),
    db.delete(loginAttempts).where(and(eq(loginAttempts.email, email), lt(loginAttempts.attemptedAt, now - LOGIN_WINDOW_MS))),
  ]);
}

export async function login(db: Db, input: LoginInput, secret: string, now = Date.now()) {
  await assertNotRateLimited(db, input.email, now);
  const [found] = await db
    .select({ ...publicColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, input.email))
    .limit(1);
  // An unknown e-mail still pays for one hash, so timing does not tell which e-mails have accounts.
  const valid = await verifyPassword(input.password, found?.passwordHash ?? DUMMY_HASH);
  if (!found || !valid) {
    await recordFailure(db, input.email, now);
    throw new HttpError(401, INVALID_CREDENTIALS);
  }
  const { passwordHash, ...user } = found;
  const upgrades = needsRehash(passwordHash)
    ? [db.update(users).set({ passwordHash: await hashPassword(input.password) }).where(eq(users.id, user.id))]
    : [];
  await db.batch([db.delete(loginAttempts).where(eq(loginAttempts.email, input.email)), ...upgrades]);
  return { token: await issueToken(user.id, secret), user };
}

export async function updateProfile(db: Db, userId: number, input: ProfileInput): Promise<SessionUser> {
  const changes: Partial<typeof users.$inferInsert> = {
    name: input.name,
    email: input.email,
    address: input.address,
    phone: input.phone,
  };
  if (input.password) changes.passwordHash = await hashPassword(input.password);
  try {
    const [user] = await db.update(users).set(changes).where(eq(users.id, userId)).returning(publicColumns);
    if (!user) throw unauthorized();
    return user;
  } catch (error) {
    if (constraintFailure(error) === "unique") throw conflict(EMAIL_TAKEN);
    throw error;
  }
}

export async function listUsers(db: Db): Promise<SessionUser[]> {
  return db.select(publicColumns).from(users).orderBy(asc(users.id));
}
