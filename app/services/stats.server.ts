import { asc, count, eq, inArray, lte, sql } from "drizzle-orm";

import { centsToRupees } from "~/lib/format";
import { REVENUE_STATUSES, type Stats } from "~/lib/schemas/stats";
import { LOW_STOCK } from "~/lib/sizes";
import { type Db, schema } from "./db.server";

const { catalogueCounts, orders, users, productSizes, products } = schema;

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

export interface LowStockSize {
  productId: number;
  productName: string;
  sizeLabel: string;
  stockQuantity: number;
}

/**
 * Sizes with LOW_STOCK units or fewer, the emptiest first (at most `limit`), and how many there are: read from the
 * partial index product_sizes_low_stock_idx, so the dashboard stays quick whatever the catalogue's size.
 */
export async function getLowStockSizes(db: Db, limit = 50): Promise<{ sizes: LowStockSize[]; total: number }> {
  const low = lte(productSizes.stockQuantity, LOW_STOCK);
  const [rows, [counted]] = await db.batch([
    db
      .select({ productId: products.id, productName: products.name, sizeLabel: productSizes.label, stockQuantity: productSizes.stockQuantity })
      .from(productSizes)
      .innerJoin(products, eq(products.id, productSizes.productId))
      .where(low)
      .orderBy(asc(productSizes.stockQuantity), asc(productSizes.productId), asc(productSizes.position))
      .limit(limit),
    db.select({ n: count() }).from(productSizes).where(low),
  ]);
  return { sizes: rows, total: counted?.n ?? 0 };
}
