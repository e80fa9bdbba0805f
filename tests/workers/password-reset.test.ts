import { describe, expect, it } from "vitest";

import { expectApiError } from "./catalogue-helpers";
import { apiJson, authHeader, call, cookiePair, login, postForm, register, testEnv, uniqueEmail, type TestUser } from "./helpers";
import { mailRow, mailRows, runConsumer, sendMode } from "./outbox-helpers";
import { createDb } from "../../app/services/db.server";
import { listOutbox } from "../../app/services/outbox.server";

// Password reset: 'Forgot password?' answers the same for every e-mail, a one-time link valid 30 minutes whose token
// only the mail holds (the database keeps its SHA-256), the registration's password rules, every session ended, and
// the request rate-limited per e-mail like the login.

const ANSWER = "If an account uses that e-mail, we have sent it a link to reset the password. The link works for 30 minutes.";
const INVALID = "This reset link is invalid or has expired. Please ask for a new one.";
const NEW_PASSWORD = "brand-new-secret";

const forgot = (email: string) => apiJson("POST", "/api/auth/forgot-password", { email });
const reset = (token: string, password = NEW_PASSWORD) => apiJson("POST", "/api/auth/reset-password", { token, password });

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The newest reset mail to this address, and the token its link carries. */
async function resetMail(email: string) {
  const rows = await mailRows("kind = 'PASSWORD_RESET' AND to_address = ?", email);
  const mail = rows.at(-1);
  expect(mail, `a reset mail to ${email}`).toBeDefined();
  const token = mail!.text_body.match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
  expect(token).toBeDefined();
  return { mail: mail!, token: token! };
}

/** Asks for a link through the API and returns the token from the outbox. */
async function linkFor(user: TestUser): Promise<string> {
  const response = await forgot(user.email);
  expect(response.status).toBe(200);
  return (await resetMail(user.email)).token;
}

async function canLogIn(email: string, password: string): Promise<number> {
  return (await apiJson("POST", "/api/auth/login", { email, password })).status;
}

const resetRows = (userId: number) =>
  testEnv.DB.prepare("SELECT token_hash, expires_at, used_at FROM password_resets WHERE user_id = ? ORDER BY id").bind(userId).all<{ token_hash: string; expires_at: number; used_at: number | null }>();

describe("POST /api/auth/forgot-password", () => {
  it("answers the same status and body for an account's e-mail and for an unknown one", async () => {
    const user = await register();
    const known = await forgot(user.email);
    const unknown = await forgot(uniqueEmail("nobody"));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const [knownBody, unknownBody] = [await known.text(), await unknown.text()];
    expect(knownBody).toBe(unknownBody);
    expect(JSON.parse(knownBody)).toEqual({ message: ANSWER });
    expect(known.headers.get("Content-Type")).toBe(unknown.headers.get("Content-Type"));
  });

  it("mails a one-time link to the account, keeping only the token's SHA-256, valid for 30 minutes", async () => {
    const user = await register({ name: "Reset Reader" });
    const before = Date.now();
    expect((await forgot(user.email.toUpperCase())).status).toBe(200);
    const { mail, token } = await resetMail(user.email);
    expect(mail).toMatchObject({ subject: "Reset your Stride password", user_id: user.id, order_id: null });
    expect(mail.text_body).toContain("Hello Reset Reader,");
    expect(mail.text_body).toContain(`http://localhost/reset-password?token=${token}`);
    expect(token.length).toBeGreaterThanOrEqual(43);
    const { results } = await resetRows(user.id);
    expect(results).toHaveLength(1);
    expect(results[0].token_hash).toBe(await sha256(token));
    expect(JSON.stringify(results)).not.toContain(token);
    expect(results[0].expires_at).toBeGreaterThanOrEqual(before + 30 * 60 * 1000);
    expect(results[0].expires_at).toBeLessThanOrEqual(Date.now() + 30 * 60 * 1000);
  });

  it("writes nothing for an unknown e-mail", async () => {
    const email = uniqueEmail("ghost");
    expect((await forgot(email)).status).toBe(200);
    expect(await mailRows("to_address = ?", email)).toEqual([]);
  });

  it("refuses a malformed e-mail with 400 and fieldErrors", async () => {
    const body = await expectApiError(await forgot("not-an-email"), 400);
    expect(body.fieldErrors?.email).toBeDefined();
    await expectApiError(await apiJson("POST", "/api/auth/forgot-password", {}), 400);
    await expectApiError(await apiJson("POST", "/api/auth/forgot-password", "{bad json"), 400);
  });

  it("is rate-limited per e-mail like the login: the 6th request in 15 minutes is 429 with Retry-After, for unknown e-mails too", async () => {
    const user = await register();
    const ghost = uniqueEmail("ghost");
    for (const email of [user.email, ghost]) {
      for (let i = 0; i < 5; i++) expect((await forgot(email)).status, `request ${i + 1}`).toBe(200);
      const refused = await forgot(email);
      expect((await expectApiError(refused, 429)).message).toBe("Too many password reset requests for this e-mail. Please try again later.");
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    // Five requests made five links, of which only the newest works.
    expect((await mailRows("kind = 'PASSWORD_RESET' AND to_address = ?", user.email)).length).toBe(5);
    // Another e-mail is not held back, and the login of the same e-mail is not either.
    expect((await forgot(uniqueEmail("other"))).status).toBe(200);
    expect(await canLogIn(user.email, user.password)).toBe(200);
  });
});

describe("POST /api/auth/reset-password", () => {
  it("sets the new password: the old one no longer logs in, the new one does", async () => {
    const user = await register();
    const response = await reset(await linkFor(user));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { message: string }).message).toMatch(/^Your password has been changed/);
    expect(await canLogIn(user.email, user.password)).toBe(401);
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(200);
  });

  it("ends every session of the account: earlier bearer tokens and cookies answer 401 / go to the login", async () => {
    const user = await register();
    const [bearer, other] = [await login(user.email, user.password), await login(user.email, user.password)];
    const cookie = cookiePair(await postForm("/login", { email: user.email, password: user.password }), "stride_session");
    expect((await call("/api/auth/me", { headers: authHeader(bearer) })).status).toBe(200);
    expect((await reset(await linkFor(user))).status).toBe(200);
    for (const token of [bearer, other]) await expectApiError(await call("/api/auth/me", { headers: authHeader(token) }), 401);
    const profile = await call("/profile", { headers: { Cookie: cookie } });
    expect(profile.status).toBe(302);
    expect(profile.headers.get("Location")).toMatch(/^\/login/);
    // A login after the reset works as before.
    const fresh = await login(user.email, NEW_PASSWORD);
    expect((await call("/api/auth/me", { headers: authHeader(fresh) })).status).toBe(200);
  });

  it("works once: the same link again is 400 and changes nothing", async () => {
    const user = await register();
    const token = await linkFor(user);
    expect((await reset(token)).status).toBe(200);
    const again = await expectApiError(await reset(token, "another-password"), 400);
    expect(again).toEqual({ message: INVALID, fieldErrors: { token: [INVALID] } });
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(200);
    expect(await canLogIn(user.email, "another-password")).toBe(401);
  });

  it("two requests with the same link at once: one sets the password, the other is refused", async () => {
    const user = await register();
    const token = await linkFor(user);
    const responses = await Promise.all([reset(token, "first-password"), reset(token, "second-password"), reset(token, "third-password")]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400]);
    const won = ["first-password", "second-password", "third-password"][responses.findIndex((response) => response.status === 200)];
    expect(await canLogIn(user.email, won)).toBe(200);
  });

  it("an expired link (30 minutes on) is 400", async () => {
    const user = await register();
    const token = await linkFor(user);
    await testEnv.DB.prepare("UPDATE password_resets SET expires_at = ? WHERE token_hash = ?").bind(Date.now() - 1, await sha256(token)).run();
    await expectApiError(await reset(token), 400);
    expect(await canLogIn(user.email, user.password)).toBe(200);
  });

  it("a tampered or unknown token is 400", async () => {
    const user = await register();
    const token = await linkFor(user);
    const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const bad of [flipped, token.slice(1), `${token}x`, "not-a-token", "x".repeat(200)]) {
      expect(await expectApiError(await reset(bad), 400), bad).toMatchObject({ message: INVALID });
    }
    expect(await canLogIn(user.email, user.password)).toBe(200);
    // The real one still works after all that.
    expect((await reset(token)).status).toBe(200);
  });

  it("a link resets only the account it was sent to", async () => {
    const [alice, bob] = [await register({ name: "Alice" }), await register({ name: "Bob" })];
    const [aliceToken, bobToken] = [await linkFor(alice), await linkFor(bob)];
    expect((await reset(aliceToken, "alice-new-password")).status).toBe(200);
    expect(await canLogIn(alice.email, "alice-new-password")).toBe(200);
    expect(await canLogIn(bob.email, "alice-new-password")).toBe(401);
    expect(await canLogIn(bob.email, bob.password)).toBe(200);
    // Bob's own link is untouched by Alice's reset.
    expect((await reset(bobToken, "bob-new-password")).status).toBe(200);
    expect(await canLogIn(bob.email, "bob-new-password")).toBe(200);
  });

  it("a newer link replaces the older one", async () => {
    const user = await register();
    const older = await linkFor(user);
    const newer = await linkFor(user);
    expect(newer).not.toBe(older);
    await expectApiError(await reset(older), 400);
    expect((await reset(newer)).status).toBe(200);
  });

  it("a link sent before the account's e-mail or password changed no longer works", async () => {
    const saveProfile = async (user: TestUser, changes: { email?: string; password?: string }) => {
      const profile = { name: user.name, email: changes.email ?? user.email, address: user.address, phone: user.phone, password: changes.password };
      return apiJson("PUT", "/api/auth/me", profile, authHeader(await login(user.email, user.password)));
    };
    const moved = await register();
    const beforeMove = await linkFor(moved);
    expect((await saveProfile(moved, { email: uniqueEmail("moved") })).status).toBe(200);
    expect(await expectApiError(await reset(beforeMove), 400)).toEqual({ message: INVALID, fieldErrors: { token: [INVALID] } });

    const changed = await register();
    const beforeChange = await linkFor(changed);
    expect((await saveProfile(changed, { password: "changed-on-profile" })).status).toBe(200);
    await expectApiError(await reset(beforeChange), 400);
    expect(await canLogIn(changed.email, "changed-on-profile")).toBe(200);
  });

  it("a profile save that keeps the e-mail and the password, or is refused, leaves the link usable", async () => {
    const user = await register();
    const token = await linkFor(user);
    const bearer = authHeader(await login(user.email, user.password));
    const kept = await apiJson("PUT", "/api/auth/me", { name: "Renamed", email: user.email.toUpperCase(), address: user.address, phone: user.phone }, bearer);
    expect(kept.status).toBe(200);
    const taken = (await register()).email;
    const refused = await apiJson("PUT", "/api/auth/me", { name: "Renamed", email: taken, address: user.address, phone: user.phone, password: "never-saved" }, bearer);
    expect(refused.status).toBe(409);
    expect((await reset(token)).status).toBe(200);
  });

  it("the new password follows the registration's rules; a refused one leaves the link usable", async () => {
    const user = await register();
    const token = await linkFor(user);
    const short = await expectApiError(await reset(token, "12345"), 400);
    expect(short.fieldErrors?.password).toEqual(["Password must be at least 6 characters long"]);
    await expectApiError(await reset(token, "x".repeat(201)), 400);
    await expectApiError(await apiJson("POST", "/api/auth/reset-password", { password: NEW_PASSWORD }), 400);
    await expectApiError(await apiJson("POST", "/api/auth/reset-password", { token: 12, password: NEW_PASSWORD }), 400);
    expect((await reset(token)).status).toBe(200);
  });

  it("lets an account locked by failed logins back in", async () => {
    const user = await register();
    for (let i = 0; i < 10; i++) await apiJson("POST", "/api/auth/login", { email: user.email, password: "wrong-password" });
    expect(await canLogIn(user.email, user.password)).toBe(429);
    expect((await reset(await linkFor(user))).status).toBe(200);
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(200);
  });
});

describe("the reset mail in the outbox", () => {
  it("loses its token once sent, so the outbox holds no working link", async () => {
    const user = await register();
    await forgot(user.email);
    const { mail, token } = await resetMail(user.email);
    // Claimed by the test's own consumer run (the Worker's consumer may already have kept it: then reset the row).
    await testEnv.DB.prepare("UPDATE email_outbox SET state = 'queued', attempts = 0, locked_until = NULL WHERE id = ?").bind(mail.id).run();
    await runConsumer([{ id: mail.id }], sendMode());
    const sent = await mailRow(mail.id);
    expect(sent.state).toBe("sent");
    expect(sent.text_body).not.toContain(token);
    expect(sent.html_body).not.toContain(token);
    expect(sent.text_body).toContain("/reset-password?token=[removed]");
    // The link in the mail itself still works: only the outbox's copy is gone.
    expect((await reset(token)).status).toBe(200);
  });

  it("is listed without its link while it waits to be sent, unless mail is only kept (a local run)", async () => {
    const user = await register();
    await forgot(user.email);
    const { mail, token } = await resetMail(user.email);
    await testEnv.DB.prepare("UPDATE email_outbox SET state = 'queued', attempts = 1, locked_until = NULL WHERE id = ?").bind(mail.id).run();
    const listed = async (showResetLinks: boolean) =>
      (await listOutbox(createDb(testEnv.DB), { state: "queued", page: 1, showResetLinks })).entries.find((entry) => entry.id === mail.id)!;
    const sending = await listed(false);
    expect(sending.text).not.toContain(token);
    expect(sending.text).toContain("/reset-password?token=[removed]");
    expect((await listed(true)).text).toContain(token);
    // Only the list is redacted: the row still holds the link the sender needs.
    expect((await mailRow(mail.id)).text_body).toContain(token);
  });
});

describe("GET /api/openapi.json", () => {
  it("describes both calls with their bodies and answers", async () => {
    type Operation = { requestBody: { content: { "application/json": { schema: { required: string[]; properties: Record<string, unknown> } } } }; responses: Record<string, unknown>; security?: unknown };
    const document = (await (await call("/api/openapi.json")).json()) as { paths: Record<string, { post?: Operation }> };
    const forgotOp = document.paths["/api/auth/forgot-password"]?.post;
    const resetOp = document.paths["/api/auth/reset-password"]?.post;
    expect(forgotOp?.requestBody.content["application/json"].schema.required).toEqual(["email"]);
    expect(Object.keys(forgotOp!.responses).sort()).toEqual(["200", "400", "429"]);
    expect(resetOp?.requestBody.content["application/json"].schema.required?.sort()).toEqual(["password", "token"]);
    expect(Object.keys(resetOp!.responses).sort()).toEqual(["200", "400"]);
    expect(forgotOp!.security).toBeUndefined();
  });
});

describe("the screens", () => {
  it("/login links to /forgot-password", async () => {
    const html = await (await call("/login")).text();
    expect(html).toMatch(/<a[^>]+href="\/forgot-password"[^>]*>Forgot password\?<\/a>/);
  });

  it("/forgot-password answers the same for a known and an unknown e-mail", async () => {
    const user = await register();
    const known = await postForm("/forgot-password", { email: user.email });
    const unknown = await postForm("/forgot-password", { email: uniqueEmail("ghost") });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const [knownHtml, unknownHtml] = [await known.text(), await unknown.text()];
    expect(knownHtml).toContain(ANSWER);
    expect(unknownHtml).toContain(ANSWER);
    expect((await mailRows("kind = 'PASSWORD_RESET' AND to_address = ?", user.email)).length).toBe(1);
  });

  it("/forgot-password past the limit: 429 with the limit's message and Retry-After, as the API answers", async () => {
    const email = uniqueEmail("eager");
    for (let i = 0; i < 5; i++) expect((await postForm("/forgot-password", { email })).status).toBe(200);
    const refused = await postForm("/forgot-password", { email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Too many password reset requests for this e-mail. Please try again later.");
  });

  it("/forgot-password with a malformed e-mail says so (400)", async () => {
    const response = await postForm("/forgot-password", { email: "nope" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Please enter a valid email address");
  });

  it("/reset-password with a bad or missing token offers a new link instead of the form", async () => {
    for (const path of ["/reset-password", "/reset-password?token=nope"]) {
      const response = await call(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      const html = await response.text();
      expect(html).toContain(INVALID);
      expect(html).not.toContain('name="password"');
    }
  });

  it("/reset-password with a used or an expired link offers a new link instead of the form", async () => {
    const showsForm = async (token: string) => {
      const html = await (await call(`/reset-password?token=${token}`)).text();
      expect(html.includes(INVALID)).not.toBe(html.includes('name="password"'));
      return html.includes('name="password"');
    };
    const used = await linkFor(await register());
    expect(await showsForm(used)).toBe(true);
    expect((await reset(used)).status).toBe(200);
    expect(await showsForm(used)).toBe(false);

    const expired = await linkFor(await register());
    expect(await showsForm(expired)).toBe(true);
    await testEnv.DB.prepare("UPDATE password_resets SET expires_at = ? WHERE token_hash = ?").bind(Date.now() - 1, await sha256(expired)).run();
    expect(await showsForm(expired)).toBe(false);
  });

  it("/reset-password sets the password without JavaScript, clears this browser's session and goes to the login", async () => {
    const user = await register();
    const token = await linkFor(user);
    const page = await (await call(`/reset-password?token=${token}`)).text();
    expect(page).toContain('name="password"');
    const mismatch = await postForm("/reset-password", { token, password: NEW_PASSWORD, confirmPassword: "something-else" });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords do not match");
    const done = await postForm("/reset-password", { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/login?reset=1");
    expect(done.headers.getSetCookie().find((cookie) => cookie.startsWith("stride_session="))).toMatch(/Max-Age=0/);
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(200);
    expect(await (await call("/login?reset=1")).text()).toContain("Your password has been changed.");
    const reused = await postForm("/reset-password", { token, password: "other-password", confirmPassword: "other-password" });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain(INVALID);
  });
});
