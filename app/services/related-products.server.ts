import { and, desc, eq, ne, sql } from "drizzle-orm";

import type { ProductSummary } from "~/lib/schemas/product";
import { PRODUCT_CARD } from "./catalogue.server";
import { type Db, type ReadPlan, schema } from "./db.server";

const { products } = schema;

export const RELATED_COUNT = 4;

/**
 * Whether a product can be bought (isPurchasable in SQL), written exactly as products_category_in_stock_release_idx
 * (migrations/0008) indexes it: SQLite uses an index on an expression only for the same expression.
 */
const inStock = sql`(${products.stockQuantity} > 0 AND ${products.productAvailable})`;

/**
 * "You may also like": other products of the product's category, those in stock first, then newest. The category is
 * read in the same statement, so the page asks for these beside the product, not after it; the index gives the
 * order, so at most RELATED_COUNT + 1 entries are read. An unknown id gives [].
 */
export function relatedProductsPlan(db: Db, productId: number): ReadPlan<ProductSummary[]> {
  const category = db.select({ category: products.category }).from(products).where(eq(products.id, productId));
  const related = db
    .select(PRODUCT_CARD.selection)
    .from(products)
    .where(and(eq(products.category, sql`(${category})`), ne(products.id, productId)))
    .orderBy(desc(inStock), desc(products.releaseDate), desc(products.id))
    .limit(RELATED_COUNT);
  return { statements: [related], assemble: ([rows]) => (rows as Record<string, unknown>[]).map(PRODUCT_CARD.toView) };
}

