import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { CART_LINE_GONE_REASONS, CATEGORIES, MAIL_KINDS, MAIL_STATES, ORDER_STATUSES, ROLES } from "../app/lib/constants";

// The one source of the data model. Money is integer cents; timestamps are epoch milliseconds.
//
// Not here: the triggers (stock as the sum of the sizes, kept counts, status history, pages to purge, the FTS5 search
// indexes) and the FTS5 tables, which live in migrations/ only. drizzle-kit does not know them: a migration it writes
// to rebuild a table (CREATE __new_x, copy, DROP, RENAME) drops that table's triggers without a word. Write such a
// migration by hand and make the triggers again (as 0020 does); tests/workers/schema-triggers.test.ts names them all.
const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
const timestamp = (column: string) =>
  integer(column, { mode: "number" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    // Stored lower-cased, so the unique index compares e-mails case-insensitively.
    email: text("email").notNull(),
    phone: text("phone").notNull().default(""),
    address: text("address").notNull().default(""),
    // "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>": scheme and cost travel with the hash so they can be upgraded.
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("ROLE_CUSTOMER"),
    // Every token carries the version it was issued at (claim `sv`); bumping it (a new password, a reset) ends every
    // session of the user at once, bearer tokens and cookies alike (app/services/auth.server.ts).
    sessionVersion: integer("session_version").notNull().default(0),
    createdAt: timestamp("created_at"),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    check("users_role_check", sql`${t.role} IN (${inList(ROLES)})`),
    // The back office's user search (app/services/backoffice.server.ts, migrations/0013): a phone from its start, read
    // from this index (the e-mail's is the unique index above: e-mails are stored lower-cased). The words of a name
    // are in users_fts (migrations/0021, kept by triggers: drizzle-kit does not write FTS5 tables).
    index("users_phone_idx").on(t.phone),
  ],
);

export const products = sqliteTable(
  "products",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    brand: text("brand").notNull(),
    description: text("description").notNull(),
    priceCents: integer("price_cents").notNull(),
    category: text("category", { enum: CATEGORIES }).notNull(),
    stockQuantity: integer("stock_quantity").notNull().default(0),
    releaseDate: text("release_date").notNull(), // YYYY-MM-DD
    productAvailable: integer("product_available", { mode: "boolean" }).notNull().default(true),
    imageName: text("image_name"), // the file name the admin uploaded
    imageKey: text("image_key"), // R2 key products/{id}/{uuid}: a new image gets a new key, so URLs that carry it can be cached forever
    imageType: text("image_type"),
    // Kept beside the product so the grid shows ratings without aggregating reviews per card.
    ratingCount: integer("rating_count").notNull().default(0),
    ratingTotal: integer("rating_total").notNull().default(0),
    // The product's edit version: raised by one by every admin save (its fields, sizes and pictures; orders moving
    // stock leave it alone). A save writes base + 1, base being the version its form was loaded with (or, for an API
    // client that sends none, the one it read); a trigger (migrations/0011) refuses any other value, so a save from a
    // form older than another save, or racing it, fails whole. The column keeps its first name, from when it guarded
    // the pictures alone.
    version: integer("pictures_version").notNull().default(0),
    createdAt: timestamp("created_at"),
    updatedAt: timestamp("updated_at").$onUpdate(() => Date.now()),
  },
  (t) => [
    check("products_stock_check", sql`${t.stockQuantity} >= 0`),
    check("products_price_check", sql`${t.priceCents} >= 0`),
    check("products_category_check", sql`${t.category} IN (${inList(CATEGORIES)})`),
    check("products_rating_check", sql`${t.ratingCount} >= 0 AND ${t.ratingTotal} >= 0`),
    // Newest first, whole catalogue and per category; then the other sorts of the grid.
    index("products_release_idx").on(t.releaseDate, t.id),
    index("products_category_release_idx").on(t.category, t.releaseDate, t.id),
    index("products_price_idx").on(t.priceCents, t.id),
    index("products_category_price_idx").on(t.category, t.priceCents, t.id),
    index("products_name_idx").on(t.name, t.id),
    index("products_category_name_idx").on(t.category, t.name, t.id),
    // The brand filter (migrations/0008): each sort by brand, over the whole catalogue and per category, so a
    // brand's page reads its 24 ids straight from an index as the unfiltered grid does.
    index("products_brand_release_idx").on(t.brand, t.releaseDate, t.id),
    index("products_category_brand_release_idx").on(t.category, t.brand, t.releaseDate, t.id),
    index("products_brand_price_idx").on(t.brand, t.priceCents, t.id),
    index("products_category_brand_price_idx").on(t.category, t.brand, t.priceCents, t.id),
    index("products_brand_name_idx").on(t.brand, t.name, t.id),
    index("products_category_brand_name_idx").on(t.category, t.brand, t.name, t.id),
    // "You may also like": a category's products in stock first, then newest. The expression is the one
    // related-products.server.ts orders by, written the same way, or SQLite would not use the index.
    index("products_category_in_stock_release_idx").on(t.category, sql`(${t.stockQuantity} > 0 AND ${t.productAvailable})`, t.releaseDate, t.id),
  ],
);

// A product's sizes (its variants): each holds its own stock. products.stock_quantity is their sum, kept by the
// triggers of migrations/0006 (and refused there when anything else tries to set it).
export const productSizes = sqliteTable(
  "product_sizes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    position: integer("position").notNull().default(0),
    stockQuantity: integer("stock_quantity").notNull().default(0),
    // The product's category, copied here by the triggers of migrations/0017 (never written by the app: an insert
    // leaves it '' and the database fills it in), so the low-stock list of one category is one index's range. Never
    // INSERT OR REPLACE a size: SQLite fires no delete trigger for the replaced row, and low_stock_counts would drift.
    category: text("category").notNull().default(""),
  },
  (t) => [
    uniqueIndex("product_sizes_product_label_unique").on(t.productId, t.label),
    index("product_sizes_product_position_idx").on(t.productId, t.position),
    // The low-stock sizes (LOW_STOCK in app/lib/sizes.ts: the dashboard and /admin/stock), emptiest first, then by
    // product and the size's display order: a page is read from these indexes, never by scanning sizes; the second
    // is one category's. The 3 is LOW_STOCK (a partial index's WHERE must be a literal).
    index("product_sizes_low_stock_idx").on(t.stockQuantity, t.productId, t.position).where(sql`${t.stockQuantity} <= 3`),
    index("product_sizes_low_stock_category_idx").on(t.category, t.stockQuantity, t.productId, t.position).where(sql`${t.stockQuantity} <= 3`),
    // The size filter (catalogue-filters.server.ts): "has this size in stock" for each product a page walks, answered
    // from the index alone, and only sizes in stock are in it.
    index("product_sizes_in_stock_idx").on(t.productId, t.label).where(sql`${t.stockQuantity} > 0`),
    // The same sizes by label, then category (migrations/0019): which products have a size in stock, in the whole
    // catalogue or in one category, for a size so rare there that walking a listing's sort index for it would read most
    // of the listing (see selectiveFilter in catalogue-filters.server.ts).
    index("product_sizes_label_category_in_stock_idx").on(t.label, t.category, t.productId).where(sql`${t.stockQuantity} > 0`),
    check("product_sizes_stock_check", sql`${t.stockQuantity} >= 0`),
  ],
);

// A product's pictures, first to last (position 0 is the card's picture). At most 8: a position is 0 to 7 and unique
// per product. products.image_key/image_type/image_name mirror the first picture (triggers of migrations/0007), so the
// grid and GET /product/{id}/image read one row as before.
export const productImages = sqliteTable(
  "product_images",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    key: text("key").notNull(), // R2 key products/{productId}/{uuid}
    contentType: text("content_type").notNull(),
    name: text("name").notNull(), // the file name the admin uploaded
    // Read from the bytes; null for pictures moved by the migration until they are first served.
    width: integer("width"),
    height: integer("height"),
    altText: text("alt_text"), // the admin's words for this picture, added to the generated alt text
  },
  (t) => [
    uniqueIndex("product_images_product_position_unique").on(t.productId, t.position),
    uniqueIndex("product_images_key_unique").on(t.key),
    check("product_images_position_check", sql`${t.position} BETWEEN 0 AND 7`),
  ],
);

export const cartItems = sqliteTable(
  "cart_items",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    // A line is a product in one size; removing the size removes the line.
    sizeId: integer("size_id")
      .notNull()
      .references(() => productSizes.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    createdAt: timestamp("created_at"),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.sizeId] }),
    index("cart_items_product_idx").on(t.productId),
    index("cart_items_size_idx").on(t.sizeId),
    check("cart_items_quantity_check", sql`${t.quantity} >= 1`),
  ],
);

// A customer's cart lines that the shop took away: a size removed from its product, or the product deleted (the lines
// go by ON DELETE CASCADE). Written only by the triggers of migrations/0024, before the lines go, with what the cart
// showed of them; the cart page says them once and then deletes them (app/services/cart.server.ts cartLinesGonePlan).
export const cartLinesGone = sqliteTable(
  "cart_lines_gone",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productName: text("product_name").notNull(),
    sizeLabel: text("size_label").notNull(),
    reason: text("reason", { enum: CART_LINE_GONE_REASONS }).notNull(),
    goneAt: timestamp("gone_at"),
  },
  (t) => [
    index("cart_lines_gone_user_idx").on(t.userId, t.id),
    check("cart_lines_gone_reason_check", sql`${t.reason} IN (${inList(CART_LINE_GONE_REASONS)})`),
  ],
);

export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    customerName: text("customer_name").notNull(),
    customerEmail: text("customer_email").notNull(),
    customerPhone: text("customer_phone").notNull(),
    shippingAddress: text("shipping_address").notNull(),
    totalCents: integer("total_cents").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("PENDING"),
    // Who set the current status; the triggers of migrations/0005 copy it into the status history.
    statusChangedBy: integer("status_changed_by").references(() => users.id, { onDelete: "set null" }),
    bankSlipKey: text("bank_slip_key"),
    bankSlipType: text("bank_slip_type"),
    // The client's Idempotency-Key for the request that placed the order (null without one): a second request of the
    // same customer with the same key answers this order instead of placing another (orders.server.ts placeOrder).
    idempotencyKey: text("idempotency_key"),
    createdAt: timestamp("created_at"),
  },
  (t) => [
    check("orders_status_check", sql`${t.status} IN (${inList(ORDER_STATUSES)})`),
    check("orders_total_check", sql`${t.totalCents} >= 0`),
    index("orders_user_created_idx").on(t.userId, t.createdAt),
    // The back office's pages, newest first (created_at, then id: the rowid every index ends with), whole or by status.
    index("orders_status_created_idx").on(t.status, t.createdAt),
    index("orders_created_idx").on(t.createdAt),
    // The back office's search (migrations/0013): a customer's e-mail or phone from its start. The expressions are the
    // ones app/services/backoffice.server.ts compares with, written the same way, or SQLite would not use them. The
    // words of the customer's name are in orders_fts (migrations/0021, kept by triggers).
    index("orders_customer_email_idx").on(sql`lower(${t.customerEmail})`, t.createdAt),
    index("orders_customer_phone_idx").on(sql`replace(replace(replace(${t.customerPhone}, ' ', ''), '-', ''), '+', '')`, t.createdAt),
    // The slip is stored before the order exists, so its key (not the id) is what the order's batch finds it by.
    uniqueIndex("orders_bank_slip_key_unique").on(t.bankSlipKey),
    // One order per customer and key: of two requests with one key at once, the second's batch fails here and then
    // answers the first's order. Keys are the customer's own (another's same key is another order); NULLs never clash.
    uniqueIndex("orders_user_idempotency_key_unique").on(t.userId, t.idempotencyKey),
  ],
);

export const orderItems = sqliteTable(
  "order_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    // Null once the product is deleted; the line keeps its copied name and price.
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    productName: text("product_name").notNull(),
    // Null once the size is removed; the line keeps its copied label (and its stock can no longer be returned).
    sizeId: integer("size_id").references(() => productSizes.id, { onDelete: "set null" }),
    sizeLabel: text("size_label").notNull().default("One size"),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [
    index("order_items_order_idx").on(t.orderId),
    index("order_items_product_idx").on(t.productId),
    index("order_items_size_idx").on(t.sizeId),
    check("order_items_quantity_check", sql`${t.quantity} >= 1`),
    check("order_items_price_check", sql`${t.unitPriceCents} >= 0`),
  ],
);

export const orderStatusHistory = sqliteTable(
  "order_status_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    changedBy: integer("changed_by").references(() => users.id, { onDelete: "set null" }),
    changedAt: timestamp("changed_at"),
  },
  (t) => [
    index("order_status_history_order_idx").on(t.orderId, t.changedAt),
    check("order_status_history_status_check", sql`${t.status} IN (${inList(ORDER_STATUSES)})`),
  ],
);

export const reviews = sqliteTable(
  "reviews",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    comment: text("comment").notNull(),
    rating: integer("rating").notNull().default(5),
    createdAt: timestamp("created_at"),
    updatedAt: timestamp("updated_at").$onUpdate(() => Date.now()),
  },
  (t) => [
    uniqueIndex("reviews_product_user_unique").on(t.productId, t.userId),
    index("reviews_product_created_idx").on(t.productId, t.createdAt),
    index("reviews_user_idx").on(t.userId),
    check("reviews_rating_check", sql`${t.rating} BETWEEN 1 AND 5`),
  ],
);

// Failed logins, for the rate limit: 10 per e-mail within 15 minutes.
// Sessions ended one by one (a logout ends the device's own, by its token's id, claim `jti`): such a token answers 401
// until it expires, when the nightly cron forgets the row (ended_sessions_expires_idx finds them). Ending every session
// of a user at once is users.session_version's job.
export const endedSessions = sqliteTable(
  "ended_sessions",
  {
    id: text("id").primaryKey(),
    /** The token's own expiry (epoch seconds, claim `exp`): past it the token is dead anyway. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("ended_sessions_expires_idx").on(t.expiresAt)],
);

export const loginAttempts = sqliteTable(
  "login_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    attemptedAt: timestamp("attempted_at"),
  },
  (t) => [index("login_attempts_email_idx").on(t.email, t.attemptedAt)],
);

// The transactional outbox: every e-mail the shop sends is first a row here, written in the same D1 batch as the change
// it tells of (an order placed, a status changed, a reset asked for), so a mail is never lost and never sent for a
// change that did not happen. The queue consumer (app/services/outbox.server.ts) sends it and records the outcome.
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: MAIL_KINDS }).notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    // The status an ORDER_STATUS mail announces (null for other kinds): "Send again" sends it only while its order
    // still has that status (app/services/outbox.server.ts). Rows from before migration 0016 got it from their subject.
    orderStatus: text("order_status", { enum: ORDER_STATUSES }),
    state: text("state", { enum: MAIL_STATES }).notNull().default("queued"),
    // Tries so far (each claim by the consumer counts one), the last failure's reason, and the provider's message id.
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    messageId: text("message_id"),
    createdAt: timestamp("created_at"),
    sentAt: integer("sent_at", { mode: "number" }),
    // A queued row not handled by then is put on the queue again by the sweep (a lost queue send, a crashed consumer).
    nextAttemptAt: integer("next_attempt_at", { mode: "number" }).notNull(),
    // Set while a consumer is sending it, so a second delivery of the same id (the sweep's) does not send it twice.
    lockedUntil: integer("locked_until", { mode: "number" }),
  },
  (t) => [
    check("email_outbox_kind_check", sql`${t.kind} IN (${inList(MAIL_KINDS)})`),
    check("email_outbox_state_check", sql`${t.state} IN (${inList(MAIL_STATES)})`),
    check("email_outbox_order_status_check", sql`${t.orderStatus} IS NULL OR ${t.orderStatus} IN (${inList(ORDER_STATUSES)})`),
    // /admin/outbox by state, newest first (all states: the primary key).
    index("email_outbox_state_idx").on(t.state, t.id),
    // An order's mails (the admin's order page).
    index("email_outbox_order_idx").on(t.orderId, t.id),
    index("email_outbox_user_idx").on(t.userId),
    // The sweep: only queued rows are in it, so it stays small however many mails were sent.
    index("email_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.state} = 'queued'`),
  ],
);

// Password reset links: only the SHA-256 of the token is kept, so a copy of the database resets nothing. A link works
// once (used_at) and for 30 minutes (expires_at).
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    usedAt: integer("used_at", { mode: "number" }),
    createdAt: timestamp("created_at"),
  },
  (t) => [uniqueIndex("password_resets_token_hash_unique").on(t.tokenHash), index("password_resets_user_idx").on(t.userId)],
);

export type User = typeof users.$inferSelect;
export type Product = typeof products.$inferSelect;
export type ProductImageRow = typeof productImages.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type Review = typeof reviews.$inferSelect;
export type ProductSize = typeof productSizes.$inferSelect;
export type OutboxRow = typeof emailOutbox.$inferSelect;

// Products per category ('' = the whole catalogue), kept by triggers (migrations/0001) so the grid's page links
// never count rows.
export const catalogueCounts = sqliteTable("catalogue_counts", {
  category: text("category").primaryKey(),
  productCount: integer("product_count").notNull().default(0),
});

// Products per category and brand, kept by triggers (migrations/0008): the brands a filter offers and the total of a
// brand's pages, without reading the products. A row goes when its last product does.
export const catalogueBrands = sqliteTable(
  "catalogue_brands",
  {
    category: text("category").notNull(),
    brand: text("brand").notNull(),
    productCount: integer("product_count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.category, t.brand] })],
);

// The products whose pages a write changed, recorded by triggers (migrations/0010) on products, sizes, pictures and
// reviews. After each write request the Worker takes the rows out and purges those pages from the edge cache, so no
// write path can forget to (workers/catalogue-purge.ts). AUTOINCREMENT (migrations/0020): an id is never given twice,
// even once the table was emptied, so a purge that deletes the ids it read can never delete a change recorded since.
export const catalogueChanges = sqliteTable("catalogue_changes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  productId: integer("product_id").notNull(),
});

// Orders per status ('' = every order) and users per role ('' = every user), kept by the triggers of migrations/0013,
// so the back office's lists count their pages without counting rows (catalogue_counts does the same for products).
export const orderCounts = sqliteTable("order_counts", {
  status: text("status").primaryKey(),
  orderCount: integer("order_count").notNull().default(0),
});

export const userCounts = sqliteTable("user_counts", {
  role: text("role").primaryKey(),
  userCount: integer("user_count").notNull().default(0),
});

// Sizes with LOW_STOCK units or fewer: one row for every category ('') and one per category, kept by the triggers of
// migrations/0017, so the dashboard and /admin/stock read their totals from one row instead of counting index entries.
export const lowStockCounts = sqliteTable("low_stock_counts", {
  category: text("category").primaryKey(),
  sizeCount: integer("size_count").notNull().default(0),
});

// The catalogue's words (lower-case runs of a to z, 4 to 30 letters, in product names, brands and categories), for the
// search's spelling correction ("snekers" -> "sneakers", docs/catalogue.md). A product write adds its new words
// (catalogue.server.ts); the nightly cron rebuilds the table, which drops the words no product uses any more and
// recounts `uses` (how often the catalogue has the word: the tie-break between equally close corrections).
// A correction reads the words of a few lengths beginning with the typed word's letter: (len, word) is that index.
export const searchWords = sqliteTable(
  "search_words",
  {
    word: text("word").primaryKey(),
    len: integer("len").notNull(),
    uses: integer("uses").notNull().default(1),
  },
  (t) => [index("search_words_len_word_idx").on(t.len, t.word)],
);
