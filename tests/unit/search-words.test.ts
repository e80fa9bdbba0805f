import { describe, expect, it } from "vitest";

import { allWordsQuery, keywordWords, searchWords, singular, wordPrefixQuery } from "~/lib/search-index";

// The looser search's words (app/lib/search-index.ts): how a keyword is split, made singular and asked of FTS5.

describe("singular: the common English rule, no dictionary", () => {
  const cases: [string, string][] = [
    // a final s
    ["sneakers", "sneaker"],
    ["boots", "boot"],
    ["heels", "heel"],
    ["sandals", "sandal"],
    ["runners", "runner"],
    ["kids", "kid"],
    ["sizes", "size"],
    ["accessories", "accessorie"], // still inside "Accessories", which the search asks for
    // shoes and toes only add an s; es goes after o in no shoe word
    ["shoes", "shoe"],
    ["toes", "toe"],
    // es after ch, sh, x and ss
    ["watches", "watch"],
    ["brushes", "brush"],
    ["boxes", "box"],
    ["glasses", "glass"],
    ["dresses", "dress"],
    // singular already
    ["glass", "glass"],
    ["dress", "dress"],
    ["tennis", "tennis"],
    ["plus", "plus"],
    ["status", "status"],
    ["sneaker", "sneaker"],
    ["shoe", "shoe"],
    // short words stay
    ["bus", "bus"],
    ["gas", "gas"],
    ["kid", "kid"],
    ["ss", "ss"],
    ["s", "s"],
    // no s, or another script
    ["42", "42"],
    ["පාවහන්", "පාවහන්"],
  ];
  for (const [word, expected] of cases) {
    it(`${word} → ${expected}`, () => expect(singular(word)).toBe(expected));
  }

  it("the singular is always the start of the word typed (so a 'contains' search finds all the plural would)", () => {
    for (const [word] of cases) expect(word.startsWith(singular(word)), word).toBe(true);
  });
});

describe("keywordWords: split at anything that is no letter or digit, in any script", () => {
  const cases: [string, string[]][] = [
    ["sneakers", ["sneakers"]],
    ["Night shift sneaker", ["night", "shift", "sneaker"]],
    ["  kids   shoes ", ["kids", "shoes"]],
    ["Night-shift/SNEAKER", ["night", "shift", "sneaker"]],
    ['"Classic" Oxford', ["classic", "oxford"]],
    ["O'Brien", ["o", "brien"]],
    ["100% cotton, 3-pack", ["100", "cotton", "3", "pack"]],
    ["Éclat mule", ["éclat", "mule"]],
    // a letter and its accent typed apart (e + U+0301) stay one word, as do Sinhala's vowel signs
    ["E\u0301clat", ["e\u0301clat"]],
    ["නිමල් පෙරේරා", ["නිමල්", "පෙරේරා"]],
    ["boot Boot BOOTS", ["boot", "boots"]],
    ["*", []],
    ["--", []],
    ["", []],
  ];
  for (const [keyword, expected] of cases) {
    it(`${JSON.stringify(keyword)} → ${JSON.stringify(expected)}`, () => expect(keywordWords(keyword)).toEqual(expected));
  }
});

describe("searchWords: singular, each once, 3 characters or more", () => {
  const cases: [string, string[]][] = [
    ["sneakers", ["sneaker"]],
    ["kids shoes", ["kid", "shoe"]],
    ["shoes kids", ["shoe", "kid"]],
    ["Night shift sneaker", ["night", "shift", "sneaker"]],
    // words under 3 characters are left out while a longer one remains
    ["boots for a kid", ["boot", "for", "kid"]],
    ["EU 42 boots", ["boot"]],
    ["a b", []],
    ["ab", []],
    ["boot boots BOOTS", ["boot"]],
    // FTS5's words are only words here
    ["boots AND heels", ["boot", "and", "heel"]],
    ["NEAR(sandals)", ["near", "sandal"]],
    ["sneak*", ["sneak"]],
    ['sneak"ers', ["sneak", "ers"]],
  ];
  for (const [keyword, expected] of cases) {
    it(`${JSON.stringify(keyword)} → ${JSON.stringify(expected)}`, () => expect(searchWords(keyword)).toEqual(expected));
  }
});

describe("allWordsQuery: FTS5 strings joined by AND", () => {
  it("quotes every word", () => {
    expect(allWordsQuery(["night", "sneaker"])).toBe('"night" AND "sneaker"');
    expect(allWordsQuery(["and", "or", "near"])).toBe('"and" AND "or" AND "near"');
  });

  it("a word for a category is the category's column, and only that", () => {
    expect(allWordsQuery(["men", "boot"])).toBe('category : ("Gents") AND "boot"');
    expect(allWordsQuery(["ladie", "sandal"])).toBe('category : ("Ladies") AND "sandal"');
    expect(allWordsQuery(["boy"])).toBe('category : ("Kids")');
    // Only the table's own words: an inherited property name is a word like any other.
    expect(allWordsQuery(["constructor", "__proto__"])).toBe('"constructor" AND "__proto__"');
  });

  it("'shoe' is the word or any category of shoes; beside such a category, nothing more", () => {
    expect(allWordsQuery(["leather", "shoe"])).toBe('"leather" AND ("shoe" OR category : ("Gents" OR "Ladies" OR "Kids"))');
    expect(allWordsQuery(["kid", "shoe"])).toBe('category : ("Kids")');
    expect(allWordsQuery(["shoe", "gent", "footwear"])).toBe('category : ("Gents")');
  });

  it('doubles a " inside a word, as the phrase search does', () => {
    expect(allWordsQuery(['sne"aker'])).toBe('"sne""aker"');
  });

  it("the back office's word prefixes quote the same way", () => {
    expect(wordPrefixQuery('de "sil')).toBe('"de"* """sil"*');
  });
});
