import { applyD1Migrations, env, type D1Migration } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";

import { PNG_1X1, sameBytes } from "./fixtures/images";
import { call, testEnv } from "./helpers";

// Migration 0007 on a database that already holds products: MIGRATION_DB (empty, of this test alone) gets the
// migrations before 0007, then products as the shop wrote them until now, then 0007 itself.

const db = (env as unknown as { MIGRATION_DB: D1Database }).MIGRATION_DB;
const before = testEnv.TEST_MIGRATIONS.filter((migration) => migration.name < "0007");
const rows = [
  { name: "Old Runner", key: "products/1/11111111-1111-4111-8111-111111111111", type: "image/png", file: "runner.png" },
  { name: "Old Boot", key: "products/2/22222222-2222-4222-8222-222222222222", type: "image/jpeg", file: "boot.jpg" },
  { name: "No Picture", key: null, type: null, file: null },
];

beforeAll(async () => {
  expect(before.map((migration) => migration.name)).toContain("0005_order_status_triggers.sql");
  expect(before.some((migration: D1Migration) => migration.name.startsWith("0007"))).toBe(false);
  await applyD1Migrations(db, before);
  for (const row of rows) {
    await db
      .prepare("INSERT INTO products (name, brand, description, price_cents, category, stock_quantity, release_date, image_key, image_type, image_name) VALUES (?, 'Oldbrand', 'd', 100, 'Gents', 1, '2025-01-01', ?, ?, ?)")
      .bind(row.name, row.key, row.type, row.file)
      .run();
  }
  await applyD1Migrations(db, testEnv.TEST_MIGRATIONS);
});

describe("migration 0007 (product_images)", () => {
  it("moves every product's image to its first picture, same key, type and name; nothing else", async () => {
    const { results } = await db
      .prepare("SELECT p.name, i.position, i.key, i.content_type, i.name AS file, i.width FROM product_images i JOIN products p ON p.id = i.product_id ORDER BY p.id")
      .all();
    expect(results).toEqual([
      { name: "Old Runner", position: 0, key: rows[0].key, content_type: "image/png", file: "runner.png", width: null },
      { name: "Old Boot", position: 0, key: rows[1].key, content_type: "image/jpeg", file: "boot.jpg", width: null },
    ]);
  });

  it("keeps the products' own image columns (the first picture, mirrored)", async () => {
    const { results } = await db.prepare("SELECT name, image_key, image_type, image_name FROM products ORDER BY id").all();
    expect(results).toEqual(rows.map((row) => ({ name: row.name, image_key: row.key, image_type: row.type, image_name: row.file })));
  });

  it("from then on the triggers keep the mirror: a new first picture, then none", async () => {
    const [{ id }] = (await db.prepare("SELECT id FROM products WHERE name = 'Old Runner'").all<{ id: number }>()).results;
    await db.batch([
      db.prepare("UPDATE product_images SET position = 1 WHERE product_id = ?").bind(id),
      db.prepare("INSERT INTO product_images (product_id, position, key, content_type, name) VALUES (?, 0, 'products/x/new', 'image/gif', 'new.gif')").bind(id),
    ]);
    expect(await db.prepare("SELECT image_key, image_type, image_name FROM products WHERE id = ?").bind(id).first()).toEqual({ image_key: "products/x/new", image_type: "image/gif", image_name: "new.gif" });
    await db.prepare("DELETE FROM product_images WHERE product_id = ?").bind(id).run();
    expect(await db.prepare("SELECT image_key FROM products WHERE id = ?").bind(id).first()).toEqual({ image_key: null });
  });

  it("the database itself refuses a ninth picture and a position taken twice", async () => {
    const [{ id }] = (await db.prepare("SELECT id FROM products WHERE name = 'Old Boot'").all<{ id: number }>()).results;
    const insert = (position: number) =>
      db.prepare("INSERT INTO product_images (product_id, position, key, content_type, name) VALUES (?, ?, ?, 'image/png', 'p.png')").bind(id, position, `products/${id}/${crypto.randomUUID()}`);
    await db.batch([1, 2, 3, 4, 5, 6, 7].map(insert));
    await expect(insert(8).run()).rejects.toThrow(/CHECK constraint failed/);
    await expect(insert(3).run()).rejects.toThrow(/UNIQUE constraint failed/);
    expect(await db.prepare("SELECT count(*) AS n FROM product_images WHERE product_id = ?").bind(id).first()).toEqual({ n: 8 });
  });
});

describe("a picture moved by the migration, served", () => {
  it("answers as picture 1 and learns its width and height from its bytes", async () => {
    // The shop's own DB: a product as written before 0007 had run, then the row 0007 made of it.
    const key = `products/migrated/${crypto.randomUUID()}`;
    await testEnv.BUCKET.put(key, PNG_1X1);
    const product = await testEnv.DB.prepare(
      "INSERT INTO products (name, brand, description, price_cents, category, stock_quantity, release_date) VALUES ('Migrated', 'Oldbrand', 'd', 100, 'Gents', 1, '2025-01-01') RETURNING id",
    ).first<{ id: number }>();
    await testEnv.DB.prepare("INSERT INTO product_images (product_id, position, key, content_type, name) VALUES (?, 0, ?, 'image/png', 'old.png')").bind(product!.id, key).run();
    const response = await call(`/api/product/${product!.id}/images/1`);
    expect(response.status).toBe(200);
    expect(sameBytes(new Uint8Array(await response.arrayBuffer()), PNG_1X1)).toBe(true);
    const row = await testEnv.DB.prepare("SELECT width, height FROM product_images WHERE product_id = ?").bind(product!.id).first();
    expect(row).toEqual({ width: 1, height: 1 });
    const old = await call(`/api/product/${product!.id}/image`);
    expect(old.status).toBe(200);
    expect(old.headers.get("ETag")).toBe(response.headers.get("ETag"));
    await old.arrayBuffer();
  });
});
