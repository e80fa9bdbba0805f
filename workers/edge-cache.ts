// The shared cache in front of the catalogue: the pages every anonymous visitor with an empty cart sees alike (the
// grid in all its filters and pages, product pages, search, the sitemaps and robots.txt). Anything that depends on who
// asks (a session, a cart, an admin's buttons, a Set-Cookie) never goes near it. docs/edge-cache.md.
//
// On Cloudflare the pages come from Workers Caching: the CataloguePages entrypoint has caching enabled (wrangler.jsonc
// "exports"), the gateway calls it through ctx.exports, so a hit never runs the Worker, and writes purge by Cache-Tag
// with ctx.cache.purge. Miniflare and vitest-pool-workers have no Workers Caching (no ctx.cache), so there the same
// entrypoint is fronted by the Cache API, which they do simulate, and a purge records the tag's purge time beside it:
// an entry rendered before its tags' last purge is a miss. Same headers, same tags, same rules.

import { readCookie } from "../app/lib/cookies";
import { readGuestCart } from "../app/lib/guest-cart";
import { THEME_COOKIE } from "../app/lib/theme.server";
import { isTheme, DEFAULT_THEME, type Theme } from "../app/lib/constants";
import { SESSION_COOKIE } from "../app/services/session.server";
import { CATALOGUE_TAG } from "../app/lib/edge-cache";

/** How long the edge keeps a page that shows stock: the most a shopper can see an old figure after a missed purge. */
export const PAGE_MAX_AGE_SECONDS = 60;
/** robots.txt says the same for the life of a deployment. */
const ROBOTS_MAX_AGE_SECONDS = 86_400;

/**
 * What the cached entrypoint needs to render a page as any anonymous visitor would see it, and so its cache key beside
 * the path and query (Workers Caching keys on ctx.props, not on the host). The origin is in it because a page prints
 * absolute URLs (its canonical link, the sitemaps, robots.txt): one rendered for another host (the workers.dev
 * address, say) must never answer for this one.
 */
export interface PageProps {
  theme: Theme;
  origin: string;
}

// Headers between the cached entrypoint and the gateway; the gateway strips them before a response leaves.
const SCRIPT_HASHES_HEADER = "X-Stride-Script-Hashes";
const RENDERED_AT_HEADER = "X-Stride-Rendered-At";
const EDGE_CACHE_CONTROL = "Cloudflare-CDN-Cache-Control";
/** Browsers ask again every time: the page they hold would not know about a cart filled since. */
const BROWSER_CACHE_CONTROL = "public, no-cache";
const INTERNAL_HEADERS = [SCRIPT_HASHES_HEADER, RENDERED_AT_HEADER, EDGE_CACHE_CONTROL, "Cache-Tag"];

const CATALOGUE_PATH = /^\/(?:_root\.data|search(?:\.data)?|product\/\d{1,12}(?:\.data)?|robots\.txt|sitemap\.xml|sitemaps\/[\w.-]+)?$/;

/**
 * The page's props when the request may be answered from the shared cache, else null: a GET or HEAD of a catalogue
 * page with no session (even a dead one), no bearer token and no line in the visitor's cart. The theme is the one
 * thing of the visitor's that the page shows, so it is part of the cache key (as ctx.props).
 */
export function sharedPageVisit(request: Request, url: URL): PageProps | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (!CATALOGUE_PATH.test(url.pathname)) return null;
  if (request.headers.has("Authorization")) return null;
  const cookie = request.headers.get("Cookie");
  if (readCookie(cookie, SESSION_COOKIE) !== null) return null;
  if (readGuestCart(cookie).length > 0) return null;
  const theme = readCookie(cookie, THEME_COOKIE);
  return { theme: isTheme(theme) ? theme : DEFAULT_THEME, origin: url.origin };
}

/** The request the cached entrypoint renders: the visitor's, less every cookie but the theme and less any credential. */
export function anonymousRequest(request: Request, { theme }: PageProps): Request {
  const headers = new Headers(request.headers);
  headers.delete("Authorization");
  headers.set("Cookie", `${THEME_COOKIE}=${theme}`);
  return new Request(request.url, { method: request.method, headers });
}

/**
 * The rendered page made storable, or marked never to be stored. Only a full 200 with no Set-Cookie is shared. The
 * browser is told to ask again every time; the edge keeps it for the max age, tagged by what it shows: the route's own
 * Cache-Tag (a product page names its product and the related ones) or the whole catalogue. Either way the page was
 * rendered without a nonce, so it carries the hashes of its inline scripts for the CSP it will be served with.
 */
export async function markShared(response: Response, url: URL, renderedAt: number): Promise<Response> {
  const marked = new Response(response.body, response);
  const headers = marked.headers;
  if (response.status !== 200 || headers.has("Set-Cookie") || /\bprivate\b|no-store/.test(headers.get("Cache-Control") ?? "")) {
    headers.set("Cache-Control", "private, no-store");
    headers.delete("Cache-Tag");
    return withScriptHashes(marked);
  }
  const robots = url.pathname === "/robots.txt";
  const maxAge = robots ? ROBOTS_MAX_AGE_SECONDS : PAGE_MAX_AGE_SECONDS;
  headers.set("Cache-Control", BROWSER_CACHE_CONTROL);
  // Without stale-if-error=0, Cloudflare serves an expired page for as long as the Worker fails to render it again,
  // and a page that shows stock would outlive its bound. robots.txt shows none.
  headers.set(EDGE_CACHE_CONTROL, robots ? `max-age=${maxAge}` : `max-age=${maxAge}, stale-if-error=0`);
  if (!headers.has("Cache-Tag")) headers.set("Cache-Tag", robots ? "robots" : CATALOGUE_TAG);
  headers.set(RENDERED_AT_HEADER, String(renderedAt));
  headers.delete("Content-Length");
  return withScriptHashes(marked);
}

/** An HTML page read whole, once, with its scripts' hashes: a stored page is then served as it is, with no pass over it. */
async function withScriptHashes(response: Response): Promise<Response> {
  if (!isHtml(response)) return response;
  const html = await response.text();
  const page = new Response(html, response);
  page.headers.set(SCRIPT_HASHES_HEADER, (await inlineScriptHashes(html)).join(" "));
  return page;
}

const isHtml = (response: Response) => (response.headers.get("Content-Type") ?? "").startsWith("text/html");

/** The CSP source of each inline script of a page ('sha256-...'), as a browser hashes it: its text, as UTF-8. */
async function inlineScriptHashes(html: string): Promise<string[]> {
  const scripts: string[] = [];
  let text = "";
  const collect = {
    text(chunk: Text) {
      text += chunk.text;
      if (!chunk.lastInTextNode) return;
      scripts.push(text);
      text = "";
    },
  };
  await new HTMLRewriter().on("script:not([src])", collect).transform(new Response(html)).arrayBuffer();
  // The HTML parser turns every CR LF and lone CR into LF before a browser hashes the text.
  const digests = await Promise.all(
    [...new Set(scripts)].map((script) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(script.replace(/\r\n?/g, "\n")))),
  );
  return digests.map((digest) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
}

const tagsOf = (response: Response) => (response.headers.get("Cache-Tag") ?? "").split(",").filter(Boolean);

/**
 * What leaves the gateway: the page as it was stored, less the internal headers, and the sources its CSP allows for
 * inline script: the hashes of the page's own scripts (none for a page that has none, such as a sitemap).
 */
export function servedPage(response: Response): { page: Response; inlineScripts: string[] } {
  const hashes = response.headers.get(SCRIPT_HASHES_HEADER);
  const page = new Response(response.body, response);
  for (const name of INTERNAL_HEADERS) page.headers.delete(name);
  return { page, inlineScripts: hashes ? hashes.split(" ") : [] };
}

// ---- The Cache API stand-in, for runtimes without Workers Caching (Miniflare, vitest-pool-workers) ----

const CACHE_ORIGIN = "https://edge-cache.stride.internal";
// The Workers runtime's own cache; the DOM's CacheStorage type, also in scope, does not know it.
const defaultCache = () => (caches as unknown as { default: Cache }).default;
// Keyed as Workers Caching keys the entrypoint: the path and query, and the props.
const pageKey = (url: URL, { theme, origin }: PageProps) => `${CACHE_ORIGIN}/page/${theme}/${encodeURIComponent(origin)}${url.pathname}${url.search}`;
const purgeKey = (tag: string) => `${CACHE_ORIGIN}/purged/${encodeURIComponent(tag.toLowerCase())}`;
/** The time of the last purge of any tag: while it is older than a page, no purge can have named the page's tags. */
const LAST_PURGE_KEY = `${CACHE_ORIGIN}/last-purge`;

const purgedAt = async (cache: Cache, key: string) => {
  const record = await cache.match(key);
  return record ? Number(await record.text()) : 0;
};

/** A stored page, unless one of its tags was purged at or after the moment it was rendered. */
export async function matchStored(url: URL, props: PageProps): Promise<Response | null> {
  const cache = defaultCache();
  const [stored, lastPurge] = await Promise.all([cache.match(pageKey(url, props)), purgedAt(cache, LAST_PURGE_KEY)]);
  if (!stored) return null;
  const renderedAt = Number(stored.headers.get(RENDERED_AT_HEADER));
  // Most hits end here: nothing was purged since the page was rendered. Else each of its tags is asked.
  if (lastPurge >= renderedAt) {
    const purges = await Promise.all(tagsOf(stored).map((tag) => purgedAt(cache, purgeKey(tag))));
    if (purges.some((purge) => purge >= renderedAt)) return null;
  }
  const hit = new Response(stored.body, stored);
  hit.headers.set("Cache-Control", BROWSER_CACHE_CONTROL);
  hit.headers.set("Age", String(Math.max(0, Math.floor((Date.now() - renderedAt) / 1000))));
  hit.headers.set("Cf-Cache-Status", "HIT");
  return hit;
}

/** Keeps a copy of a page markShared made storable, for as long as its edge max age says; answers the other copy. */
export function storeIfShared(response: Response, url: URL, props: PageProps, ctx: ExecutionContext): Response {
  const edge = response.headers.get(EDGE_CACHE_CONTROL);
  if (!edge) {
    response.headers.set("Cf-Cache-Status", "BYPASS");
    return response;
  }
  const [toStore, toServe] = response.body ? response.body.tee() : [null, null];
  const stored = new Response(toStore, response);
  stored.headers.set("Cache-Control", `public, ${edge}`);
  ctx.waitUntil(defaultCache().put(pageKey(url, props), stored));
  const served = new Response(toServe, response);
  served.headers.set("Cf-Cache-Status", "MISS");
  served.headers.set("Age", "0");
  return served;
}

/** Records the purge of each tag, and that a purge happened; matchStored turns away every entry rendered before it. */
export async function purgeStored(tags: string[]): Promise<void> {
  const now = String(Date.now());
  // Kept past the longest max age, after which no entry it could turn away is left.
  const record = () => new Response(now, { headers: { "Cache-Control": `public, max-age=${ROBOTS_MAX_AGE_SECONDS}` } });
  await Promise.all(tags.map((tag) => defaultCache().put(purgeKey(tag), record())));
  // Written last: a hit that sees it also sees the tags' records.
  await defaultCache().put(LAST_PURGE_KEY, record());
}

/**
 * An answer that is not one of the shared pages, and says nothing of its own, is nobody else's to keep: a page is not
 * kept at all, anything else (a .data navigation, JSON) only by the browser that asked, and asked again before use.
 * Not no-store for those: Chromium reports a no-store .data answer whose stream React Router stops reading as aborted.
 */
export function privateByDefault(response: Response): Response {
  if (response.headers.has("Cache-Control")) return response;
  const marked = new Response(response.body, response);
  marked.headers.set("Cache-Control", isHtml(response) ? "private, no-store" : "private, no-cache");
  return marked;
}
