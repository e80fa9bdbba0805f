import { applyD1Migrations, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

import { testEnv } from "./helpers";

// Migrations applied to a database that already holds a shop's data: 0006 (sizes) must keep every product's stock,
// every cart line and every order line, moving each to the product's new "One size". MIGRATION_DB is a second,
// empty database (vitest.workers.config.ts); the data is written as the shop wrote it before sizes existed.

const db = (env as unknown as { MIGRATION_DB: D1Database }).MIGRATION_DB;
const migrations = testEnv.TEST_MIGRATIONS;
const upTo = (name: string) => migrations.slice(0, migrations.findIndex((migration) => migration.name.startsWith(name)));

const rows = async <T>(sql: string) => (await db.prepare(sql).all<T>()).results;

describe("0006_product_sizes on a shop with data", () => {
  it("moves products, cart lines and order lines to a 'One size' and loses nothing", async () => {
    await applyD1Migrations(db, upTo("0006"));
    await db.batch([
      db.prepare("INSERT INTO users (id, name, email, password_hash) VALUES (1, 'Kasun', 'kasun@example.com', 'x'), (2, 'Admin', 'admin@example.com', 'x')"),
      db.prepare(
        `INSERT INTO products (id, name, brand, description, price_cents, category, stock_quantity, release_date) VALUES
         (1, 'Runner', 'Stride', 'd', 1250000, 'Gents', 7, '2026-01-01'),
         (2, 'Belt', 'Stride', 'd', 499000, 'Accessories', 0, '2026-01-02'),
         (3, 'Sandal', 'Stride', 'd', 899000, 'Ladies', 3, '2026-01-03')`,
      ),
      db.prepare("INSERT INTO cart_items (user_id, product_id, quantity) VALUES (1, 1, 2), (1, 3, 1)"),
      db.prepare(
        "INSERT INTO orders (id, user_id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status, bank_slip_key) VALUES (1, 1, 'Kasun', 'kasun@example.com', '0771234567', 'Colombo', 3398000, 'PENDING', 'slips/a')",
      ),
      db.prepare("INSERT INTO order_items (order_id, product_id, product_name, unit_price_cents, quantity) VALUES (1, 1, 'Runner', 1250000, 2), (1, 3, 'Sandal', 899000, 1)"),
      db.prepare("INSERT INTO reviews (product_id, user_id, comment, rating) VALUES (1, 1, 'Great', 5)"),
    ]);

    await applyD1Migrations(db, migrations);

    expect(await rows("SELECT product_id, label, position, stock_quantity FROM product_sizes ORDER BY product_id")).toEqual([
      { product_id: 1, label: "One size", position: 0, stock_quantity: 7 },
      { product_id: 2, label: "One size", position: 0, stock_quantity: 0 },
      { product_id: 3, label: "One size", position: 0, stock_quantity: 3 },
    ]);
    expect(await rows("SELECT id, stock_quantity FROM products ORDER BY id")).toEqual([
      { id: 1, stock_quantity: 7 },
      { id: 2, stock_quantity: 0 },
      { id: 3, stock_quantity: 3 },
    ]);
    expect(
      await rows("SELECT c.user_id, c.product_id, s.product_id AS size_product, s.label, c.quantity FROM cart_items c JOIN product_sizes s ON s.id = c.size_id ORDER BY c.product_id"),
    ).toEqual([
      { user_id: 1, product_id: 1, size_product: 1, label: "One size", quantity: 2 },
      { user_id: 1, product_id: 3, size_product: 3, label: "One size", quantity: 1 },
    ]);
    expect(
      await rows("SELECT i.product_id, i.size_label, s.product_id AS size_product, i.quantity, i.unit_price_cents FROM order_items i JOIN product_sizes s ON s.id = i.size_id ORDER BY i.id"),
    ).toEqual([
      { product_id: 1, size_label: "One size", size_product: 1, quantity: 2, unit_price_cents: 1250000 },
      { product_id: 3, size_label: "One size", size_product: 3, quantity: 1, unit_price_cents: 899000 },
    ]);
    expect(await rows("SELECT product_id, user_id, comment, rating FROM reviews")).toEqual([{ product_id: 1, user_id: 1, comment: "Great", rating: 5 }]);

    // 0017: each size carries its product's category, and the low-stock counts start from the sizes there are (the
    // belt sold out and the sandal's 3 pairs; the runner's 7 are not low).
    expect(await rows("SELECT product_id, category FROM product_sizes ORDER BY product_id")).toEqual([
      { product_id: 1, category: "Gents" },
      { product_id: 2, category: "Accessories" },
      { product_id: 3, category: "Ladies" },
    ]);
    const lowStock = async () => Object.fromEntries((await rows<{ category: string; size_count: number }>("SELECT category, size_count FROM low_stock_counts")).map((row) => [row.category, row.size_count]));
    expect(await lowStock()).toEqual({ "": 2, Gents: 0, Ladies: 1, Kids: 0, Accessories: 1 });

    // The migrated order still cancels and reopens, now through its sizes.
    await db.prepare("UPDATE orders SET status = 'CANCELLED', status_changed_by = 2 WHERE id = 1").run();
    expect(await rows("SELECT id, stock_quantity FROM products WHERE id IN (1, 3) ORDER BY id")).toEqual([
      { id: 1, stock_quantity: 9 },
      { id: 3, stock_quantity: 4 },
    ]);
    expect(await lowStock(), "the sandal back to 4 pairs").toEqual({ "": 1, Gents: 0, Ladies: 0, Kids: 0, Accessories: 1 });
    await db.prepare("UPDATE orders SET status = 'PENDING', status_changed_by = 2 WHERE id = 1").run();
    expect(await lowStock(), "and down to 3 again").toEqual({ "": 2, Gents: 0, Ladies: 1, Kids: 0, Accessories: 1 });
    expect(await rows("SELECT stock_quantity FROM product_sizes WHERE product_id IN (1, 3) ORDER BY product_id")).toEqual([{ stock_quantity: 7 }, { stock_quantity: 3 }]);
    expect(await rows("SELECT status FROM order_status_history WHERE order_id = 1 ORDER BY id")).toEqual([{ status: "PENDING" }, { status: "CANCELLED" }, { status: "PENDING" }]);
  });
});
