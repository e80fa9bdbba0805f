import { jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";

import { type TestUser, apiJson, decodeJwtPart, register, setRole, testEnv, uniqueEmail } from "./helpers";

const LOGIN = "/api/auth/login";
const WINDOW_MS = 15 * 60 * 1000;

const attempt = (email: string, password: string) => apiJson("POST", LOGIN, { email, password });

async function insertFailures(email: string, count: number, attemptedAt: number) {
  const statement = testEnv.DB.prepare("INSERT INTO login_attempts (email, attempted_at) VALUES (?, ?)");
  await testEnv.DB.batch(Array.from({ length: count }, () => statement.bind(email, attemptedAt)));
}

describe("POST /api/auth/login", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await register({ name: "Login Lakmini" });
  });

  it("answers 200 {token, email, name, role}", async () => {
    const response = await attempt(user.email, user.password);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["email", "name", "role", "token"]);
    expect(body).toMatchObject({ email: user.email, name: "Login Lakmini", role: "ROLE_CUSTOMER" });
    expect(JSON.stringify(body)).not.toMatch(/password|hash/i);
  });

  it("reports the role from the database (an admin logs in as ROLE_ADMIN)", async () => {
    const admin = await register({ name: "Role Admin" });
    await setRole(admin.id, "ROLE_ADMIN");
    const body = (await (await attempt(admin.email, admin.password)).json()) as { role: string };
    expect(body.role).toBe("ROLE_ADMIN");
  });

  it("issues an HS256 JWT for the user id that lasts exactly 24 hours", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { token } = (await (await attempt(user.email, user.password)).json()) as { token: string };
    const after = Math.ceil(Date.now() / 1000);
    const [headerPart, payloadPart, signature] = token.split(".");
    expect(signature.length).toBeGreaterThan(0);
    expect(decodeJwtPart(headerPart)).toMatchObject({ alg: "HS256" });
    const payload = decodeJwtPart<{ sub: string; iat: number; exp: number }>(payloadPart);
    expect(payload.sub).toBe(String(user.id));
    expect(payload.exp - payload.iat).toBe(86400);
    expect(payload.iat).toBeGreaterThanOrEqual(before - 1);
    expect(payload.iat).toBeLessThanOrEqual(after + 1);
    // Signed with the Worker's secret.
    const verified = await jwtVerify(token, new TextEncoder().encode(testEnv.JWT_SECRET), { algorithms: ["HS256"] });
    expect(verified.payload.sub).toBe(String(user.id));
  });

  it("compares the e-mail case-insensitively", async () => {
    const response = await attempt(`  ${user.email.toUpperCase()}  `, user.password);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { email: string }).email).toBe(user.email);
  });

  it("a wrong password is 401 'Invalid email or password.'", async () => {
    const fresh = await register();
    const response = await attempt(fresh.email, "wrong-password");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Invalid email or password." });
  });

  it("an unknown e-mail is the same 401 'Invalid email or password.'", async () => {
    const response = await attempt(uniqueEmail("nobody"), "whatever1");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Invalid email or password." });
  });

  it("an e-mail no account can have (not an address at all) is the same 401, not bad input", async () => {
    const response = await attempt("not-an-address", "whatever1");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Invalid email or password." });
  });

  it("the password is case-sensitive", async () => {
    const response = await attempt(user.email, user.password.toUpperCase());
    expect(response.status).toBe(401);
  });

  it("an account hashed with fewer iterations logs in and is upgraded to 100,000", async () => {
    const legacy = await register();
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(legacy.password), "PBKDF2", false, ["deriveBits"]);
    const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 1000 }, key, 256));
    const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
    const oldHash = `pbkdf2-sha256$1000$${b64(salt)}$${b64(bits)}`;
    await testEnv.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(oldHash, legacy.id).run();

    expect((await attempt(legacy.email, "wrong-password")).status).toBe(401);
    const unchanged = await testEnv.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(legacy.id).first<{ password_hash: string }>();
    expect(unchanged?.password_hash).toBe(oldHash);

    expect((await attempt(legacy.email, legacy.password)).status).toBe(200);
    const row = await testEnv.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(legacy.id).first<{ password_hash: string }>();
    expect(row?.password_hash.startsWith("pbkdf2-sha256$100000$")).toBe(true);
    expect((await attempt(legacy.email, legacy.password)).status).toBe(200);
  });

  it("missing fields are 400, not 401", async () => {
    const response = await apiJson("POST", LOGIN, { email: user.email });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { fieldErrors?: Record<string, string[]> };
    expect(body.fieldErrors?.password).toEqual(["Password is required"]);
    const noEmail = (await (await apiJson("POST", LOGIN, { password: "x" })).json()) as { fieldErrors?: Record<string, string[]> };
    expect(noEmail.fieldErrors?.email).toEqual(["Email is required"]);
  });

  describe("rate limit", () => {
    it("after 10 failures within 15 minutes the 11th attempt, even with the right password, is 429 with Retry-After", async () => {
      const victim = await register({ name: "Victim" });
      const bystander = await register({ name: "Bystander" });
      for (let i = 0; i < 10; i++) {
        // Mixed case counts against the same e-mail.
        const email = i % 2 ? victim.email.toUpperCase() : victim.email;
        const response = await attempt(email, `wrong-${i}`);
        expect(response.status, `failure ${i + 1}`).toBe(401);
      }
      const blocked = await attempt(victim.email, victim.password);
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(typeof ((await blocked.json()) as { message: string }).message).toBe("string");
      const retryAfter = blocked.headers.get("Retry-After");
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(900);

      // Still blocked on the next try, and no token was handed out.
      const again = await attempt(victim.email.toUpperCase(), victim.password);
      expect(again.status).toBe(429);

      // Another e-mail is unaffected: its failures are 401, and it logs in.
      expect((await attempt(bystander.email, "wrong-pw")).status).toBe(401);
      expect((await attempt(bystander.email, bystander.password)).status).toBe(200);
    });

    it("failures older than 15 minutes do not count", async () => {
      const veteran = await register();
      await insertFailures(veteran.email, 25, Date.now() - WINDOW_MS - 60_000);
      const response = await attempt(veteran.email, veteran.password);
      expect(response.status).toBe(200);
    });

    it("9 recent failures still allow a login; the 10th makes the next attempt 429", async () => {
      const edge = await register();
      await insertFailures(edge.email, 9, Date.now() - 60_000);
      const tenth = await attempt(edge.email, "wrong-again");
      expect(tenth.status).toBe(401);
      expect((await attempt(edge.email, edge.password)).status).toBe(429);
    });

    it("Retry-After counts down to when the oldest failure in the window leaves it", async () => {
      const waiting = await register();
      // The oldest of the ten failed 14 minutes ago: it leaves the window in about 60 seconds.
      await insertFailures(waiting.email, 1, Date.now() - 14 * 60 * 1000);
      await insertFailures(waiting.email, 9, Date.now() - 60 * 1000);
      const response = await attempt(waiting.email, waiting.password);
      expect(response.status).toBe(429);
      const retryAfter = Number(response.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThanOrEqual(50);
      expect(retryAfter).toBeLessThanOrEqual(61);
    });

    it("attempts sent all at once are counted before any password is checked: 15 in parallel give ten 401s and five 429s", async () => {
      const target = await register();
      const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => attempt(target.email, `parallel-${i}`)));
      const statuses = answers.map((response) => response.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(5);
      expect((await attempt(target.email, target.password)).status).toBe(429);
    });

    it("limits unknown e-mails as well (no account enumeration by the 429)", async () => {
      const ghost = uniqueEmail("ghost");
      await insertFailures(ghost, 10, Date.now() - 1000);
      expect((await attempt(ghost, "whatever1")).status).toBe(429);
    });
  });
});
