import { SELF, env, type D1Migration } from "cloudflare:test";
import { expect } from "vitest";

/** The Worker's bindings plus the migrations the config passes in (see vitest.workers.config.ts). */
export const testEnv = env as Env & { TEST_MIGRATIONS: D1Migration[] };

export const ORIGIN = "http://localhost";
export const DEFAULT_PASSWORD = "secret123";

/** Storage is shared by the tests of one file, so every account gets its own e-mail. */
export function uniqueEmail(tag = "user"): string {
  return `${tag}-${crypto.randomUUID()}@example.com`;
}

/** A request to the Worker under test; redirects are returned, never followed. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  const url = path.startsWith("http") ? path : ORIGIN + path;
  return SELF.fetch(url, { redirect: "manual", ...init });
}

export function authHeader(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** A JSON API request. `body` is JSON-encoded unless it is already a string. */
export function apiJson(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

export interface RegisterBody {
  name: string;
  email: string;
  password: string;
  address: string;
  phone: string;
}

export function registerBody(overrides: Partial<RegisterBody> = {}): RegisterBody {
  return {
    name: "Nimal Perera",
    email: uniqueEmail(),
    password: DEFAULT_PASSWORD,
    address: "12 Galle Road, Colombo 03",
    phone: "0771234567",
    ...overrides,
  };
}

export interface TestUser {
  id: number;
  name: string;
  email: string;
  phone: string;
  address: string;
  password: string;
  role: string;
}

/** Registers through the API and returns the created user with the password used. */
export async function register(overrides: Partial<RegisterBody> = {}): Promise<TestUser> {
  const body = registerBody(overrides);
  const response = await apiJson("POST", "/api/auth/register", body);
  expect(response.status, await response.clone().text()).toBe(201);
  const user = (await response.json()) as TestUser;
  return { ...user, password: body.password };
}

/** Logs in through the API and returns the bearer token. */
export async function login(email: string, password: string = DEFAULT_PASSWORD): Promise<string> {
  const response = await apiJson("POST", "/api/auth/login", { email, password });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

export async function setRole(userId: number, role: "ROLE_ADMIN" | "ROLE_CUSTOMER"): Promise<void> {
  await testEnv.DB.prepare("UPDATE users SET role = ? WHERE id = ?").bind(role, userId).run();
}

/** A registered admin (registration always makes a customer, so the role is promoted in D1) and its token. */
export async function registerAdmin(): Promise<TestUser & { token: string }> {
  const user = await register({ name: "Admin Amara" });
  await setRole(user.id, "ROLE_ADMIN");
  return { ...user, role: "ROLE_ADMIN", token: await login(user.email, user.password) };
}

/** A form post as a browser sends it from this site. */
export function postForm(path: string, fields: Record<string, string>, { cookie, origin = ORIGIN }: { cookie?: string; origin?: string } = {}) {
  const url = path.startsWith("http") ? path : origin + path;
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Origin: origin };
  if (cookie) headers.Cookie = cookie;
  return call(url, { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}

/** The Set-Cookie header that sets `name`, or undefined. */
export function setCookieFor(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
}

/** `name=value` ready for a Cookie request header, from the response that set it. */
export function cookiePair(response: Response, name: string): string {
  const header = setCookieFor(response, name);
  expect(header, `Set-Cookie ${name}`).toBeDefined();
  return header!.split(";")[0];
}

export function cookieValue(response: Response, name: string): string {
  return decodeURIComponent(cookiePair(response, name).slice(name.length + 1));
}

/** A browser session: logs in through the login screen and returns the cookie pair. */
export async function sessionCookieFor(email: string, password: string = DEFAULT_PASSWORD): Promise<string> {
  const response = await postForm("/login", { email, password });
  expect(response.status).toBe(302);
  return cookiePair(response, "stride_session");
}

export function base64UrlEncode(value: string | Uint8Array): string {
  const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function base64UrlDecode(text: string): Uint8Array {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

export function decodeJwtPart<T = Record<string, unknown>>(part: string): T {
  return JSON.parse(new TextDecoder().decode(base64UrlDecode(part))) as T;
}

/**
 * The test's R2 bucket, whose uploads wait: `uploading` settles when the first put starts, and every put waits for
 * `release()`. Holds one save between its reads and its batch, so another can commit in between.
 */
export function bucketHoldingPuts(): { bucket: R2Bucket; uploading: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const uploading = new Promise<void>((resolve) => (started = resolve));
  const bucket = new Proxy(testEnv.BUCKET, {
    get(target, property) {
      if (property === "put") {
        return async (...args: Parameters<R2Bucket["put"]>) => {
          started();
          await held;
          return target.put(...args);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { bucket, uploading, release };
}
