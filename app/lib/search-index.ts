// The shop's FTS5 indexes and their compaction, shared by the nightly cron (app/services/catalogue.server.ts,
// compactSearchIndex), the bench, which compacts what it seeds so it measures the indexes as the shop keeps them, and
// the services that query them.

/**
 * The FTS5 indexes, each kept by triggers: the catalogue's (products_fts, trigram, migrations/0002) and the words of
 * the names the back office searches (orders_fts over each order's customer name, users_fts over each user's name,
 * unicode61, migrations/0021).
 */
export const SEARCH_INDEXES = ["products_fts", "orders_fts", "users_fts"] as const;
export type SearchIndex = (typeof SEARCH_INDEXES)[number];

/**
 * One bounded step of folding an FTS5 index's segments into one: 'merge' with a negative page count treats every level
 * as one and rewrites at most that many pages; with a single segment left, a step writes nothing.
 */
export const searchIndexCompactionStep = (index: SearchIndex) => `INSERT INTO ${index}(${index}, rank) VALUES ('merge', -500)`;
/** Steps a night's run takes for each index: enough to fold a freshly loaded index of 100,000 products. */
export const SEARCH_INDEX_COMPACTION_STEPS = 10;

/**
 * An FTS5 query (for a unicode61 index) that every word of `text` starts a word of: each word typed, split at white
 * space, is one quoted string with a prefix star, and the strings are ANDed ("de sil" is `"de"* "sil"*`, which finds
 * "Amaya de Silva"). Quoted, nothing typed is FTS5 syntax: `"` is doubled, and `*`, `-`, `(`, `NEAR` or `OR` are
 * words like any other (the tokenizer drops what is no letter or digit). A word with no letter or digit in it
 * (`-`, `***`) is left out; null when no word is left, which matches nothing.
 */
export function wordPrefixQuery(text: string): string | null {
  const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  return words.length ? words.map((word) => `"${word.replace(/"/g, '""')}"*`).join(" ") : null;
}
