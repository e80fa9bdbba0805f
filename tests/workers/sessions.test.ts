import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";

import { endAllSessions, endAllSessionsStatement } from "~/services/auth.server";
import { createDb, schema } from "~/services/db.server";
import {
  type TestUser,
  apiJson,
  authHeader,
  call,
  cookiePair,
  cookieValue,
  login,
  postForm,
  register,
  sessionCookieFor,
  setCookieFor,
  testEnv,
} from "./helpers";
import { worker } from "./outbox-helpers";

// Issue 16 item 4: logout and a password change end sessions on the server. Each token carries the user's session
// version (claim sv) and its own id (claim jti). A logout ends its own session (the id joins ended_sessions): that token
// answers 401, bearer and cookie alike, and the user's other devices stay logged in. A new password bumps
// users.session_version, which ends every earlier token at once.

const ME = "/api/auth/me";

async function expectDeadToken(response: Response) {
  expect(response.status).toBe(401);
  const { message } = (await response.json()) as { message: string };
  expect(message).toMatch(/token/i);
  expect(message).toMatch(/invalid|expired/i);
}

const sessionVersion = async (userId: number) =>
  (await testEnv.DB.prepare("SELECT session_version AS v FROM users WHERE id = ?").bind(userId).first<{ v: number }>())!.v;

/** A token's claims, read without checking it (the tests' own tokens). */
const claimsOf = (token: string) => JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { jti?: string; exp: number; sv?: number };
const isEnded = async (token: string) =>
  (await testEnv.DB.prepare("SELECT expires_at AS e FROM ended_sessions WHERE id = ?").bind(claimsOf(token).jti ?? "").first<{ e: number }>())?.e ?? null;

/** A token signed with the right secret, with the claims given (sv left out when undefined). */
async function sign(userId: number, claims: Record<string, unknown>) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(userId))
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(testEnv.JWT_SECRET));
}

const profileBody = (user: TestUser, password?: string) => ({
  name: user.name,
  email: user.email,
  address: "12 Galle Road, Colombo 03",
  phone: "0771234567",
  ...(password === undefined ? {} : { password }),
});

describe("logout ends the session on the server", () => {
  it("after POST /logout the old cookie's token is 401 on the API (bearer and cookie) and a screen sends it to the login page", async () => {
    const user = await register();
    const cookie = await sessionCookieFor(user.email, user.password);
    const token = cookie.slice("stride_session=".length);
    expect((await call(ME, { headers: authHeader(token) })).status).toBe(200);

    const out = await postForm("/logout", {}, { cookie });
    expect(out.status).toBe(302);
    // This session ended, until its token would have expired; the user's version (every session) is as it was.
    expect(await isEnded(token)).toBe(claimsOf(token).exp);
    expect(await sessionVersion(user.id)).toBe(0);

    // Someone who kept the token (a copied cookie) gets nothing from it.
    await expectDeadToken(await call(ME, { headers: authHeader(token) }));
    await expectDeadToken(await call(ME, { headers: { Cookie: cookie } }));
    const screen = await call("/orders", { headers: { Cookie: cookie } });
    expect(screen.status).toBe(302);
    expect(screen.headers.get("Location")).toBe("/login?redirect=%2Forders&expired=1");
    expect(await (await call("/api/auth/validate", { headers: authHeader(token) })).json()).toEqual({ valid: false });
  });

  it("logout on one device leaves the user's other devices logged in, and a new login works again", async () => {
    const user = await register();
    const phone = await login(user.email);
    const laptop = await sessionCookieFor(user.email, user.password);
    await postForm("/logout", {}, { cookie: laptop });
    await expectDeadToken(await call(ME, { headers: { Cookie: laptop } }));
    expect((await call(ME, { headers: authHeader(phone) })).status).toBe(200);
    expect((await call("/orders", { headers: { Cookie: `stride_session=${phone}` } })).status).toBe(200);

    const again = await login(user.email);
    expect((await call(ME, { headers: authHeader(again) })).status).toBe(200);
  });

  it("a token issued before sessions had ids (no jti) can only be ended with every session of its user", async () => {
    const user = await register();
    const legacy = await sign(user.id, { sv: 0 });
    const current = await login(user.email);
    expect((await call(ME, { headers: authHeader(legacy) })).status).toBe(200);
    expect((await call("/api/auth/logout", { method: "POST", headers: authHeader(legacy) })).status).toBe(204);
    await expectDeadToken(await call(ME, { headers: authHeader(legacy) }));
    await expectDeadToken(await call(ME, { headers: authHeader(current) }));
    expect(await sessionVersion(user.id)).toBe(1);
  });

  it("a jti that is not a session id makes the token malformed (401)", async () => {
    const user = await register();
    for (const jti of ["x", "../../etc", "0".repeat(37)]) await expectDeadToken(await call(ME, { headers: authHeader(await sign(user.id, { jti })) }));
  });

  it("the nightly cron forgets ended sessions whose tokens have expired, and keeps the others", async () => {
    const user = await register();
    const token = await login(user.email);
    await call("/api/auth/logout", { method: "POST", headers: authHeader(token) });
    const expired = crypto.randomUUID();
    await testEnv.DB.prepare("INSERT INTO ended_sessions (id, expires_at) VALUES (?, ?)").bind(expired, Math.floor(Date.now() / 1000) - 60).run();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "30 21 * * *" }), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(await testEnv.DB.prepare("SELECT count(*) AS n FROM ended_sessions WHERE id = ?").bind(expired).first<{ n: number }>()).toEqual({ n: 0 });
    expect(await isEnded(token)).toBe(claimsOf(token).exp);
    await expectDeadToken(await call(ME, { headers: authHeader(token) }));
  });

  it("a logout without a valid session ends nothing", async () => {
    const user = await register();
    const before = await testEnv.DB.prepare("SELECT count(*) AS n FROM ended_sessions").first<{ n: number }>();
    await postForm("/logout", {}, { cookie: "stride_session=garbage" });
    await postForm("/logout", {});
    expect(await sessionVersion(user.id)).toBe(0);
    expect(await testEnv.DB.prepare("SELECT count(*) AS n FROM ended_sessions").first<{ n: number }>()).toEqual(before);
  });

  it("POST /api/auth/logout: 204, the token is 401 from then on, and a second logout with it is 401", async () => {
    const user = await register();
    const token = await login(user.email);
    const other = await login(user.email);
    const response = await call("/api/auth/logout", { method: "POST", headers: authHeader(token) });
    expect(response.status).toBe(204);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    // A bearer client has no browser cache of the shop to clear; a cookie logout clears it (below).
    expect(response.headers.get("Clear-Site-Data")).toBeNull();
    const byCookie = await call("/api/auth/logout", { method: "POST", headers: { Cookie: `stride_session=${other}` } });
    expect(byCookie.status).toBe(204);
    expect(byCookie.headers.get("Clear-Site-Data")).toBe('"cache"');
    const stillIn = await login(user.email);
    await expectDeadToken(await call(ME, { headers: authHeader(token) }));
    await expectDeadToken(await call("/api/auth/logout", { method: "POST", headers: authHeader(token) }));
    // Another login of the same user (another device) is not this session.
    expect((await call(ME, { headers: authHeader(stillIn) })).status).toBe(200);
    expect(await sessionVersion(user.id)).toBe(0);
  });

  it("POST /api/auth/logout with the session cookie clears the cookie too", async () => {
    const user = await register();
    const cookie = await sessionCookieFor(user.email, user.password);
    const response = await call("/api/auth/logout", { method: "POST", headers: { Cookie: cookie } });
    expect(response.status).toBe(204);
    expect(setCookieFor(response, "stride_session")).toMatch(/^stride_session=;.*Max-Age=0/i);
  });

  it("POST /api/auth/logout without a token is 401 and GET is 405", async () => {
    expect((await call("/api/auth/logout", { method: "POST" })).status).toBe(401);
    expect((await call("/api/auth/logout")).status).toBe(405);
  });
});

describe("a password change ends the other sessions and keeps the one that made it", () => {
  it("on /profile: the old token is 401, the fresh cookie the answer sets works", async () => {
    const user = await register({ name: "Changer Chamari" });
    const elsewhere = await login(user.email);
    const cookie = await sessionCookieFor(user.email, user.password);

    const response = await postForm(
      "/profile",
      { ...profileBody(user), password: "brandNew99", confirmPassword: "brandNew99" },
      { cookie },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Profile updated successfully.");
    const fresh = cookiePair(response, "stride_session");
    expect(fresh).not.toBe(cookie);

    await expectDeadToken(await call(ME, { headers: authHeader(elsewhere) }));
    await expectDeadToken(await call(ME, { headers: { Cookie: cookie } }));
    const oldScreen = await call("/profile", { headers: { Cookie: cookie } });
    expect(oldScreen.status).toBe(302);
    expect(oldScreen.headers.get("Location")).toBe("/login?redirect=%2Fprofile&expired=1");

    expect((await call("/profile", { headers: { Cookie: fresh } })).status).toBe(200);
    expect((await call(ME, { headers: authHeader(cookieValue(response, "stride_session")) })).status).toBe(200);
    expect((await apiJson("POST", "/api/auth/login", { email: user.email, password: "brandNew99" })).status).toBe(200);
  });

  it("on /profile without a new password: no new cookie, every session stays", async () => {
    const user = await register({ name: "Keeper Kamal" });
    const elsewhere = await login(user.email);
    const cookie = await sessionCookieFor(user.email, user.password);
    const response = await postForm("/profile", { ...profileBody(user), password: "", confirmPassword: "" }, { cookie });
    expect(response.status).toBe(200);
    expect(setCookieFor(response, "stride_session")).toBeUndefined();
    expect((await call(ME, { headers: authHeader(elsewhere) })).status).toBe(200);
    expect(await sessionVersion(user.id)).toBe(0);
  });

  it("a refused change (400) ends nothing", async () => {
    const user = await register();
    const cookie = await sessionCookieFor(user.email, user.password);
    const response = await postForm("/profile", { ...profileBody(user), password: "abc", confirmPassword: "abc" }, { cookie });
    expect(response.status).toBe(400);
    expect((await call(ME, { headers: { Cookie: cookie } })).status).toBe(200);
    expect(await sessionVersion(user.id)).toBe(0);
  });

  it("PUT /api/auth/me with a password: the old token is 401, the fresh one in X-Auth-Token works", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await apiJson("PUT", ME, profileBody(user, "anotherOne1"), authHeader(token));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: number }).id).toBe(user.id);
    const fresh = response.headers.get("X-Auth-Token");
    expect(fresh).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(response.headers.get("Set-Cookie")).toBeNull(); // a bearer client has no cookie to refresh

    await expectDeadToken(await call(ME, { headers: authHeader(token) }));
    expect((await call(ME, { headers: authHeader(fresh!) })).status).toBe(200);
  });

  it("PUT /api/auth/me with a password from the browser's cookie refreshes the cookie", async () => {
    const user = await register();
    const cookie = await sessionCookieFor(user.email, user.password);
    const response = await apiJson("PUT", ME, profileBody(user, "anotherOne1"), { Cookie: cookie });
    expect(response.status).toBe(200);
    const fresh = cookiePair(response, "stride_session");
    await expectDeadToken(await call(ME, { headers: { Cookie: cookie } }));
    expect((await call(ME, { headers: { Cookie: fresh } })).status).toBe(200);
  });

  it("PUT /api/auth/me without a password keeps every token and sends none", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await apiJson("PUT", ME, profileBody(user), authHeader(token));
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Auth-Token")).toBeNull();
    expect((await call(ME, { headers: authHeader(token) })).status).toBe(200);
  });
});

describe("the session version in the token", () => {
  it("a token at a stale version is 401, one at the current version works", async () => {
    const user = await register();
    const token = await login(user.email);
    await endAllSessions(createDb(testEnv.DB), user.id);
    await endAllSessions(createDb(testEnv.DB), user.id);
    expect(await sessionVersion(user.id)).toBe(2);
    await expectDeadToken(await call(ME, { headers: authHeader(token) }));
    await expectDeadToken(await call(ME, { headers: authHeader(await sign(user.id, { sv: 1 })) }));
    await expectDeadToken(await call(ME, { headers: authHeader(await sign(user.id, { sv: 3 })) }));
    expect((await call(ME, { headers: authHeader(await sign(user.id, { sv: 2 })) })).status).toBe(200);
    expect((await call(ME, { headers: authHeader(await login(user.email)) })).status).toBe(200);
  });

  it("a token without sv (issued before session versions) counts as version 0: it works until its logout", async () => {
    const user = await register();
    const legacy = await sign(user.id, {});
    expect((await call(ME, { headers: authHeader(legacy) })).status).toBe(200);
    expect((await call("/profile", { headers: { Cookie: `stride_session=${legacy}` } })).status).toBe(200);
    await call("/api/auth/logout", { method: "POST", headers: authHeader(legacy) });
    await expectDeadToken(await call(ME, { headers: authHeader(legacy) }));
  });

  it("an sv that is not a whole number of at least 0 is 401", async () => {
    const user = await register();
    for (const sv of ["0", -1, 0.5, null, true]) {
      await expectDeadToken(await call(ME, { headers: authHeader(await sign(user.id, { sv })) }));
    }
  });

  it("the login token carries the current version", async () => {
    const user = await register();
    await endAllSessions(createDb(testEnv.DB), user.id);
    const token = await login(user.email);
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { sv: number };
    expect(payload.sv).toBe(1);
  });

  it("endAllSessionsStatement joins a D1 batch and happens only if the batch does", async () => {
    const user = await register();
    const token = await login(user.email);
    const db = createDb(testEnv.DB);
    const failing = db.insert(schema.users).values({ name: "x", email: user.email, passwordHash: "x" }); // duplicate e-mail
    await expect(db.batch([endAllSessionsStatement(db, user.id), failing])).rejects.toThrow();
    expect(await sessionVersion(user.id)).toBe(0);
    expect((await call(ME, { headers: authHeader(token) })).status).toBe(200);

    const [bumped] = await db.batch([endAllSessionsStatement(db, user.id)]);
    expect(bumped).toEqual([{ sessionVersion: 1 }]);
    await expectDeadToken(await call(ME, { headers: authHeader(token) }));
  });

  it("endAllSessions for an unknown user is null and changes nothing", async () => {
    expect(await endAllSessions(createDb(testEnv.DB), 999_999_999)).toBeNull();
  });
});
