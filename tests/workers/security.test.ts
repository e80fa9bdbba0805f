import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { handleError } from "../../app/entry.server";
import { type TestUser, apiJson, call, postForm, register, setCookieFor } from "./helpers";

/** The CSP directive `name` as a list of sources. */
function directive(csp: string, name: string): string[] | undefined {
  const found = csp
    .split(";")
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name);
  return found?.slice(1);
}

function expectCommonHeaders(response: Response) {
  expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(response.headers.get("Referrer-Policy")).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/);
  const csp = response.headers.get("Content-Security-Policy");
  expect(csp, "Content-Security-Policy").toBeTruthy();
  const scriptSrc = directive(csp!, "script-src");
  expect(scriptSrc, "script-src").toBeDefined();
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  expect(scriptSrc).not.toContain("*");
  expect(directive(csp!, "frame-ancestors")).toEqual(["'none'"]);
  return { csp: csp!, scriptSrc: scriptSrc! };
}

/** The one nonce a rendered answer's script-src allows. */
function nonceOf(response: Response): string {
  const nonces = expectCommonHeaders(response).scriptSrc.filter((source) => source.startsWith("'nonce-"));
  expect(nonces).toHaveLength(1);
  return nonces[0].slice("'nonce-".length, -1);
}

/** The CSP source that allows an inline script with this text, computed here as the CSP spec says. */
async function hashSource(script: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

describe("security headers", () => {
  // workers/app.ts leaves the CSP out under Vite's dev server (its HMR client injects inline scripts). The Worker
  // runs from Vite here, so switch to the production path for these tests; the flag is read per request.
  beforeAll(async () => {
    await (await call("/")).text(); // loads the server build once before the flag changes
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("answers over HTTPS tell browsers to keep to HTTPS (HSTS); over plain HTTP (localhost) the header is left out", async () => {
    for (const path of ["https://stride.example/login", "https://stride.example/api/products", "https://stride.example/"]) {
      expect((await call(path)).headers.get("Strict-Transport-Security"), path).toBe("max-age=31536000");
    }
    expect((await call("/login")).headers.has("Strict-Transport-Security")).toBe(false);
  });

  it("an HTML page carries a nonce-based CSP whose nonce is on every <script>", async () => {
    vi.stubEnv("DEV", false);
    const response = await call("/login");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const nonce = nonceOf(response);
    expect(nonce.length).toBeGreaterThanOrEqual(16);
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);
  });

  it("the nonce changes from one response to the next", async () => {
    vi.stubEnv("DEV", false);
    const first = nonceOf(await call("/login"));
    const second = nonceOf(await call("/login"));
    expect(first).not.toBe(second);
  });

  it("an API answer carries the same headers", async () => {
    vi.stubEnv("DEV", false);
    const response = await call("/api/auth/validate");
    expect(response.status).toBe(200);
    nonceOf(response);
  });

  it("a page from the shared cache allows exactly its own inline scripts, by their hashes, and carries no nonce", async () => {
    vi.stubEnv("DEV", false);
    const path = `/?sort=name&csp=${crypto.randomUUID()}`;
    // A visitor's 404 is rendered the same way, and never stored: its scripts need their hashes too.
    const visits = [
      { path, status: 200, cache: "MISS" },
      { path, status: 200, cache: "HIT" },
      { path: "/product/987654322", status: 404, cache: "BYPASS" },
    ];
    for (const expected of visits) {
      const response = await call(expected.path);
      expect(response.status).toBe(expected.status);
      expect(response.headers.get("Cf-Cache-Status")).toBe(expected.cache);
      const { scriptSrc } = expectCommonHeaders(response);
      const html = await response.text();
      expect(html).not.toMatch(/\snonce=/);
      expect(scriptSrc.filter((source) => source.startsWith("'nonce-"))).toEqual([]);
      const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, text]) => text);
      expect(inline.length).toBeGreaterThan(1);
      const hashes = [...new Set(await Promise.all(inline.map(hashSource)))];
      expect(scriptSrc.filter((source) => source.startsWith("'sha256-")).sort()).toEqual(hashes.sort());
    }
  });

  it("an error answer (404 page, API 401) carries them too", async () => {
    vi.stubEnv("DEV", false);
    const page = await call("/no-such-page");
    expect(page.status).toBe(404);
    nonceOf(page);
    const api = await call("/api/auth/me");
    expect(api.status).toBe(401);
    nonceOf(api);
  });
});

describe("the log", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // React Router answers a POST where there is no action with 405 (and no route with 404) and hands the error to
  // handleError; logging a stack for each would let anyone flood the log. (Under vitest React Router's own default
  // logs nothing, so the entry's handler is called as React Router calls it.)
  const args = (method = "POST") => ({ request: new Request("http://localhost/healthz", { method }), params: {}, context: {} as never });
  const clientsMistake = (status: number) => ({ status, statusText: "", internal: true, data: "", error: new Error(`no action (${status})`) });

  it("a client's mistake that no route answers (405, 404) is not logged; a server error is, with its stack", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    handleError(clientsMistake(405), args());
    handleError(clientsMistake(404), args("GET"));
    expect(logged).not.toHaveBeenCalled();
    const failure = new Error("D1 went away");
    handleError(failure, args("GET"));
    expect(logged).toHaveBeenCalledWith(failure);
  });

  it("the 405 itself still reaches the client", async () => {
    const response = await call("/healthz", { method: "POST", body: new URLSearchParams({ x: "1" }) });
    expect(response.status).toBe(405);
  });
});

describe("cross-origin writes", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await register();
  });

  it("a login form posted from another site is 403 with no session cookie", async () => {
    const forged = await call("/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
      body: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
    expect(forged.status).toBe(403);
    expect(setCookieFor(forged, "stride_session")).toBeUndefined();
    expect(forged.headers.get("Set-Cookie")).toBeNull();

    // The very same post from this site logs in (so the 403 above is the origin check, not the credentials).
    const same = await postForm("/login", { email: user.email, password: user.password });
    expect(same.status).toBe(302);
    expect(setCookieFor(same, "stride_session")).toBeDefined();
  });

  it("the JSON API refuses a cross-origin write as well", async () => {
    const response = await apiJson("POST", "/api/auth/login", { email: user.email, password: user.password }, { Origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(JSON.stringify(await response.json())).not.toContain("token\":");
  });

  it("a same-origin or Origin-less write passes, and a cross-origin read is not blocked", async () => {
    expect((await apiJson("POST", "/api/auth/login", { email: user.email, password: user.password }, { Origin: "http://localhost" })).status).toBe(200);
    expect((await apiJson("POST", "/api/auth/login", { email: user.email, password: user.password })).status).toBe(200);
    expect((await call("/api/auth/validate", { headers: { Origin: "https://evil.example" } })).status).toBe(200);
  });

  it("logout posted from another site is refused and clears nothing", async () => {
    const response = await call("/logout", { method: "POST", headers: { Origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });
});
