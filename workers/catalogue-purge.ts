// After every write request the pages that showed what it changed leave the edge cache. Triggers on products, sizes,
// pictures and reviews record each changed product in catalogue_changes (migrations/0010), whatever the code path;
// here the recorded rows are read, their pages purged, and the rows taken out once the purge is accepted. A purge the
// cache refuses (Workers Caching allows a few a minute, see docs/edge-cache.md) leaves them for the next write to try again;
// meanwhile the pages' max age (60 s) bounds how old they can be.

import { CATALOGUE_TAG, PRODUCT_PAGES_TAG, productTag } from "../app/lib/edge-cache";

/** Past this many products one purge names them all at once (a purge takes at most 100 tags). */
const MOST_PRODUCTS_BY_NAME = 50;
const ROWS_READ_AT_MOST = 1000;

export type Purge = (tags: string[]) => Promise<boolean>;

export async function purgeChangedPages(d1: D1Database, purge: Purge): Promise<void> {
  const { results } = await d1
    .prepare("SELECT id AS row, product_id AS productId FROM catalogue_changes ORDER BY id LIMIT ?")
    .bind(ROWS_READ_AT_MOST)
    .all<{ row: number; productId: number }>();
  if (results.length === 0) return;
  const products = [...new Set(results.map((change) => change.productId))];
  const wide = products.length > MOST_PRODUCTS_BY_NAME || results.length === ROWS_READ_AT_MOST;
  const tags = [CATALOGUE_TAG, ...(wide ? [PRODUCT_PAGES_TAG] : products.map(productTag))];
  // Only the rows recorded before the purge: a change recorded since is purged by the request that made it. Ids are
  // AUTOINCREMENT, never given twice, so every row recorded since has a higher one (migrations/0020).
  const lastRow = wide ? await lastRecorded(d1) : results[results.length - 1].row;
  if (!(await purge(tags))) return;
  await d1.prepare("DELETE FROM catalogue_changes WHERE id <= ?").bind(lastRow).run();
}

async function lastRecorded(d1: D1Database): Promise<number> {
  return (await d1.prepare("SELECT max(id) AS last FROM catalogue_changes").first<number>("last")) ?? 0;
}
