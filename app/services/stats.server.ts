import { count, eq, inArray, sql } from "drizzle-orm";

import { centsToRupees } from "~/lib/format";
import { REVENUE_STATUSES, type Stats } from "~/lib/schemas/stats";
import { type Db, schema } from "./db.server";

const { catalogueCounts, orders, users } = schema;

/**
 * The admin dashboard's figures, in one round trip and without scanning the catalogue: the product count is the
 * trigger-kept row '' of catalogue_counts, pending orders are counted on orders_status_created_idx, and the revenue
 * sums the orders whose payment was verified.
 */
export async function getStats(db: Db): Promise<Stats> {
  const [productRows, userRows, pendingRows, revenueRows] = await db.batch([
    db.select({ n: catalogueCounts.productCount }).from(catalogueCounts).where(eq(catalogueCounts.category, "")),
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(orders).where(eq(orders.status, "PENDING")),
    db
      .select({ cents: sql<number>`coalesce(sum(${orders.totalCents}), 0)`.mapWith(Number) })
      .from(orders)
      .where(inArray(orders.status, [...REVENUE_STATUSES])),
  ]);
  return {
    totalProducts: productRows[0]?.n ?? 0,
    totalUsers: userRows[0]?.n ?? 0,
    pendingOrders: pendingRows[0]?.n ?? 0,
    totalRevenue: centsToRupees(revenueRows[0]?.cents ?? 0),
  };
}
