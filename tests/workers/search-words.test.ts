import { beforeAll, describe, expect, it } from "vitest";

import { cardCount, expectApiError, getJson, ids, insertProduct, search, visibleText, type ApiProduct, type Category } from "./catalogue-helpers";
import { call } from "./helpers";

// QA: "sneakers", "boots", "kids shoes" or "Night shift sneaker" found nothing while "sneaker" found five. The search
// still matches the keyword as typed (API.md: name, brand or category contains it); when nothing has it, /search and,
// with fallback=words, GET /api/products/search answer with the products that have every word of it, made singular,
// in any order and any of the three columns.

const fixtures: Record<string, { name: string; brand: string; category: Category }> = {
  court: { name: "Metro Court Sneaker", brand: "Stride Classics", category: "Gents" },
  night: { name: "Night Shift Knit Sneaker", brand: "Urban Trek", category: "Gents" },
  runner: { name: "Galle Face Runner", brand: "Urban Trek", category: "Gents" },
  highland: { name: "Highland Trail Boot", brand: "Urban Trek", category: "Gents" },
  explorer: { name: "Explorer Ankle Boot", brand: "Nearfield", category: "Ladies" },
  playground: { name: "Playground Shoe", brand: "Tiny Steps", category: "Kids" },
  dasher: { name: "Little Dasher Sandal", brand: "Tiny Steps", category: "Kids" },
  oxford: { name: 'The "Classic" Oxford', brand: "Heritage", category: "Gents" },
  watch: { name: "Heritage Field Watch", brand: "Serendib Studio", category: "Accessories" },
};
const idOf: Record<string, number> = {};
const key = (products: { id: number }[]) => ids(products).map((id) => Object.keys(idOf).find((name) => idOf[name] === id) ?? `other:${id}`);
/** Newest first: the fixtures are inserted in the order above, so a later one has the higher id. */
const newestFirst = (...names: string[]) => [...names].sort((a, b) => idOf[b] - idOf[a]);

const searchWithFallback = async (keyword: string, params: Record<string, string> = {}) => {
  const response = await call(`/api/products/search?${new URLSearchParams({ keyword, fallback: "words", ...params })}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return { found: key((await response.json()) as ApiProduct[]), matched: response.headers.get("X-Search-Match") };
};

beforeAll(async () => {
  for (const [name, fixture] of Object.entries(fixtures)) idOf[name] = await insertProduct({ ...fixture, description: "A shoe for the tests." });
});

describe("GET /api/products/search without fallback: API.md's phrase, exactly as before", () => {
  it("a piece of a word still finds it ('unner' finds the Runner), and the answer has no new header", async () => {
    expect(key(await search("unner"))).toEqual(["runner"]);
    const response = await call("/api/products/search?keyword=unner");
    expect(response.headers.get("X-Search-Match")).toBeNull();
  });

  it("plurals and words out of order still find nothing", async () => {
    for (const keyword of ["sneakers", "boots", "kids shoes", "Night shift sneaker", "shoe kids"]) expect(await search(keyword), keyword).toEqual([]);
    expect(key(await search("sneaker"))).toEqual(newestFirst("court", "night"));
  });
});

describe("GET /api/products/search?fallback=words", () => {
  it("a plural finds its singular: sneakers, boots, watches", async () => {
    expect(await searchWithFallback("sneakers")).toEqual({ found: newestFirst("court", "night"), matched: "words" });
    expect(await searchWithFallback("BOOTS")).toEqual({ found: newestFirst("highland", "explorer"), matched: "words" });
    expect(await searchWithFallback("watches")).toEqual({ found: ["watch"], matched: "words" });
  });

  it("every word, in any order and any column", async () => {
    expect(await searchWithFallback("Night shift sneaker")).toEqual({ found: ["night"], matched: "words" });
    expect(await searchWithFallback("sneaker night")).toEqual({ found: ["night"], matched: "words" });
    // Every word: a brand's boots only.
    expect(await searchWithFallback("urban trek boots")).toEqual({ found: ["highland"], matched: "words" });
  });

  it("a word for a category means its products: mens, womens, ladies, kids, boys", async () => {
    // "men" is in no Gents product and in every "Women's ...": the word means the category, not its letters.
    expect(await searchWithFallback("mens boots")).toEqual({ found: ["highland"], matched: "words" });
    expect(await searchWithFallback("women's boots")).toEqual({ found: ["explorer"], matched: "words" });
    expect(await searchWithFallback("ladies boots")).toEqual({ found: ["explorer"], matched: "words" });
    expect(await searchWithFallback("boys sandals")).toEqual({ found: ["dasher"], matched: "words" });
    expect(await searchWithFallback("children's boots")).toEqual({ found: [], matched: "phrase" });
  });

  it("'shoes' means any shoe: beside a category of shoes it is that category, beside anything else a shoe that has it", async () => {
    // "kids shoes" is every Kids product, though only the Playground Shoe has "shoe" in its name.
    expect(await searchWithFallback("kids shoes")).toEqual({ found: newestFirst("playground", "dasher"), matched: "words" });
    expect(await searchWithFallback("shoes, kids")).toEqual({ found: newestFirst("playground", "dasher"), matched: "words" });
    // Heritage makes an Oxford (Gents) and a watch (Accessories): its shoes are the Oxford.
    expect(await searchWithFallback("heritage shoes")).toEqual({ found: ["oxford"], matched: "words" });
    expect(await searchWithFallback("Tiny Steps footwear")).toEqual({ found: newestFirst("playground", "dasher"), matched: "words" });
  });

  it("while the phrase finds something, the answer is the phrase's, exactly (the words would have found more)", async () => {
    for (const keyword of ["unner", "sneaker", "Urban Trek", "Kids"]) {
      const { found, matched } = await searchWithFallback(keyword);
      expect(matched, keyword).toBe("phrase");
      expect(found, keyword).toEqual(key(await search(keyword)));
    }
    // "trek boot" is no phrase of any product: its words find the Urban Trek boot.
    expect(await searchWithFallback("trek boot")).toEqual({ found: ["highland"], matched: "words" });
  });

  it("nothing found either way is [] (the phrase's)", async () => {
    expect(await searchWithFallback("zzqxw")).toEqual({ found: [], matched: "phrase" });
    expect(await searchWithFallback("qqq sneakers")).toEqual({ found: [], matched: "phrase" });
  });

  it("words under 3 characters are left out while a longer one remains; with none, no looser search", async () => {
    expect(await searchWithFallback("a sneakers")).toEqual({ found: newestFirst("court", "night"), matched: "words" });
    expect(await searchWithFallback("EU 42 boots")).toEqual({ found: newestFirst("highland", "explorer"), matched: "words" });
    expect(await searchWithFallback("x y")).toEqual({ found: [], matched: "phrase" });
  });

  it("pages and filters as the phrase does", async () => {
    expect(await searchWithFallback("sneakers", { page: "1", pageSize: "1" })).toEqual({ found: newestFirst("court", "night").slice(0, 1), matched: "words" });
    expect(await searchWithFallback("sneakers", { page: "2", pageSize: "1" })).toEqual({ found: newestFirst("court", "night").slice(1), matched: "words" });
    expect(await searchWithFallback("sneakers", { page: "3", pageSize: "1" })).toEqual({ found: [], matched: "phrase" });
    expect(await searchWithFallback("sneakers", { brand: "Urban Trek" })).toEqual({ found: ["night"], matched: "words" });
    // Whether the words are asked depends on the keyword alone: sneakers of a brand that has none are simply none.
    expect(await searchWithFallback("sneaker", { brand: "Heritage" })).toEqual({ found: [], matched: "phrase" });
  });

  it('a " in a word never breaks the FTS5 query', async () => {
    expect(await searchWithFallback('"classic" oxfords')).toEqual({ found: ["oxford"], matched: "words" });
    expect(await searchWithFallback('sneakers"')).toEqual({ found: newestFirst("court", "night"), matched: "words" });
    // A quote parts words as a space does: "sne" and "aker" are both in Sneaker.
    expect(await searchWithFallback('sne"akers')).toEqual({ found: newestFirst("court", "night"), matched: "words" });
    expect(await searchWithFallback('"""')).toEqual({ found: [], matched: "phrase" });
  });

  it("FTS5's operators are words like any other: AND, OR and NEAR must be in the product", async () => {
    // Highland has "and" in it, Explorer's brand "near": as operators, both queries would fail or find both boots.
    expect(await searchWithFallback("boots AND")).toEqual({ found: ["highland"], matched: "words" });
    expect(await searchWithFallback("boots NEAR")).toEqual({ found: ["explorer"], matched: "words" });
    // As an operator OR would find the boots and the sneakers; as a word (of 2 characters, so left out) it finds what
    // has both.
    expect(await searchWithFallback("boots OR sneakers")).toEqual({ found: [], matched: "phrase" });
    expect(await searchWithFallback("boots OR")).toEqual({ found: newestFirst("highland", "explorer"), matched: "words" });
    expect(await searchWithFallback("NEAR(boots sneakers)")).toEqual({ found: [], matched: "phrase" });
    expect(await searchWithFallback("NOT sneakers")).toEqual({ found: [], matched: "phrase" });
    // * is no prefix operator: it parts words.
    expect(await searchWithFallback("sneak* aker")).toEqual({ found: newestFirst("court", "night"), matched: "words" });
    for (const keyword of ["*", "AND", "OR", "NEAR", "NOT", "boot*", "^boots", "name:boots", "(boots)", "-boots", "+"]) {
      const response = await call(`/api/products/search?${new URLSearchParams({ keyword, fallback: "words" })}`);
      expect(response.status, `${keyword}: ${await response.clone().text()}`).toBe(200);
    }
  });

  for (const value of ["", "phrase", "WORDS", "words,phrase", "true"]) {
    it(`fallback=${JSON.stringify(value)} is 400 with fieldErrors.fallback`, async () => {
      const body = await expectApiError(await call(`/api/products/search?keyword=sneakers&fallback=${encodeURIComponent(value)}`), 400);
      expect(body.fieldErrors?.fallback).toBeDefined();
    });
  }

  it("the OpenAPI document declares the parameter", async () => {
    const document = await getJson<{ paths: Record<string, { get: { parameters: { name: string; required: boolean; schema: { enum?: string[] } }[] } }> }>("/api/openapi.json");
    const fallback = document.paths["/api/products/search"].get.parameters.find((parameter) => parameter.name === "fallback");
    expect(fallback).toMatchObject({ required: false, schema: { enum: ["words", "spelling"] } });
  });
});

describe("/search: the words' products when nothing has the keyword as typed", () => {
  const screen = async (query: string) => {
    const response = await call(`/search?${query}`);
    expect(response.status).toBe(200);
    return visibleText(await response.text());
  };
  const note = (html: string) => html.match(/<p role="note"[^>]*>([^<]*)<\/p>/)?.[1];

  it("'sneakers' shows the sneakers under a note that says what was searched for", async () => {
    const html = await screen("keyword=sneakers");
    expect(html).toContain("Results for “sneakers”");
    expect(note(html)).toBe("No product has “sneakers” in its name. Showing products matching “sneaker”.");
    expect(cardCount(html)).toBe(2);
    for (const name of ["court", "night"]) expect(html).toContain(fixtures[name].name);
    expect(html).not.toContain("No shoes found with that name");
  });

  it("several words are named, in the order typed", async () => {
    const html = await screen(`keyword=${encodeURIComponent("kids shoes")}`);
    expect(note(html)).toBe("No product has “kids shoes” in its name. Showing products matching “Kids” and “shoe”.");
    // A word for a category is named by the category it matched, once ("ladie", as the search reads "ladies", is no word).
    expect(note(await screen(`keyword=${encodeURIComponent("ladies womens shoes")}`))).toBe(
      "No product has “ladies womens shoes” in its name. Showing products matching “Ladies” and “shoe”.",
    );
    expect(cardCount(html)).toBe(2);
    expect(note(await screen(`keyword=${encodeURIComponent("Night shift sneakers")}`))).toBe(
      "No product has “Night shift sneakers” in its name. Showing products matching “night”, “shift” and “sneaker”.",
    );
  });

  it("the phrase's own results have no note", async () => {
    const html = await screen("keyword=sneaker");
    expect(note(html)).toBeUndefined();
    expect(cardCount(html)).toBe(2);
  });

  it("'No shoes found with that name' when neither finds anything", async () => {
    for (const keyword of ["zzqxw", "qqq sneakers", "x y"]) {
      const html = await screen(`keyword=${encodeURIComponent(keyword)}`);
      expect(html, keyword).toContain("No shoes found with that name");
      expect(note(html), keyword).toBeUndefined();
      expect(cardCount(html), keyword).toBe(0);
    }
  });

  it("a match the screen cannot read is left out, not an error", async () => {
    const html = await screen("keyword=sneakers&match=everything");
    expect(cardCount(html)).toBe(2);
  });
});

describe("/search: the words' results page on as the words' results (match=words)", () => {
  const TRAINERS = 26; // more than a page of 24
  beforeAll(async () => {
    for (let i = 0; i < TRAINERS; i++) await insertProduct({ name: `Court Trainer ${i}`, brand: "Pageworth", category: "Gents" });
  });
  const linkTo = (html: string, rel: string) => html.match(new RegExp(`<a[^>]*href="([^"]*)"[^>]*rel="${rel}"`))?.[1]?.replace(/&amp;/g, "&");

  it("page 1's Next carries match=words, and page 2 is the rest of the same list, under the note", async () => {
    const first = visibleText(await (await call("/search?keyword=trainers")).text());
    expect(cardCount(first)).toBe(24);
    const next = linkTo(first, "next");
    expect(next).toBeDefined();
    const params = new URLSearchParams(next!.slice(next!.indexOf("?")));
    expect(Object.fromEntries(params)).toEqual({ keyword: "trainers", page: "2", match: "words" });

    const second = visibleText(await (await call(`/search?${params}`)).text());
    expect(cardCount(second)).toBe(TRAINERS - 24);
    expect(second).toContain("Showing products matching “trainer”.");
    const names = (html: string) => [...html.matchAll(/Court Trainer (\d+)/g)].map(([, n]) => Number(n));
    expect(new Set([...names(first), ...names(second)]).size).toBe(TRAINERS);
    const previous = linkTo(second, "prev");
    expect(new URLSearchParams(previous!.slice(previous!.indexOf("?"))).get("match")).toBe("words");
  });
});
