import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";

import { adminAccount, customerAccount, placeOrder, screenHtml, stockedProduct, type Account, type ApiOrder } from "./admin-helpers";
import { visibleText } from "./catalogue-helpers";
import { PNG_1X1 } from "./fixtures/images";
import { apiJson, authHeader, call, login, register, testEnv, type TestUser } from "./helpers";
import { worker } from "./outbox-helpers";

// The back office's search finds any word of a name, not only its start (QA: "Silva" found neither "Kamal Silva" nor
// "Amaya de Silva"; "Perera" found no user): every word typed starts some word of the name, in any case, diacritics
// aside (migrations/0021's orders_fts and users_fts). The same q on /admin/orders, /admin/users and their API calls.
// What was typed is never FTS5 syntax: quotes, *, NEAR, OR, - and parentheses are a 200, never a 500.

let admin: Account;
let kasun: Account;
const orderIds: Record<string, number> = {};
const userIds: Record<string, number> = {};

const ORDER_NAMES = ["Kamal Silva", "Amaya de Silva", "Nimal Perera", "Zoë Fernández", "නිමල් පෙරේරා", "Ruwan Silvester"];
const USER_NAMES = ["Kamal Silva", "Amaya de Silva", "Nimal Perera", "Zoë Fernández"];

beforeAll(async () => {
  admin = await adminAccount();
  // Placed as a customer places one: the order's insert keeps orders_fts too.
  kasun = await customerAccount("Kasun Silva");
  const shoe = await stockedProduct(4500, 20, { name: "Word Runner" });
  const placed = await placeOrder(kasun.token, [{ productId: shoe, quantity: 1 }]);
  orderIds[placed.customerName] = placed.id;
  for (const [i, name] of ORDER_NAMES.entries()) {
    const row = await testEnv.DB.prepare(
      `INSERT INTO orders (user_id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status, created_at)
       VALUES (?, ?, ?, ?, '1 Galle Road, Colombo 03', 450000, 'PENDING', ?) RETURNING id`,
    )
      .bind(kasun.id, name, `buyer${i}@shop.test`, `07200000${i}0`, Date.parse("2025-05-01T10:00:00Z") + i * 60_000)
      .first<{ id: number }>();
    orderIds[name] = row!.id;
  }
  for (const [i, name] of USER_NAMES.entries()) userIds[name] = (await register({ name, email: `word${i}-${crypto.randomUUID()}@mail.test` })).id;
  userIds["Kasun Silva"] = kasun.id;
}, 60_000);

const listed = (html: string) => [...html.matchAll(/data-testid="admin-order" data-order-id="(\d+)"/g)].map(([, id]) => Number(id));
const ordersFound = async (q: string) => listed(await screenHtml(`/admin/orders?${new URLSearchParams({ q })}`, admin.cookie)).sort((a, b) => a - b);
const ordersOf = (...names: string[]) => names.map((name) => orderIds[name]).sort((a, b) => a - b);
const userRows = (html: string) => [...html.matchAll(/<th[^>]* scope="row"[^>]*>([^<]*)</g)].map(([, name]) => name);
const usersFound = async (q: string) => userRows(await screenHtml(`/admin/users?${new URLSearchParams({ q })}`, admin.cookie)).sort();
const ordersApi = (query: string) => call(`/api/orders/admin/all?${query}`, { headers: authHeader(admin.token) });
const usersApi = (query: string) => call(`/api/auth/admin/users?${query}`, { headers: authHeader(admin.token) });

describe("a phone written with brackets and dots", () => {
  it("is kept so that the phone search finds it by its digits", async () => {
    const buyer = await customerAccount("Bracket Phone");
    const shoe = await stockedProduct(4500, 5, { name: "Bracket Runner" });
    const form = new FormData();
    const order = { customerName: "Bracket Phone", customerEmail: "bracket@example.com", customerPhone: "(077) 909.1357", shippingAddress: "1 Lake Road", orderItems: [{ productId: shoe, quantity: 1 }] };
    form.set("order", JSON.stringify(order));
    form.set("bankSlip", new File([PNG_1X1], "slip.png", { type: "image/png" }));
    const placed = await call("/api/orders", { method: "POST", body: form, headers: authHeader(buyer.token) });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const { id, customerPhone } = (await placed.json()) as ApiOrder;
    expect(customerPhone).toBe("077 909 1357");
    for (const q of ["0779091357", "077 909", "+94779091357"]) {
      const found = (await (await ordersApi(new URLSearchParams({ q }).toString())).json()) as ApiOrder[];
      expect(found.map((row) => row.id), q).toEqual([id]);
    }
  });
});

describe("/admin/orders: any word of the customer's name", () => {
  it("a surname alone, in any case: 'silva' finds Kamal Silva, Amaya de Silva and Kasun Silva", async () => {
    for (const q of ["silva", "Silva", "SILVA", "  silva  "]) expect(await ordersFound(q), q).toEqual(ordersOf("Kamal Silva", "Amaya de Silva", "Kasun Silva"));
    // From a word's start: "Silvester" starts with "silv", and no word starts with "ilva".
    expect(await ordersFound("silv")).toEqual(ordersOf("Kamal Silva", "Amaya de Silva", "Kasun Silva", "Ruwan Silvester"));
    expect(await ordersFound("ilva")).toEqual([]);
  });

  it("every word typed starts a word of the name, in any order: 'de sil' is Amaya de Silva alone", async () => {
    expect(await ordersFound("de sil")).toEqual(ordersOf("Amaya de Silva"));
    expect(await ordersFound("sil de")).toEqual(ordersOf("Amaya de Silva"));
    expect(await ordersFound("silva kamal")).toEqual(ordersOf("Kamal Silva"));
    expect(await ordersFound("nimal per")).toEqual(ordersOf("Nimal Perera"));
    // The start of the name still finds it, as before.
    expect(await ordersFound("Kamal S")).toEqual(ordersOf("Kamal Silva"));
  });

  it("diacritics and case beyond ASCII: 'fernandez' and 'ZOE' find Zoë Fernández; Sinhala by a word's start", async () => {
    for (const q of ["fernandez", "FERNÁNDEZ", "zoe", "Zoë fern"]) expect(await ordersFound(q), q).toEqual(ordersOf("Zoë Fernández"));
    expect(await ordersFound("පෙරේ")).toEqual(ordersOf("නිමල් පෙරේරා"));
  });

  it("a search nothing matches is the empty state, not an error: each word must start a word of the name", async () => {
    // Each word alone finds its orders; together, or one letter more, nothing.
    for (const q of ["silva", "perera", "amaya", "fernandez"]) expect(await ordersFound(q), q).not.toEqual([]);
    for (const q of ["silvaz", "kamal perera", "amaya fernandez"]) {
      const html = await screenHtml(`/admin/orders?${new URLSearchParams({ q })}`, admin.cookie);
      expect(listed(html), q).toEqual([]);
      expect(visibleText(html)).toContain("No orders match this search");
    }
  });

  it("GET /api/orders/admin/all?q= matches the same words, paged or not", async () => {
    const all = (await (await ordersApi("q=silva")).json()) as ApiOrder[];
    expect(all.map((order) => order.id).sort((a, b) => a - b)).toEqual(ordersOf("Kamal Silva", "Amaya de Silva", "Kasun Silva"));
    const paged = await ordersApi(new URLSearchParams({ q: "de sil", page: "1" }).toString());
    expect(paged.status).toBe(200);
    expect(paged.headers.get("X-Total-Count")).toBe("1");
    expect(((await paged.json()) as ApiOrder[]).map((order) => order.customerName)).toEqual(["Amaya de Silva"]);
  });

  it("the CSV of a word search holds the same orders", async () => {
    const response = await call(`/admin/orders.csv?q=silva`, { headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const name of ["Kamal Silva", "Amaya de Silva", "Kasun Silva"]) expect(text).toContain(name);
    expect(text).not.toContain("Nimal Perera");
  });
});

describe("/admin/users: any word of the name", () => {
  it("'perera' finds Nimal Perera; 'silva' every Silva; 'de sil' Amaya de Silva alone", async () => {
    expect(await usersFound("perera")).toEqual(["Nimal Perera"]);
    expect(await usersFound("SILVA")).toEqual(["Amaya de Silva", "Kamal Silva", "Kasun Silva"]);
    expect(await usersFound("de sil")).toEqual(["Amaya de Silva"]);
    expect(await usersFound("fernandez zo")).toEqual(["Zoë Fernández"]);
    const html = await screenHtml("/admin/users?q=pererax", admin.cookie);
    expect(userRows(html)).toEqual([]);
    expect(visibleText(html)).toContain("No users match this search");
  });

  it("GET /api/auth/admin/users?q= matches the same words, paged or not", async () => {
    const all = (await (await usersApi("q=silva")).json()) as TestUser[];
    expect(all.map((user) => user.id)).toEqual([userIds["Kasun Silva"], userIds["Kamal Silva"], userIds["Amaya de Silva"]]);
    const paged = await usersApi("q=perera&page=1");
    expect(paged.headers.get("X-Total-Count")).toBe("1");
    expect(((await paged.json()) as TestUser[]).map((user) => user.id)).toEqual([userIds["Nimal Perera"]]);
  });

  it("a user's new name is searched at once, and the old one no longer (users_fts follows the row)", async () => {
    const user = await register({ name: "Chaminda Vaas" });
    const token = await login(user.email, user.password);
    const updated = await apiJson("PUT", "/api/auth/me", { name: "Chaminda Jayawardene", email: user.email, address: "2 Lake Road, Kandy", phone: "0771112222" }, authHeader(token));
    expect(updated.status, await updated.clone().text()).toBe(200);
    expect(await usersFound("jayawardene")).toEqual(["Chaminda Jayawardene"]);
    expect(await usersFound("vaas")).toEqual([]);
  });
});

describe("what was typed is never FTS5 syntax: a 200 with the matches, never a 500", () => {
  const hostile = [
    '"',
    '"silva',
    'silva"',
    '""silva""',
    "*",
    "silva*",
    "*silva",
    "NEAR",
    "NEAR(silva kamal)",
    "silva NEAR/2 kamal",
    "-silva",
    "silva -kamal",
    "silva OR kamal",
    "silva AND kamal",
    "NOT silva",
    "(silva",
    "silva)",
    "((",
    "customer_name:silva",
    "{customer_name}: silva",
    "^silva",
    "silva + kamal",
    "'; DROP TABLE orders; --",
    "%_",
    "x".repeat(100),
    `${"silva ".repeat(16)}silv`,
  ];

  it("the orders screen, the users screen and both API calls answer each, and find the words in them", async () => {
    for (const q of hostile) {
      const query = new URLSearchParams({ q }).toString();
      for (const path of [`/admin/orders?${query}`, `/admin/users?${query}`]) {
        const response = await call(path, { headers: { Cookie: admin.cookie } });
        expect(response.status, `${path}: ${q}`).toBe(200);
        expect(visibleText(await response.text()), q).not.toContain("Unexpected Application Error");
      }
      for (const response of [await ordersApi(query), await ordersApi(`${query}&page=1`), await usersApi(query), await usersApi(`${query}&page=1`)]) {
        expect(response.status, `${q}: ${await response.clone().text()}`).toBe(200);
        expect(Array.isArray(await response.json()), q).toBe(true);
      }
    }
    // What they find is what their words find: `"silva` and `silva*` are silva, a word of three orders' names and three users'.
    const orders = await ordersApi(new URLSearchParams({ q: '"silva', page: "1" }).toString());
    expect(orders.headers.get("X-Total-Count")).toBe("3");
    const users = await usersApi(new URLSearchParams({ q: "silva*", page: "1" }).toString());
    expect(users.headers.get("X-Total-Count")).toBe("3");
  });

  it("quotes, stars and operators are no syntax: a word in them is still a word", async () => {
    const silvas = ordersOf("Kamal Silva", "Amaya de Silva", "Kasun Silva");
    for (const q of ['"silva', 'silva"', "silva*", "*silva", "-silva", "(silva", "silva)", "^silva", `${"silva ".repeat(16)}silv`]) expect(await ordersFound(q), q).toEqual(silvas);
    // OR, AND and NEAR are words a name would have to start with (none does): not operators.
    for (const q of ["silva OR kamal", "silva AND kamal", "NEAR(silva kamal)", "NOT silva"]) expect(await ordersFound(q), q).toEqual([]);
    // Nothing but punctuation is no word: no name is searched.
    for (const q of ['"', "*", "((", "%_"]) expect(await ordersFound(q), q).toEqual([]);
  });
});

describe("the nightly compaction folds the indexes of names too (the cron at 21:30 UTC)", () => {
  const segments = async (index: string) => (await testEnv.DB.prepare(`SELECT count(DISTINCT segid) AS n FROM ${index}_idx`).first<{ n: number }>())!.n;

  it("each of orders_fts and users_fts ends in one segment, and every search finds what it found before", async () => {
    // Each order and registration above was a write of its own, and left a segment of its own.
    expect(await segments("orders_fts")).toBeGreaterThanOrEqual(3);
    expect(await segments("users_fts")).toBeGreaterThanOrEqual(3);
    const queries = ["silva", "de sil", "perera", "fernandez"];
    const before = await Promise.all(queries.map(async (q) => [await ordersFound(q), await usersFound(q)]));
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "30 21 * * *" }), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(await segments("orders_fts")).toBe(1);
    expect(await segments("users_fts")).toBe(1);
    expect(await Promise.all(queries.map(async (q) => [await ordersFound(q), await usersFound(q)]))).toEqual(before);
  });
});
