import { applyD1Migrations, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

import { testEnv } from "./helpers";

// 0020 rebuilds catalogue_changes with an AUTOINCREMENT id, on a database whose triggers already record changes: the
// rows waiting for a purge stay, in their order, and every trigger records into the new table.

const db = (env as unknown as { MIGRATION_DB: D1Database }).MIGRATION_DB;
const migrations = testEnv.TEST_MIGRATIONS;
const upTo = (name: string) => migrations.slice(0, migrations.findIndex((migration) => migration.name.startsWith(name)));
const changes = async () => (await db.prepare("SELECT id, product_id AS productId FROM catalogue_changes ORDER BY id").all<{ id: number; productId: number }>()).results;

describe("0020_catalogue_changes_ids on a shop with changes waiting", () => {
  it("keeps the waiting changes in order, gives ids that never come back, and the triggers still record", async () => {
    await applyD1Migrations(db, upTo("0020"));
    await db.batch([
      db.prepare("INSERT INTO users (id, name, email, password_hash) VALUES (1, 'Kasun', 'kasun@example.com', 'x')"),
      db.prepare("INSERT INTO products (id, name, brand, description, price_cents, category, release_date) VALUES (7, 'Runner', 'Stride', 'd', 1250000, 'Gents', '2026-01-01'), (9, 'Belt', 'Stride', 'd', 499000, 'Accessories', '2026-01-02')"),
      db.prepare("INSERT INTO reviews (product_id, user_id, comment, rating) VALUES (9, 1, 'Good', 4)"),
    ]);
    const waiting = (await db.prepare("SELECT product_id AS productId FROM catalogue_changes ORDER BY rowid").all<{ productId: number }>()).results;
    expect(waiting.map((row) => row.productId)).toEqual([7, 9, 9]);

    await applyD1Migrations(db, migrations);
    expect(await changes()).toEqual([
      { id: 1, productId: 7 },
      { id: 2, productId: 9 },
      { id: 3, productId: 9 },
    ]);

    // Emptied, as a purge leaves it: the next change still gets a new id, never one a purge may have read.
    await db.prepare("DELETE FROM catalogue_changes").run();
    const writes: Array<[string, number]> = [
      ["UPDATE products SET price_cents = 1300000 WHERE id = 7", 7],
      ["INSERT INTO product_sizes (product_id, label, position, stock_quantity) VALUES (9, 'One size', 0, 4)", 9],
      ["UPDATE reviews SET rating = 5 WHERE product_id = 9", 9],
      ["INSERT INTO product_images (product_id, position, key, content_type, name, width, height) VALUES (7, 0, 'products/7/a', 'image/png', 'a.png', 1, 1)", 7],
    ];
    let lastId = 3;
    for (const [write, productId] of writes) {
      await db.prepare(write).run();
      const recorded = (await changes()).filter((row) => row.id > lastId);
      expect(recorded.length, write).toBeGreaterThan(0);
      expect(new Set(recorded.map((row) => row.productId)), write).toEqual(new Set([productId]));
      lastId = recorded[recorded.length - 1].id;
    }
  });
});
