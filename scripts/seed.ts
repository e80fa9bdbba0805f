// Seeds the local D1 and R2 (the ones `wrangler dev` uses) with the demo accounts and catalogue, once.
//   npm run seed                      default state, .wrangler/state
//   STRIDE_STATE=/tmp/st npm run seed same folder as `wrangler ... --persist-to /tmp/st`
// Migrations must have been applied first (npm start does it). Running it again changes nothing.
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";

import * as schema from "../drizzle/schema";
import { SEARCH_WORDS_REBUILD } from "../app/lib/spelling";
import { hashPassword } from "../app/services/password.server";
import { DEMO_ADMIN, DEMO_CUSTOMER, DEMO_PRODUCTS, demoSizes, type DemoUser } from "./demo-catalogue";
import { drawProduct } from "./images/product-art";
import { CONFIG_PATH, MINIFLARE_PERSIST_ROOT } from "./lib/local-state";

// The machines are offline: Miniflare must not fetch the `cf` object, nor Wrangler send metrics.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

interface SeedEnv {
  DB: Parameters<typeof drizzle>[0];
  BUCKET: { put(key: string, value: Uint8Array, options?: { httpMetadata?: { contentType?: string } }): Promise<unknown> };
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const PICTURE_SIZE = 640;
type Art = (typeof DEMO_PRODUCTS)[number]["art"];

/** Three pictures a product: the side view, the pair's other shoe, and a close-up in a second colourway. */
const DEMO_VIEWS: { name: string; view: "side" | "other-side" | "close"; altText: string | null; colours: (art: Art) => Partial<Art> }[] = [
  { name: "side", view: "side", altText: null, colours: () => ({}) },
  { name: "other-side", view: "other-side", altText: "the other side", colours: () => ({}) },
  { name: "colourway", view: "close", altText: "close up, second colourway", colours: (art) => ({ primary: art.secondary, secondary: art.primary }) },
];

async function userRow(user: DemoUser) {
  const { password, ...rest } = user;
  return { ...rest, passwordHash: await hashPassword(password) };
}

async function main() {
  const started = Date.now();
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<SeedEnv>({
    configPath: CONFIG_PATH,
    persist: { path: MINIFLARE_PERSIST_ROOT },
    remoteBindings: false,
  });
  try {
    const db = drizzle(proxy.env.DB, { schema });
    const { users, products, productSizes, productImages, catalogueChanges } = schema;

    let existing;
    try {
      existing = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email)).limit(1);
    } catch (error) {
      throw new Error(`Cannot read the users table in ${MINIFLARE_PERSIST_ROOT}; apply the migrations first (npm run db:migrate).`, {
        cause: error,
      });
    }
    if (existing.length > 0) {
      console.log(`Demo data already present (${MINIFLARE_PERSIST_ROOT}); nothing seeded.`);
      return;
    }

    // Product ids are chosen here so each picture can be stored under products/{id}/ before the rows exist;
    // the rows and the accounts are then written in one atomic batch. AUTOINCREMENT never reuses an id, so
    // start after both the highest id present and the highest ever handed out.
    const [{ maxId }] = await db.select({ maxId: sql<number>`coalesce(max(${products.id}), 0)` }).from(products);
    const sequence = await proxy.env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'products'")
      .first<{ seq: number }>()
      .catch(() => null);
    const firstId = Math.max(maxId, sequence?.seq ?? 0) + 1;

    console.log(`  drawing and storing ${DEMO_PRODUCTS.length * DEMO_VIEWS.length} product pictures...`);
    const rows = [];
    const pictureRows = [];
    for (const [index, item] of DEMO_PRODUCTS.entries()) {
      const id = firstId + index;
      const { art, ...fields } = item;
      rows.push({ id, ...fields });
      for (const [position, view] of DEMO_VIEWS.entries()) {
        const key = `products/${id}/${crypto.randomUUID()}`;
        const png = drawProduct({ ...art, ...view.colours(art), view: view.view, seed: index });
        await proxy.env.BUCKET.put(key, png, { httpMetadata: { contentType: "image/png" } });
        // The drawer's pictures are square, PICTURE_SIZE a side.
        pictureRows.push({ productId: id, position, key, contentType: "image/png", name: `${slug(item.name)}-${view.name}.png`, width: PICTURE_SIZE, height: PICTURE_SIZE, altText: view.altText });
      }
    }

    const accounts = await Promise.all([userRow(DEMO_ADMIN), userRow(DEMO_CUSTOMER)]);
    // One statement a row keeps each under D1's 100 bound parameters.
    await db.batch([
      db.insert(users).values(accounts[0]),
      db.insert(users).values(accounts[1]),
      ...rows.map((row) => db.insert(products).values(row)),
      // Each product's sizes (its stock becomes their sum, kept by the database).
      ...rows.flatMap((row, index) =>
        demoSizes(row.category, row.stockQuantity, index).map((size, position) => db.insert(productSizes).values({ productId: row.id, position, ...size })),
      ),
      // The first picture of each is mirrored into products.image_* by the triggers of migrations/0007.
      ...pictureRows.map((row) => db.insert(productImages).values(row)),
      // Seeded before the shop serves a page: no cached page to purge (migrations/0010).
      db.delete(catalogueChanges),
      // The words of the names for the search's spelling correction (the migration filled it from no products).
      db.delete(schema.searchWords),
      db.run(sql.raw(SEARCH_WORDS_REBUILD)),
    ]);

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`Seeded ${accounts.length} users, ${rows.length} products, ${pictureRows.length} pictures in ${seconds} s (${MINIFLARE_PERSIST_ROOT}).`);
  } finally {
    await proxy.dispose();
  }
}

/**
 * On a busy machine the local runtime that getPlatformProxy starts can drop a first request ("fetch failed", seen once
 * while three test suites ran). Seeding writes its rows in one batch and does nothing once they are there, so it is
 * tried once more from the start (pictures a failed first try stored stay in the local R2, unused).
 */
function isFetchFailure(error: unknown): boolean {
  if (error instanceof TypeError && error.message === "fetch failed") return true;
  return error instanceof Error && error.cause !== undefined && isFetchFailure(error.cause);
}

main()
  .catch((error: unknown) => {
    if (!isFetchFailure(error)) throw error;
    console.warn("  the local runtime did not answer (fetch failed); trying once more");
    return main();
  })
  .catch((error: unknown) => {
    console.error("Seeding failed:", error instanceof Error ? error.message : error);
    if (error instanceof Error && error.cause) console.error("  cause:", error.cause instanceof Error ? error.cause.message : error.cause);
    process.exit(1);
  });
