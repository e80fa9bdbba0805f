import { env } from "cloudflare:test";
import { applyD1Migrations } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { adminAccount, customerAccount, placeOrder, screenHtml, setStatus, stockedProduct, type Account, type ApiOrder } from "./admin-helpers";
import { visibleText } from "./catalogue-helpers";
import { ordersForExport } from "~/services/backoffice.server";
import { createDb } from "~/services/db.server";
import { authHeader, call, register, testEnv, type TestUser } from "./helpers";

// Issue 16 item 5, the back office at scale: /admin/orders and /admin/users paged, searched and filtered in the URL, the
// same parameters on the API with X-Total-Count, the CSV export, the order's own page, and the kept counts. (The query
// plans at 100,000 orders are in backoffice-plans.test.ts.)

let admin: Account;
let customer: Account;
let placed: ApiOrder;

/** The orders of this file, as seeded: newest first is the order every list uses. */
interface Seeded {
  id: number;
  name: string;
  email: string;
  phone: string;
  status: string;
  createdAt: number;
}
const seeded: Seeded[] = [];

const STATUSES = ["PENDING", "CONFIRMED", "PROCESSING", "SHIPPED", "DELIVERED", "CANCELLED"] as const;
const BULK = 110; // more than the 100 values D1 binds in one statement, for the unpaged API
const HOUR = 60 * 60 * 1000;
/** Four bulk orders a day from 1 March 2025, the first at 00:30 in Colombo (19:00 UTC the day before). */
const bulkTime = (i: number) => Date.parse("2025-03-01T00:30:00+05:30") + (i - 1) * 6 * HOUR;

const SPECIAL = {
  tharindu: { name: "Tharindu Jayasuriya", email: "tj.special@mail.test", phone: "+94 77 555 1234", status: "DELIVERED", createdAt: Date.parse("2025-02-10T12:00:00Z") },
  malini: { name: "Malini Fonseka", email: "malini@films.test", phone: "071-222-3333", status: "CANCELLED", createdAt: Date.parse("2025-02-11T12:00:00Z") },
  formula: {
    name: '=HYPERLINK("http://evil.test","click")',
    email: "@evil.test",
    // Not a Sri Lankan number, which the CSV would group (077 123 4567): kept as typed, and so guarded.
    phone: "+44 20 7946 0000",
    status: "PENDING",
    createdAt: Date.parse("2025-02-12T12:00:00Z"),
    address: 'Flat 2, "Sea View"\nGalle Road',
  },
};

async function insertOrder(row: Omit<Seeded, "id"> & { address?: string }): Promise<number> {
  const inserted = await testEnv.DB.prepare(
    `INSERT INTO orders (user_id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status, created_at)
     VALUES (?, ?, ?, ?, ?, 1250000, ?, ?) RETURNING id`,
  )
    .bind(customer.id, row.name, row.email, row.phone, row.address ?? "12 Galle Road, Colombo 03", row.status, row.createdAt)
    .first<{ id: number }>();
  await testEnv.DB.prepare("INSERT INTO order_items (order_id, product_name, size_label, unit_price_cents, quantity) VALUES (?, 'Harbour Runner', 'EU 42', 625000, 2)")
    .bind(inserted!.id)
    .run();
  seeded.push({ id: inserted!.id, ...row });
  return inserted!.id;
}

beforeAll(async () => {
  admin = await adminAccount();
  customer = await customerAccount("Kasun Silva");
  const shoe = await stockedProduct(4500, 20, { name: "Slip Runner" });
  placed = await placeOrder(customer.token, [{ productId: shoe, quantity: 1 }]);
  seeded.push({ id: placed.id, name: placed.customerName, email: placed.customerEmail, phone: placed.customerPhone, status: placed.status, createdAt: Date.parse(placed.orderDate) });
  for (let i = 1; i <= BULK; i++) {
    await insertOrder({ name: `Bulk Buyer ${i}`, email: `bulk${i}@shop.test`, phone: `0710000${String(i).padStart(3, "0")}`, status: STATUSES[i % 6], createdAt: bulkTime(i) });
  }
  for (const row of Object.values(SPECIAL)) await insertOrder(row);
}, 60_000);

const newestFirst = (rows: Seeded[]) => [...rows].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id).map((row) => row.id);
const listed = (html: string) => [...html.matchAll(/data-testid="admin-order" data-order-id="(\d+)" data-status="(\w+)"/g)].map(([, id]) => Number(id));
const countLine = (html: string) => html.match(/data-testid="orders-count"[^>]*>([^<]*)</)?.[1];
const ordersApi = (query: string, token = admin.token) => call(`/api/orders/admin/all${query}`, { headers: authHeader(token) });
const colomboDay = (ms: number) => new Date(ms + 5.5 * HOUR).toISOString().slice(0, 10);

async function apiError(response: Response, status: number) {
  expect(response.status, await response.clone().text()).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { message: string; fieldErrors?: Record<string, string[]> };
  expect(body.message).toEqual(expect.any(String));
  return body;
}

describe("/admin/orders pages, in the URL", () => {
  it("shows 20 orders a page, newest first, with the total and links to the next pages", async () => {
    const all = newestFirst(seeded);
    const first = await screenHtml("/admin/orders", admin.cookie);
    expect(listed(first)).toEqual(all.slice(0, 20));
    expect(countLine(first)).toBe(`${all.length} orders`);
    // Each order on one line, its items with their sizes (issue 14) and its total.
    const bulk = all.find((id) => id !== placed.id);
    const line = first.match(new RegExp(`data-order-id="${bulk}"[\\s\\S]*?</li>`))?.[0] ?? "";
    expect(visibleText(line)).toContain("Harbour Runner (EU 42) × 2");
    expect(visibleText(line)).toContain("LKR 12,500.00");
    expect(first).toMatch(/<a[^>]*rel="next"[^>]*href="\?page=2"|<a[^>]*href="\?page=2"[^>]*rel="next"/);
    const lastPage = Math.ceil(all.length / 20);
    expect(first).toContain(`href="?page=${lastPage}"`);

    const second = await screenHtml("/admin/orders?page=2", admin.cookie);
    expect(listed(second)).toEqual(all.slice(20, 40));
    const last = await screenHtml(`/admin/orders?page=${lastPage}`, admin.cookie);
    expect(listed(last)).toEqual(all.slice((lastPage - 1) * 20));
    expect(last).not.toContain('rel="next"');
  });

  it("a page keeps its filters in the page links, and pageSize is read from the URL", async () => {
    const cancelled = newestFirst(seeded.filter((row) => row.status === "CANCELLED"));
    const html = await screenHtml("/admin/orders?status=CANCELLED&pageSize=5&page=2", admin.cookie);
    expect(listed(html)).toEqual(cancelled.slice(5, 10));
    expect(html).toContain('href="?status=CANCELLED&amp;pageSize=5&amp;page=3"');
  });

  it("a page past the end shows none and says so, never an error", async () => {
    const html = await screenHtml("/admin/orders?page=999", admin.cookie);
    expect(listed(html)).toEqual([]);
    expect(visibleText(html)).toContain("No orders on page 999: the list ends before it.");
  });
});

describe("/admin/orders search (q): the order number, the customer's name, e-mail or phone", () => {
  const search = async (q: string, extra = "") => listed(await screenHtml(`/admin/orders?${new URLSearchParams({ q })}${extra}`, admin.cookie));
  const idOf = (name: string) => seeded.find((row) => row.name === name)!.id;

  it("the order number, with or without #, finds that order alone", async () => {
    const id = idOf("Bulk Buyer 37");
    expect(await search(String(id))).toContain(id);
    expect((await search(`#${id}`)).filter((found) => found !== id)).toEqual([]);
    expect(await search(`#${id}`)).toEqual([id]);
  });

  it("the name from its start, or any word of it, in any case", async () => {
    expect(await search("tharindu")).toEqual([idOf(SPECIAL.tharindu.name)]);
    expect(await search("THARINDU JAYA")).toEqual([idOf(SPECIAL.tharindu.name)]);
    expect(await search("Bulk Buyer 10")).toEqual(newestFirst(seeded.filter((row) => row.name.startsWith("Bulk Buyer 10"))));
    // A surname alone (migrations/0021's index of words; backoffice-word-search.test.ts has the rest).
    expect(await search("Jayasuriya")).toEqual([idOf(SPECIAL.tharindu.name)]);
  });

  it("the e-mail from its start, in any case", async () => {
    expect(await search("TJ.Spec")).toEqual([idOf(SPECIAL.tharindu.name)]);
    expect(await search("malini@films.test")).toEqual([idOf(SPECIAL.malini.name)]);
  });

  it("the phone from its start, spaces, dashes and + aside", async () => {
    expect(await search("+94 77 555")).toEqual([idOf(SPECIAL.tharindu.name)]);
    expect(await search("9477555")).toEqual([idOf(SPECIAL.tharindu.name)]);
    expect(await search("071 222")).toEqual([idOf(SPECIAL.malini.name)]);
    expect(await search("0710000")).toEqual(newestFirst(seeded.filter((row) => row.phone.startsWith("0710000"))).slice(0, 20));
  });

  it("a phone in the national form finds it typed in the international one, and the other way round", async () => {
    expect(await search("077 555 1234")).toEqual([idOf(SPECIAL.tharindu.name)]);
    expect(await search("0094 71 222")).toEqual([idOf(SPECIAL.malini.name)]);
    expect(await search("+94712223333")).toEqual([idOf(SPECIAL.malini.name)]);
  });

  it("a phone written without its 0, as after +94, finds it in either form", async () => {
    expect(await search("71 222 3333")).toEqual([idOf(SPECIAL.malini.name)]);
    expect(await search("7755512")).toEqual([idOf(SPECIAL.tharindu.name)]);
  });

  it("a search with a status keeps both, and the count says how many match", async () => {
    const expected = newestFirst(seeded.filter((row) => row.name.startsWith("Bulk Buyer 1") && row.status === "SHIPPED"));
    const html = await screenHtml(`/admin/orders?q=${encodeURIComponent("bulk buyer 1")}&status=SHIPPED`, admin.cookie);
    expect(listed(html)).toEqual(expected);
    expect(countLine(html)).toBe(`${expected.length} orders shipped matching`);
    // The status buttons keep the search.
    expect(html).toContain('href="/admin/orders?status=PENDING&amp;q=bulk+buyer+1"');
  });

  it("% and _ are ordinary characters, and a miss is a clear empty state", async () => {
    const html = await screenHtml("/admin/orders?q=%25_nobody", admin.cookie);
    expect(listed(html)).toEqual([]);
    expect(visibleText(html)).toContain("No orders match this search");
  });
});

describe("/admin/orders by status and date", () => {
  it("every status can be listed, DELIVERED and CANCELLED included, with its kept count", async () => {
    for (const status of STATUSES) {
      const expected = newestFirst(seeded.filter((row) => row.status === status));
      const html = await screenHtml(`/admin/orders?status=${status}&pageSize=100`, admin.cookie);
      expect(listed(html), status).toEqual(expected);
      expect(countLine(html)).toBe(`${expected.length} orders ${status.toLowerCase()}`);
    }
  });

  it("the More control marks DELIVERED when it is the filter", async () => {
    const html = await screenHtml("/admin/orders?status=DELIVERED", admin.cookie);
    expect(html).toMatch(/<summary[^>]*>DELIVERED/);
    // The link's attributes in any order.
    expect(html).toMatch(/<a(?=[^>]*aria-current="page")[^>]*href="\/admin\/orders\?status=DELIVERED"/);
  });

  it("from and to are days of the shop's calendar (Colombo), both inclusive", async () => {
    const inRange = seeded.filter((row) => colomboDay(row.createdAt) >= "2025-03-05" && colomboDay(row.createdAt) <= "2025-03-07");
    expect(inRange).toHaveLength(12);
    const html = await screenHtml("/admin/orders?from=2025-03-05&to=2025-03-07", admin.cookie);
    expect(listed(html)).toEqual(newestFirst(inRange));
    expect(countLine(html)).toBe("12 orders matching");
    // The first order of 5 March was placed at 00:30 in Colombo, 4 March in UTC: it is in.
    expect(listed(html)).toContain(seeded.find((row) => row.name === "Bulk Buyer 17")!.id);

    const fromOnly = listed(await screenHtml("/admin/orders?from=2025-03-28&pageSize=100", admin.cookie));
    expect(fromOnly).toEqual(newestFirst(seeded.filter((row) => colomboDay(row.createdAt) >= "2025-03-28")));
    const toOnly = listed(await screenHtml("/admin/orders?to=2025-02-11", admin.cookie));
    expect(toOnly).toEqual(newestFirst(seeded.filter((row) => colomboDay(row.createdAt) <= "2025-02-11")));
    const withStatus = listed(await screenHtml("/admin/orders?from=2025-03-01&to=2025-03-10&status=CANCELLED", admin.cookie));
    expect(withStatus).toEqual(newestFirst(seeded.filter((row) => row.status === "CANCELLED" && colomboDay(row.createdAt) >= "2025-03-01" && colomboDay(row.createdAt) <= "2025-03-10")));
  });
});

describe("/admin/orders with bad parameters falls back and says so, never a 500", () => {
  const cases: Array<[string, string]> = [
    ["page=0", "The page must be at least 1"],
    ["page=abc", "The page must be a whole number"],
    ["pageSize=1000", "The page size must be at most 100"],
    ["status=FOO", "status must be one of"],
    ["from=2025-03-07&to=2025-03-05", "The end date must not be before the start date"],
    ["from=2025-02-30", "The start date is not a calendar date"],
    [`q=${"x".repeat(101)}`, "The search must be at most 100 characters"],
  ];
  for (const [query, message] of cases) {
    it(`?${query.slice(0, 40)}: the first page of every order, and the message`, async () => {
      const html = await screenHtml(`/admin/orders?${query}`, admin.cookie);
      expect(listed(html)).toEqual(newestFirst(seeded).slice(0, 20));
      expect(visibleText(html)).toContain(message);
    });
  }

  it("one message a field: a date that is no date at all is not also 'not a calendar date'", async () => {
    const html = await screenHtml("/admin/orders?from=26/11/2026&to=2025-02-30", admin.cookie);
    expect(visibleText(html)).toContain("Some of the filters were ignored: The start date must be a date (YYYY-MM-DD); The end date is not a calendar date.");
    // The API (and the CSV) name each bad field once too.
    const body = (await (await ordersApi("?from=26/11/2026")).json()) as { fieldErrors: Record<string, string[]> };
    expect(body.fieldErrors).toEqual({ from: ["The start date must be a date (YYYY-MM-DD)"] });
  });

  it("a good filter beside a bad one is kept", async () => {
    const html = await screenHtml("/admin/orders?status=CANCELLED&page=0", admin.cookie);
    expect(listed(html)).toEqual(newestFirst(seeded.filter((row) => row.status === "CANCELLED")).slice(0, 20));
  });
});

describe("GET /api/orders/admin/all with page, pageSize, q, status, from, to", () => {
  it("without parameters: every order as an array, newest first, as API.md says (more than 100 of them)", async () => {
    const response = await ordersApi("");
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Total-Count")).toBeNull();
    const orders = (await response.json()) as ApiOrder[];
    expect(orders.map((order) => order.id)).toEqual(newestFirst(seeded));
    expect(orders.length).toBeGreaterThan(100);
    const bulk = orders.find((order) => order.customerName === "Bulk Buyer 3")!;
    expect(bulk.orderItems).toEqual([expect.objectContaining({ productName: "Harbour Runner", sizeLabel: "EU 42", quantity: 2, price: 6250, subtotal: 12500 })]);
    expect(bulk.statusHistory).toEqual([expect.objectContaining({ status: bulk.status })]);
  });

  it("status alone still filters the whole list (API.md)", async () => {
    const orders = (await (await ordersApi("?status=CANCELLED")).json()) as ApiOrder[];
    expect(orders.map((order) => order.id)).toEqual(newestFirst(seeded.filter((row) => row.status === "CANCELLED")));
  });

  it("page and pageSize: that page, X-Total-Count and a Link to the next", async () => {
    const all = newestFirst(seeded);
    const response = await ordersApi("?page=2&pageSize=5");
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Total-Count")).toBe(String(all.length));
    expect(response.headers.get("Link")).toBe(`<http://localhost/api/orders/admin/all?page=3&pageSize=5>; rel="next"`);
    expect(((await response.json()) as ApiOrder[]).map((order) => order.id)).toEqual(all.slice(5, 10));

    const defaultSize = await ordersApi("?page=1");
    expect(((await defaultSize.json()) as ApiOrder[]).length).toBe(20);
    const last = await ordersApi(`?page=${Math.ceil(all.length / 50)}&pageSize=50`);
    expect(last.headers.get("Link")).toBeNull();
  });

  it("q, status, from and to, paged: the matches and, for a search, a Link while more follow", async () => {
    const byStatus = await ordersApi("?status=DELIVERED&page=1&pageSize=3");
    expect(byStatus.headers.get("X-Total-Count")).toBe(String(seeded.filter((row) => row.status === "DELIVERED").length));
    const phone = await ordersApi(`?${new URLSearchParams({ q: "+94 77 555", page: "1" })}`);
    expect(((await phone.json()) as ApiOrder[]).map((order) => order.customerName)).toEqual([SPECIAL.tharindu.name]);
    expect(phone.headers.get("X-Total-Count")).toBe("1");
    const range = await ordersApi("?from=2025-03-05&to=2025-03-07&page=1&pageSize=10");
    expect(range.headers.get("X-Total-Count")).toBe("12");
    expect(range.headers.get("Link")).toContain("page=2");
    const unpagedSearch = (await (await ordersApi("?q=malini")).json()) as ApiOrder[];
    expect(unpagedSearch.map((order) => order.customerEmail)).toEqual([SPECIAL.malini.email]);
  });

  it("bad parameters are 400 with the field named", async () => {
    const cases: Array<[string, string]> = [
      ["page=0", "page"],
      ["page=-1", "page"],
      ["pageSize=1000", "pageSize"],
      ["pageSize=0", "pageSize"],
      ["status=FOO", "status"],
      ["from=2025-13-01", "from"],
      ["from=yesterday", "from"],
      ["from=2025-03-07&to=2025-03-05", "to"],
      [`q=${"x".repeat(101)}`, "q"],
      ["q=%00abc", "q"],
    ];
    for (const [query, field] of cases) {
      const body = await apiError(await ordersApi(`?${query}`), 400);
      expect(body.fieldErrors?.[field]?.length, query).toBeGreaterThan(0);
    }
  });

  it("a customer is 403 and a visitor 401, with or without parameters", async () => {
    await apiError(await ordersApi("?page=1", customer.token), 403);
    await apiError(await call("/api/orders/admin/all?page=1"), 401);
  });
});

describe("users: /admin/users and GET /api/auth/admin/users", () => {
  const people: TestUser[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 25; i++) people.push(await register({ name: `Page Person ${String(i).padStart(2, "0")}`, phone: `07655500${String(i).padStart(2, "0")}` }));
    people.push(await register({ name: "Sanduni Wijesinghe", email: `sanduni.w-${crypto.randomUUID()}@mail.test`, phone: "0761234567" }));
  });
  const usersApi = (query: string, token = admin.token) => call(`/api/auth/admin/users${query}`, { headers: authHeader(token) });
  const allIds = async () => (await testEnv.DB.prepare("SELECT id FROM users ORDER BY id").all<{ id: number }>()).results.map((row) => row.id);

  it("without parameters: every user, as before", async () => {
    const response = await usersApi("");
    expect(response.headers.get("X-Total-Count")).toBeNull();
    const users = (await response.json()) as { id: number }[];
    expect(users.map((user) => user.id)).toEqual(await allIds());
  });

  it("page and pageSize: that page, in the order they registered, with X-Total-Count and Link", async () => {
    const ids = await allIds();
    const response = await usersApi("?page=2&pageSize=10");
    expect(response.headers.get("X-Total-Count")).toBe(String(ids.length));
    expect(response.headers.get("Link")).toContain("page=3");
    const users = (await response.json()) as Record<string, unknown>[];
    expect(users.map((user) => user.id)).toEqual(ids.slice(10, 20));
    expect(Object.keys(users[0]).sort()).toEqual(["address", "email", "id", "name", "phone", "role"]);
  });

  it("q: the name, e-mail or phone from its start", async () => {
    const sanduni = people.at(-1)!;
    for (const q of ["sanduni", "SANDUNI W", "sanduni.w-", "076123", "+94 76 123", "76 123 45"]) {
      const users = (await (await usersApi(`?${new URLSearchParams({ q, page: "1" })}`)).json()) as { id: number }[];
      expect(users.map((user) => user.id), q).toEqual([sanduni.id]);
    }
    const paged = await usersApi(`?${new URLSearchParams({ q: "page person", page: "2", pageSize: "10" })}`);
    expect(paged.headers.get("X-Total-Count")).toBe("25");
    expect(((await paged.json()) as { id: number }[]).map((user) => user.id)).toEqual(people.slice(10, 20).map((person) => person.id));
  });

  it("bad parameters are 400; a customer is 403", async () => {
    for (const [query, field] of [["page=0", "page"], ["pageSize=101", "pageSize"], [`q=${"y".repeat(101)}`, "q"]]) {
      const body = await apiError(await usersApi(`?${query}`), 400);
      expect(body.fieldErrors?.[field]?.length, query).toBeGreaterThan(0);
    }
    await apiError(await usersApi("?page=1", customer.token), 403);
  });

  it("the screen: 20 a page with the page links, the summary from the kept counts, and a search", async () => {
    const ids = await allIds();
    const rows = (html: string) => [...html.matchAll(/<th[^>]* scope="row"[^>]*>([^<]*)</g)].map(([, name]) => name);
    const first = await screenHtml("/admin/users", admin.cookie);
    expect(rows(first)).toHaveLength(20);
    expect(visibleText(first)).toContain(`${ids.length} accounts`);
    expect(first).toContain('href="?page=2"');
    const found = await screenHtml("/admin/users?q=page+person+1", admin.cookie);
    expect(rows(found)).toEqual(people.filter((person) => person.name.startsWith("Page Person 1")).map((person) => person.name));
    expect(visibleText(found)).toContain("10 matching.");
    const bad = await screenHtml("/admin/users?page=0&pageSize=5000", admin.cookie);
    expect(rows(bad)).toHaveLength(20);
    expect(visibleText(bad)).toContain("The page must be at least 1");
  });

  it("a search's page past its end says which page and links back to the first, the search kept", async () => {
    const html = await screenHtml("/admin/users?q=page+person+1&page=2", admin.cookie);
    const text = visibleText(html);
    expect(text).toContain("10 matching.");
    expect(text).toContain("No users on page 2: the list ends before it.");
    expect(text).not.toContain("No users match this search");
    expect(html).toMatch(/<a[^>]*href="\?q=page\+person\+1"[^>]*>Back to the first page<\/a>/);
  });
});

/** A CSV body as rows of fields (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = "";
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field), rows.push(row), (row = []), (field = ""), i++;
    } else field += c;
  }
  return rows;
}

/** The file's text after its byte order mark (which Response.text() would drop unseen), checked to be there. */
async function csvText(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return new TextDecoder().decode(bytes.slice(3));
}

describe("GET /admin/orders.csv", () => {
  const csv = (query = "", cookie = admin.cookie) => call(`/admin/orders.csv${query}`, { headers: { Cookie: cookie } });
  const csvRows = async (query: string) => parseCsv(await csvText(await csv(query))).slice(1);

  it("is named by the shop's day, as its rows are dated: 00:07 in Colombo is already the next day, though still the last in UTC", async () => {
    // The next 18:37 UTC (00:07 in Sri Lanka): within the admin's session, which lasts a day.
    const now = Date.now();
    const at = new Date(now);
    at.setUTCHours(18, 37, 0, 0);
    if (at.getTime() <= now) at.setUTCDate(at.getUTCDate() + 1);
    vi.useFakeTimers({ toFake: ["Date"], now: at });
    try {
      const response = await csv();
      expect(response.status).toBe(200);
      const shopDay = new Date(at.getTime() + 5.5 * 3600_000).toISOString().slice(0, 10);
      expect(shopDay).not.toBe(at.toISOString().slice(0, 10));
      expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="stride-orders-${shopDay}.csv"`);
      await response.body?.cancel();
    } finally {
      vi.useRealTimers();
    }
  });

  it("every order of the filters, with a header, as a download", async () => {
    const response = await csv();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="stride-orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const text = await csvText(response);
    expect(text.startsWith("Order,Placed (Sri Lanka time),Status,Customer,E-mail,Phone,Shipping address,Items,Total (LKR)\r\n")).toBe(true);
    const rows = parseCsv(text);
    expect(rows.slice(1).map((row) => Number(row[0]))).toEqual(newestFirst(seeded));
    const bulk = rows.find((row) => row[3] === "Bulk Buyer 2")!;
    const second = seeded.find((row) => row.name === "Bulk Buyer 2")!;
    // 1 March 2025 06:30 in Colombo is 01:00 UTC: the time the list shows, on the day the date filters name.
    expect(new Date(bulkTime(2)).toISOString()).toBe("2025-03-01T01:00:00.000Z");
    expect(bulk).toEqual([String(second.id), "2025-03-01 06:30", second.status, "Bulk Buyer 2", "bulk2@shop.test", "071 000 0002", "12 Galle Road, Colombo 03", "2 × Harbour Runner (EU 42)", "12500.00"]);
    // A one-size product's line has no size, as on the screens and in the mails.
    expect(rows.find((row) => Number(row[0]) === placed.id)?.[7]).toBe("1 × Slip Runner");
  });

  it("escapes quotes, commas and line breaks, and guards text a spreadsheet would run (=, +, -, @)", async () => {
    const text = await csvText(await csv("?q=%3DHYPERLINK"));
    const [, row] = parseCsv(text);
    expect(row[3]).toBe(`'${SPECIAL.formula.name}`);
    expect(row[4]).toBe("'@evil.test");
    expect(row[5]).toBe("'+44 20 7946 0000");
    expect(row[6]).toBe(SPECIAL.formula.address);
    expect(text).toContain('"\'=HYPERLINK(""http://evil.test"",""click"")"');
    expect(text).toContain('"Flat 2, ""Sea View""\nGalle Road"');
  });

  it("applies the filters: status, q and dates", async () => {
    const cancelled = await csvRows("?status=CANCELLED");
    expect(cancelled.map((row) => Number(row[0]))).toEqual(newestFirst(seeded.filter((row) => row.status === "CANCELLED")));
    expect(cancelled.every((row) => row[2] === "CANCELLED")).toBe(true);
    const range = await csvRows("?from=2025-03-05&to=2025-03-07");
    expect(range).toHaveLength(12);
    const search = await csvRows("?q=malini");
    expect(search.map((row) => row[3])).toEqual([SPECIAL.malini.name]);
    // Her phone, typed 071-222-3333, as people write it: text to a spreadsheet, which keeps its 0.
    expect(search[0][5]).toBe("071 222 3333");
  });

  it("admins only: a customer goes to the shop, a visitor to the login page; a bad filter is 400", async () => {
    const asCustomer = await csv("", customer.cookie);
    expect(asCustomer.status).toBe(302);
    expect(asCustomer.headers.get("Location")).toBe("/");
    const asVisitor = await call("/admin/orders.csv?status=PENDING");
    expect(asVisitor.status).toBe(302);
    expect(asVisitor.headers.get("Location")).toBe("/login?redirect=%2Fadmin%2Forders.csv%3Fstatus%3DPENDING");
    const bearer = await call("/admin/orders.csv?status=PENDING", { headers: authHeader(customer.token) });
    expect(bearer.status).toBe(302);
    const body = await apiError(await csv("?status=FOO"), 400);
    expect(body.fieldErrors?.status?.length).toBeGreaterThan(0);
  });

  it("is read a chunk at a time from where the last chunk ended, orders placed in the same millisecond included", async () => {
    const sameTime = Date.parse("2025-02-20T08:00:00Z");
    for (let i = 1; i <= 5; i++) await insertOrder({ name: `Tied Tharaka ${i}`, email: `tied${i}@shop.test`, phone: "0719999999", status: "PENDING", createdAt: sameTime });
    const chunks: number[][] = [];
    for await (const chunk of ordersForExport(createDb(testEnv.DB), {}, 7)) chunks.push(chunk.map((order) => order.id));
    expect(chunks.flat()).toEqual(newestFirst(seeded));
    expect(chunks.slice(0, -1).every((chunk) => chunk.length === 7)).toBe(true);
    const tied = await csvRows("?q=tied+tharaka");
    expect(tied.map((row) => Number(row[0]))).toEqual(newestFirst(seeded.filter((row) => row.name.startsWith("Tied Tharaka"))));
  });

  it("the list links to the export of what it shows", async () => {
    const html = await screenHtml("/admin/orders?status=SHIPPED&q=bulk&page=2", admin.cookie);
    expect(html).toContain('href="/admin/orders.csv?status=SHIPPED&amp;q=bulk"');
  });
});

describe("/admin/orders/{id}", () => {
  it("shows the lines with sizes, the customer, the slip, the history and the e-mails section", async () => {
    await setStatus(admin.token, placed.id, "CONFIRMED");
    seeded.find((row) => row.id === placed.id)!.status = "CONFIRMED";
    const html = await screenHtml(`/admin/orders/${placed.id}`, admin.cookie);
    const text = visibleText(html);
    expect(text).toContain(`Order #${placed.id}`);
    expect(text).toContain("Slip Runner");
    for (const value of [placed.customerName, placed.customerEmail, placed.customerPhone, placed.shippingAddress]) expect(text).toContain(value);
    expect(html).toMatch(new RegExp(`<img[^>]*src="/api/orders/${placed.id}/bank-slip"`));
    const history = html.match(/data-testid="status-history"[\s\S]*?<\/section>/)?.[0] ?? "";
    expect(visibleText(history)).toMatch(/PENDING[\s\S]*by Kasun Silva[\s\S]*CONFIRMED[\s\S]*by Admin Amara/);
    // The confirmation and the CONFIRMED mail, newest first, with their state (kept: MAIL_MODE is not "send" here).
    const emails = html.match(/data-testid="order-emails"[\s\S]*?<\/section>/)?.[0] ?? "";
    const subjects = [...emails.matchAll(/data-testid="order-email"[\s\S]*?<p[^>]*>([^<]*)<\/p>/g)].map(([, subject]) => subject);
    expect(subjects).toHaveLength(2);
    expect(subjects[0]).toMatch(new RegExp(`^Stride order #${placed.id}: (?!we have your order)`));
    expect(subjects[1]).toBe(`Stride order #${placed.id}: we have your order`);
    // Sent to the account that placed the order, not to the address typed at checkout.
    expect(visibleText(emails)).toContain(`To ${customer.email}`);
    expect(visibleText(emails)).not.toContain(`To ${placed.customerEmail}`);

    const bulk = seeded.find((row) => row.name === "Bulk Buyer 5")!;
    const bulkText = visibleText(await screenHtml(`/admin/orders/${bulk.id}`, admin.cookie));
    expect(bulkText).toContain("Size: EU 42");
    expect(bulkText).toContain("No bank slip");
  });

  it("admins only; an unknown or malformed id is 404", async () => {
    const asCustomer = await call(`/admin/orders/${placed.id}`, { headers: { Cookie: customer.cookie } });
    expect(asCustomer.status).toBe(302);
    expect(asCustomer.headers.get("Location")).toBe("/");
    const asVisitor = await call(`/admin/orders/${placed.id}`);
    expect(asVisitor.headers.get("Location")).toBe(`/login?redirect=%2Fadmin%2Forders%2F${placed.id}`);
    for (const id of ["99999999", "abc", "0", "-3"]) {
      const response = await call(`/admin/orders/${id}`, { headers: { Cookie: admin.cookie } });
      expect(response.status, id).toBe(404);
    }
  });

  it("each card of the list links to its page", async () => {
    const html = await screenHtml("/admin/orders", admin.cookie);
    expect(html).toContain(`href="/admin/orders/${newestFirst(seeded)[0]}"`);
  });
});

describe("the kept counts (order_counts, user_counts)", () => {
  const kept = async () => {
    const orders = await testEnv.DB.prepare("SELECT status, order_count FROM order_counts").all<{ status: string; order_count: number }>();
    const real = await testEnv.DB.prepare("SELECT status, count(*) AS n FROM orders GROUP BY status").all<{ status: string; n: number }>();
    const users = await testEnv.DB.prepare("SELECT role, user_count FROM user_counts").all<{ role: string; user_count: number }>();
    const realUsers = await testEnv.DB.prepare("SELECT role, count(*) AS n FROM users GROUP BY role").all<{ role: string; n: number }>();
    return { orders: orders.results, real: real.results, users: users.results, realUsers: realUsers.results };
  };
  const expectInStep = async () => {
    const { orders, real, users, realUsers } = await kept();
    for (const status of STATUSES) expect(orders.find((row) => row.status === status)?.order_count, status).toBe(real.find((row) => row.status === status)?.n ?? 0);
    expect(orders.find((row) => row.status === "")?.order_count).toBe(real.reduce((sum, row) => sum + row.n, 0));
    for (const role of ["ROLE_ADMIN", "ROLE_CUSTOMER"]) expect(users.find((row) => row.role === role)?.user_count, role).toBe(realUsers.find((row) => row.role === role)?.n ?? 0);
    expect(users.find((row) => row.role === "")?.user_count).toBe(realUsers.reduce((sum, row) => sum + row.n, 0));
  };

  it("follow every insert, status change, role change and delete", async () => {
    await expectInStep();
    const bulk = seeded.find((row) => row.name === "Bulk Buyer 9")!;
    await setStatus(admin.token, bulk.id, "DELIVERED");
    await setStatus(admin.token, bulk.id, "CANCELLED");
    await expectInStep();
    const doomed = await register({ name: "Counted Chamara" });
    await testEnv.DB.prepare("UPDATE users SET role = 'ROLE_ADMIN' WHERE id = ?").bind(doomed.id).run();
    await expectInStep();
    await testEnv.DB.prepare("DELETE FROM users WHERE id = ?").bind(doomed.id).run();
    await testEnv.DB.prepare("DELETE FROM orders WHERE id = ?").bind(bulk.id).run();
    seeded.splice(seeded.indexOf(bulk), 1);
    await expectInStep();
  });

  it("are filled from the rows a shop already has when migration 0013 runs", async () => {
    const db = (env as unknown as { MIGRATION_DB: D1Database }).MIGRATION_DB;
    const migrations = testEnv.TEST_MIGRATIONS;
    await applyD1Migrations(db, migrations.slice(0, migrations.findIndex((migration) => migration.name.startsWith("0013"))));
    await db.batch([
      db.prepare("INSERT INTO users (id, name, email, password_hash, role) VALUES (1, 'A', 'a@x.test', 'x', 'ROLE_ADMIN'), (2, 'B', 'b@x.test', 'x', 'ROLE_CUSTOMER'), (3, 'C', 'c@x.test', 'x', 'ROLE_CUSTOMER')"),
      db.prepare(
        "INSERT INTO orders (user_id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status) VALUES (2, 'B', 'b@x.test', '0771234567', 'x', 100, 'PENDING'), (2, 'B', 'b@x.test', '0771234567', 'x', 100, 'SHIPPED'), (3, 'C', 'c@x.test', '0771234567', 'x', 100, 'SHIPPED')",
      ),
    ]);
    await applyD1Migrations(db, migrations);
    const counts = await db.prepare("SELECT status, order_count AS n FROM order_counts ORDER BY status").all();
    expect(counts.results).toEqual([
      { status: "", n: 3 },
      { status: "CANCELLED", n: 0 },
      { status: "CONFIRMED", n: 0 },
      { status: "DELIVERED", n: 0 },
      { status: "PENDING", n: 1 },
      { status: "PROCESSING", n: 0 },
      { status: "SHIPPED", n: 2 },
    ]);
    const users = await db.prepare("SELECT role, user_count AS n FROM user_counts ORDER BY role").all();
    expect(users.results).toEqual([
      { role: "", n: 3 },
      { role: "ROLE_ADMIN", n: 1 },
      { role: "ROLE_CUSTOMER", n: 2 },
    ]);
  });
});
