import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";

import { sql } from "drizzle-orm";

import app from "../../workers/app";
import { createDb, readTogether, readWithNext } from "~/services/db.server";
import { insertProduct } from "./catalogue-helpers";
import { ORIGIN, testEnv } from "./helpers";
import { cartOk, newAdmin, newCustomer, placeOrder, type Account } from "./order-helpers";

// A logged-in page's session check rides with the page's own reads (readWithNext): one D1 round trip, not two or
// three. Each costs the Worker a few tenths of a millisecond of CPU and, on Cloudflare, a trip to a replica. Reads that
// depend on the user start from the user the token claims, and must reach no one else when the check disagrees.

/**
 * The Worker run with a D1 whose sessions count the calls that reach the database (a batch or one statement). With
 * `failing`, every such call fails, as it would while D1 is unreachable.
 */
async function roundTripsOf(path: string, cookie?: string, { failing = false } = {}): Promise<{ trips: number; statements: number; html: string; status: number }> {
  let trips = 0;
  let statements = 0;
  const counted = <T extends object>(target: T, calls: string[]): T =>
    new Proxy(target, {
      get(inner, name) {
        const value = Reflect.get(inner, name, inner);
        if (typeof value !== "function") return value;
        if (calls.includes(String(name)))
          return (...args: unknown[]) => {
            trips++;
            statements += name === "batch" ? (args[0] as unknown[]).length : 1;
            return failing ? Promise.reject(new Error("D1 unreachable")) : value.apply(inner, args);
          };
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
  return { trips, statements, html, status: response.status };
}

let customer: Account;
let productId: number;

beforeAll(async () => {
  customer = await newCustomer("Round Trip Shopper");
  productId = await insertProduct({ category: "Gents" });
});

const cookieOf = (account: Account) => `stride_session=${account.token}`;

/** The account's session cookie with its payload changed to name another user (its signature no longer matches). */
function forgedAs(account: Account, userId: number): string {
  const [header, payload, signature] = account.token.split(".");
  const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
  const forged = btoa(JSON.stringify({ ...claims, sub: String(userId) })).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `stride_session=${header}.${forged}.${signature}`;
}

describe("a logged-in page reads D1 once", () => {
  it("a grid page: the session and the listing in one batch", async () => {
    const page = await roundTripsOf("/?category=Gents", cookieOf(customer));
    expect(page.status).toBe(200);
    expect(page.html).toContain("Round Trip Shopper");
    expect(page.trips).toBe(1);
  });

  it("a search page, and a grid page's data for a client navigation (.data)", async () => {
    // "shoes": no product has it, so the page shows those with the word "shoe", read in the same batch.
    for (const path of ["/search?keyword=shoe", "/search?keyword=shoes", "/search?keyword=shoes&match=words", "/_root.data?category=Gents&page=1"]) {
      const page = await roundTripsOf(path, cookieOf(customer));
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain("Round Trip Shopper");
      if (path.includes("shoes")) expect(page.html, path).toContain("“shoe”");
      expect(page.trips, path).toBe(1);
    }
  });

  it("a product page: its reviews are split by the user the token claims, in the session's batch", async () => {
    const page = await roundTripsOf(`/product/${productId}`, cookieOf(customer));
    expect(page.status).toBe(200);
    expect(page.html).toContain("Round Trip Shopper");
    expect(page.trips).toBe(1);
  });

  it("the back office's lists: the admin check and the page's reads in one batch (a search: its matches, then their rows)", async () => {
    const admin = await newAdmin();
    const order = await placeOrder(customer.token, [{ productId, quantity: 1 }], undefined, { customerName: "Round Trip Buyer" });
    for (const [path, trips, shows] of [
      ["/admin/orders", 1, `data-order-id="${order.id}"`],
      ["/admin/users", 1, admin.email],
      // A search waits for the check (it may walk thousands of index entries), then reads its matches, then their rows.
      ["/admin/orders?q=round+trip+buyer", 3, `data-order-id="${order.id}"`],
    ] as const) {
      const page = await roundTripsOf(path, cookieOf(admin));
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain(shows);
      expect(page.html, path).not.toContain("Failed to");
      expect(page.trips, path).toBe(trips);
    }
  });

  it("a token whose payload was changed to name another user is no one's session, wherever its read went", async () => {
    const admin = await newAdmin();
    const page = await roundTripsOf("/?category=Gents", forgedAs(customer, admin.id));
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(admin.name);
    expect(page.html).toContain('href="/login"');
  });

  it("a customer's own pages: the cart, My Orders and an order, each with the session's row in one batch", async () => {
    const buyer = await newCustomer("Own Pages Buyer");
    const order = await placeOrder(buyer.token, [{ productId, quantity: 1 }]);
    await cartOk("POST", `/add?productId=${productId}&quantity=2`, buyer.token);
    for (const [path, shows] of [
      ["/cart", `/product/${productId}`],
      ["/orders", `href="/orders/${order.id}"`],
      [`/orders/${order.id}`, `Order #<!-- -->${order.id}`],
    ] as const) {
      const page = await roundTripsOf(path, cookieOf(buyer));
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain(shows);
      expect(page.trips, path).toBe(1);
    }
  });

  it("a visitor with a cookie cart: the navigation bar's count (only lines still in the catalogue) rides with the page's batch", async () => {
    const cart = `stride_cart=${encodeURIComponent(JSON.stringify([{ productId, quantity: 2 }, { productId: 987_654, quantity: 5 }]))}`;
    for (const [path, shows] of [
      ["/?category=Gents", `/product/${productId}`],
      [`/product/${productId}`, "Add to Cart"],
      ["/cart", `/product/${productId}`],
    ] as const) {
      const page = await roundTripsOf(path, cart);
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain(shows);
      expect(page.html, path).toContain('aria-label="Cart, 2 items"');
      expect(page.trips, path).toBe(1);
    }
    // An empty cart reads nothing for the count: the cart page of a visitor without one reads D1 not at all.
    const empty = await roundTripsOf("/cart");
    expect(empty.html).toContain("Your cart is empty");
    expect(empty.trips).toBe(0);
  });

  it("a deep page of the back office is read only after the admin check: a customer's token never makes D1 walk to it", async () => {
    const admin = await newAdmin();
    for (const path of ["/admin/orders?page=60", "/admin/users?page=60"]) {
      const asCustomer = await roundTripsOf(path, cookieOf(customer));
      expect(asCustomer.status, path).toBe(302);
      expect(asCustomer.statements, `${path}: the session's row alone`).toBe(1);
      const asAdmin = await roundTripsOf(path, cookieOf(admin));
      expect(asAdmin.status, path).toBe(200);
      expect(asAdmin.trips, `${path}: the check, then the page`).toBe(2);
    }
    // A first page starts beside the check (and is dropped for the customer).
    expect((await roundTripsOf("/admin/orders", cookieOf(customer))).statements).toBeGreaterThan(1);
  });

  it("a back-office search or date range (which may walk thousands of index entries) is read only after the admin check", async () => {
    const admin = await newAdmin();
    // The trips an admin's search costs: the check, then the page (the orders search finds no match: no rows to read).
    for (const [searched, list, trips] of [
      ["/admin/stock?q=oxford", "/admin/stock", 2],
      ["/admin/orders?q=nimal", "/admin/orders", 2],
      ["/admin/orders?from=2026-01-01", "/admin/orders", 2],
      ["/admin/users?q=nimal", "/admin/users", 2],
    ] as const) {
      const asCustomer = await roundTripsOf(searched, cookieOf(customer));
      expect(asCustomer.status, searched).toBe(302);
      expect(asCustomer.statements, `${searched}: the session's row alone`).toBe(1);
      const asAdmin = await roundTripsOf(searched, cookieOf(admin));
      expect(asAdmin.status, searched).toBe(200);
      expect(asAdmin.html).not.toContain("Failed to");
      expect(asAdmin.trips, searched).toBe(trips);
      // The list without a search still starts beside the check: one trip.
      expect((await roundTripsOf(list, cookieOf(admin))).trips, list).toBe(1);
    }
  });

  it("a customer's token on the back office is sent home with nothing of the list; no token is sent to log in unread", async () => {
    for (const path of ["/admin/orders", "/admin/users"]) {
      const asCustomer = await roundTripsOf(path, cookieOf(customer));
      expect(asCustomer.status, path).toBe(302);
      expect(asCustomer.html, path).toBe("");
      const asVisitor = await roundTripsOf(path);
      expect(asVisitor.status, path).toBe(302);
      expect(asVisitor.trips, path).toBe(0);
    }
  });
});

describe("pages read for the user a token claims, when the session says otherwise", () => {
  it("a forged token naming a review's author, or a token whose session ended, sees that review as anyone's", async () => {
    const author = await newCustomer("Claimed Author");
    const reviewed = await insertProduct({ category: "Ladies" });
    await testEnv.DB.prepare("INSERT INTO reviews (product_id, user_id, comment, rating, created_at, updated_at) VALUES (?, ?, 'Claimed review text', 4, ?, ?)")
      .bind(reviewed, author.id, Date.now(), Date.now())
      .run();
    const own = await roundTripsOf(`/product/${reviewed}`, cookieOf(author));
    expect(own.html).toContain('aria-label="Your review"');
    expect(own.trips).toBe(1);

    const forged = await roundTripsOf(`/product/${reviewed}`, forgedAs(customer, author.id));
    const ended = await (async () => {
      await testEnv.DB.prepare("UPDATE users SET session_version = session_version + 1 WHERE id = ?").bind(author.id).run();
      return roundTripsOf(`/product/${reviewed}`, cookieOf(author));
    })();
    for (const page of [forged, ended]) {
      expect(page.status).toBe(200);
      expect(page.html).toContain("Claimed review text");
      expect(page.html).not.toContain('aria-label="Your review"');
      expect(page.html).toContain('href="/login"');
      // The reviews read for the claimed user, then again for the visitor the session check found.
      expect(page.trips).toBe(2);
    }
  });

  it("a forged token naming a customer, or one whose session ended, gets none of that customer's cart or orders", async () => {
    const owner = await newCustomer("Claimed Owner");
    const order = await placeOrder(owner.token, [{ productId, quantity: 1 }]);
    await cartOk("POST", `/add?productId=${productId}&quantity=2`, owner.token);
    const forged = forgedAs(customer, owner.id);
    for (const path of ["/orders", `/orders/${order.id}`]) {
      const page = await roundTripsOf(path, forged);
      expect(page.status, path).toBe(302);
      expect(page.html, path).toBe("");
    }
    const cart = await roundTripsOf("/cart", forged);
    expect(cart.status).toBe(200);
    expect(cart.html).not.toContain(`/product/${productId}"`);
    expect(cart.html).toContain('href="/login"');

    await testEnv.DB.prepare("UPDATE users SET session_version = session_version + 1 WHERE id = ?").bind(owner.id).run();
    const ended = await roundTripsOf(`/orders/${order.id}`, cookieOf(owner));
    expect(ended.status).toBe(302);
    expect(ended.html).toBe("");
  });
});

describe("a page whose reads fail", () => {
  it("leaves no rejected promise unseen: the session check started beside the page's reads is awaited or caught", async () => {
    const admin = await newAdmin();
    const unseen: unknown[] = [];
    const listener = (event: PromiseRejectionEvent) => {
      unseen.push(event.reason);
      event.preventDefault();
    };
    addEventListener("unhandledrejection", listener);
    try {
      for (const [path, account] of [
        [`/product/${productId}`, customer],
        [`/product/${productId}.data`, customer],
        ["/product/987654321", customer],
        ["/cart", customer],
        ["/orders", customer],
        ["/admin/orders", admin],
        ["/admin/orders", customer],
      ] as const) {
        const page = await roundTripsOf(path, cookieOf(account), { failing: true });
        expect(page.status, path).toBe(500);
      }
      // The runtime reports a rejection nobody handled once the tasks before it have run.
      await new Promise((resolve) => setTimeout(resolve, 0));
    } finally {
      removeEventListener("unhandledrejection", listener);
    }
    expect(unseen).toEqual([]);
  });
});

describe("readWithNext", () => {
  const db = createDb(testEnv.DB);
  const plan = <T>(query: ReturnType<typeof db.all<T>>) => ({ statements: [query] as [typeof query], assemble: ([rows]: unknown[]) => rows as T[] });

  it("rides with the next batch, and goes again alone when that batch fails for another plan's statement", async () => {
    const rider = readWithNext(db, plan<{ answer: number }>(db.all(sql`SELECT 42 AS answer`)));
    await expect(readTogether(db, { broken: plan(db.all(sql`SELECT * FROM no_such_table`)) })).rejects.toThrow(/no such table/);
    expect(await rider.answer()).toEqual([{ answer: 42 }]);
  });

  it("is sent alone when its answer is wanted before any batch", async () => {
    const rider = readWithNext(db, plan<{ answer: number }>(db.all(sql`SELECT 7 AS answer`)));
    expect(await rider.answer()).toEqual([{ answer: 7 }]);
  });
});