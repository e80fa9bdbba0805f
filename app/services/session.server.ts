import { data, redirect, replace, type AppLoadContext } from "react-router";

import { isSecureRequest, readCookie, serializeCookie } from "~/lib/cookies";
import { RenderedForRefusal, forbidden, parseId, unauthorized } from "~/lib/http";
import { guestCartCookie, guestCartCount, readGuestCart, type GuestCartLine } from "~/lib/guest-cart";
import { CART_MERGED_PARAM, WELCOME_PARAM, withOneTimeParam, withoutOneTimeParams } from "~/lib/one-time-params";
import { RENDERED_FOR_FIELD, RENDERED_FOR_HEADER, RENDERED_FOR_INVALID, SIGNED_IN_AS_ANOTHER } from "~/lib/rendered-for";
import type { CartLine } from "~/lib/schemas/cart";
import { endSession, findSessionByToken, type SessionUser } from "./auth.server";
import { guestCartPlan, mergeIntoServerCart } from "./cart.server";
import { readWithNext } from "./db.server";
import { TOKEN_LIFETIME_SECONDS, readToken as verifyToken, unverifiedClaims } from "./token.server";

// The web session is the API's JWT in an HttpOnly cookie; the API also takes it as a bearer token.
export const SESSION_COOKIE = "stride_session";

/** A live session carries the cart's count as it was when the session was read (see cartCountOf). */
export type SessionState = { user: SessionUser; cartCount: number } | { user: null; reason: "none" | "invalid" };

// A token that replaced the request's own during it (see renewSession): the loaders that run after an action read it.
const renewedTokens = new WeakMap<AppLoadContext, string>();

// A visitor's cart an action of this request wrote (see writeGuestCart): the loaders that run after it, in the same
// request when the form was posted without JavaScript, read it; the browser sends the new cookie only from the next.
const writtenGuestCarts = new WeakMap<AppLoadContext, GuestCartLine[]>();

/** The visitor's cart lines: as an action of this request left them, else as the cookie holds them. */
export function guestCartOf(request: Request, context: AppLoadContext): GuestCartLine[] {
  return writtenGuestCarts.get(context) ?? readGuestCart(request.headers.get("Cookie"));
}

/** The visitor's new cart, for the rest of this request; answers the Set-Cookie that keeps it in the browser. */
export function writeGuestCart(request: Request, context: AppLoadContext, lines: GuestCartLine[]): string {
  writtenGuestCarts.set(context, lines);
  return guestCartCookie(lines, isSecureRequest(request));
}

function readToken(request: Request, context: AppLoadContext): string | null {
  const renewed = renewedTokens.get(context);
  if (renewed) return renewed;
  const authorization = request.headers.get("Authorization");
  const bearer = authorization?.match(/^bearer\s+(\S+)\s*$/i);
  if (bearer) return bearer[1];
  return readCookie(request.headers.get("Cookie"), SESSION_COOKIE);
}

// Several loaders of one navigation ask for the user; one D1 read per request is enough. Every loader of a request gets
// the same Request (future.v8_passThroughRequests); after an action, React Router makes a new one for the loaders.
const sessions = new WeakMap<Request, Promise<SessionState>>();

export function getSession(request: Request, context: AppLoadContext): Promise<SessionState> {
  let session = sessions.get(request);
  if (!session) {
    session = (async () => {
      const token = readToken(request, context);
      if (!token) return { user: null, reason: "none" } as const;
      const session = await findSessionByToken(context.db, token, context.cloudflare.env.JWT_SECRET);
      return session ?? ({ user: null, reason: "invalid" } as const);
    })();
    sessions.set(request, session);
  }
  return session;
}

export async function getOptionalUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  return (await getSession(request, context)).user;
}

/**
 * Logout: the session of the request's token ends, on this device alone (a new password ends them all). Only a live
 * session: a dead or forged token ends nothing.
 */
export async function endCurrentSession(request: Request, context: AppLoadContext): Promise<void> {
  const token = readToken(request, context);
  if (!token || !(await getOptionalUser(request, context))) return;
  const claims = await verifyToken(token, context.cloudflare.env.JWT_SECRET);
  if (claims) await endSession(context.db, claims);
}

/**
 * The user the request's token names, before its signature and session are checked: only to choose what a page reads
 * while the check runs (so the page's reads and the session's share one D1 batch), never to decide what anyone may
 * see or do. Null without a token.
 */
export function claimedUserId(request: Request, context: AppLoadContext): number | null {
  const token = readToken(request, context);
  return token ? (unverifiedClaims(token)?.userId ?? null) : null;
}

// A visitor's cart as the catalogue has it, read once for all the loaders of a request (the navigation bar's count
// and the cart page share it), riding with the page's own batch: no round trip of its own on a page that reads D1.
const guestCartReads = new WeakMap<Request, () => Promise<CartLine[]>>();

/**
 * The visitor's cart lines that still exist in the catalogue (SPEC: only items still in the product list are shown).
 * A visitor with an empty cart costs no D1 read (their catalogue pages come from the edge cache). The read starts at
 * the first call and is sent with the next batch of the request's database, or alone when the answer is awaited first.
 */
export function guestCartNow(request: Request, context: AppLoadContext): Promise<CartLine[]> {
  return guestCartRead(request, context)();
}

function guestCartRead(request: Request, context: AppLoadContext): () => Promise<CartLine[]> {
  let read = guestCartReads.get(request);
  if (!read) {
    const lines = guestCartOf(request, context);
    const rider = lines.length ? readWithNext(context.db, guestCartPlan(context.db, lines)) : null;
    let answer: Promise<CartLine[]> | undefined;
    read = () => (answer ??= rider ? rider.answer() : Promise.resolve([]));
    guestCartReads.set(request, read);
  }
  return read;
}

/**
 * The pairs in the customer's or the visitor's cart, for the navigation bar: a customer's were read with the session;
 * a visitor's count only the lines the cart page shows. After an action, React Router runs the loaders with a request
 * of their own, so the session (and the count) is read after the action's change (tests/workers/cart-screens.test.ts).
 */
export async function cartCountOf(request: Request, context: AppLoadContext): Promise<number> {
  // Queued before anything is awaited, so it can go with the page's first batch (only without a token: a customer's
  // count comes with the session's row).
  const visitor = readToken(request, context) === null ? guestCartRead(request, context) : null;
  const session = await getSession(request, context);
  if (session.user) return session.cartCount;
  return guestCartCount(await (visitor ?? guestCartRead(request, context))());
}

/**
 * Set when a request's session cookie is found dead and cleared (a logout elsewhere, a new password, an expired or
 * forged token), until the next login or logout: the other tabs' requests no longer carry the dead cookie, and this
 * tells their way to the login page why they are sent there. It holds nothing but that (no id, no token).
 */
export const SESSION_ENDED_COOKIE = "stride_session_ended";

/**
 * Where a screen that needs a login sends the browser: the login page, with the way back. `url` is the route's own
 * (a loader's `url`), never request.url, which for a client navigation is the `.data` request's. A session that ended
 * meanwhile (`session` names a dead token: a logout elsewhere, a new password) makes the login page say so (SPEC §8:
 * "Session expired"), and its dead cookie goes (token and user are removed); so does one that another tab of this
 * browser found dead before (SESSION_ENDED_COOKIE), which is why this request carries no cookie.
 */
export function loginRedirect(url: URL, request: Request, session: SessionState): Response {
  const params = new URLSearchParams({ redirect: url.pathname + url.search + url.hash });
  const dead = session.user === null && session.reason === "invalid";
  if (dead || readCookie(request.headers.get("Cookie"), SESSION_ENDED_COOKIE) !== null) params.set("expired", "1");
  if (!dead) return redirect(`/login?${params}`);
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  headers.append("Set-Cookie", serializeCookie(SESSION_ENDED_COOKIE, "1", { maxAge: TOKEN_LIFETIME_SECONDS, secure: isSecureRequest(request) }));
  return redirect(`/login?${params}`, { headers });
}

/** A login or a logout forgets that a session ended (SESSION_ENDED_COOKIE): the Set-Cookie to send, when there is one. */
export function forgetEndedSession(request: Request): string | null {
  if (readCookie(request.headers.get("Cookie"), SESSION_ENDED_COOKIE) === null) return null;
  return serializeCookie(SESSION_ENDED_COOKIE, "", { maxAge: 0, secure: isSecureRequest(request) });
}

/** Screens: no session goes to /login?redirect=<path>. */
export async function requireUser(request: Request, context: AppLoadContext, url: URL): Promise<SessionUser> {
  const session = await getSession(request, context);
  if (!session.user) throw loginRedirect(url, request, session);
  return session.user;
}

/** Screens: a visitor goes to the login page, a customer to /. */
export async function requireAdmin(request: Request, context: AppLoadContext, url: URL): Promise<SessionUser> {
  const user = await requireUser(request, context, url);
  if (user.role !== "ROLE_ADMIN") throw redirect("/");
  return user;
}

/**
 * The one rule of app/lib/rendered-for.ts: a write that says whom its page was rendered for (`sent`: a form's
 * RENDERED_FOR_FIELD, an API call's RENDERED_FOR_HEADER; null when it says nothing, as a page from before the rule or
 * a script) is refused with a 409 when the session's user is another, before anything changes. No D1 read of its own:
 * the session was read already.
 */
export function assertRenderedFor(sent: FormDataEntryValue | null, user: SessionUser): void {
  if (sent === null) return;
  const renderedFor = parseId(sent);
  if (renderedFor === null) throw new RenderedForRefusal(400, RENDERED_FOR_INVALID);
  if (renderedFor !== user.id) throw new RenderedForRefusal(409, SIGNED_IN_AS_ANOTHER);
}

/**
 * A screen write's user, checked against whom its form was rendered for (assertRenderedFor): another user than the
 * session's is a 409 (an HttpError, for the action to answer in its own shape); a form rendered for a signed-in user
 * whose session has ended since goes to the login page, as a screen that needs a login does (even where a visitor
 * may post: the cart), so that it never acts as a visitor with what that user's page showed. Null for a visitor's
 * form posted by a visitor.
 */
export async function formUser(request: Request, context: AppLoadContext, url: URL, form: FormData): Promise<SessionUser | null> {
  const session = await getSession(request, context);
  const sent = form.get(RENDERED_FOR_FIELD);
  if (!session.user) {
    if (sent !== null) throw loginRedirect(url, request, session);
    return null;
  }
  assertRenderedFor(sent, session.user);
  return session.user;
}

/** formUser for a screen that needs a login: no session goes to the login page (requireUser). */
export async function requireFormUser(request: Request, context: AppLoadContext, url: URL, form: FormData): Promise<SessionUser> {
  return (await formUser(request, context, url, form)) ?? requireUser(request, context, url);
}

/**
 * formUser for an admin's screen: the check of whom the form was rendered for comes before the role's, so an admin
 * whose other tab logged in as a customer is told what happened (409), not sent to / without a word.
 */
export async function requireFormAdmin(request: Request, context: AppLoadContext, url: URL, form: FormData): Promise<SessionUser> {
  let user: SessionUser;
  try {
    user = await requireFormUser(request, context, url, form);
  } catch (error) {
    throw adminFormRefusal(request, error, (await getSession(request, context)).user);
  }
  if (user.role !== "ROLE_ADMIN") throw redirect("/");
  return user;
}

/**
 * An admin's form refused by assertRenderedFor because a customer signed in since, posted without JavaScript: the
 * browser shows the page the action answers, whose loader would send that customer to / and the refusal with it. So
 * it goes to the app's error page instead, which says it (root.tsx's ErrorBoundary): loaders are not run for a route
 * whose action threw. With JavaScript (a `.data` request) the form says it in place. Anything else is left as it is.
 */
export function adminFormRefusal(request: Request, error: unknown, now: SessionUser | null): unknown {
  const document = !new URL(request.url).pathname.endsWith(".data");
  if (!(error instanceof RenderedForRefusal) || !document || !now || now.role === "ROLE_ADMIN") return error;
  return data({ message: error.message, renderedForRefused: true }, { status: error.status });
}

/**
 * A read of the user's own data (their cart, their orders) started beside the session check, from the user the token
 * claims, so the session's row and the read's first statements share one D1 batch (readWithNext). Its answer is
 * handed over only for the user the check confirms: a token that passes it always names its user (otherwise the read
 * goes again for the session's user); for a visitor it is dropped unseen. Reads only: nothing may change before the
 * check. `result` is null for a visitor.
 */
export async function userWhileReading<T>(request: Request, context: AppLoadContext, read: (userId: number) => Promise<T>): Promise<{ user: SessionUser | null; result: Promise<T> | null }> {
  const claimed = claimedUserId(request, context);
  const session = getOptionalUser(request, context);
  const early = claimed === null ? null : read(claimed);
  // Its reader sees a failure; this keeps it from counting as unhandled when no one is left to read it.
  early?.catch(() => {});
  const user = await session;
  if (!user) return { user, result: null };
  const result = user.id === claimed ? early! : read(user.id);
  result.catch(() => {});
  return { user, result };
}

/** requireUser, with the user's read started beside the check (userWhileReading). */
export async function requireUserWhileReading<T>(request: Request, context: AppLoadContext, url: URL, read: (userId: number) => Promise<T>): Promise<{ user: SessionUser; result: Promise<T> }> {
  const { result } = await userWhileReading(request, context, read);
  return { user: await requireUser(request, context, url), result: result! };
}

/**
 * requireAdmin, with the back office's read started beside the check (userWhileReading): handed over only to an
 * admin. `early: false` reads only after the check: a read that may cost the database much (a deep page) is not one
 * a customer or a forged token may start.
 */
export async function requireAdminWhileReading<T>(request: Request, context: AppLoadContext, url: URL, read: () => Promise<T>, early = true): Promise<{ admin: SessionUser; result: Promise<T> }> {
  if (!early) return { admin: await requireAdmin(request, context, url), result: read() };
  const { result } = await userWhileReading(request, context, read);
  return { admin: await requireAdmin(request, context, url), result: result! };
}

/** API: 401 with a message naming the token, so a client can tell a dead session from other 401s. */
export async function requireApiUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const session = await getSession(request, context);
  if (session.user) {
    // A client that says whom its screen shows (the checkout's fetch) is refused when the token is another user's.
    assertRenderedFor(request.headers.get(RENDERED_FOR_HEADER), session.user);
    return session.user;
  }
  // A browser whose session cookie another tab found dead (SESSION_ENDED_COOKIE) has a dead session too, not none.
  const ended = readCookie(request.headers.get("Cookie"), SESSION_ENDED_COOKIE) !== null;
  throw unauthorized(session.reason === "none" && !ended ? "Missing or invalid token: please log in" : undefined);
}

export async function requireApiAdmin(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await requireApiUser(request, context);
  if (user.role !== "ROLE_ADMIN") throw forbidden("Admin access required");
  return user;
}

export function sessionCookie(request: Request, token: string): string {
  return serializeCookie(SESSION_COOKIE, token, { maxAge: TOKEN_LIFETIME_SECONDS, secure: isSecureRequest(request) });
}

/**
 * After a password change ended every session, this browser's included: the fresh token becomes the request's session
 * (a form posted without JavaScript renders the page in the same request, with loaders that read the session again
 * from a new Request), and the returned Set-Cookie value hands it to the browser.
 */
export function renewSession(request: Request, context: AppLoadContext, token: string): string {
  renewedTokens.set(context, token);
  return sessionCookie(request, token);
}

/**
 * Sent with a browser's logout: it drops what the browser cached of the shop (private pages are "no-cache", which a
 * browser may keep on disk to revalidate), so an admin's customer lists do not stay on a shared computer. Not the
 * cookies: the theme stays as chosen.
 */
export const CLEAR_BROWSER_CACHE = { name: "Clear-Site-Data", value: '"cache"' } as const;

export function clearSessionCookie(request: Request): string {
  return serializeCookie(SESSION_COOKIE, "", { maxAge: 0, secure: isSecureRequest(request) });
}

/**
 * Only a path on this site: resolved the way a browser would (which drops tabs and newlines), so never another host.
 * The resolved path is checked too: dot segments can resolve to one that starts with two slashes ("/.//evil.example"
 * is "//evil.example"), which a browser reads as another host.
 */
export function safeRedirectPath(target: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof target !== "string" || !target.startsWith("/") || /[\u0000-\u001F\u007F\\]/.test(target)) return fallback;
  const base = "http://stride.invalid";
  const url = new URL(target, base);
  if (url.origin !== base || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}

/**
 * After a login or a registration on the web: the visitor's cookie cart joins the saved cart (and the cookie goes,
 * since the server cart is the one shown from now on), the session cookie is set, and the browser goes on. The page it
 * lands on says once what happened (a one-time parameter, one-time-params.ts), and nothing an earlier page said: a
 * registration welcomes the new customer; a login whose visit's lines went into a saved cart that already had lines
 * says so, since the cart now holds more than the shopper just put in it. (Into an empty saved cart, the cart shown is
 * the one they filled; when nothing of the visit could go in, sold out or gone, nothing was added.)
 */
export async function startSession(request: Request, context: AppLoadContext, userId: number, token: string, to: string, { welcome = false } = {}): Promise<Response> {
  const guestLines = guestCartOf(request, context);
  const headers = new Headers({ "Set-Cookie": sessionCookie(request, token) });
  const forget = forgetEndedSession(request);
  if (forget) headers.append("Set-Cookie", forget);
  let landing = withoutOneTimeParams(to);
  if (guestLines.length) {
    const { savedLinesBefore, linesMerged } = await mergeIntoServerCart(context.db, userId, guestLines);
    headers.append("Set-Cookie", writeGuestCart(request, context, []));
    if (savedLinesBefore > 0 && linesMerged > 0) landing = withOneTimeParam(landing, CART_MERGED_PARAM);
  }
  if (welcome) landing = withOneTimeParam(landing, WELCOME_PARAM);
  // In place of the login (or registration) page's entry in the history: Back from where they land goes to the page
  // before it, not to a login page that only sends them forward again.
  return replace(landing, { headers });
}

/** /login and /register: someone already logged in goes on to where they were going. */
export async function redirectIfLoggedIn(request: Request, context: AppLoadContext, url: URL): Promise<null> {
  const user = await getOptionalUser(request, context);
  if (user) throw replace(afterLoginPath(user, url.searchParams.get("redirect")));
  return null;
}

/** Admins land on their dashboard, others on the shop; a local `redirect` query wins for both (the page they asked for). */
export function afterLoginPath(user: SessionUser, requested: string | null): string {
  const fallback = user.role === "ROLE_ADMIN" ? "/admin/dashboard" : "/";
  return safeRedirectPath(requested, fallback);
}
