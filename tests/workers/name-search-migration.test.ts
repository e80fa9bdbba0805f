import { applyD1Migrations, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

import { listOrdersPage, listUsersPage, ORDER_LINES } from "~/services/backoffice.server";
import { createDb } from "~/services/db.server";
import { testEnv } from "./helpers";

// 0021 on a shop that already holds orders and users: its indexes of words (orders_fts, users_fts) are filled from the
// rows there are, so the names typed before it are found by any word at once, and its triggers keep them from then on.

const d1 = (env as unknown as { MIGRATION_DB: D1Database }).MIGRATION_DB;
const db = createDb(d1);
const migrations = testEnv.TEST_MIGRATIONS;
const upTo = (name: string) => migrations.slice(0, migrations.findIndex((migration) => migration.name.startsWith(name)));

const orderNames = async (q: string) => (await listOrdersPage(db, { q }, 1, 20, ORDER_LINES)).items.map((order) => order.customerName).sort();
const userNames = async (q: string) => (await listUsersPage(db, { q }, 1, 20)).items.map((user) => user.name).sort();

describe("0021_name_word_search on a shop with orders and users", () => {
  it("finds the names already there by any word, and keeps the index in step afterwards", async () => {
    await applyD1Migrations(d1, upTo("0021"));
    await d1.batch([
      d1.prepare(
        "INSERT INTO users (id, name, email, password_hash) VALUES (1, 'Kamal Silva', 'kamal@example.com', 'x'), (2, 'Amaya de Silva', 'amaya@example.com', 'x'), (3, 'Nimal Perera', 'nimal@example.com', 'x')",
      ),
      d1.prepare(
        `INSERT INTO orders (id, user_id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status, created_at) VALUES
         (1, 1, 'Kamal Silva', 'kamal@example.com', '0771234567', 'Colombo', 1250000, 'PENDING', 1700000000000),
         (2, 2, 'Amaya de Silva', 'amaya@example.com', '0777654321', 'Kandy', 499000, 'DELIVERED', 1700000100000),
         (3, 3, 'Nimal Perera', 'nimal@example.com', '0712223333', 'Galle', 899000, 'CANCELLED', 1700000200000)`,
      ),
    ]);

    await applyD1Migrations(d1, migrations);
    expect(await orderNames("silva")).toEqual(["Amaya de Silva", "Kamal Silva"]);
    expect(await orderNames("de sil")).toEqual(["Amaya de Silva"]);
    expect(await orderNames("PERERA")).toEqual(["Nimal Perera"]);
    expect(await userNames("perera")).toEqual(["Nimal Perera"]);
    expect(await userNames("silva")).toEqual(["Amaya de Silva", "Kamal Silva"]);
    // What it had before: the e-mail and the start of the name.
    expect(await orderNames("kamal@")).toEqual(["Kamal Silva"]);
    expect(await userNames("nimal p")).toEqual(["Nimal Perera"]);

    // From then on the triggers keep both indexes: a new row, a changed name, a deleted row.
    await d1.batch([
      d1.prepare("INSERT INTO users (id, name, email, password_hash) VALUES (4, 'Dilani Silva', 'dilani@example.com', 'x')"),
      d1.prepare("UPDATE users SET name = 'Nimal Fonseka' WHERE id = 3"),
      d1.prepare("DELETE FROM users WHERE id = 2"),
      d1.prepare("UPDATE orders SET customer_name = 'Kamal Fonseka' WHERE id = 1"),
      d1.prepare("UPDATE orders SET status = 'CONFIRMED' WHERE id = 2"),
    ]);
    expect(await userNames("silva")).toEqual(["Dilani Silva", "Kamal Silva"]);
    expect(await userNames("perera")).toEqual([]);
    expect(await userNames("fonseka")).toEqual(["Nimal Fonseka"]);
    expect(await orderNames("silva")).toEqual(["Amaya de Silva"]);
    expect(await orderNames("fonseka")).toEqual(["Kamal Fonseka"]);
    for (const index of ["orders_fts", "users_fts"]) await d1.prepare(`INSERT INTO ${index}(${index}, rank) VALUES ('integrity-check', 1)`).run();
  });
});
