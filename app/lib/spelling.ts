// The search's last resort, spelling correction: when neither the keyword as typed nor its words find anything, a word
// the catalogue does not have ("snekers") is replaced by the closest word it has ("sneakers"), and the search is run
// again (searchProducts, app/services/catalogue.server.ts). The catalogue's words are kept in D1 (search_words,
// migrations/0022); this module holds their rule, the SQL that rebuilds them, and the choice of a correction.

import { keywordWords, meansCategoryOrShoe, singular } from "./search-index";

/** Words shorter than this are left as typed: "bot" is one letter from too many words to guess which was meant. */
export const CORRECTABLE_MIN = 4;
/** Longer runs of letters are no words a shopper types (a pasted code); the table stays small. */
export const CORRECTABLE_MAX = 30;
/** At most this many words of a keyword are looked up: one statement each, all in one round trip. */
export const CORRECTED_WORDS_MAX = 8;
/** At most this many of the catalogue's words are read for one typed word (the index's range is usually far smaller). */
export const CANDIDATES_MAX = 300;

/**
 * The words of a text as the vocabulary keeps them: runs of the letters a to z after ASCII letters are made lower case,
 * 4 to 30 letters, each once. ASCII only, because the rebuild in SQL (SEARCH_WORDS_REBUILD) can do no more (SQLite's
 * lower() folds ASCII alone): the two must agree, or a rebuild would drop words a write added. A word with another
 * letter in it ("Café") is split there and its pieces of 4 or more kept; such a word is never corrected.
 */
export function vocabularyWords(text: string): string[] {
  const runs = text.replace(/[A-Z]/g, (letter) => letter.toLowerCase()).match(/[a-z]+/g) ?? [];
  return [...new Set(runs.filter((run) => run.length >= CORRECTABLE_MIN && run.length <= CORRECTABLE_MAX))];
}

/**
 * Fills search_words from the products: their names, brands and categories split into vocabularyWords' words, with how
 * often each occurs. SQL has no regular expressions, so recursive walks do the split: each distinct text (products with
 * the same name counted together) is cut at its spaces, and each distinct piece of 4 characters or more is walked a
 * character at a time, growing the word while the character is a to z; a word is complete where another character
 * follows (each text and piece ends in a space). Cutting at spaces first walks far fewer characters: at 100,000 bench
 * products (docs/catalogue.md) it took the statement from 2.8 s to 1.2 s in SQLite. The migration (0022) runs the same.
 */
export const SEARCH_WORDS_REBUILD = `INSERT INTO search_words (word, len, uses)
WITH RECURSIVE
  texts(rest, uses) AS (
    SELECT lower(name) || ' ', count(*) FROM products GROUP BY lower(name)
    UNION ALL SELECT lower(brand) || ' ', count(*) FROM products GROUP BY lower(brand)
    UNION ALL SELECT lower(category) || ' ', count(*) FROM products GROUP BY category
  ),
  spaced(rest, piece, uses) AS (
    SELECT rest, '', uses FROM texts
    UNION ALL
    SELECT substr(rest, instr(rest, ' ') + 1), substr(rest, 1, instr(rest, ' ') - 1), uses FROM spaced WHERE rest <> ''
  ),
  pieces(rest, uses) AS (SELECT piece || ' ', sum(uses) FROM spaced WHERE length(piece) >= ${CORRECTABLE_MIN} GROUP BY piece),
  walk(rest, word, uses) AS (
    SELECT rest, '', uses FROM pieces
    UNION ALL
    SELECT substr(rest, 2), CASE WHEN substr(rest, 1, 1) BETWEEN 'a' AND 'z' THEN word || substr(rest, 1, 1) ELSE '' END, uses
    FROM walk WHERE rest <> ''
  )
SELECT word, length(word), sum(uses) FROM walk
WHERE length(word) BETWEEN ${CORRECTABLE_MIN} AND ${CORRECTABLE_MAX} AND NOT (substr(rest, 1, 1) BETWEEN 'a' AND 'z')
GROUP BY word`;

/** How far a typed word may be from its correction: one edit in a word of 4 or 5 letters, two in a longer one. */
export const maxDistance = (word: string) => (word.length <= 5 ? 1 : 2);

/**
 * The Damerau-Levenshtein distance between two words (the restricted kind, "optimal string alignment"): how many
 * insertions, deletions, substitutions and swaps of two letters side by side make one the other. "snekers" is 1 from
 * "sneakers" (an a left out), "sandle" 2 from "sandal", "shoe" 1 from "hsoe". Above `bound` the answer is only some
 * number above it: the walk stops as soon as a row of the table is all above it, so a far word costs a few rows.
 */
export function editDistance(a: string, b: string, bound = Infinity): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  // Three rows of the table: the one before the last, the last and the one being filled.
  let before: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > bound) return bound + 1;
    before = last;
    last = row;
  }
  return last[b.length];
}

/** Words a typed word may be corrected to: it is a-z only, 4 to 30 letters (what the vocabulary can hold). */
export const isCorrectable = (word: string) => /^[a-z]+$/.test(word) && word.length >= CORRECTABLE_MIN && word.length <= CORRECTABLE_MAX;

/**
 * Where a typed word's candidates are in the index of (len, word): the lengths a correction or a known form can have,
 * and the words beginning with its first letter (`from` up to before `to`). A correction may be the candidate with an s
 * added ("snekers" -> "sneaker" + s), so one letter shorter still; its singular is always within this too.
 */
export function candidateRange(word: string): { lengths: number[]; from: string; to: string } {
  const distance = maxDistance(word);
  const shortest = Math.max(CORRECTABLE_MIN, Math.min(word.length - distance - 1, singular(word).length));
  const longest = Math.min(CORRECTABLE_MAX, word.length + distance);
  const lengths = Array.from({ length: longest - shortest + 1 }, (_, k) => shortest + k);
  return { lengths, from: word[0], to: String.fromCharCode(word.charCodeAt(0) + 1) };
}

/**
 * The words of a keyword worth looking up: those that can be corrected (isCorrectable), less the words for a category
 * or a shoe, which the search understands though no name has them; at most CORRECTED_WORDS_MAX of them.
 */
export function wordsToCheck(keyword: string): string[] {
  return keywordWords(keyword)
    .filter((word) => isCorrectable(word) && !meansCategoryOrShoe(singular(word)))
    .slice(0, CORRECTED_WORDS_MAX);
}

export interface Candidate {
  word: string;
  uses: number;
}

/**
 * The correction of a typed word among the catalogue's words that candidateRange read: null when the word needs none
 * (the catalogue has it, its singular, or a word that begins with it, which the search already finds) or when no word
 * is close enough (maxDistance). The closest wins; between equally close ones the word the catalogue uses most, then
 * the first A to Z. A typed plural may match a word with an s added ("snekers" -> "sneakers", though the names have
 * "Sneaker" only): the search then goes on to find the singular.
 */
export function correctionOf(word: string, candidates: Candidate[]): string | null {
  const base = singular(word);
  if (candidates.some((candidate) => candidate.word === word || candidate.word === base || candidate.word.startsWith(word))) return null;
  const bound = maxDistance(word);
  let best: { word: string; distance: number; uses: number } | null = null;
  for (const candidate of candidates) {
    const forms = word.endsWith("s") && !candidate.word.endsWith("s") ? [candidate.word, `${candidate.word}s`] : [candidate.word];
    for (const form of forms) {
      const distance = editDistance(word, form, bound);
      if (distance > bound) continue;
      const better =
        !best || distance < best.distance || (distance === best.distance && (candidate.uses > best.uses || (candidate.uses === best.uses && form < best.word)));
      if (better) best = { word: form, distance, uses: candidate.uses };
    }
  }
  return best?.word ?? null;
}

/** The keyword with each corrected word replaced, everything else as typed: "Snekers, black" -> "sneakers, black". */
export function correctedKeyword(keyword: string, corrections: ReadonlyMap<string, string>): string {
  return keyword.replace(/[\p{L}\p{M}\p{N}]+/gu, (token) => corrections.get(token.toLowerCase()) ?? token);
}
