// The shop's FTS5 indexes and their compaction, shared by the nightly cron (app/services/catalogue.server.ts,
// compactSearchIndex), the bench, which compacts what it seeds so it measures the indexes as the shop keeps them, and
// the services that query them.

import { CATEGORIES, type Category } from "./constants";

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
  return words.length ? words.map((word) => `${ftsString(word)}*`).join(" ") : null;
}

/** An FTS5 string: the text in double quotes with each `"` in it doubled, so nothing in it is FTS5 syntax. */
export const ftsString = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * What a keyword's words are made of: letters with their marks (an accent typed apart, Sinhala's vowel signs) and
 * digits, in any script. Everything else (spaces, hyphens, quotes, `*`, `%`) separates words.
 */
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;

/** The words of a keyword, lower case, each once, in the order typed: "Night-shift  SNEAKER" is night, shift, sneaker. */
export function keywordWords(keyword: string): string[] {
  return [...new Set(keyword.toLowerCase().split(NOT_WORD).filter(Boolean))];
}

/** Words this short are left as they are ("bus", "gas", "yes"): too short to tell a plural from a word that ends in s. */
const SINGULAR_MIN = 4;

/**
 * A lower-case English word made singular by the common rule, no dictionary: enough for what shoppers type in a shoe
 * shop (sneakers, boots, heels, sandals, runners, shoes, kids, watches, glasses, boxes). The search that uses it asks
 * whether a product's name, brand or category *contains* the word, and the singular is always the start of the word
 * typed, so it finds everything the plural would, and the singular spelling too.
 *
 * - "es" goes after ch, sh, x and ss, where English adds it: watches → watch, brushes → brush, boxes → box, glasses →
 *   glass. (Not after o: shoes, toes and canoes only add an s. "heroes" becomes "heroe", which misses "hero"; a shoe
 *   shop has far more shoes than heroes.)
 * - Otherwise a final s goes: sneakers → sneaker, shoes → shoe, sizes → size, kids → kid.
 * - Words that end in ss, us or is are singular already: glass, dress, plus, status, tennis. (The few plurals among
 *   them, skis or menus, stay as typed and still find what has the plural in it.)
 * - Words of fewer than SINGULAR_MIN characters stay as they are.
 */
export function singular(word: string): string {
  if ([...word].length < SINGULAR_MIN || /(?:ss|us|is)$/.test(word)) return word;
  if (/(?:ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/** FTS5's trigram tokenizer (the catalogue's index) cannot find fewer than 3 characters. */
export const TRIGRAM_MIN = 3;

/**
 * The words a looser search asks for: each word of the keyword made singular, those of 3 characters or more (the
 * trigram index cannot find shorter ones, and "a" or "of" add nothing a longer word does not). Empty when no word is
 * that long: then there is no looser search.
 */
export function searchWords(keyword: string): string[] {
  return [...new Set(keywordWords(keyword).map(singular))].filter((word) => [...word].length >= TRIGRAM_MIN);
}

/**
 * The words shoppers use for a category (as searchWords leaves them: lower case, singular) and the category each
 * means. The index holds a category's own name, and "mens", "women" or "boys" are in no product's name, brand or
 * category, so "mens shoes" found nothing; such a word matches the category's products and nothing else ("men" as
 * letters is in every "Women's ...").
 */
const CATEGORY_WORDS: Readonly<Record<string, Category>> = {
  men: "Gents",
  man: "Gents",
  gent: "Gents",
  gentleman: "Gents",
  gentlemen: "Gents",
  women: "Ladies",
  woman: "Ladies",
  lady: "Ladies",
  ladie: "Ladies",
  kid: "Kids",
  child: "Kids",
  children: "Kids",
  boy: "Kids",
  girl: "Kids",
  junior: "Kids",
};

/**
 * searchWords as a note about the looser search names them: a word for a category by the category's name, the one it
 * matched ("Ladies" for "ladies", which searchWords leaves as "ladie"), each once.
 */
export function shownSearchWords(keyword: string): string[] {
  return [...new Set(searchWords(keyword).map((word) => CATEGORY_WORDS[word] ?? word))];
}

/** Words for any shoe: a product of every category but Accessories is one, whether or not its name says so. */
const SHOE_WORDS: ReadonlySet<string> = new Set(["shoe", "footwear"]);
const SHOE_CATEGORIES = CATEGORIES.filter((category) => category !== "Accessories");

/**
 * Whether a word (as searchWords leaves it) means something beyond its letters: a category's products or any shoe. Such
 * a word is understood, never taken for a spelling mistake ("mens" is in no name, and means the Gents).
 */
export const meansCategoryOrShoe = (word: string) => Object.hasOwn(CATEGORY_WORDS, word) || SHOE_WORDS.has(word);

/** An FTS5 query for the products of any of the categories (the index's category column holds the name). */
const inCategories = (categories: readonly Category[]) => `category : (${categories.map(ftsString).join(" OR ")})`;

/**
 * An FTS5 query (for the trigram index) that matches what contains every one of the words, anywhere, in any order:
 * `"sneaker" AND "black"`. Each word is an FTS5 string, so AND, OR, NEAR or * typed are words like any other. A word
 * for a category (CATEGORY_WORDS) matches that category's products; "shoe" matches a product with it in its name or
 * any shoe, and is dropped beside a word that already means a category of shoes ("kids shoes" is the Kids category).
 */
export function allWordsQuery(words: string[]): string {
  const meansShoes = words.some((word) => (SHOE_CATEGORIES as readonly string[]).includes(CATEGORY_WORDS[word] ?? ""));
  const terms = words.flatMap((word) => {
    if (Object.hasOwn(CATEGORY_WORDS, word)) return [inCategories([CATEGORY_WORDS[word]])];
    if (SHOE_WORDS.has(word)) return meansShoes ? [] : [`(${ftsString(word)} OR ${inCategories(SHOE_CATEGORIES)})`];
    return [ftsString(word)];
  });
  return terms.join(" AND ");
}

/** The words as the screens name them: "“sneaker”", "“kid” and “shoe”", "“night”, “shift” and “sneaker”". */
export function quotedWords(words: string[]): string {
  return new Intl.ListFormat("en-GB", { type: "conjunction" }).format(words.map((word) => `“${word}”`));
}
