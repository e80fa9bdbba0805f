// The search index's compaction, shared by the nightly cron (app/services/catalogue.server.ts, compactSearchIndex)
// and the bench, which compacts what it seeds so it measures the index as the shop keeps it.

/**
 * One bounded step of folding the FTS5 index's segments into one: 'merge' with a negative page count treats every level
 * as one and rewrites at most that many pages; with a single segment left, a step writes nothing.
 */
export const SEARCH_INDEX_COMPACTION_STEP = "INSERT INTO products_fts(products_fts, rank) VALUES ('merge', -500)";
/** Steps a night's run takes: enough to fold a freshly loaded index of 100,000 products. */
export const SEARCH_INDEX_COMPACTION_STEPS = 10;
