import { describe, expect, it } from "vitest";

import { apiJson, authHeader, call, login, register } from "./helpers";

type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: Record<string, unknown> } }> } }>>;
};

describe("API frame", () => {
  for (const [method, path] of [
    ["GET", "/api/no-such-thing"],
    ["GET", "/api"],
    ["GET", "/api/auth"],
    ["GET", "/api/auth/nope"],
    ["POST", "/api/no-such-thing"],
    ["GET", "/api/openapi.json/extra"],
  ] as const) {
    it(`${method} ${path} is a JSON 404 {message}`, async () => {
      const response = await call(path, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      const body = (await response.json()) as { message: string };
      expect(typeof body.message).toBe("string");
      expect(body.message.length).toBeGreaterThan(0);
    });
  }

  for (const [method, path, allow] of [
    ["GET", "/api/auth/register", "POST"],
    ["GET", "/api/auth/login", "POST"],
    ["DELETE", "/api/auth/me", "GET, PUT"],
    ["POST", "/api/auth/validate", "GET"],
    ["PUT", "/api/auth/admin/users", "GET"],
    ["POST", "/api/openapi.json", "GET"],
  ] as const) {
    it(`${method} ${path} is a JSON 405 with Allow`, async () => {
      const response = await call(path, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(typeof ((await response.json()) as { message: string }).message).toBe("string");
      expect(response.headers.get("Allow")?.split(/,\s*/).sort()).toEqual(allow.split(", ").sort());
    });
  }

  for (const method of ["PROPFIND", "OPTIONS", "PURGE"]) {
    it(`${method}, which no API path has, is a JSON 405 "Method not allowed", not React Router's bare refusal`, async () => {
      const response = await call("/api/products", { method });
      expect(response.status).toBe(405);
      expect(await response.json()).toEqual({ message: "Method not allowed" });
      expect(response.headers.get("Allow")).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
    });
  }

  it("every /api answer is application/json, whatever its status", async () => {
    const user = await register();
    const token = await login(user.email);
    const responses = await Promise.all([
      call("/api/auth/validate"), // 200
      apiJson("POST", "/api/auth/register", {}), // 400
      call("/api/auth/me"), // 401
      call("/api/auth/admin/users", { headers: authHeader(token) }), // 403
      call("/api/nothing-here"), // 404
      call("/api/auth/me", { method: "DELETE" }), // 405
      apiJson("POST", "/api/auth/register", { ...user, phone: "0771234567", address: "x" }), // 409
      apiJson("POST", "/api/auth/register", "x".repeat(70 * 1024)), // 413
      call("/api/openapi.json"), // 200
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 400, 401, 403, 404, 405, 409, 413, 200]);
    for (const response of responses) {
      expect(response.headers.get("Content-Type"), `status ${response.status}`).toMatch(/^application\/json; charset=utf-8$/i);
      await response.json(); // parses
    }
  });

  describe("GET /api/openapi.json", () => {
    it("is an OpenAPI 3.1 document listing every auth path with its methods", async () => {
      const response = await call("/api/openapi.json");
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      const doc = (await response.json()) as OpenApi;
      expect(doc.openapi).toMatch(/^3\.1\./);
      const expected: Record<string, string[]> = {
        "/api/auth/register": ["post"],
        "/api/auth/login": ["post"],
        "/api/auth/validate": ["get"],
        "/api/auth/me": ["get", "put"],
        "/api/auth/admin/users": ["get"],
      };
      for (const [path, methods] of Object.entries(expected)) {
        expect(doc.paths, path).toHaveProperty([path]);
        expect(Object.keys(doc.paths[path]).sort(), path).toEqual(methods);
      }
    });

    it("lists every row of API.md, so a resource left out of the document fails here", async () => {
      const doc = (await (await call("/api/openapi.json")).json()) as OpenApi;
      const rows = [
        "post /api/auth/register", "post /api/auth/login", "get /api/auth/validate", "get /api/auth/me", "put /api/auth/me",
        "get /api/auth/admin/users", "get /api/products", "get /api/products/search", "get /api/product/{id}",
        "get /api/product/{id}/image", "post /api/product", "put /api/product/{id}", "delete /api/product/{id}",
        "get /api/cart", "post /api/cart/add", "put /api/cart/set", "delete /api/cart/remove", "delete /api/cart/clear",
        "post /api/cart/merge", "post /api/orders", "get /api/orders/my", "get /api/orders/admin/all",
        "put /api/orders/admin/{id}/status", "get /api/orders/{id}/bank-slip", "get /api/reviews/product/{productId}",
        "post /api/reviews", "put /api/reviews/{id}", "delete /api/reviews/{id}", "get /api/stats",
      ];
      const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
      expect(rows.filter((row) => !documented.includes(row))).toEqual([]);
    });

    it("documents the register body: name, email, password, address and phone required", async () => {
      const doc = (await (await call("/api/openapi.json")).json()) as OpenApi;
      const schema = doc.paths["/api/auth/register"].post.requestBody?.content["application/json"].schema;
      expect(schema?.required?.slice().sort()).toEqual(["address", "email", "name", "password", "phone"]);
      expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(["address", "email", "name", "password", "phone"]);
    });

    it("documents the login body and the PUT /me body (password optional)", async () => {
      const doc = (await (await call("/api/openapi.json")).json()) as OpenApi;
      const loginSchema = doc.paths["/api/auth/login"].post.requestBody?.content["application/json"].schema;
      expect(loginSchema?.required?.slice().sort()).toEqual(["email", "password"]);
      const putSchema = doc.paths["/api/auth/me"].put.requestBody?.content["application/json"].schema;
      expect(putSchema?.required).toEqual(expect.arrayContaining(["name", "email"]));
      expect(putSchema?.required ?? []).not.toContain("password");
    });
  });
});
