import { count, eq, inArray, sql } from "drizzle-orm";

import { centsToRupees } from "~/lib/format";
import { REVENUE_STATUSES, type Stats } from "~/lib/schemas/stats";
import { type Db, schema } from "./db.server";
import { listLowStockPage, type LowStockSize } from "./low-stock.server";

export type { LowStockSize };

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

/**
 * The dashboard's dozen: the first page of /admin/stock (the same rule, order and indexes: low-stock.server.ts) and the
 * kept total of every low-stock size.
 */
export async function getLowStockSizes(db: Db, limit = 12): Promise<{ sizes: LowStockSize[]; total: number }> {
  const { items, total } = await listLowStockPage(db, {}, 1, limit);
  return { sizes: items, total };
}
