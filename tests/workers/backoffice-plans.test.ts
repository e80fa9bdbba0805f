import { beforeAll, describe, expect, it } from "vitest";

import { insertProducts } from "../../scripts/lib/bench-catalogue";
import { backOfficeStatements, benchUserEmail, FIRST_NAMES, LAST_NAMES } from "../../scripts/lib/bench-orders";
import type { OrderFilters } from "~/lib/schemas/backoffice";
import { listOrdersPage, listUsersPage, ORDER_LINES, ORDER_VIEWS } from "~/services/backoffice.server";
import { testEnv } from "./helpers";
import { recordingDb as db, statementsOf, type PlannedStatement } from "./plan-helpers";

// The back office's queries at the size the issue names, made as the bench makes them (scripts/lib/bench-orders.ts):
// 50,000 customers and 100,000 orders. A page of orders (all, one status, a date range) reads its ids from an index,
// walked from the newest, and only those rows; its total is one kept row. A search reads its matches from the search
// indexes (the words of names from orders_fts and users_fts, migrations/0021), never the other orders. (Seeding took 7 s
// here.)

const USERS = 50_000;
const ORDERS = 100_000;
const PRODUCTS = 1_000;

beforeAll(async () => {
  await testEnv.DB.batch([testEnv.DB.prepare(insertProducts(1, PRODUCTS, ["products/1/plan"]))]);
  await testEnv.DB.batch(backOfficeStatements(USERS, ORDERS, PRODUCTS).map((statement) => testEnv.DB.prepare(statement)));
}, 300_000);

const orderPage = (filters: OrderFilters, page = 1, shape: Parameters<typeof listOrdersPage>[4] = ORDER_VIEWS) => statementsOf(() => listOrdersPage(db, filters, page, 20, shape));
const show = (statement: PlannedStatement) => `${statement.sql}\n${statement.plan.join("\n")}\nrows read: ${statement.rowsRead}`;
const uses = (statement: PlannedStatement, pattern: RegExp) => statement.plan.some((line) => pattern.test(line));
const scansTable = (statement: PlannedStatement, table: string) => statement.plan.some((line) => line === `SCAN ${table}`);

/**
 * A page's statements (the API's: rows, lines, history; the screen's: rows, lines) and its total, last: the ids from
 * `index`, about a page of rows each.
 */
function expectPageFrom(statements: PlannedStatement[], index: string, rowsMax = 200, reads = 3) {
  expect(statements).toHaveLength(reads + 1);
  for (const statement of statements.slice(0, reads)) {
    expect(uses(statement, new RegExp(`USING COVERING INDEX ${index}\\b`)), show(statement)).toBe(true);
    expect(scansTable(statement, "orders"), show(statement)).toBe(false);
    expect(statement.rowsRead, show(statement)).toBeLessThanOrEqual(rowsMax);
  }
}

describe(`with ${USERS.toLocaleString("en-US")} users and ${ORDERS.toLocaleString("en-US")} orders`, () => {
  it("the first page of every order: 20 ids from orders_created_idx, the total from order_counts", async () => {
    const statements = await orderPage({});
    expectPageFrom(statements, "orders_created_idx");
    const total = statements.at(-1)!;
    expect(total.sql).toContain('from "order_counts"');
    expect(total.rowsRead).toBe(1);
  });

  it("the list screen's page (one line an order): its rows and lines from the same index, the kept total", async () => {
    const statements = await orderPage({ status: "PENDING" }, 3, ORDER_LINES);
    expectPageFrom(statements, "orders_status_created_idx", 200, 2);
    expect(statements[0].sql).not.toContain("shipping_address");
    expect(statements.at(-1)!.sql).toContain('from "order_counts"');
  });

  it("a page of one status (DELIVERED, CANCELLED, ...): its ids from orders_status_created_idx, its kept total", async () => {
    for (const status of ["DELIVERED", "CANCELLED", "PENDING"] as const) {
      const statements = await orderPage({ status });
      expectPageFrom(statements, "orders_status_created_idx");
      expect(statements.at(-1)!.rowsRead).toBe(1);
    }
  });

  it("a date range, with or without a status: a range of the same indexes, counted only up to 1,000", async () => {
    const statements = await orderPage({ from: "2024-06-01", to: "2024-06-30" });
    expectPageFrom(statements, "orders_created_idx");
    expect(uses(statements[0], /orders_created_idx \(created_at>\? AND created_at<\?\)/), show(statements[0])).toBe(true);
    expect(statements.at(-1)!.rowsRead, show(statements.at(-1)!)).toBeLessThanOrEqual(1_002);
    const withStatus = await orderPage({ status: "SHIPPED", from: "2024-06-01", to: "2024-06-30" });
    expectPageFrom(withStatus, "orders_status_created_idx");
  });

  it("a deep page walks the index to its offset (index entries, not rows): page 200 reads about 4,000 entries", async () => {
    const statements = await orderPage({}, 200);
    expectPageFrom(statements, "orders_created_idx", 4_200);
  });

  it("a search reads its matches from the search indexes (a MULTI-INDEX OR), then the page's rows by id", async () => {
    const searches: Array<[string, RegExp[]]> = [
      ["#4242", [/INTEGER PRIMARY KEY/, /orders_customer_email_idx/]],
      ["4242", [/INTEGER PRIMARY KEY/, /^SCAN orders_fts VIRTUAL TABLE/, /orders_customer_email_idx/]],
      ["nimal perera", [/^SCAN orders_fts VIRTUAL TABLE/, /orders_customer_email_idx/]],
      [benchUserEmail(1234).slice(0, 18), [/orders_customer_email_idx/]],
      ["077 12", [/orders_customer_phone_idx/]],
    ];
    for (const [q, indexes] of searches) {
      const [ids, total, ...details] = await orderPage({ q });
      expect(uses(ids, /^MULTI-INDEX OR$/), show(ids)).toBe(true);
      for (const index of indexes) expect(uses(ids, index), `${q}\n${show(ids)}`).toBe(true);
      expect(scansTable(ids, "orders"), show(ids)).toBe(false);
      expect(uses(total, /^MULTI-INDEX OR$/), show(total)).toBe(true);
      // The rows, lines and history of the page, by the ids found.
      for (const statement of details) expect(statement.rowsRead, show(statement)).toBeLessThanOrEqual(200);
    }
  });

  it("a short international prefix does not search a shorter national one: each form keeps the 4-digit minimum", async () => {
    // "9477" is "077" at home and "00947" is "07": every one of the orders and customers, read to find none.
    for (const q of ["9477", "00947", "+94 7"]) {
      const [ids] = await orderPage({ q });
      expect(ids.rowsRead, `${q}\n${show(ids)}`).toBeLessThan(100);
      const [users] = await statementsOf(() => listUsersPage(db, { q }, 1, 20));
      expect(users.rowsRead, `${q}\n${show(users)}`).toBeLessThan(100);
    }
  });

  it("a search with a status or dates still starts from the search indexes (the filters are written +status)", async () => {
    const [ids] = await orderPage({ q: "dilani", status: "CANCELLED", from: "2024-01-01", to: "2024-12-31" });
    expect(uses(ids, /^MULTI-INDEX OR$/), show(ids)).toBe(true);
    expect(uses(ids, /orders_status_created_idx|orders_created_idx/), show(ids)).toBe(false);
    // Every "Dilani" (1 customer in 17) and no other order: 100,000 / 17 matches, each found by a word of the name (its
    // entry in orders_fts, in the list of matches and its row: 3 reads) and by e-mail (1), then read once: 5 each.
    expect(ids.rowsRead, show(ids)).toBeLessThan(5.5 * (ORDERS / 17));
  });

  it("users: a page by id with the kept total; a search from the name, e-mail and phone indexes", async () => {
    const [page, total] = await statementsOf(() => listUsersPage(db, {}, 3, 20));
    expect(page.rowsRead, show(page)).toBeLessThanOrEqual(60);
    expect(total.sql).toContain('from "user_counts"');
    const [search] = await statementsOf(() => listUsersPage(db, { q: "0771" }, 1, 20));
    for (const index of [/^SCAN users_fts VIRTUAL TABLE/, /users_email_unique/, /users_phone_idx/]) expect(uses(search, index), show(search)).toBe(true);
    expect(scansTable(search, "users"), show(search)).toBe(false);
  });

  // The bench's names: first names in turn, a surname every 17 ids; "de Silva" is one customer (and order) in 19.
  const silvas = (count: number) => count / LAST_NAMES.length;

  it("a word of the name, not only its start: 'silva' is every de Silva's order, read from orders_fts, never a scan", async () => {
    for (const q of ["silva", "SILVA", "de sil", "Síl"]) {
      const [ids, total, ...details] = await orderPage({ q }, 1, ORDER_LINES);
      expect(uses(ids, /^MULTI-INDEX OR$/), show(ids)).toBe(true);
      expect(uses(ids, /^SCAN orders_fts VIRTUAL TABLE/), show(ids)).toBe(true);
      expect(scansTable(ids, "orders"), show(ids)).toBe(false);
      // Its matches (5,263) and no other order: the entry, its place in the list of matches, its row, read for the sort.
      expect(ids.rowsRead, `${q}\n${show(ids)}`).toBeLessThan(4.5 * silvas(ORDERS));
      expect(ids.rowsRead, `${q}\n${show(ids)}`).toBeGreaterThan(silvas(ORDERS));
      // Counted to 1,001 matches: no more of the index's matches than that are listed (3,002 rows, where all were 7,272).
      expect(uses(total, /^SCAN orders_fts VIRTUAL TABLE/), show(total)).toBe(true);
      expect(total.rowsRead, `${q}\n${show(total)}`).toBeLessThanOrEqual(3_100);
      for (const statement of details) expect(statement.rowsRead, show(statement)).toBeLessThanOrEqual(200);
    }
    const page = await listOrdersPage(db, { q: "de sil" }, 1, 20, ORDER_LINES);
    expect(page.items).toHaveLength(20);
    expect(page.items.every((order) => order.customerName.endsWith(" de Silva")), JSON.stringify(page.items.map((order) => order.customerName))).toBe(true);
    expect(page).toMatchObject({ total: 1_000, totalExact: false, hasMore: true });
  });

  it("two words narrow it, in any order; a word nothing starts reads next to nothing", async () => {
    const [ids] = await orderPage({ q: "silva kamala" });
    // Kamala de Silva: one customer in 17 × 19, and her orders alone are read.
    expect(ids.rowsRead, show(ids)).toBeLessThan(4.5 * (ORDERS / FIRST_NAMES.length / LAST_NAMES.length) + 100);
    const page = await listOrdersPage(db, { q: "silva kamala" }, 1, 20, ORDER_LINES);
    expect(new Set(page.items.map((order) => order.customerName))).toEqual(new Set(["Kamala de Silva"]));
    for (const q of ["zzqx", "silvaz", "de silvaz"]) {
      const [miss, count] = await orderPage({ q });
      expect(miss.rowsRead, `${q}\n${show(miss)}`).toBeLessThan(10);
      expect(count.rowsRead, `${q}\n${show(count)}`).toBeLessThan(10);
    }
  });

  it("users: a word of the name from users_fts ('perera' is one customer in 19), the count to 1,001", async () => {
    const [search, count] = await statementsOf(() => listUsersPage(db, { q: "perera" }, 1, 20));
    expect(uses(search, /^SCAN users_fts VIRTUAL TABLE/), show(search)).toBe(true);
    expect(scansTable(search, "users"), show(search)).toBe(false);
    expect(search.rowsRead, show(search)).toBeLessThan(4.5 * silvas(USERS));
    expect(count.rowsRead, show(count)).toBeLessThanOrEqual(3_100);
    const page = await listUsersPage(db, { q: "perera" }, 1, 20);
    expect(page.items).toHaveLength(20);
    expect(page.items.every((user) => user.name.endsWith(" Perera"))).toBe(true);
    const [miss] = await statementsOf(() => listUsersPage(db, { q: "pererax" }, 1, 20));
    expect(miss.rowsRead, show(miss)).toBeLessThan(10);
  });
});
