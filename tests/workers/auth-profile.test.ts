import { describe, expect, it } from "vitest";

import { apiJson, authHeader, call, login, register, registerAdmin, testEnv, uniqueEmail } from "./helpers";

const ME = "/api/auth/me";
const USERS = "/api/auth/admin/users";

const attemptLogin = (email: string, password: string) => apiJson("POST", "/api/auth/login", { email, password });
const putMe = (token: string | null, body: unknown) => apiJson("PUT", ME, body, token ? authHeader(token) : {});

describe("PUT /api/auth/me", () => {
  it("updates name, e-mail (lower-cased), address and phone", async () => {
    const user = await register();
    const token = await login(user.email);
    const newEmail = `Moved-${crypto.randomUUID()}@Example.COM`;
    const response = await putMe(token, { name: "New Name", email: newEmail, address: "99 Kandy Road", phone: "0119876543" });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ id: user.id, name: "New Name", email: newEmail.toLowerCase(), address: "99 Kandy Road", phone: "0119876543", role: "ROLE_CUSTOMER" });
    expect(text).not.toMatch(/password|hash/i);

    // The same token still works (it names the user id) and GET shows the change.
    const me = (await (await call(ME, { headers: authHeader(token) })).json()) as { email: string; name: string };
    expect(me).toMatchObject({ name: "New Name", email: newEmail.toLowerCase() });
    // The new e-mail logs in, the old one no longer does.
    expect((await attemptLogin(newEmail, user.password)).status).toBe(200);
    expect((await attemptLogin(user.email, user.password)).status).toBe(401);
  });

  it("cannot change the role", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await putMe(token, { name: "Sneaky", email: user.email, address: "x", phone: "0771234567", role: "ROLE_ADMIN" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { role: string }).role).toBe("ROLE_CUSTOMER");
    const row = await testEnv.DB.prepare("SELECT role FROM users WHERE id = ?").bind(user.id).first<{ role: string }>();
    expect(row?.role).toBe("ROLE_CUSTOMER");
  });

  it("a blank, null or missing password keeps the current one", async () => {
    const user = await register();
    const token = await login(user.email);
    const before = await testEnv.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.id).first<{ password_hash: string }>();
    for (const password of ["", null, undefined]) {
      const body = { name: "Keeper", email: user.email, address: "1 Lane", phone: "0771234567", ...(password === undefined ? {} : { password }) };
      const response = await putMe(token, body);
      expect(response.status, `password ${JSON.stringify(password)}`).toBe(200);
    }
    const after = await testEnv.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.id).first<{ password_hash: string }>();
    expect(after?.password_hash).toBe(before?.password_hash);
    expect((await attemptLogin(user.email, user.password)).status).toBe(200);
  });

  it("a new password shorter than 6 characters is 400", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await putMe(token, { name: "Short", email: user.email, address: "a", phone: "0771234567", password: "abc" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string; fieldErrors?: Record<string, string[]> };
    expect(body.message).toBe("Password must be at least 6 characters long");
    expect(body.fieldErrors?.password).toContain("Password must be at least 6 characters long");
    expect((await attemptLogin(user.email, user.password)).status).toBe(200);
  });

  it("a new password replaces the old one", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await putMe(token, { name: "Changer", email: user.email, address: "a", phone: "0771234567", password: "brand-new-pw" });
    expect(response.status).toBe(200);
    expect((await attemptLogin(user.email, "brand-new-pw")).status).toBe(200);
    expect((await attemptLogin(user.email, user.password)).status).toBe(401);
  });

  it("an e-mail taken by another user (in any case) is 409 and changes nothing", async () => {
    const owner = await register();
    const other = await register();
    const token = await login(other.email);
    const response = await putMe(token, { name: "Thief", email: owner.email.toUpperCase(), address: "a", phone: "0771234567" });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toMatch(/already registered/i);
    const row = await testEnv.DB.prepare("SELECT email, name FROM users WHERE id = ?").bind(other.id).first<{ email: string; name: string }>();
    expect(row).toEqual({ email: other.email, name: "Nimal Perera" });
  });

  it("name or e-mail missing is 400 naming the field", async () => {
    const user = await register();
    const token = await login(user.email);
    const noName = await putMe(token, { email: user.email, address: "a", phone: "0771234567" });
    expect(noName.status).toBe(400);
    expect(((await noName.json()) as { fieldErrors?: Record<string, string[]> }).fieldErrors?.name?.length).toBeGreaterThan(0);
    const noEmail = await putMe(token, { name: "X", address: "a", phone: "0771234567" });
    expect(noEmail.status).toBe(400);
    expect(((await noEmail.json()) as { fieldErrors?: Record<string, string[]> }).fieldErrors?.email?.length).toBeGreaterThan(0);
  });

  it("a phone that is not 10 digits is 400", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await putMe(token, { name: "X", email: user.email, address: "a", phone: "12345" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fieldErrors?: Record<string, string[]> }).fieldErrors?.phone).toContain("Phone number must be exactly 10 digits");
  });

  it("a phone sent as a number is 400 saying so, and changes nothing", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await putMe(token, { name: "X", email: user.email, address: "a", phone: 771234567 });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fieldErrors?: Record<string, string[]> }).fieldErrors?.phone).toEqual(['Phone number must be text, such as "0771234567"']);
    expect(await (await call(ME, { headers: authHeader(token) })).json()).toMatchObject({ name: user.name, phone: user.phone });
  });

  it("an address or phone left out keeps its value; sent blank, it is cleared", async () => {
    const user = await register();
    const token = await login(user.email);
    const kept = await putMe(token, { name: "Kept", email: user.email });
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ name: "Kept", address: user.address, phone: user.phone });
    const cleared = await putMe(token, { name: "Kept", email: user.email, address: "", phone: "" });
    expect(await cleared.json()).toMatchObject({ address: "", phone: "" });
  });

  it("without a token is 401", async () => {
    const response = await putMe(null, { name: "X", email: uniqueEmail(), address: "a", phone: "0771234567" });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toMatch(/token/i);
  });

  it("with a malformed JSON body is 400", async () => {
    const user = await register();
    const token = await login(user.email);
    const response = await apiJson("PUT", ME, "{nope", authHeader(token));
    expect(response.status).toBe(400);
  });
});

describe("GET /api/auth/admin/users", () => {
  it("an admin gets every user, with the public fields only", async () => {
    const admin = await registerAdmin();
    const customer = await register({ name: "Listed Customer" });
    const response = await call(USERS, { headers: authHeader(admin.token) });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text).not.toMatch(/password|hash|pbkdf2/i);
    const users = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(Array.isArray(users)).toBe(true);
    for (const entry of users) expect(Object.keys(entry).sort()).toEqual(["address", "email", "id", "name", "phone", "role"]);
    expect(users).toContainEqual(expect.objectContaining({ id: admin.id, role: "ROLE_ADMIN" }));
    expect(users).toContainEqual(expect.objectContaining({ id: customer.id, email: customer.email, name: "Listed Customer", role: "ROLE_CUSTOMER" }));
    const { n } = (await testEnv.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>())!;
    expect(users).toHaveLength(n);
  });

  it("a customer is 403", async () => {
    const customer = await register();
    const response = await call(USERS, { headers: authHeader(await login(customer.email)) });
    expect(response.status).toBe(403);
    expect(typeof ((await response.json()) as { message: string }).message).toBe("string");
  });

  it("a visitor is 401", async () => {
    const response = await call(USERS);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toMatch(/token/i);
  });
});
