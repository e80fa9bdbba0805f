// D1 read replication through the Sessions API: every request's queries run in one D1 session. A request that
// carries no bookmark reads from any replica (a GET) or starts at the primary (a write); one that carries the
// bookmark of its client's last write reads a replica at least that new, so a shopper or an admin always sees their
// own writes. Screens keep the bookmark in a cookie set by each write; API clients get it in the x-d1-bookmark
// header of every answer and send it back in the same header. docs/edge-cache.md.

import { isSecureRequest, readCookie, serializeCookie } from "../app/lib/cookies";

export const BOOKMARK_HEADER = "x-d1-bookmark";
export const BOOKMARK_COOKIE = "stride_d1";
/** Replicas catch up in seconds; past this, any replica is newer than the write the bookmark names. */
const BOOKMARK_MAX_AGE_SECONDS = 60 * 60;
/** A D1 bookmark is a few dash-separated hex groups; anything else is dropped rather than handed to D1. */
const BOOKMARK = /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){1,7}$/i;

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface RequestSession {
  /** The session as Drizzle takes it: a D1 session answers prepare() and batch() as the database does. */
  d1: D1Database;
  session: D1DatabaseSession;
  /** A write method: its answer carries the bookmark even to screens, and the pages it changed are purged. */
  wrote: boolean;
}

function givenBookmark(request: Request, api: boolean): string | null {
  const given = api ? request.headers.get(BOOKMARK_HEADER) : readCookie(request.headers.get("Cookie"), BOOKMARK_COOKIE);
  return given !== null && BOOKMARK.test(given) ? given : null;
}

export function openSession(database: D1Database, request: Request, api: boolean): RequestSession {
  const wrote = !READ_METHODS.has(request.method);
  const session = database.withSession(givenBookmark(request, api) ?? (wrote ? "first-primary" : "first-unconstrained"));
  return { d1: session as unknown as D1Database, session, wrote };
}

/** The answer, carrying the session's bookmark where its client will send it back. */
export function bookmarkedResponse(response: Response, { session, wrote }: RequestSession, request: Request, api: boolean): Response {
  const bookmark = session.getBookmark();
  if (!bookmark || (!api && !wrote)) return response;
  const answered = new Response(response.body, response);
  if (api) answered.headers.set(BOOKMARK_HEADER, bookmark);
  else answered.headers.append("Set-Cookie", serializeCookie(BOOKMARK_COOKIE, bookmark, { maxAge: BOOKMARK_MAX_AGE_SECONDS, secure: isSecureRequest(request) }));
  return answered;
}
