import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";

import { cardCount, createProductApi, expectApiError, getJson, insertProduct, productBody, updateProductApi, visibleText, type ApiProduct, type Category } from "./catalogue-helpers";
import { authHeader, call, registerAdmin, testEnv } from "./helpers";
import { worker } from "./outbox-helpers";

// Phone QA: "snekers" or "sandle" found nothing ("No shoes found with that name") though the shop has sneakers and
// sandals. When neither the keyword as typed nor its words find anything, each word the catalogue does not have (4
// letters or more) is replaced by the closest word it has (search_words, migrations/0022), and the search runs again:
// /search says so above the grid, the dropdown asks "Did you mean ...?" through the API's fallback=spelling.

const fixtures: Record<string, { name: string; brand: string; category: Category }> = {
  court: { name: "Metro Court Sneaker", brand: "Stride Classics", category: "Gents" },
  night: { name: "Night Shift Knit Sneaker", brand: "Urban Trek", category: "Gents" },
  highland: { name: "Highland Trail Boot", brand: "Urban Trek", category: "Gents" },
  dasher: { name: "Little Dasher Sandal", brand: "Tiny Steps", category: "Kids" },
  splash: { name: "Rainbow Splash Sandal", brand: "Tiny Steps", category: "Kids" },
  watch: { name: "Heritage Field Watch", brand: "Serendib Studio", category: "Accessories" },
  racer: { name: "Café Racer Loafer", brand: "Colombo Cobbler", category: "Gents" },
};
const idOf: Record<string, number> = {};
const key = (products: { id: number }[]) => products.map(({ id }) => Object.keys(idOf).find((name) => idOf[name] === id) ?? `other:${id}`);
const newestFirst = (...names: string[]) => [...names].sort((a, b) => idOf[b] - idOf[a]);

/** The nightly cron (wrangler.jsonc), which compacts the search index and makes the vocabulary again. */
async function runNightlyCron() {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "30 21 * * *" }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
}

const vocabulary = async (...words: string[]) => {
  const rows = await testEnv.DB.prepare(`SELECT word, uses FROM search_words WHERE word IN (${words.map(() => "?").join(", ")})`)
    .bind(...words)
    .all<{ word: string; uses: number }>();
  return Object.fromEntries(rows.results.map((row) => [row.word, row.uses]));
};

async function searchApi(keyword: string, params: Record<string, string> = {}) {
  const response = await call(`/api/products/search?${new URLSearchParams({ keyword, ...params })}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return {
    found: key((await response.json()) as ApiProduct[]),
    matched: response.headers.get("X-Search-Match"),
    // URI-encoded, as a header must be for what is not Latin-1.
    corrected: response.headers.has("X-Search-Corrected") ? decodeURIComponent(response.headers.get("X-Search-Corrected")!) : null,
  };
}
const spelling = (keyword: string, params: Record<string, string> = {}) => searchApi(keyword, { fallback: "spelling", ...params });

beforeAll(async () => {
  // Straight into D1, as the tests' fixtures go: the vocabulary is made by the nightly rebuild, as after the migration.
  for (const [name, fixture] of Object.entries(fixtures)) idOf[name] = await insertProduct({ ...fixture, description: "A shoe for the tests." });
  await runNightlyCron();
});

describe("the vocabulary (search_words) follows the catalogue", () => {
  it("the rebuild holds the words of names, brands and categories, 4 letters or more, lower case, counted", async () => {
    expect(await vocabulary("sneaker", "sandal", "metro", "urban", "kids", "accessories", "caf", "knit", "café")).toEqual({
      sneaker: 2,
      sandal: 2,
      metro: 1,
      urban: 2,
      kids: 2,
      accessories: 1,
      knit: 1,
    });
  });

  it("a product created adds its words; renamed, its new words; deleted and rebuilt, the words no product has go", async () => {
    const admin = await registerAdmin();
    const created = await createProductApi(admin.token, { name: "Zephyrine Glider", brand: "Quillon Works", category: "Ladies" });
    expect(await vocabulary("zephyrine", "glider", "quillon", "works", "ladies")).toEqual({ zephyrine: 1, glider: 1, quillon: 1, works: 1, ladies: 1 });
    // Found by its correction at once, before any rebuild.
    expect(await spelling("zephyrene")).toEqual({ found: ["other:" + created.id], matched: "spelling", corrected: "zephyrine" });

    await updateProductApi(admin.token, created.id, productBody({ name: "Zephyrine Strider", brand: "Quillon Works", category: "Ladies", releaseDate: created.releaseDate }));
    // The old word stays until the night (an insert is all a write pays for), the new one is there now.
    expect(await vocabulary("glider", "strider")).toEqual({ glider: 1, strider: 1 });
    await runNightlyCron();
    expect(await vocabulary("glider", "strider", "zephyrine")).toEqual({ strider: 1, zephyrine: 1 });

    const deleted = await call(`/api/product/${created.id}`, { method: "DELETE", headers: authHeader(admin.token) });
    expect(deleted.status).toBeLessThan(300);
    await runNightlyCron();
    expect(await vocabulary("strider", "zephyrine", "quillon", "works")).toEqual({});
    // The words other products still have stay, recounted.
    expect(await vocabulary("sneaker", "ladies")).toEqual({ sneaker: 2 });
    expect(await spelling("zephyrene")).toEqual({ found: [], matched: "phrase", corrected: null });
  });
});

describe("GET /api/products/search?fallback=spelling", () => {
  it("'snekers' finds the sneakers, as 'sneakers'; 'sandle' the sandals, as 'sandal'", async () => {
    expect(await spelling("snekers")).toEqual({ found: newestFirst("court", "night"), matched: "spelling", corrected: "sneakers" });
    expect(await spelling("sandle")).toEqual({ found: newestFirst("dasher", "splash"), matched: "spelling", corrected: "sandal" });
    // The rest of the keyword stays as typed; a word the catalogue has is not touched.
    expect(await spelling("Metro Snekers")).toEqual({ found: ["court"], matched: "spelling", corrected: "Metro sneakers" });
  });

  it("one edit in a word of 4 or 5 letters, two in a longer one, never more", async () => {
    expect(await spelling("bott")).toEqual({ found: ["highland"], matched: "spelling", corrected: "boot" });
    expect(await spelling("watsh")).toEqual({ found: ["watch"], matched: "spelling", corrected: "watch" });
    // Two edits in 4 or 5 letters are too many: "baat" and "wotsh" are not the boot and the watch.
    expect(await spelling("baat")).toEqual({ found: [], matched: "phrase", corrected: null });
    expect(await spelling("wotsh")).toEqual({ found: [], matched: "phrase", corrected: null });
    // Two in 6 letters or more; a swap of two letters side by side is one edit ("hihgland").
    expect(await spelling("hihgland")).toEqual({ found: ["highland"], matched: "spelling", corrected: "highland" });
    expect(await spelling("heritagr fild")).toEqual({ found: ["watch"], matched: "spelling", corrected: "heritage field" });
    // Three edits: "snadle" is no sandal.
    expect(await spelling("snadle")).toEqual({ found: [], matched: "phrase", corrected: null });
  });

  it("words of 3 letters or fewer are never corrected, nor words the catalogue has", async () => {
    expect(await spelling("bot")).toEqual({ found: [], matched: "phrase", corrected: null });
    // Both words are the catalogue's: no product has both, and nothing is corrected to something else.
    expect(await spelling("sandal watch")).toEqual({ found: [], matched: "phrase", corrected: null });
    // "tril" is one letter from "trail", but "boot tril" has "boot", which is kept.
    expect(await spelling("boot tril")).toEqual({ found: ["highland"], matched: "spelling", corrected: "boot trail" });
  });

  it("while the phrase or the words find something, nothing is corrected", async () => {
    expect(await spelling("sneaker")).toEqual({ found: newestFirst("court", "night"), matched: "phrase", corrected: null });
    expect(await spelling("sandals")).toEqual({ found: newestFirst("dasher", "splash"), matched: "words", corrected: null });
  });

  it("a corrected keyword with letters beyond ASCII is sent URI-encoded", async () => {
    expect(await spelling("café lofer")).toEqual({ found: ["racer"], matched: "spelling", corrected: "café loafer" });
    const response = await call(`/api/products/search?${new URLSearchParams({ keyword: "café lofer", fallback: "spelling" })}`);
    expect(response.headers.get("X-Search-Corrected")).toBe("caf%C3%A9%20loafer");
  });

  it("pages as the corrected keyword's results", async () => {
    expect(await spelling("snekers", { page: "1", pageSize: "1" })).toEqual({ found: newestFirst("court", "night").slice(0, 1), matched: "spelling", corrected: "sneakers" });
    expect(await spelling("snekers", { page: "2", pageSize: "1" })).toEqual({ found: newestFirst("court", "night").slice(1), matched: "spelling", corrected: "sneakers" });
  });

  it("without it the answer is API.md's and fallback=words' as before: nothing, and no correction header", async () => {
    const plain = await call("/api/products/search?keyword=snekers");
    expect(await plain.json()).toEqual([]);
    expect(plain.headers.get("X-Search-Match")).toBeNull();
    expect(plain.headers.get("X-Search-Corrected")).toBeNull();
    expect(await searchApi("snekers", { fallback: "words" })).toEqual({ found: [], matched: "phrase", corrected: null });
  });

  it("a listed origin may read X-Search-Corrected", async () => {
    const response = await call("/api/products/search?keyword=snekers&fallback=spelling", { headers: { Origin: "https://app.stride.test" } });
    expect(response.headers.get("Access-Control-Expose-Headers")).toContain("X-Search-Corrected");
    expect(response.headers.get("X-Search-Corrected")).toBe("sneakers");
  });

  it("another fallback is still 400, and the OpenAPI document names spelling", async () => {
    const body = await expectApiError(await call("/api/products/search?keyword=snekers&fallback=spell"), 400);
    expect(body.fieldErrors?.fallback).toEqual(["fallback must be words or spelling"]);
    const document = await getJson<{ paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }> }>("/api/openapi.json");
    expect(document.paths["/api/products/search"].get.parameters.find((parameter) => parameter.name === "fallback")?.schema.enum).toEqual(["words", "spelling"]);
  });
});

describe("/search: the corrected keyword's products, under a note", () => {
  const screen = async (query: string) => {
    const response = await call(`/search?${query}`);
    expect(response.status).toBe(200);
    return visibleText(await response.text());
  };
  const note = (html: string) => html.match(/<p role="note"[^>]*>([^<]*)<\/p>/)?.[1];

  it("'snekers' shows the sneakers and says what it searched for instead", async () => {
    const html = await screen("keyword=snekers");
    expect(html).toContain("Results for “snekers”");
    expect(note(html)).toBe("No product has “snekers” in its name. Showing results for “sneakers”.");
    expect(cardCount(html)).toBe(2);
    for (const name of ["court", "night"]) expect(html).toContain(fixtures[name].name);
    expect(html).not.toContain("No shoes found with that name");
    expect(note(await screen("keyword=sandle"))).toBe("No product has “sandle” in its name. Showing results for “sandal”.");
  });

  it("'No shoes found with that name' when no correction is found or it finds nothing", async () => {
    for (const keyword of ["zzqxw", "snadle", "bot", "sandal watch"]) {
      const html = await screen(`keyword=${encodeURIComponent(keyword)}`);
      expect(html, keyword).toContain("No shoes found with that name");
      expect(note(html), keyword).toBeUndefined();
      expect(cardCount(html), keyword).toBe(0);
    }
  });

  it("no address says what the correction is: a made-up corrected= is not shown, nor does it choose the products", async () => {
    const html = await screen(`keyword=sneaker&corrected=sandal`);
    expect(note(html)).toBeUndefined();
    for (const name of ["court", "night"]) expect(html).toContain(fixtures[name].name);
    expect(html).not.toContain(fixtures.dasher.name);
  });

  it("a keyword some product has is never corrected, whatever the filters or the page leave on the screen", async () => {
    // "brandi" is inside "Abrandin" (no word of the catalogue), and 2 edits from the word "brandon": with a brand that
    // leaves Abrandin out, or a page past its end, the page is empty, yet the keyword matched and means no Brandon.
    await insertProduct({ name: "Abrandin Slip-On", brand: "Filterworth", category: "Gents" });
    await insertProduct({ name: "Brandon Derby", brand: "Otherworth", category: "Gents" });
    await runNightlyCron();
    expect(cardCount(await screen("keyword=brandi"))).toBe(1);
    for (const query of ["keyword=brandi&brand=Otherworth", "keyword=brandi&page=3"]) {
      const html = await screen(query);
      expect(note(html), query).toBeUndefined();
      expect(html, query).not.toContain("Brandon Derby");
    }
  });

  describe("pages on as the corrected keyword's results", () => {
    const LOAFERS = 26; // more than a page of 24, with the Café Racer Loafer 27
    beforeAll(async () => {
      for (let i = 0; i < LOAFERS; i++) await insertProduct({ name: `Pageworth Loafer ${i}`, brand: "Pageworth", category: "Gents" });
      await runNightlyCron();
    });
    const linkTo = (html: string, rel: string) => html.match(new RegExp(`<a[^>]*href="([^"]*)"[^>]*rel="${rel}"`))?.[1]?.replace(/&amp;/g, "&");

    it("page 1's Next carries the corrected keyword, and page 2 is the rest of the same list, under the note", async () => {
      const first = await screen("keyword=lofers");
      expect(cardCount(first)).toBe(24);
      const next = linkTo(first, "next");
      const params = new URLSearchParams(next!.slice(next!.indexOf("?")));
      expect(Object.fromEntries(params)).toEqual({ keyword: "lofers", page: "2" });

      const second = await screen(params.toString());
      expect(cardCount(second)).toBe(LOAFERS + 1 - 24);
      expect(note(second)).toBe("No product has “lofers” in its name. Showing results for “loafers”.");
      const names = (html: string) => [...html.matchAll(/(Pageworth Loafer \d+|Café Racer Loafer)/g)].map(([name]) => name);
      expect(new Set([...names(first), ...names(second)]).size).toBe(LOAFERS + 1);
      const previous = linkTo(second, "prev");
      expect(Object.fromEntries(new URLSearchParams(previous!.slice(previous!.indexOf("?"))))).toEqual({ keyword: "lofers" });
    });
  });
});
