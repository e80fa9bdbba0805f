import { describe, expect, it } from "vitest";

import { SEARCH_INDEXES } from "~/lib/search-index";
import { testEnv } from "./helpers";

// The rules the database keeps with triggers (stock as the sum of the sizes, the kept counts, the status history, the
// pages to purge, the search indexes) live only in migrations: drizzle-kit does not know them, and a table it rebuilds
// (CREATE __new_x, copy, DROP x, RENAME) loses its triggers without a word, as 0020 had to work around. This names
// every trigger the migrations leave, so a migration that drops one fails here; and the search indexes must agree
// with their tables.

const EXPECTED_TRIGGERS: Record<string, string[]> = {
  orders: [
    "orders_after_insert_history",
    "orders_after_status_change",
    "orders_count_delete",
    "orders_count_insert",
    "orders_count_status",
    "orders_fts_delete",
    "orders_fts_insert",
    "orders_fts_update",
    "orders_reopen_needs_every_size",
  ],
  product_images: [
    "product_images_after_delete",
    "product_images_after_insert",
    "product_images_after_update",
    "product_images_changes_after_delete",
    "product_images_changes_after_insert",
    "product_images_changes_after_update",
  ],
  product_sizes: [
    "product_sizes_after_delete",
    "product_sizes_after_insert",
    "product_sizes_after_update",
    "product_sizes_cart_lines_gone",
    "product_sizes_category_on_move",
    "product_sizes_changes_after_delete",
    "product_sizes_changes_after_insert",
    "product_sizes_changes_after_update",
    "product_sizes_low_stock_delete",
    "product_sizes_low_stock_insert",
    "product_sizes_low_stock_update",
  ],
  products: [
    "products_after_delete",
    "products_after_insert",
    "products_after_update",
    "products_brands_after_delete",
    "products_brands_after_insert",
    "products_brands_after_update",
    "products_cart_lines_gone",
    "products_category_to_sizes",
    "products_changes_after_delete",
    "products_changes_after_insert",
    "products_changes_after_update",
    "products_pictures_version_step",
    "products_stock_is_sum_of_sizes",
  ],
  reviews: ["reviews_changes_after_delete", "reviews_changes_after_insert", "reviews_changes_after_update"],
  users: ["users_count_delete", "users_count_insert", "users_count_role", "users_fts_delete", "users_fts_insert", "users_fts_update"],
};

describe("the database's triggers and search indexes after every migration", () => {
  it("every trigger is there, on its table", async () => {
    const { results } = await testEnv.DB.prepare("SELECT tbl_name AS tableName, name FROM sqlite_master WHERE type = 'trigger' ORDER BY tbl_name, name").all<{ tableName: string; name: string }>();
    const found: Record<string, string[]> = {};
    for (const { tableName, name } of results) (found[tableName] ??= []).push(name);
    expect(found).toEqual(EXPECTED_TRIGGERS);
  });

  it("each FTS5 index agrees with the rows of its table after writes (integrity-check)", async () => {
    const email = `fts-${crypto.randomUUID()}@example.com`;
    await testEnv.DB.prepare("INSERT INTO users (name, email, password_hash) VALUES ('Amaya de Silva', ?, 'x')").bind(email).run();
    await testEnv.DB.prepare("UPDATE users SET name = 'Amaya Perera' WHERE email = ?").bind(email).run();
    const found = await testEnv.DB.prepare("SELECT count(*) AS n FROM users_fts WHERE users_fts MATCH 'perera'").first<number>("n");
    expect(found).toBeGreaterThan(0);
    await testEnv.DB.prepare("DELETE FROM users WHERE email = ?").bind(email).run();
    for (const index of SEARCH_INDEXES) {
      await expect(testEnv.DB.prepare(`INSERT INTO ${index}(${index}, rank) VALUES ('integrity-check', 1)`).run(), index).resolves.toBeDefined();
    }
  });
});
