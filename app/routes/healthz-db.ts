import { desc } from "drizzle-orm";

import { schema } from "~/services/db.server";
import type { Route } from "./+types/healthz-db";

const { products } = schema;

// The database floor of `npm run bench`: one indexed D1 query for 24 rows (the newest products, read through
// products_release_idx) answered as plain JSON, with no rendering. Pages are measured against it.
export async function loader({ context }: Route.LoaderArgs) {
  const rows = await context.db
    .select({ id: products.id, name: products.name, priceCents: products.priceCents })
    .from(products)
    .orderBy(desc(products.releaseDate), desc(products.id))
    .limit(24);
  return Response.json(rows, { headers: { "Cache-Control": "no-store" } });
}
