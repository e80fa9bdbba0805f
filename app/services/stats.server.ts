import { count, eq, inArray, sql } from "drizzle-orm";

import { centsToRupees } from "~/lib/format";
import { REVENUE_STATUSES, type Stats } from "~/lib/schemas/stats";
import { type Db, schema } from "./db.server";
import { ADMIN_MAX_PAGE_SIZE } from "~/lib/schemas/backoffice";
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

/** A product with sizes running low, as the dashboard lists it: its low sizes, the emptiest first. */
export interface LowStockProduct {
  productId: number;
  productName: string;
  productAvailable: boolean;
  /** Its stock in every size, low or not: 0 only when each of its sizes is sold out. */
  productStock: number;
  sizes: LowStockSize[];
}

/** How many of /admin/stock's first sizes the dashboard groups into products: one page of the list at most. */
const SIZES_GROUPED = ADMIN_MAX_PAGE_SIZE;

/**
 * The dashboard's dozen products: /admin/stock's first sizes (the same rule, order and indexes: low-stock.server.ts)
 * grouped by product in the list's order, so a boot with every size sold out is one line, not the whole dozen (owner
 * QA); and the kept total of every low-stock size. A product's sizes past the first SIZES_GROUPED are on /admin/stock.
 */
export async function getLowStockProducts(db: Db, limit = 12): Promise<{ products: LowStockProduct[]; total: number }> {
  const { items, total } = await listLowStockPage(db, {}, 1, SIZES_GROUPED);
  const byProduct = new Map<number, LowStockProduct>();
  for (const size of items) {
    const product = byProduct.get(size.productId);
    if (product) product.sizes.push(size);
    else if (byProduct.size < limit) byProduct.set(size.productId, { productId: size.productId, productName: size.productName, productAvailable: size.productAvailable, productStock: size.productStock, sizes: [size] });
  }
  return { products: [...byProduct.values()], total };
}
