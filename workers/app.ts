import { WorkerEntrypoint } from "cloudflare:workers";
import { createRequestHandler } from "react-router";
import * as serverBuild from "virtual:react-router/server-build";

import { discardUnreadBody, errorJson } from "../app/lib/api.server";
import { forgetExpiredEndedSessions, forgetOldAttempts } from "../app/services/auth.server";
import { compactSearchIndex, rebuildSearchWords } from "../app/services/catalogue.server";
import { createDb, type Db } from "../app/services/db.server";
import { processMailBatch, sweepOutbox } from "../app/services/outbox.server";
import { allowedCrossOrigin, isApiPath, isPreflight, preflightResponse, withCorsHeaders, withoutCookie } from "./cors";
import { purgeChangedPages, type Purge } from "./catalogue-purge";
import { bookmarkedResponse, openSession } from "./d1-session";
import {
  anonymousRequest,
  markShared,
  matchStored,
  privateByDefault,
  purgeStored,
  servedPage,
  sharedPageVisit,
  storeIfShared,
  type PageProps,
} from "./edge-cache";

declare module "react-router" {
  export interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    db: Db;
    cspNonce: string;
  }
}

// Given the build itself, React Router prepares its route table and handlers once per isolate; given a function (as
// the templates do, for hot reloading), it prepares them again on every request. Only development needs that.
const requestHandler = import.meta.env.DEV
  ? createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE)
  : createRequestHandler(serverBuild, import.meta.env.MODE);

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/**
 * What the screens take: an HTML form has no other method. React Router would run a route's action for a PUT or a
 * DELETE too (a DELETE of /cart with intent=clear emptied the cart), so anything else is 405 before it gets there. The
 * API answers its own 405s, with each path's methods.
 */
const SCREEN_METHODS = new Set(["GET", "HEAD", "POST"]);
/** What React Router hands to a resource route; any other method (TRACE, PROPFIND...) it refuses with a bare message. */
const API_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

/** The nightly cron of wrangler.jsonc: 21:30 UTC, three in the morning in Colombo, when the shop is quietest. */
const NIGHTLY_CRON = "30 21 * * *";

const newNonce = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));

/** `inlineScripts`: the page's own inline scripts, by this response's nonce or (a cached page) by their hashes. */
function contentSecurityPolicy(inlineScripts: string[], frameableBySelf = false): string {
  return [
    "default-src 'self'",
    // No inline script but React Router's own.
    ["script-src 'self'", ...inlineScripts].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    frameableBySelf ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
  ].join("; ");
}

/** A year: browsers that once reached the shop over HTTPS never try plain HTTP again (not the subdomains: not ours). */
const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

function withSecurityHeaders(response: Response, inlineScripts: string[], https: boolean): Response {
  // Responses from fetch or R2 can carry immutable headers; a copy shares the body stream.
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  // A response may let this site's own pages frame it (the admin's bank slip viewer shows a PDF slip in an iframe)
  // by answering X-Frame-Options: SAMEORIGIN itself; everything else refuses every frame.
  const frameableBySelf = headers.get("X-Frame-Options")?.toUpperCase() === "SAMEORIGIN";
  if (!import.meta.env.DEV) headers.set("Content-Security-Policy", contentSecurityPolicy(inlineScripts, frameableBySelf));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", frameableBySelf ? "SAMEORIGIN" : "DENY");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  // Browsers ignore it over plain HTTP (the shop on localhost), so the Worker sends it over HTTPS only (the static
  // assets' copy in public/_headers goes out either way, as harmlessly).
  if (https) headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  return secured;
}

/** A form posted from another site: refused before any action runs (the cookie is SameSite=Lax, this closes the rest). */
function isCrossOriginWrite(request: Request): boolean {
  if (!UNSAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get("Origin");
  return origin !== null && origin !== new URL(request.url).origin;
}

/**
 * Drops the shared pages that carry any of the tags; false when the cache refused. With Workers Caching the purge runs
 * inside CataloguePages (a purge reaches only the cache of the entrypoint that calls it); elsewhere it is recorded
 * beside the Cache API's copies.
 */
function cachePurger(ctx: ExecutionContext): Purge {
  return async (tags) => {
    if (!ctx.cache) return purgeStored(tags).then(() => true);
    return ctx.exports.CataloguePages.purge(tags);
  };
}

/**
 * A page as every anonymous visitor with this theme sees it, read from any replica, ready for the shared cache. It has
 * no nonce: a nonce kept in a cache and shown to everyone would be no nonce at all. Its CSP names its scripts' hashes.
 */
async function renderSharedPage(request: Request, env: Env, ctx: ExecutionContext, props: PageProps): Promise<Response> {
  const renderedAt = Date.now();
  const db = createDb(env.DB.withSession("first-unconstrained") as unknown as D1Database);
  const context = { cloudflare: { env, ctx }, db, cspNonce: "" };
  const response = await requestHandler(anonymousRequest(request, props), context);
  return markShared(response, new URL(request.url), renderedAt);
}

/** The entrypoint Workers Caching fronts (wrangler.jsonc "exports"): on a hit Cloudflare answers without running it. */
export class CataloguePages extends WorkerEntrypoint<Env, PageProps> {
  fetch(request: Request): Promise<Response> {
    return renderSharedPage(request, this.env, this.ctx, this.ctx.props);
  }

  async purge(tags: string[]): Promise<boolean> {
    const result = await this.ctx.cache?.purge({ tags });
    if (result && !result.success) console.warn("Cache purge refused", tags, result.errors);
    return result?.success ?? false;
  }
}

/** A shared page: from Workers Caching where the runtime has it, else from the Cache API in front of the same render. */
async function sharedPage(request: Request, env: Env, ctx: ExecutionContext, props: PageProps): Promise<Response> {
  if (ctx.cache) return ctx.exports.CataloguePages({ props }).fetch(request);
  const url = new URL(request.url);
  if (request.method !== "GET") return renderSharedPage(request, env, ctx, props);
  return (await matchStored(url, props)) ?? storeIfShared(await renderSharedPage(request, env, ctx, props), url, props, ctx);
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const api = isApiPath(url);
    // A listed origin (ALLOWED_ORIGINS) calling the API: answered with CORS headers, authenticated by bearer token only.
    const corsOrigin = allowedCrossOrigin(request, url, env.ALLOWED_ORIGINS);
    const https = url.protocol === "https:";
    const secure = (response: Response, inlineScripts: string[] = []) => {
      const secured = withSecurityHeaders(response, inlineScripts, https);
      if (api) withCorsHeaders(secured.headers, corsOrigin);
      return secured;
    };
    // A preflight's answer carries its own grant (or none, when refused).
    if (api && isPreflight(request)) return withSecurityHeaders(preflightResponse(request, corsOrigin), [], https);
    if (corsOrigin === null && isCrossOriginWrite(request)) {
      await discardUnreadBody(request);
      const body = JSON.stringify({ message: "Cross-origin request refused" });
      return secure(new Response(body, { status: 403, headers: { "Content-Type": "application/json; charset=utf-8" } }));
    }

    if (api && !API_METHODS.has(request.method)) {
      await discardUnreadBody(request);
      // API.md's error shape. Allow names every method the API uses; a path's narrower list comes with the 405 the
      // API's own table gives for one of these that the path lacks.
      return secure(privateByDefault(errorJson(405, "Method not allowed", undefined, { Allow: [...API_METHODS].join(", ") })));
    }
    if (!api && !SCREEN_METHODS.has(request.method)) {
      await discardUnreadBody(request);
      const refused = new Response("Method not allowed", { status: 405, headers: { Allow: [...SCREEN_METHODS].join(", "), "Content-Type": "text/plain; charset=utf-8" } });
      return secure(privateByDefault(refused));
    }

    const visit = sharedPageVisit(request, url);
    if (visit) {
      const { page, inlineScripts } = servedPage(await sharedPage(request, env, ctx, visit));
      return secure(page, inlineScripts);
    }

    const nonce = newNonce();
    const forwarded = corsOrigin === null ? request : withoutCookie(request);
    const session = openSession(env.DB, forwarded, api);
    const response = await requestHandler(forwarded, { cloudflare: { env, ctx }, db: createDb(session.d1), cspNonce: nonce });
    // A write refused before its body was read (no session, the wrong role) still reads what the client sends.
    await discardUnreadBody(forwarded);
    if (session.wrote) await purgeChangedPages(session.d1, cachePurger(ctx));
    return secure(privateByDefault(bookmarkedResponse(response, session, forwarded, api)), [`'nonce-${nonce}'`]);
  },

  // The mail queue's consumer (wrangler.jsonc "queues"): each message names an outbox row to send or keep.
  async queue(batch, env) {
    await processMailBatch(batch, env);
  },

  // The cron triggers (wrangler.jsonc "triggers"): every five minutes, queued mails whose queue message was lost go on
  // the queue again; every night, the search index is compacted and its words for spelling correction made again
  // (search_words), and the ended sessions of expired tokens and the counted attempts older than a day are forgotten.
  async scheduled(controller, env) {
    const db = createDb(env.DB);
    if (controller.cron === NIGHTLY_CRON) {
      await compactSearchIndex(db);
      await rebuildSearchWords(db);
      await forgetExpiredEndedSessions(db);
      await forgetOldAttempts(db);
    } else await sweepOutbox(db, env.MAIL_QUEUE);
  },
} satisfies ExportedHandler<Env>;
