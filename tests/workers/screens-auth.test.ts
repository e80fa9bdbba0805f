import { beforeAll, describe, expect, it } from "vitest";

import {
  type TestUser,
  DEFAULT_PASSWORD,
  authHeader,
  call,
  cookiePair,
  cookieValue,
  postForm,
  register,
  registerAdmin,
  sessionCookieFor,
  setCookieFor,
  testEnv,
  uniqueEmail,
} from "./helpers";
import { visibleText } from "./catalogue-helpers";

const NAV_SEARCH = "Search shoes...";

function cookieAttributes(header: string): string[] {
  return header.split(";").slice(1).map((part) => part.trim().toLowerCase());
}

describe("login screen", () => {
  let customer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    customer = await register({ name: "Screen Customer" });
    admin = await registerAdmin();
  });

  it("GET /login shows the Customer Login and Admin Login tabs, without the navigation bar", async () => {
    const response = await call("/login");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("Customer Login");
    expect(html).toContain("Admin Login");
    expect(html).toMatch(/<input[^>]*name="email"/);
    expect(html).toMatch(/<input[^>]*name="password"/);
    expect(html).not.toContain(NAV_SEARCH);
  });

  it("good customer credentials: 302 to / with an HttpOnly, SameSite=Lax, Path=/ session cookie (not Secure on localhost)", async () => {
    const response = await postForm("/login", { email: customer.email, password: customer.password });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const header = setCookieFor(response, "stride_session");
    expect(header).toBeDefined();
    const attributes = cookieAttributes(header!);
    expect(attributes).toContain("httponly");
    expect(attributes).toContain("samesite=lax");
    expect(attributes).toContain("path=/");
    expect(attributes).not.toContain("secure");
    expect(attributes).toContain("max-age=86400");

    // The cookie holds the API's token for this user.
    const me = await call("/api/auth/me", { headers: authHeader(cookieValue(response, "stride_session")) });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: number }).id).toBe(customer.id);
  });

  it("the e-mail is case-insensitive on the screen too", async () => {
    const response = await postForm("/login", { email: customer.email.toUpperCase(), password: customer.password });
    expect(response.status).toBe(302);
  });

  it("an admin lands on /admin/dashboard", async () => {
    const response = await postForm("/login", { email: admin.email, password: admin.password });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/dashboard");
    expect(setCookieFor(response, "stride_session")).toBeDefined();
  });

  it("the session cookie is Secure when the site is served over https", async () => {
    const response = await postForm("/login", { email: customer.email, password: customer.password }, { origin: "https://shop.example" });
    expect(response.status).toBe(302);
    expect(cookieAttributes(setCookieFor(response, "stride_session")!)).toContain("secure");
  });

  it("a local redirect query wins: /login?redirect=/profile goes to /profile", async () => {
    const response = await postForm("/login?redirect=%2Fprofile", { email: customer.email, password: customer.password });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/profile");
    const forAdmin = await postForm("/login?redirect=%2Fprofile%3Ftab%3D1", { email: admin.email, password: admin.password });
    expect(forAdmin.headers.get("Location")).toBe("/profile?tab=1");
  });

  // "/.//evil.com" and "/%2e//evil.com" resolve to "//evil.com" (dot segments), another host to a browser.
  for (const target of ["//evil.com", "https://evil.com", "/\\evil.com", "javascript:alert(1)", "evil.com", "/.//evil.com", "/%2e//evil.com"]) {
    it(`redirect=${target} is not followed off the site (falls back to /)`, async () => {
      const response = await postForm(`/login?${new URLSearchParams({ redirect: target })}`, { email: customer.email, password: customer.password });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
    });
  }

  // Browsers delete tabs and newlines from URLs, so a Location of "/\t/evil.com" is followed to //evil.com.
  it("redirect=/<TAB>/evil.com is not followed off the site", async () => {
    const response = await postForm(`/login?${new URLSearchParams({ redirect: "/\t/evil.com" })}`, { email: customer.email, password: customer.password });
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(new URL(location, "http://localhost/login").origin).toBe("http://localhost");
  });

  it("bad credentials: 401 with 'Invalid email or password.' on the page and no cookie", async () => {
    for (const fields of [
      { email: customer.email, password: "not-the-password" },
      { email: uniqueEmail("unknown"), password: DEFAULT_PASSWORD },
    ]) {
      const response = await postForm("/login", fields);
      expect(response.status).toBe(401);
      expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain("Invalid email or password.");
      // The e-mail stays in its field; the password does not come back.
      expect(html).toMatch(new RegExp(`<input[^>]*name="email"[^>]*value="${fields.email}"`));
      expect(html).not.toContain(fields.password);
      expect(setCookieFor(response, "stride_session")).toBeUndefined();
    }
  });

  it("a locked e-mail: 429 with the limit's message and Retry-After, as the API answers", async () => {
    const locked = uniqueEmail("locked");
    const statement = testEnv.DB.prepare("INSERT INTO login_attempts (email, attempted_at) VALUES (?, ?)");
    await testEnv.DB.batch(Array.from({ length: 10 }, () => statement.bind(locked, Date.now() - 1000)));
    const response = await postForm("/login", { email: locked, password: DEFAULT_PASSWORD });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await response.text()).toContain("Too many failed login attempts. Please try again later.");
  });

  it("an empty form is 400 with the same message", async () => {
    const response = await postForm("/login", { email: "", password: "" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Invalid email or password.");
  });

  it("a logged-in visitor to /login is sent on (to / for a customer)", async () => {
    const cookie = await sessionCookieFor(customer.email, customer.password);
    const response = await call("/login", { headers: { Cookie: cookie } });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });
});

describe("register screen", () => {
  const form = (overrides: Record<string, string> = {}) => ({
    name: "Form Person",
    email: uniqueEmail("form"),
    password: "secret123",
    confirmPassword: "secret123",
    address: "3 Lake Drive, Galle",
    phone: "0771234567",
    ...overrides,
  });

  it("GET /register shows the form without the navigation bar", async () => {
    const response = await call("/register");
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const name of ["name", "email", "password", "confirmPassword", "address", "phone"]) expect(html).toMatch(new RegExp(`<input[^>]*name="${name}"`));
    expect(html).not.toContain(NAV_SEARCH);
  });

  it("mismatched passwords: 'Passwords do not match', nothing created", async () => {
    const fields = form({ confirmPassword: "secret124" });
    const response = await postForm("/register", fields);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Passwords do not match");
    expect(setCookieFor(response, "stride_session")).toBeUndefined();
    expect(await testEnv.DB.prepare("SELECT id FROM users WHERE email = ?").bind(fields.email).first()).toBeNull();
  });

  it("a refused form comes back with what was typed (without JavaScript the page is the action's), never the passwords", async () => {
    const fields = form({ confirmPassword: "secret124" });
    const html = await (await postForm("/register", fields)).text();
    const valueOf = (name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0].match(/value="([^"]*)"/)?.[1];
    expect([valueOf("name"), valueOf("email"), valueOf("address"), valueOf("phone")]).toEqual([fields.name, fields.email, fields.address, fields.phone]);
    expect(valueOf("password")).toBeUndefined();
    expect(valueOf("confirmPassword")).toBeUndefined();
    expect(html).not.toContain("secret12");
  });

  it("a 9-digit phone: 'Phone number must be exactly 10 digits'", async () => {
    const response = await postForm("/register", form({ phone: "077123456" }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Phone number must be exactly 10 digits");
  });

  it("a name or address too long says so in words, not the validator's ('Too big: expected string...')", async () => {
    const longName = await postForm("/register", form({ name: "N".repeat(101) }));
    expect(longName.status).toBe(400);
    const nameText = visibleText(await longName.text());
    expect(nameText).toContain("Name must be at most 100 characters");
    expect(nameText).not.toContain("Too big");
    const longAddress = visibleText(await (await postForm("/register", form({ address: "A".repeat(501) }))).text());
    expect(longAddress).toContain("Address must be at most 500 characters");
    expect(longAddress).not.toContain("Too big");
  });

  it("a short password: 'Password must be at least 6 characters long'", async () => {
    const response = await postForm("/register", form({ password: "abc", confirmPassword: "abc" }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Password must be at least 6 characters long");
  });

  it("success: 302 with a session cookie, a ROLE_CUSTOMER whatever the form says", async () => {
    const fields = form({ email: `New-${crypto.randomUUID()}@Example.com`, role: "ROLE_ADMIN" });
    const response = await postForm("/register", fields);
    expect(response.status).toBe(302);
    // The page it lands on welcomes the new customer (tests/workers/signed-in-notices.test.ts).
    expect(response.headers.get("Location")).toBe("/?welcome=1");
    const header = setCookieFor(response, "stride_session");
    expect(header).toBeDefined();
    expect(cookieAttributes(header!)).toContain("httponly");
    const row = await testEnv.DB.prepare("SELECT id, role, name FROM users WHERE email = ?")
      .bind(fields.email.toLowerCase())
      .first<{ id: number; role: string; name: string }>();
    expect(row).toMatchObject({ role: "ROLE_CUSTOMER", name: "Form Person" });
    // Logged in at once: the cookie opens the profile.
    const profile = await call("/profile", { headers: { Cookie: cookiePair(response, "stride_session") } });
    expect(profile.status).toBe(200);
  });

  it("an e-mail already registered shows the server message on its field, with the ways in for its owner", async () => {
    const existing = await register();
    const response = await postForm("/register?redirect=%2Fcart", form({ email: existing.email.toUpperCase() }));
    expect(response.status).toBe(409);
    const html = visibleText(await response.text());
    expect(html).toContain("Email is already registered");
    expect(html).toMatch(/<p id="email-error"[^>]*>Email is already registered<\/p>/);
    expect(html).toMatch(/<a[^>]+href="\/login\?redirect=%2Fcart"[^>]*>log in<\/a>/);
    expect(html).toMatch(/<a[^>]+href="\/forgot-password"[^>]*>reset your password<\/a>/);
  });
});

describe("profile screen", () => {
  let user: TestUser;
  let cookie: string;
  beforeAll(async () => {
    user = await register({ name: "Profile Priyanka", address: "5 Flower Road" });
    cookie = await sessionCookieFor(user.email, user.password);
  });

  const profileForm = (overrides: Record<string, string> = {}) => ({
    name: "Profile Priyanka",
    email: user.email,
    address: "5 Flower Road",
    phone: "0771234567",
    password: "",
    confirmPassword: "",
    ...overrides,
  });

  it("GET /profile without a session goes to /login?redirect=%2Fprofile", async () => {
    const response = await call("/profile");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirect=%2Fprofile");
  });

  it("a client navigation (the .data request of /admin/orders?status=PENDING) is sent back with the screen's own path", async () => {
    // Loaders get the request as it came (future.v8_passThroughRequests): the way back is the route's URL, never the
    // data request's "/admin/orders.data?...".
    const response = await call("/admin/orders.data?status=PENDING&_routes=routes%2Fadmin%2Forders");
    expect(response.status).toBe(202);
    const body = await response.text();
    expect(body).toContain('"redirect","/login?redirect=%2Fadmin%2Forders%3Fstatus%3DPENDING"');
    expect(body).not.toContain(".data");
  });

  it("GET /profile with an invalid session cookie goes to the login page too, which says the session expired, and the cookie goes", async () => {
    const response = await call("/profile", { headers: { Cookie: "stride_session=garbage" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirect=%2Fprofile&expired=1");
    expect(setCookieFor(response, "stride_session")).toMatch(/^stride_session=;.*Max-Age=0/i);
    const login = await (await call("/login?redirect=%2Fprofile&expired=1")).text();
    expect(login).toContain("Session expired. Please login again.");
    // The add-product form's own words (SPEC §8).
    expect(await (await call("/login?redirect=%2Fadd_product&expired=1")).text()).toContain("Session expired! Please login again.");
    expect(await (await call("/login?redirect=%2Fprofile")).text()).not.toContain("Session expired");
  });

  it("GET /profile with a session is 200, prefilled, without the navigation bar", async () => {
    const response = await call("/profile", { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(new RegExp(`<input[^>]*name="email"[^>]*value="${user.email}"|<input[^>]*value="${user.email}"[^>]*name="email"`));
    expect(html).toContain("Profile Priyanka");
    expect(html).toContain("5 Flower Road");
    expect(html).not.toContain(NAV_SEARCH);
  });

  it("POST without a session goes to the login page and changes nothing", async () => {
    const response = await postForm("/profile", profileForm({ name: "Hijacked" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\?redirect=/);
    const row = await testEnv.DB.prepare("SELECT name FROM users WHERE id = ?").bind(user.id).first<{ name: string }>();
    expect(row?.name).toBe("Profile Priyanka");
  });

  it("a new password 'abc' confirmed 'abc': 'Password must be at least 6 characters long'", async () => {
    const response = await postForm("/profile", profileForm({ password: "abc", confirmPassword: "abc" }), { cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Password must be at least 6 characters long");
  });

  it("mismatched new passwords: 'Passwords do not match'", async () => {
    const response = await postForm("/profile", profileForm({ password: "newpass1", confirmPassword: "newpass2" }), { cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Passwords do not match");
  });

  it("a blank name: 400 'Name is required'", async () => {
    const response = await postForm("/profile", profileForm({ name: "" }), { cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Name is required");
  });

  it("a valid update saves and says so; blank password keeps the old one", async () => {
    const response = await postForm("/profile", profileForm({ address: "8 New Street", phone: "0112223334" }), { cookie });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Profile updated successfully.");
    const row = await testEnv.DB.prepare("SELECT address, phone FROM users WHERE id = ?").bind(user.id).first();
    expect(row).toEqual({ address: "8 New Street", phone: "0112223334" });
    expect((await postForm("/login", { email: user.email, password: user.password })).status).toBe(302);
  });
});

describe("logout", () => {
  it("POST /logout: 302 to /login, clearing stride_session and stride_cart", async () => {
    const user = await register();
    const cookie = await sessionCookieFor(user.email, user.password);
    const response = await postForm("/logout", {}, { cookie: `${cookie}; stride_cart=%5B%5D` });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    const session = setCookieFor(response, "stride_session");
    const cart = setCookieFor(response, "stride_cart");
    expect(session).toMatch(/^stride_session=;/);
    expect(cookieAttributes(session!)).toContain("max-age=0");
    expect(cookieAttributes(session!)).toContain("path=/");
    expect(cart).toMatch(/^stride_cart=;/);
    expect(cookieAttributes(cart!)).toContain("max-age=0");
    // The browser drops its copies of private pages (an admin's lists on a shared computer), not the theme's cookie.
    expect(response.headers.get("Clear-Site-Data")).toBe('"cache"');
  });

  it("GET /logout logs nobody out (a link or prefetch cannot end a session)", async () => {
    const response = await call("/logout", { headers: { Cookie: "stride_session=whatever" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });
});
