import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";

import { type TestUser, authHeader, base64UrlEncode, call, login, register, setRole, testEnv } from "./helpers";

const ME = "/api/auth/me";
const USERS = "/api/auth/admin/users";
const VALIDATE = "/api/auth/validate";

const secretKey = () => new TextEncoder().encode(testEnv.JWT_SECRET);

async function sign(claims: { sub: string; iat?: number; exp?: number }, key: Uint8Array = secretKey(), alg = "HS256") {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg, typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuedAt(claims.iat ?? now)
    .setExpirationTime(claims.exp ?? now + 3600)
    .sign(key);
}

async function expectDeadToken(response: Response) {
  expect(response.status).toBe(401);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const { message } = (await response.json()) as { message: string };
  expect(message).toMatch(/token/i);
  expect(message).toMatch(/invalid|expired/i);
}

const validity = async (headers: Record<string, string> = {}) => {
  const response = await call(VALIDATE, { headers });
  expect(response.status).toBe(200);
  return response.json();
};

describe("bearer tokens", () => {
  let user: TestUser;
  let token: string;
  beforeAll(async () => {
    user = await register({ name: "Token Tharindu" });
    token = await login(user.email);
  });

  it("GET /api/auth/me with a valid token is 200 with the public User", async () => {
    const response = await call(ME, { headers: authHeader(token) });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ id: user.id, name: "Token Tharindu", email: user.email, phone: "0771234567", address: expect.any(String), role: "ROLE_CUSTOMER" });
    expect(text).not.toMatch(/password|hash/i);
  });

  it("the same token in the stride_session cookie is accepted too", async () => {
    const response = await call(ME, { headers: { Cookie: `stride_session=${token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: number }).id).toBe(user.id);
  });

  it("no token is 401 with a message naming the token, as API.md words every 401 of a session", async () => {
    const response = await call(ME);
    expect(response.status).toBe(401);
    const { message } = (await response.json()) as { message: string };
    expect(message).toMatch(/token/i);
    expect(message).toMatch(/invalid|expired/i);
  });

  it("a malformed token is 401 invalid/expired token", async () => {
    await expectDeadToken(await call(ME, { headers: authHeader("not-a-jwt") }));
    await expectDeadToken(await call(ME, { headers: authHeader("a.b.c") }));
  });

  it("a tampered payload is 401", async () => {
    const [header, , signature] = token.split(".");
    const now = Math.floor(Date.now() / 1000);
    const forged = `${header}.${base64UrlEncode(JSON.stringify({ sub: String(user.id + 1), iat: now, exp: now + 3600 }))}.${signature}`;
    await expectDeadToken(await call(ME, { headers: authHeader(forged) }));
  });

  it("a tampered signature is 401", async () => {
    const [header, payload, signature] = token.split(".");
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    await expectDeadToken(await call(ME, { headers: authHeader(`${header}.${payload}.${flipped}`) }));
  });

  it("an expired token is 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ sub: String(user.id), iat: now - 2 * 86400, exp: now - 60 });
    await expectDeadToken(await call(ME, { headers: authHeader(expired) }));
  });

  it("an alg:none token is 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const header = base64UrlEncode(JSON.stringify({ alg: "none", typ: "JWT" }));
    const payload = base64UrlEncode(JSON.stringify({ sub: String(user.id), iat: now, exp: now + 3600 }));
    await expectDeadToken(await call(ME, { headers: authHeader(`${header}.${payload}.`) }));
    await expectDeadToken(await call(ME, { headers: authHeader(`${header}.${payload}`) }));
  });

  it("a token signed with another secret is 401", async () => {
    const other = await sign({ sub: String(user.id) }, new TextEncoder().encode("some-other-secret-entirely"));
    await expectDeadToken(await call(ME, { headers: authHeader(other) }));
  });

  it("a token signed with the right secret but another algorithm (HS512) is 401", async () => {
    const hs512 = await sign({ sub: String(user.id) }, secretKey(), "HS512");
    await expectDeadToken(await call(ME, { headers: authHeader(hs512) }));
  });

  it("a correctly signed token whose subject is not a user id is 401", async () => {
    await expectDeadToken(await call(ME, { headers: authHeader(await sign({ sub: "admin" })) }));
    await expectDeadToken(await call(ME, { headers: authHeader(await sign({ sub: "999999999" })) }));
  });

  it("a token of a deleted user is 401 from then on", async () => {
    const doomed = await register({ name: "Doomed" });
    const doomedToken = await login(doomed.email);
    expect((await call(ME, { headers: authHeader(doomedToken) })).status).toBe(200);
    await testEnv.DB.prepare("DELETE FROM users WHERE id = ?").bind(doomed.id).run();
    await expectDeadToken(await call(ME, { headers: authHeader(doomedToken) }));
    expect(await validity(authHeader(doomedToken))).toEqual({ valid: false });
  });

  it("a role changed in the database takes effect at once, both ways", async () => {
    const climber = await register({ name: "Climber" });
    const climberToken = await login(climber.email);
    expect((await call(USERS, { headers: authHeader(climberToken) })).status).toBe(403);

    await setRole(climber.id, "ROLE_ADMIN");
    const promoted = await call(USERS, { headers: authHeader(climberToken) });
    expect(promoted.status).toBe(200);
    const me = (await (await call(ME, { headers: authHeader(climberToken) })).json()) as { role: string };
    expect(me.role).toBe("ROLE_ADMIN");

    await setRole(climber.id, "ROLE_CUSTOMER");
    const demoted = await call(USERS, { headers: authHeader(climberToken) });
    expect(demoted.status).toBe(403);
    expect(((await demoted.json()) as { message: string }).message).toEqual(expect.any(String));
  });

  describe("GET /api/auth/validate", () => {
    it("is {valid: true} for a good token", async () => {
      expect(await validity(authHeader(token))).toEqual({ valid: true });
    });

    it("is {valid: false} without a token", async () => {
      expect(await validity()).toEqual({ valid: false });
    });

    it("is {valid: false} for a bad, expired or foreign token", async () => {
      const now = Math.floor(Date.now() / 1000);
      expect(await validity(authHeader("garbage"))).toEqual({ valid: false });
      expect(await validity(authHeader(await sign({ sub: String(user.id), iat: now - 90000, exp: now - 10 })))).toEqual({ valid: false });
      expect(await validity(authHeader(await sign({ sub: String(user.id) }, new TextEncoder().encode("nope-nope"))))).toEqual({ valid: false });
    });
  });
});
