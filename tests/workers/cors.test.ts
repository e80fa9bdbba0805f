import { beforeAll, describe, expect, it } from "vitest";

import { parseAllowedOrigins } from "../../workers/cors";
import { insertProduct } from "./catalogue-helpers";
import { authHeader, call, login, register, sessionCookieFor, type TestUser } from "./helpers";

// CORS for /api: vitest.workers.config.ts lists https://app.stride.test and https://tools.stride.test in
// ALLOWED_ORIGINS. A listed origin may call the API with a bearer token; no other origin gets any CORS header, the
// session cookie never authenticates a cross-origin call, and the screens stay closed to other origins.

const LISTED = "https://app.stride.test";
const UNLISTED = "https://evil.example";
const CORS_HEADERS = ["Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Allow-Credentials", "Access-Control-Expose-Headers"];

const preflight = (path: string, origin: string, method = "POST", headers = "authorization, content-type") =>
  call(path, { method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers } });

function expectNoCorsGrant(response: Response) {
  for (const name of CORS_HEADERS) expect(response.headers.get(name), name).toBeNull();
}

describe("CORS on /api", () => {
  let customer: TestUser;
  let token: string;
  let productId: number;
  let otherProductId: number;
  beforeAll(async () => {
    customer = await register({ name: "Cross Origin" });
    token = await login(customer.email, customer.password);
    productId = await insertProduct({ stockQuantity: 5 });
    otherProductId = await insertProduct({ stockQuantity: 5 });
  });

  describe("a listed origin", () => {
    it("gets its preflight granted for the methods and headers the contract uses", async () => {
      for (const method of ["GET", "POST", "PUT", "DELETE"]) {
        const response = await preflight("/api/cart/add?productId=1", LISTED, method);
        expect(response.status, method).toBe(204);
        expect(response.headers.get("Access-Control-Allow-Origin")).toBe(LISTED);
        expect(response.headers.get("Access-Control-Allow-Methods")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "POST", "PUT", "DELETE"]));
        expect(response.headers.get("Access-Control-Allow-Headers")?.toLowerCase().split(/,\s*/)).toEqual(["authorization", "content-type", "x-d1-bookmark", "idempotency-key"]);
        expect(response.headers.get("Access-Control-Allow-Credentials")).toBeNull();
        expect(response.headers.get("Vary")).toContain("Origin");
        expect(Number(response.headers.get("Access-Control-Max-Age"))).toBeGreaterThan(0);
      }
    });

    it("may send an order's Idempotency-Key and read whether the answer is a replay", async () => {
      const response = await preflight("/api/orders", LISTED, "POST", "authorization, idempotency-key");
      expect(response.status).toBe(204);
      const answer = await call("/api/products?page=1&pageSize=1", { headers: { Origin: LISTED } });
      expect(answer.headers.get("Access-Control-Expose-Headers")?.split(/,\s*/)).toContain("Idempotent-Replayed");
    });

    it("is refused a preflight for a header or method the contract does not use", async () => {
      const header = await preflight("/api/auth/me", LISTED, "GET", "authorization, x-custom");
      expect(header.status).toBe(403);
      expectNoCorsGrant(header);
      const method = await preflight("/api/auth/me", LISTED, "PATCH");
      expect(method.status).toBe(403);
      expectNoCorsGrant(method);
    });

    it("reads a public answer, with the headers a client needs exposed", async () => {
      const response = await call("/api/products?page=1&pageSize=2", { headers: { Origin: LISTED } });
      expect(response.status).toBe(200);
      expect(response.headers.get("Access-Control-Allow-Origin")).toBe(LISTED);
      expect(response.headers.get("Access-Control-Expose-Headers")).toContain("X-Total-Count");
      expect(response.headers.get("Access-Control-Allow-Credentials")).toBeNull();
      expect(response.headers.get("Vary")).toContain("Origin");
    });

    it("writes with a bearer token (a cart add), and reads its own error answers", async () => {
      const added = await call(`/api/cart/add?productId=${productId}&quantity=1`, { method: "POST", headers: { Origin: LISTED, ...authHeader(token) } });
      expect(added.status).toBe(200);
      expect(added.headers.get("Access-Control-Allow-Origin")).toBe(LISTED);
      const cart = (await added.json()) as { productId: number }[];
      expect(cart.map((line) => line.productId)).toContain(productId);

      const anonymous = await call("/api/cart", { headers: { Origin: LISTED } });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("Access-Control-Allow-Origin")).toBe(LISTED);
    });

    it("is never authenticated by the session cookie, only by a bearer token", async () => {
      const cookie = await sessionCookieFor(customer.email, customer.password);
      const sameSite = await call("/api/auth/me", { headers: { Cookie: cookie } });
      expect(sameSite.status, "the cookie works on the shop's own origin").toBe(200);
      const crossRead = await call("/api/auth/me", { headers: { Origin: LISTED, Cookie: cookie } });
      expect(crossRead.status).toBe(401);
      const crossWrite = await call("/api/cart/clear", { method: "DELETE", headers: { Origin: LISTED, Cookie: cookie } });
      expect(crossWrite.status).toBe(401);
      const cart = await call("/api/cart", { headers: authHeader(token) });
      expect(((await cart.json()) as unknown[]).length, "the cookie-only clear changed nothing").toBeGreaterThan(0);
    });
  });

  describe("an unlisted origin", () => {
    it("gets no grant for a preflight (403) nor on an answer", async () => {
      const refused = await preflight("/api/cart/add?productId=1", UNLISTED);
      expect(refused.status).toBe(403);
      expectNoCorsGrant(refused);
      expect(refused.headers.get("Vary")).toContain("Origin");
      const read = await call("/api/products", { headers: { Origin: UNLISTED } });
      expect(read.status).toBe(200);
      expectNoCorsGrant(read);
      expect(read.headers.get("Vary")).toContain("Origin");
    });

    it("cannot write, even with a valid bearer token", async () => {
      const response = await call(`/api/cart/add?productId=${otherProductId}&quantity=1`, { method: "POST", headers: { Origin: UNLISTED, ...authHeader(token) } });
      expect(response.status).toBe(403);
      expectNoCorsGrant(response);
      const cart = (await (await call("/api/cart", { headers: authHeader(token) })).json()) as { productId: number }[];
      expect(cart.map((line) => line.productId)).not.toContain(otherProductId);
    });
  });

  describe("the null origin (sandboxed frames, files)", () => {
    it("is never granted, and never can be listed", async () => {
      const refused = await preflight("/api/products", "null", "GET");
      expect(refused.status).toBe(403);
      expectNoCorsGrant(refused);
      const write = await call(`/api/cart/add?productId=${otherProductId}&quantity=1`, { method: "POST", headers: { Origin: "null", ...authHeader(token) } });
      expect(write.status).toBe(403);
      expectNoCorsGrant(write);
      expect([...parseAllowedOrigins("null, https://ok.example, not a url, ftp://files.example")]).toEqual(["https://ok.example"]);
    });
  });

  describe("the screens", () => {
    it("are unchanged: no CORS headers for a listed origin, and its form posts are refused", async () => {
      const page = await call("/", { headers: { Origin: LISTED } });
      expect(page.status).toBe(200);
      expectNoCorsGrant(page);
      const options = await preflight("/cart", LISTED);
      expectNoCorsGrant(options);
      const post = await call("/cart", { method: "POST", headers: { Origin: LISTED, "Content-Type": "application/x-www-form-urlencoded" }, body: "intent=clear" });
      expect(post.status).toBe(403);
      expectNoCorsGrant(post);
    });
  });
});
