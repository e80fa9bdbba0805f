import { describe, expect, it } from "vitest";

import { candidateRange, correctedKeyword, correctionOf, editDistance, maxDistance, vocabularyWords, wordsToCheck } from "~/lib/spelling";

// The spelling correction's rules (app/lib/spelling.ts): the distance, which words are looked up, and the choice.

describe("editDistance (Damerau-Levenshtein, optimal string alignment)", () => {
  it("counts insertions, deletions, substitutions and swaps of neighbours as one edit each", () => {
    expect(editDistance("sneaker", "sneaker")).toBe(0);
    expect(editDistance("snekers", "sneakers")).toBe(1); // an a left out
    expect(editDistance("sneakerss", "sneakers")).toBe(1); // one too many
    expect(editDistance("boot", "bott")).toBe(1); // one changed
    expect(editDistance("hihgland", "highland")).toBe(1); // two swapped
    expect(editDistance("sandle", "sandal")).toBe(2);
    expect(editDistance("snadle", "sandal")).toBe(3);
    expect(editDistance("", "boot")).toBe(4);
    expect(editDistance("boot", "")).toBe(4);
  });

  it("is the same both ways round", () => {
    for (const [a, b] of [["snekers", "sneakers"], ["sandle", "sandal"], ["ca", "abc"], ["loafer", "lofers"]]) expect(editDistance(a, b)).toBe(editDistance(b, a));
  });

  it("the restricted kind: a swapped pair is not edited again (ca -> abc is 3, not 2)", () => {
    expect(editDistance("ca", "abc")).toBe(3);
  });

  it("with a bound, stops early and answers only that it is above it", () => {
    expect(editDistance("sneaker", "watch", 2)).toBe(3);
    expect(editDistance("a".repeat(30), "b".repeat(30), 2)).toBe(3);
    expect(editDistance("sandle", "sandal", 2)).toBe(2);
  });
});

describe("the words", () => {
  it("vocabularyWords: runs of a to z, lower case, 4 to 30 letters, each once", () => {
    expect(vocabularyWords("Little Explorer Light-Up Sneaker")).toEqual(["little", "explorer", "light", "sneaker"]);
    expect(vocabularyWords("Café Crème Women's Shoes (3 Pack)")).toEqual(["women", "shoes", "pack"]);
    expect(vocabularyWords("Sneaker SNEAKER " + "x".repeat(31))).toEqual(["sneaker"]);
  });

  it("wordsToCheck: 4 letters or more, a to z only, no word for a category or a shoe, at most 8", () => {
    expect(wordsToCheck("Snekers for kids")).toEqual(["snekers"]);
    expect(wordsToCheck("mens womens children shoes footwear boot")).toEqual(["boot"]);
    expect(wordsToCheck("café bot 42 EU")).toEqual([]);
    expect(wordsToCheck("alpha bravo charlie delta echoo foxtrot golff hotel india")).toHaveLength(8);
  });

  it("maxDistance: one edit for 4 or 5 letters, two for more", () => {
    expect([maxDistance("boot"), maxDistance("watch"), maxDistance("sandal"), maxDistance("snekers")]).toEqual([1, 1, 2, 2]);
  });

  it("candidateRange: the first letter, and lengths down to the singular or the word with an s", () => {
    expect(candidateRange("snekers")).toEqual({ lengths: [4, 5, 6, 7, 8, 9], from: "s", to: "t" });
    expect(candidateRange("bott")).toEqual({ lengths: [4, 5], from: "b", to: "c" });
    expect(candidateRange("zzzz")).toMatchObject({ from: "z", to: "{" });
  });
});

describe("correctionOf", () => {
  const words = (...list: (string | [string, number])[]) => list.map((item) => (typeof item === "string" ? { word: item, uses: 1 } : { word: item[0], uses: item[1] }));

  it("the closest word within the distance, a plural matching a word with an s added", () => {
    expect(correctionOf("snekers", words("sneaker", "shift", "steps"))).toBe("sneakers");
    expect(correctionOf("sandle", words("sandal", "splash"))).toBe("sandal");
    expect(correctionOf("bott", words("boot", "brand"))).toBe("boot");
  });

  it("none beyond the distance: 1 for 4 or 5 letters, 2 for more", () => {
    expect(correctionOf("baat", words("boot"))).toBeNull();
    expect(correctionOf("snadle", words("sandal"))).toBeNull();
  });

  it("none for a word the catalogue has, its singular, or a word that starts with it", () => {
    expect(correctionOf("sandal", words("sandal", "sandals"))).toBeNull();
    expect(correctionOf("sneakers", words("sneaker", "sneakes"))).toBeNull();
    expect(correctionOf("sneak", words("sneaker", "speak"))).toBeNull();
  });

  it("between equally close words, the one used most, then A to Z", () => {
    expect(correctionOf("boat", words(["boot", 3], ["beat", 9]))).toBe("beat");
    expect(correctionOf("boat", words("boot", "beat"))).toBe("beat");
    expect(correctionOf("boat", words(["bolt", 1], ["boot", 1], ["beat", 1], ["bout", 5]))).toBe("bout");
  });
});

describe("correctedKeyword", () => {
  it("replaces the corrected words, whatever their case, and keeps the rest as typed", () => {
    expect(correctedKeyword("Metro Snekers, size 42", new Map([["snekers", "sneakers"]]))).toBe("Metro sneakers, size 42");
    expect(correctedKeyword("café lofer", new Map([["lofer", "loafer"]]))).toBe("café loafer");
  });
});
