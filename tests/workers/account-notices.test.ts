import { describe, expect, it, vi } from "vitest";

import { apiJson, authHeader, login, postForm, register, sessionCookieFor, testEnv, uniqueEmail, type TestUser } from "./helpers";
import { mailRow, mailRows, type MailRow } from "./outbox-helpers";
import { findUserById, updateProfile } from "../../app/services/auth.server";
import { createDb } from "../../app/services/db.server";
import type { Mailer } from "../../app/services/outbox.server";

// A profile save that changes the password or the e-mail tells the owner (SPEC's form does not ask for the current
// password): an ACCOUNT_CHANGED mail written into the outbox in the same D1 batch as the change, then put on the
// queue. Both ways in are tested: PUT /api/auth/me and the /profile screen's form.

const putMe = (token: string, body: Record<string, unknown>) => apiJson("PUT", "/api/auth/me", body, authHeader(token));

/** The profile as registered, with these changes: what PUT /api/auth/me and the /profile form take. */
const profile = (user: TestUser, changes: Record<string, string> = {}) => ({ name: user.name, email: user.email, address: user.address, phone: user.phone, ...changes });

/** The account notices written for this user, oldest first. */
const notices = (user: { id: number }) => mailRows("kind = 'ACCOUNT_CHANGED' AND user_id = ?", user.id);

/** What a refused save must leave as it was: the account's row, its password hash and session version included. */
const accountRow = (id: number) => testEnv.DB.prepare("SELECT name, email, address, phone, password_hash, session_version FROM users WHERE id = ?").bind(id).first();

/** The user's one notice, once the Worker's own queue consumer has handled it (local mode: kept): it was enqueued. */
async function theNotice(user: { id: number }): Promise<MailRow> {
  const [notice, ...more] = await notices(user);
  expect(more, "one notice").toEqual([]);
  expect(notice, "a notice").toBeDefined();
  await vi.waitFor(async () => expect((await mailRow(notice.id)).state).toBe("kept"), { timeout: 15_000, interval: 100 });
  return mailRow(notice.id);
}

/** A new address for a user: "moved-..." (so its masked form starts "mo***"). */
const movedEmail = () => uniqueEmail("moved");

describe("a password changed with PUT /api/auth/me", () => {
  it("writes one notice to the account's address saying when, that other devices were logged out, and what to do", async () => {
    const user = await register({ name: "Nimal Perera" });
    const response = await putMe(await login(user.email), profile(user, { password: "brand-new-pw" }));
    expect(response.status).toBe(200);

    const notice = await theNotice(user);
    expect(notice).toMatchObject({ to_address: user.email, subject: "Your Stride password was changed", order_id: null, order_status: null, user_id: user.id });
    expect(notice.text_body).toMatch(/^Hello Nimal Perera,\n/);
    expect(notice.text_body).toMatch(/The password of your Stride account was changed on \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \(Sri Lanka time\)\./);
    expect(notice.text_body).toContain("Every other device that was logged in to your account has been logged out.");
    expect(notice.text_body).toContain('If it was not you, choose a new password at once with "Forgot password?" at http://localhost/forgot-password');
    expect(notice.text_body).toContain("contact us by replying to this e-mail");
    expect(notice.html_body).toContain('href="http://localhost/forgot-password"');
    // Never the password itself.
    expect(`${notice.text_body}${notice.html_body}`).not.toContain("brand-new-pw");
  });
});

describe("an e-mail changed with PUT /api/auth/me", () => {
  it("writes one notice to the OLD address, naming the new one masked, and none to the new address", async () => {
    const user = await register();
    const newEmail = movedEmail();
    const response = await putMe(await login(user.email), profile(user, { email: newEmail }));
    expect(response.status).toBe(200);

    const notice = await theNotice(user);
    expect(notice).toMatchObject({ to_address: user.email, subject: "Your Stride account's e-mail was changed" });
    expect(notice.text_body).toContain("from this address to mo***@example.com.");
    expect(notice.html_body).toContain("from this address to mo***@example.com.");
    expect(`${notice.text_body}${notice.html_body}`).not.toContain(newEmail);
    expect(notice.text_body).toContain("This address can no longer log in to the account, nor ask for a password reset link.");
    expect(notice.text_body).toContain("If it was not you, contact us right away by replying to this e-mail");
    // The password did not change: nothing says it did, and no device was logged out.
    expect(notice.text_body).not.toMatch(/password was changed|logged out/);
    expect(await mailRows("to_address = ?", newEmail)).toEqual([]);
  });

  it("with a new password in the same save: one notice, to the old address, saying both", async () => {
    const user = await register();
    const newEmail = movedEmail();
    const response = await putMe(await login(user.email), profile(user, { email: newEmail, password: "brand-new-pw" }));
    expect(response.status).toBe(200);

    const notice = await theNotice(user);
    expect(notice).toMatchObject({ to_address: user.email, subject: "Your Stride e-mail and password were changed" });
    expect(notice.text_body).toContain("from this address to mo***@example.com. Its password was changed at the same time.");
    expect(notice.text_body).toContain("Every other device that was logged in to your account has been logged out.");
    expect(await mailRows("to_address = ?", newEmail)).toEqual([]);
  });
});

describe("a save that tells nobody", () => {
  it("changing neither the password nor the e-mail (name, address, phone; a blank password) writes no mail", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await putMe(token, { ...profile(user, { name: "Renamed", address: "99 Kandy Road", phone: "0119876543" }), password: "" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: "Renamed", address: "99 Kandy Road" });
    expect(await notices(user)).toEqual([]);
  });

  it("an e-mail taken by another account (409) writes no mail and changes nothing, a new password in it neither", async () => {
    const owner = await register();
    const user = await register();
    const token = await login(user.email);
    const before = await accountRow(user.id);
    const attempts: Record<string, string>[] = [{ email: owner.email }, { email: owner.email.toUpperCase(), password: "brand-new-pw", name: "Thief" }];
    for (const changes of attempts) {
      const response = await putMe(token, profile(user, changes));
      expect(response.status, JSON.stringify(changes)).toBe(409);
      expect(((await response.json()) as { message: string }).message).toBe("Email is already registered");
    }
    expect(await accountRow(user.id)).toEqual(before);
    expect(await notices(user)).toEqual([]);
    expect(await mailRows("to_address IN (?, ?)", owner.email, user.email)).toEqual([]);
  });

  it("bad input (400) writes no mail and changes nothing", async () => {
    const user = await register();
    const token = await login(user.email);
    const before = await accountRow(user.id);
    const attempts: Record<string, string>[] = [{ email: "not-an-email", password: "brand-new-pw" }, { password: "abc" }, { email: movedEmail(), phone: "12345" }];
    for (const changes of attempts) {
      const response = await putMe(token, profile(user, changes));
      expect(response.status, JSON.stringify(changes)).toBe(400);
    }
    expect(await accountRow(user.id)).toEqual(before);
    expect(await notices(user)).toEqual([]);
  });
});

describe("the notice's words", () => {
  it("escapes every value in the HTML (a name with <script>), and greets by the name as it was, not the one just saved", async () => {
    const user = await register({ name: `<script>alert("x")</script> & Co` });
    const response = await putMe(await login(user.email), profile(user, { name: "<b>Call +94 77 000 0000, not us</b>", email: movedEmail() }));
    expect(response.status).toBe(200);

    const notice = await theNotice(user);
    expect(notice.html_body).not.toMatch(/<script|<b>/);
    expect(notice.html_body).toContain("Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co,");
    expect(notice.text_body).toContain(`Hello <script>alert("x")</script> & Co,`);
    expect(`${notice.text_body}${notice.html_body}`).not.toContain("Call +94");
    expect(notice.subject).not.toMatch(/script|Call/);
  });
});

describe("the /profile screen", () => {
  const form = (user: TestUser, changes: Record<string, string> = {}) => ({ ...profile(user), password: "", confirmPassword: "", ...changes });

  it("a new e-mail saved on the form writes the notice to the old address", async () => {
    const user = await register();
    const cookie = await sessionCookieFor(user.email, user.password);
    const response = await postForm("/profile", form(user, { email: movedEmail() }), { cookie });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Profile updated successfully.");
    const notice = await theNotice(user);
    expect(notice).toMatchObject({ to_address: user.email, subject: "Your Stride account's e-mail was changed" });
    expect(notice.text_body).toContain("from this address to mo***@example.com.");
  });

  it("a new password saved on the form writes the notice to the account's address", async () => {
    const user = await register();
    const cookie = await sessionCookieFor(user.email, user.password);
    const response = await postForm("/profile", form(user, { password: "brand-new-pw", confirmPassword: "brand-new-pw" }), { cookie });
    expect(response.status).toBe(200);
    expect(await theNotice(user)).toMatchObject({ to_address: user.email, subject: "Your Stride password was changed" });
  });

  it("a refused form (passwords that do not match; an e-mail taken) writes no mail and changes nothing", async () => {
    const owner = await register();
    const user = await register();
    const cookie = await sessionCookieFor(user.email, user.password);
    const before = await accountRow(user.id);
    const mismatched = await postForm("/profile", form(user, { email: movedEmail(), password: "brand-new-pw", confirmPassword: "brand-new-px" }), { cookie });
    expect(mismatched.status).toBe(400);
    const taken = await postForm("/profile", form(user, { email: owner.email, password: "brand-new-pw", confirmPassword: "brand-new-pw" }), { cookie });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("Email is already registered");
    expect(await accountRow(user.id)).toEqual(before);
    expect(await notices(user)).toEqual([]);
  });
});

describe("updateProfile", () => {
  /** A mailer that records the ids it is asked to queue. */
  function recordingMailer() {
    const queued: number[] = [];
    const mailer: Mailer = { siteUrl: "https://stride.example", bank: { name: "", branch: "", accountName: "", accountNumber: "" }, enqueue: (ids) => void queued.push(...ids) };
    return { mailer, queued };
  }

  it("queues exactly the notice it wrote, once the batch committed; a save changing neither queues nothing", async () => {
    const registered = await register();
    const db = createDb(testEnv.DB);
    const user = (await findUserById(db, registered.id))!;
    const { mailer, queued } = recordingMailer();
    await updateProfile(db, user, { ...profile(registered, { name: "Same Credentials" }), password: undefined }, mailer);
    expect(queued).toEqual([]);
    await updateProfile(db, user, { ...profile(registered), password: "brand-new-pw" }, mailer);
    const written = await notices(user);
    expect(written).toHaveLength(1);
    expect(queued).toEqual([written[0].id]);
    expect(written[0].text_body).toContain("https://stride.example/forgot-password");
  });

  it("decides by the account's row at the save, not by the session's earlier read: the notice goes to the address the row had", async () => {
    const registered = await register();
    const db = createDb(testEnv.DB);
    // As the request read it; then another save moved the account to a second address before this one's batch ran.
    const asRead = (await findUserById(db, registered.id))!;
    const second = uniqueEmail("second");
    await testEnv.DB.prepare("UPDATE users SET email = ? WHERE id = ?").bind(second, registered.id).run();
    const { mailer, queued } = recordingMailer();
    // This save "keeps" the e-mail it read, which is in fact a change back from the second address.
    await updateProfile(db, asRead, { ...profile(registered), password: undefined }, mailer);
    const [notice, ...more] = await notices(asRead);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ to_address: second, subject: "Your Stride account's e-mail was changed" });
    expect(queued).toEqual([notice.id]);
  });
});
