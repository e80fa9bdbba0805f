import { SignJWT, decodeJwt, jwtVerify, type JWTPayload } from "jose";

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/** The session version of a user who never logged out nor changed a password (users.session_version's default). */
export const INITIAL_SESSION_VERSION = 0;

// The HMAC key, imported once per secret for the isolate's life: importing it for every token cost each request as
// much as checking the signature. The key is kept, not the promise of it: a promise made in one request and settled
// while another awaits it is something the Workers runtime warns about (two first requests may both import; no harm).
// Also signs what the server puts in an address for itself to read back (app/lib/stock-moves.server.ts), under a
// prefix of its own, so that no such signature is ever a token's.
const keys = new Map<string, CryptoKey>();
export async function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

/**
 * A token for the user at their current session version (claim `sv`): it dies when that version is bumped (a new
 * password). Its own id (claim `jti`) names the session, so a logout can end this device's alone (ended_sessions).
 */
export async function issueToken(userId: number, sessionVersion: number, secret: string): Promise<string> {
  return new SignJWT({ sv: sessionVersion })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(userId))
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(await keyFor(secret));
}

export interface TokenClaims {
  userId: number;
  sessionVersion: number;
  /** The session's id (claim `jti`); null in a token issued before sessions had ids. */
  sessionId: string | null;
  /** When the token expires, in epoch seconds (claim `exp`). */
  expiresAt: number;
}

/** A session id as issueToken writes it (a UUID); anything else in `jti` makes the token malformed. */
const SESSION_ID = /^[0-9a-f-]{36}$/;

/**
 * The user id and session version a token names, or null for anything malformed, tampered, expired or signed another
 * way (alg none included). A token without `sv` was issued before session versions existed: it counts as version 0,
 * the version every user had then, so it lives until that user's first logout or password change (24 hours at most).
 */
export async function readToken(token: string, secret: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await keyFor(secret), { algorithms: ["HS256"] });
    return claimsOf(payload);
  } catch {
    return null;
  }
}

/**
 * What a token claims before its signature is checked, or null when it is not a token: only to start reading the
 * session it names while the check runs (findSessionByToken). Nothing may be trusted from it until readToken agrees.
 */
export function unverifiedClaims(token: string): TokenClaims | null {
  try {
    return claimsOf(decodeJwt(token));
  } catch {
    return null;
  }
}

function claimsOf(payload: JWTPayload): TokenClaims | null {
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId) || userId <= 0) return null;
  const sessionVersion = payload.sv === undefined ? INITIAL_SESSION_VERSION : payload.sv;
  if (typeof sessionVersion !== "number" || !Number.isSafeInteger(sessionVersion) || sessionVersion < 0) return null;
  const sessionId = payload.jti ?? null;
  if (sessionId !== null && !SESSION_ID.test(sessionId)) return null;
  // jwtVerify has checked `exp` when there is one; a token without it was never issued here.
  if (typeof payload.exp !== "number") return null;
  return { userId, sessionVersion, sessionId, expiresAt: payload.exp };
}
