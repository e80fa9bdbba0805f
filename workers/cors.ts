// CORS for the REST API, for clients served from another address than the shop (API.md's "other clients": a web app
// on its own origin, an admin's tool). Only the origins listed in ALLOWED_ORIGINS are let in, and only with bearer
// tokens: no answer carries Access-Control-Allow-Credentials, and the session cookie is dropped from their requests,
// so a listed site can never act with a shopper's cookie. Screens are never opened to other origins.

export const API_PREFIX = "/api/";
const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE"];
/** The request headers the contract uses (lower case, as browsers send them in Access-Control-Request-Headers). */
const ALLOWED_HEADERS = ["authorization", "content-type", "x-d1-bookmark", "idempotency-key"];
/**
 * Answer headers a client needs to read: paging, the login limit, a slip's file name, image validators, a search's
 * match and its correction, an order answered again for its Idempotency-Key.
 */
const EXPOSED_HEADERS = "X-Total-Count, Link, Retry-After, Content-Disposition, ETag, X-Auth-Token, X-D1-Bookmark, X-Search-Match, X-Search-Corrected, Idempotent-Replayed";
/** How long a browser may reuse a preflight (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** The listed origins, from a comma- or space-separated var; `null` (sandboxed frames, files) is never one of them. */
export function parseAllowedOrigins(value: string | undefined): Set<string> {
  const origins = new Set<string>();
  for (const entry of (value ?? "").split(/[\s,]+/)) {
    if (!entry || entry === "null") continue;
    try {
      const url = new URL(entry);
      if (url.protocol === "https:" || url.protocol === "http:") origins.add(url.origin);
    } catch {
      // Not an origin: ignored rather than failing every request over a typo in the configuration.
    }
  }
  return origins;
}

/** Parsed once per isolate (the var does not change while it lives). */
let parsed: { value: string | undefined; origins: Set<string> } | undefined;
function allowedOrigins(value: string | undefined): Set<string> {
  if (parsed === undefined || parsed.value !== value) parsed = { value, origins: parseAllowedOrigins(value) };
  return parsed.origins;
}

export const isApiPath = (url: URL): boolean => url.pathname.startsWith(API_PREFIX);

/** The request's Origin when it is another site listed in ALLOWED_ORIGINS, else null. */
export function allowedCrossOrigin(request: Request, url: URL, allowed: string | undefined): string | null {
  const origin = request.headers.get("Origin");
  if (origin === null || origin === url.origin || !isApiPath(url)) return null;
  return allowedOrigins(allowed).has(origin) ? origin : null;
}

export const isPreflight = (request: Request): boolean =>
  request.method === "OPTIONS" && request.headers.has("Origin") && request.headers.has("Access-Control-Request-Method");

/** The answer to a preflight: 204 with the grant for a listed origin asking for what the contract uses, else 403. */
export function preflightResponse(request: Request, origin: string | null): Response {
  const vary = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";
  const method = request.headers.get("Access-Control-Request-Method") ?? "";
  const asked = (request.headers.get("Access-Control-Request-Headers") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (origin === null || !ALLOWED_METHODS.includes(method) || asked.some((name) => !ALLOWED_HEADERS.includes(name))) {
    const body = JSON.stringify({ message: "Cross-origin request refused" });
    return new Response(body, { status: 403, headers: { "Content-Type": "application/json; charset=utf-8", Vary: vary } });
  }
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": ALLOWED_METHODS.join(", "),
      "Access-Control-Allow-Headers": "Authorization, Content-Type, X-D1-Bookmark, Idempotency-Key",
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
      Vary: vary,
    },
  });
}

/** A listed origin's request as the API sees it: the same, less the cookie, so only a bearer token authenticates it. */
export function withoutCookie(request: Request): Request {
  if (!request.headers.has("Cookie")) return request;
  const headers = new Headers(request.headers);
  headers.delete("Cookie");
  return new Request(request, { headers });
}

/** An API answer: it varies by Origin, and a listed origin may read it. */
export function withCorsHeaders(headers: Headers, origin: string | null): void {
  headers.append("Vary", "Origin");
  if (origin === null) return;
  headers.set("Access-Control-Allow-Origin", origin);
  headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
}
