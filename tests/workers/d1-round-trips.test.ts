import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";

import app from "../../workers/app";
import { insertProduct } from "./catalogue-helpers";
import { ORIGIN, testEnv } from "./helpers";
import { newAdmin, newCustomer, type Account } from "./order-helpers";

// A logged-in page's session check rides with the page's own reads (readWithNext): one D1 round trip, not two. Each
// costs the Worker a few tenths of a millisecond of CPU and, on Cloudflare, a trip to a replica.

/** The Worker run with a D1 whose sessions count the calls that reach the database (a batch or one statement). */
async function roundTripsOf(path: string, cookie?: string): Promise<{ trips: number; html: string; status: number }> {
  let trips = 0;
  const counted = <T extends object>(target: T, calls: string[]): T =>
    new Proxy(target, {
      get(inner, name) {
        const value = Reflect.get(inner, name, inner);
        if (typeof value !== "function") return value;
        if (calls.includes(String(name))) return (...args: unknown[]) => (trips++, value.apply(inner, args));
        if (name === "prepare") return (...args: unknown[]) => counted(value.apply(inner, args), ["all", "raw", "first", "run"]);
        if (name === "bind") return (...args: unknown[]) => counted(value.apply(inner, args), ["all", "raw", "first", "run"]);
        return value.bind(inner);
      },
    });
  const DB = new Proxy(testEnv.DB, {
    get(inner, name) {
      if (name === "withSession") return (constraint?: string) => counted(inner.withSession(constraint), ["batch"]);
      const value = Reflect.get(inner, name, inner);
      return typeof value === "function" ? value.bind(inner) : value;
    },
  });
  const ctx = createExecutionContext();
  const request = new Request(ORIGIN + path, { headers: cookie ? { Cookie: cookie } : {} }) as Parameters<typeof app.fetch>[0];
  const response = await app.fetch(request, { ...testEnv, DB } as Env, ctx);
  const html = await response.text();
  await waitOnExecutionContext(ctx);
  return { trips, html, status: response.status };
}

let customer: Account;
let productId: number;

beforeAll(async () => {
  customer = await newCustomer("Round Trip Shopper");
  productId = await insertProduct({ category: "Gents" });
});

const cookieOf = (account: Account) => `stride_session=${account.token}`;

describe("a logged-in page reads D1 once", () => {
  it("a grid page: the session and the listing in one batch", async () => {
    const page = await roundTripsOf("/?category=Gents", cookieOf(customer));
    expect(page.status).toBe(200);
    expect(page.html).toContain("Round Trip Shopper");
    expect(page.trips).toBe(1);
  });

  it("a search page, and a grid page's data for a client navigation (.data)", async () => {
    for (const path of ["/search?keyword=shoe", "/_root.data?category=Gents&page=1"]) {
      const page = await roundTripsOf(path, cookieOf(customer));
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain("Round Trip Shopper");
      expect(page.trips, path).toBe(1);
    }
  });

  it("a page whose reads depend on who asks (the product page's own review) reads the session first: two", async () => {
    const page = await roundTripsOf(`/product/${productId}`, cookieOf(customer));
    expect(page.status).toBe(200);
    expect(page.html).toContain("Round Trip Shopper");
    expect(page.trips).toBe(2);
  });

  it("a token whose payload was changed to name another user is no one's session, wherever its read went", async () => {
    const admin = await newAdmin();
    const [header, payload, signature] = customer.token.split(".");
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    const forged = btoa(JSON.stringify({ ...claims, sub: String(admin.id) })).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const page = await roundTripsOf("/?category=Gents", `stride_session=${header}.${forged}.${signature}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(admin.name);
    expect(page.html).toContain('href="/login"');
  });
});
