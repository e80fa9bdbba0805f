import { beforeAll, describe, expect, it } from "vitest";

import { adminAccount, customerAccount, placeOrder, screenHtml, type Account } from "./admin-helpers";
import { type ApiProduct, createProductApi, productBody, tag, updateProductApi, visibleText } from "./catalogue-helpers";
import { LOW_STOCK } from "~/lib/sizes";
import { authHeader, call, testEnv } from "./helpers";

// /admin/stock (issue 14 item 7 at the scale of issue 16): every size with 3 units or fewer, emptiest first, paged and
// filtered by category in the URL, each linking to its product's form; the dashboard's "See all N" leads there. The
// storage is this file's alone, so the list holds exactly the sizes made here.

const t = tag();
let admin: Account;
let customer: Account;
let gents: ApiProduct; // EU 40: 3, EU 41: 4, EU 42: 0, EU 43: 9
let kids: ApiProduct; // EU 24 to EU 35, stock 0, 1, 2, 3, 0, 1, ...: all twelve low
let ladies: ApiProduct; // EU 35 to EU 42, one pair each
let belt: ApiProduct; // one size, 2 left

const KIDS_LABELS = Array.from({ length: 12 }, (_, i) => `EU ${24 + i}`);
const LADIES_LABELS = Array.from({ length: 8 }, (_, i) => `EU ${35 + i}`);

beforeAll(async () => {
  admin = await adminAccount();
  customer = await customerAccount();
  gents = await createProductApi(admin.token, {
    name: `Stock Oxford ${t}`,
    brand: "Lanka Leather",
    category: "Gents",
    sizes: [
      { label: "EU 40", stockQuantity: 3 },
      { label: "EU 41", stockQuantity: 4 },
      { label: "EU 42", stockQuantity: 0 },
      { label: "EU 43", stockQuantity: 9 },
    ],
  });
  kids = await createProductApi(admin.token, { name: `Stock Trainer ${t}`, brand: "Sigiri Sport", category: "Kids", sizes: KIDS_LABELS.map((label, i) => ({ label, stockQuantity: i % 4 })) });
  ladies = await createProductApi(admin.token, { name: `Stock Mule ${t}`, brand: "Coral Bay", category: "Ladies", sizes: LADIES_LABELS.map((label) => ({ label, stockQuantity: 1 })) });
  belt = await createProductApi(admin.token, { name: `Stock Belt ${t}`, brand: "Palmyra", category: "Accessories", stockQuantity: 2 });
});

interface Row {
  sizeId: number;
  productId: number;
  cells: string[];
}

/** The list's rows, in page order: the size, the product its link opens, and the text of each cell. */
function rowsOf(html: string): Row[] {
  return [...html.matchAll(/<tr[^>]*data-testid="stock-row"[^>]*data-size-id="(\d+)"[^>]*>([\s\S]*?)<\/tr>/g)].map(([, sizeId, inner]) => ({
    sizeId: Number(sizeId),
    productId: Number(/href="\/product\/update\/(\d+)[?"]/.exec(inner)?.[1]),
    cells: [...inner.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) => visibleText(cell.replace(/<span aria-hidden="true" class="cell-label">[^<]*<\/span>/, "").replace(/<[^>]+>/g, "")).trim()),
  }));
}

const stockPage = async (path: string) => rowsOf(await screenHtml(path, admin.cookie));
const sizeOf = (product: ApiProduct, label: string) => product.sizes.find((size) => size.label === label)!.id;

/** Every size made here with 3 or fewer, read from D1 (the ground truth), as the list must order them. */
async function lowSizesInD1(category?: string): Promise<number[]> {
  const { results } = await testEnv.DB.prepare(
    `SELECT s.id FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE s.stock_quantity <= 3 AND (?1 IS NULL OR p.category = ?1)
     ORDER BY s.stock_quantity, s.product_id, s.position`,
  )
    .bind(category ?? null)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

/** The kept counts agree with counting the sizes, overall and per category; and every size carries its product's category. */
async function expectCountsTrue() {
  const kept = await testEnv.DB.prepare("SELECT category, size_count AS n FROM low_stock_counts ORDER BY category").all<{ category: string; n: number }>();
  const real = await testEnv.DB.prepare(
    `SELECT c.category, (SELECT count(*) FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE s.stock_quantity <= 3 AND c.category IN ('', p.category)) AS n
     FROM low_stock_counts c ORDER BY c.category`,
  ).all<{ category: string; n: number }>();
  expect(kept.results).toEqual(real.results);
  expect(kept.results.map((row) => row.category)).toEqual(["", "Accessories", "Gents", "Kids", "Ladies"]);
  const astray = await testEnv.DB.prepare("SELECT count(*) AS n FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE s.category <> p.category").first<{ n: number }>();
  expect(astray!.n).toBe(0);
}

describe("who may see /admin/stock", () => {
  it("an admin sees the list; a customer goes to /, a visitor to the login page with the way back", async () => {
    const page = await call("/admin/stock?category=Kids", { headers: { Cookie: admin.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(kids.name);

    const asCustomer = await call("/admin/stock?category=Kids", { headers: { Cookie: customer.cookie } });
    expect(asCustomer.status).toBe(302);
    expect(asCustomer.headers.get("Location")).toBe("/");
    expect(await asCustomer.text()).not.toContain(kids.name);

    const asVisitor = await call("/admin/stock?category=Kids");
    expect(asVisitor.status).toBe(302);
    expect(asVisitor.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirect: "/admin/stock?category=Kids" })}`);
  });

  it("its data request is guarded too (client-side navigation)", async () => {
    const response = await call("/admin/stock.data", { headers: { Cookie: customer.cookie } });
    expect([202, 204, 302]).toContain(response.status);
    expect(await response.text()).not.toContain(kids.name);
  });
});

describe("the list", () => {
  it("holds every size with 3 or fewer and no other: 4 left is not listed, 3 is", async () => {
    const rows = [...(await stockPage("/admin/stock")), ...(await stockPage("/admin/stock?page=2"))];
    const listed = rows.map((row) => row.sizeId);
    expect(listed).toContain(sizeOf(gents, "EU 40")); // 3 left
    expect(listed).toContain(sizeOf(gents, "EU 42")); // sold out
    expect(listed).not.toContain(sizeOf(gents, "EU 41")); // 4 left
    expect(listed).not.toContain(sizeOf(gents, "EU 43"));
    expect(listed.sort()).toEqual((await lowSizesInD1()).sort());
    expect(listed).toHaveLength(2 + 12 + 8 + 1);
  });

  it("the emptiest first (0 before 1 before 3), then by product and the size's display order", async () => {
    const rows = [...(await stockPage("/admin/stock")), ...(await stockPage("/admin/stock?page=2"))];
    const ids = rows.map((row) => row.sizeId);
    expect(ids).toEqual(await lowSizesInD1());
    const at = (id: number) => ids.indexOf(id);
    expect(at(sizeOf(gents, "EU 42"))).toBeLessThan(at(sizeOf(kids, "EU 25"))); // 0 before 1
    expect(at(sizeOf(kids, "EU 25"))).toBeLessThan(at(sizeOf(kids, "EU 26"))); // 1 before 2
    expect(at(sizeOf(kids, "EU 26"))).toBeLessThan(at(sizeOf(gents, "EU 40"))); // 2 before 3
    // Sold out: the Oxford's EU 42 (made first), then the trainer's EU 24, 28 and 32 in their display order.
    expect(ids.slice(0, 4)).toEqual([sizeOf(gents, "EU 42"), sizeOf(kids, "EU 24"), sizeOf(kids, "EU 28"), sizeOf(kids, "EU 32")]);
  });

  it("each row shows the product's name, brand, category, the size and its stock, and links to the product's form", async () => {
    const rows = [...(await stockPage("/admin/stock")), ...(await stockPage("/admin/stock?page=2"))];
    const row = (id: number) => rows.find((candidate) => candidate.sizeId === id)!;
    expect(row(sizeOf(gents, "EU 42"))).toEqual({ sizeId: sizeOf(gents, "EU 42"), productId: gents.id, cells: [gents.name, "Lanka Leather", "Gents", "EU 42", "Sold out"] });
    expect(row(sizeOf(belt, "One size")).cells).toEqual([belt.name, "Palmyra", "Accessories", "One size", "2 left"]);
    expect(row(sizeOf(kids, "EU 27")).cells).toEqual([kids.name, "Sigiri Sport", "Kids", "EU 27", "3 left"]);
    expect(row(sizeOf(kids, "EU 27")).productId).toBe(kids.id);
  });

  it("a row opens its product's form at its size, coming back to the list's page", async () => {
    const html = await screenHtml("/admin/stock?category=Kids&page=1", admin.cookie);
    const href = new RegExp(`<tr[^>]*data-size-id="${sizeOf(kids, "EU 24")}"[\\s\\S]*?href="([^"]+)"`).exec(html)?.[1]?.replace(/&amp;/g, "&");
    expect(href).toBe(`/product/update/${kids.id}?size=${sizeOf(kids, "EU 24")}&back=%2Fadmin%2Fstock%3Fcategory%3DKids%26page%3D1`);
  });

  it("a product taken off sale keeps its low sizes on the list, marked Off sale", async () => {
    // Sold out: among the dashboard's dozen emptiest. Deleted at the end: the other tests count this file's sizes.
    const offSale = await createProductApi(admin.token, { name: `Stock Retired ${t}`, brand: "Palmyra", category: "Accessories", stockQuantity: 0, productAvailable: false });
    try {
      const rows = await stockPage(`/admin/stock?q=retired+${t}`);
      expect(rows.map((row) => row.cells[0])).toEqual([`${offSale.name}Off sale`]);
      expect((await stockPage(`/admin/stock?q=${encodeURIComponent(belt.name)}`)).map((row) => row.cells[0])).toEqual([belt.name]);
      expect(await screenHtml("/admin/dashboard", admin.cookie)).toMatch(new RegExp(`${offSale.name}</span>[\\s\\S]{0,400}?data-testid="off-sale"`));
    } finally {
      expect((await call(`/api/product/${offSale.id}`, { method: "DELETE", headers: authHeader(admin.token) })).status).toBe(204);
    }
  });

  it("is paged in the URL, 20 a page: the second page holds the rest, and the page links keep the category", async () => {
    const html = await screenHtml("/admin/stock", admin.cookie);
    const first = rowsOf(html);
    const second = await stockPage("/admin/stock?page=2");
    expect(first).toHaveLength(20);
    expect(second).toHaveLength(3);
    expect(second.map((row) => row.sizeId)).toEqual((await lowSizesInD1()).slice(20));
    expect(html).toMatch(/<nav aria-label="Pages"[\s\S]*href="\?page=2"/);
    expect(visibleText(html)).toContain("23 sizes with 3 units or fewer");

    const kidsHtml = await screenHtml("/admin/stock?category=Kids&pageSize=5&page=2", admin.cookie);
    expect(rowsOf(kidsHtml).map((row) => row.sizeId)).toEqual((await lowSizesInD1("Kids")).slice(5, 10));
    expect(kidsHtml).toContain('href="?category=Kids&amp;pageSize=5&amp;page=3"');
    expect(kidsHtml).toContain('href="?category=Kids&amp;pageSize=5"'); // page 1 without page=
  });

  it("filters by category with links that work without JavaScript, each with its count", async () => {
    const html = await screenHtml("/admin/stock?category=Kids", admin.cookie);
    const rows = rowsOf(html);
    expect(rows.map((row) => row.sizeId)).toEqual(await lowSizesInD1("Kids"));
    expect(rows.every((row) => row.cells[2] === "Kids")).toBe(true);
    expect(visibleText(html)).toContain("12 sizes in Kids with 3 units or fewer");
    const nav = /<nav aria-label="Filter sizes by category"[\s\S]*?<\/nav>/.exec(html)![0];
    expect(nav).toMatch(/<a href="\/admin\/stock\?category=Kids"[^>]*aria-current="page"[^>]*>Kids<span[^>]*><span class="sr-only">: <\/span>12<\/span>/);
    expect(nav).toMatch(/<a href="\/admin\/stock"[^>]*>All<span[^>]*><span class="sr-only">: <\/span>23<\/span>/);
    for (const [category, n] of [["Gents", 2], ["Ladies", 8], ["Accessories", 1]] as const) {
      expect(nav).toMatch(new RegExp(`<a href="/admin/stock\\?category=${category}"[^>]*>${category}<span[^>]*><span class="sr-only">: </span>${n}</span>`));
      expect((await stockPage(`/admin/stock?category=${category}`)).map((row) => row.sizeId)).toEqual(await lowSizesInD1(category));
    }
  });

  it("bad input is dropped and said, never a 500: page=0, page=abc, an unknown category, a pageSize of 1000", async () => {
    const everything = await lowSizesInD1();
    for (const query of ["page=0", "page=abc", "page=-1", "page=1.5", "category=Boots", "category=kids", "pageSize=1000", "page=0&category=Boots"]) {
      const response = await call(`/admin/stock?${query}`, { headers: { Cookie: admin.cookie } });
      expect(response.status, query).toBe(200);
      const html = await response.text();
      expect(visibleText(html), query).toContain("Some of the filters were ignored");
      expect(rowsOf(html).map((row) => row.sizeId), query).toEqual(everything.slice(0, 20));
    }
    // A good filter is kept beside a bad page.
    const kept = await screenHtml("/admin/stock?category=Ladies&page=zero", admin.cookie);
    expect(rowsOf(kept).map((row) => row.sizeId)).toEqual(await lowSizesInD1("Ladies"));
    // A page past the last is an empty page with the links back, not an error.
    const past = await screenHtml("/admin/stock?page=9", admin.cookie);
    expect(rowsOf(past)).toEqual([]);
    expect(visibleText(past)).toContain("No sizes on page 9: the list ends before it.");
    expect(past).toContain('href="?page=2"');
  });
});

describe("the search (q): the sizes of the products whose name or brand holds the words", () => {
  /** The sizes of these products, in the list's order (D1's low sizes, the ground truth). */
  const sizesOf = async (...products: ApiProduct[]) => (await lowSizesInD1()).filter((id) => products.some((product) => product.sizes.some((size) => size.id === id)));
  const searchForm = (html: string) => /<form[^>]*role="search"[^>]*aria-label="Search low-stock sizes"[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
  /** What the search box holds. */
  const searchBox = (html: string) => /<input id="stock-q"[^>]*name="q" value="([^"]*)"/.exec(searchForm(html))?.[1];

  it("a word of the name, any case: only that product's low sizes, counted, in the list's order", async () => {
    for (const q of ["Oxford", "oxford", "OXFORD", `oxford ${t}`]) {
      const html = await screenHtml(`/admin/stock?${new URLSearchParams({ q })}`, admin.cookie);
      expect(rowsOf(html).map((row) => row.sizeId), q).toEqual(await sizesOf(gents));
      expect(visibleText(html), q).toContain(`2 sizes matching “${q}” with 3 units or fewer`);
    }
  });

  it("the brand, any case; each word in the name or the brand, and every word must match", async () => {
    expect((await stockPage("/admin/stock?q=sigiri")).map((row) => row.sizeId)).toEqual(await sizesOf(kids));
    expect((await stockPage("/admin/stock?q=LANKA+leather")).map((row) => row.sizeId)).toEqual(await sizesOf(gents));
    // "mule" in the name, "coral" in the brand: the same product.
    expect((await stockPage("/admin/stock?q=mule+Coral")).map((row) => row.sizeId)).toEqual(await sizesOf(ladies));
    // Words of two products: none holds both.
    expect(await stockPage("/admin/stock?q=mule+palmyra")).toEqual([]);
    // One word across the name and the brand is no match ("Bay" and "Stock" are not one word "baystock").
    expect(await stockPage(`/admin/stock?q=${t}coral`)).toEqual([]);
  });

  it("no match: the empty state names the search (LIKE's wildcards are plain characters)", async () => {
    for (const q of ["zebra", "%", "_", "oxford%"]) {
      const response = await call(`/admin/stock?${new URLSearchParams({ q })}`, { headers: { Cookie: admin.cookie } });
      expect(response.status, q).toBe(200);
      const html = await response.text();
      expect(rowsOf(html), q).toEqual([]);
      expect(visibleText(html), q).toContain(`No size with 3 units or fewer matches “${q}”.`);
      expect(visibleText(html), q).toContain(`0 sizes matching “${q}”`);
    }
  });

  it("with a category: the search within it; the category links keep the search (without counts), the form keeps the category", async () => {
    const html = await screenHtml(`/admin/stock?category=Kids&q=${t}`, admin.cookie);
    expect(rowsOf(html).map((row) => row.sizeId)).toEqual(await sizesOf(kids));
    expect(visibleText(html)).toContain(`12 sizes matching “${t}” in Kids with 3 units or fewer`);
    const nav = /<nav aria-label="Filter sizes by category"[\s\S]*?<\/nav>/.exec(html)![0];
    expect(nav).toMatch(new RegExp(`<a href="/admin/stock\\?category=Kids&amp;q=${t}"[^>]*aria-current="page"[^>]*>Kids</a>`));
    expect(nav).toMatch(new RegExp(`<a href="/admin/stock\\?q=${t}"[^>]*>All</a>`));
    expect(nav).toMatch(new RegExp(`<a href="/admin/stock\\?category=Gents&amp;q=${t}"[^>]*>Gents</a>`));
    // The kept counts are of every low size, not of the search's: left off while searching.
    expect(nav).not.toContain("sr-only");
    const form = searchForm(html);
    expect(form).toContain('<input type="hidden" name="category" value="Kids"/>');
    expect(searchBox(html)).toBe(t);
    // A new search starts on page 1: the form sends no page.
    expect(form).not.toContain('name="page"');
    // Clear: the category, without the search.
    expect(form).toMatch(/<a[^>]*href="\/admin\/stock\?category=Kids"[^>]*>Clear<\/a>/);
    expect(searchForm(await screenHtml("/admin/stock?q=oxford", admin.cookie))).toMatch(/<a[^>]*href="\/admin\/stock"[^>]*>Clear<\/a>/);
    expect(searchForm(await screenHtml("/admin/stock", admin.cookie))).not.toContain("Clear");

    expect(await stockPage("/admin/stock?category=Kids&q=oxford")).toEqual([]);
    expect(visibleText(await screenHtml("/admin/stock?category=Kids&q=oxford", admin.cookie))).toContain("No Kids size with 3 units or fewer matches “oxford”.");
  });

  it("is paged like the list: the page links keep the search and the category", async () => {
    const all = await sizesOf(gents, kids, ladies, belt);
    const first = await screenHtml(`/admin/stock?q=${t}`, admin.cookie);
    expect(rowsOf(first).map((row) => row.sizeId)).toEqual(all.slice(0, 20));
    expect(visibleText(first)).toContain(`23 sizes matching “${t}”`);
    expect(first).toContain(`href="?q=${t}&amp;page=2"`);
    expect((await stockPage(`/admin/stock?q=${t}&page=2`)).map((row) => row.sizeId)).toEqual(all.slice(20));

    const kidsPage = await screenHtml("/admin/stock?category=Kids&q=sigiri&pageSize=5&page=2", admin.cookie);
    expect(rowsOf(kidsPage).map((row) => row.sizeId)).toEqual((await sizesOf(kids)).slice(5, 10));
    expect(kidsPage).toContain('href="?category=Kids&amp;q=sigiri&amp;pageSize=5&amp;page=3"');
    expect(kidsPage).toContain('href="?category=Kids&amp;q=sigiri&amp;pageSize=5"');
  });

  it("a bad q (too long, control characters) is dropped and named, the rest kept: never a 500", async () => {
    const everything = await lowSizesInD1();
    const cases: Array<[string, string]> = [
      [`q=${"x".repeat(101)}`, "The search must be at most 100 characters"],
      ["q=ox%00ford", "The search must not contain control characters"],
      ["q=ox%0Aford", "The search must not contain control characters"],
      ["q=ox%1Bford", "The search must not contain control characters"],
    ];
    for (const [query, message] of cases) {
      const response = await call(`/admin/stock?${query}`, { headers: { Cookie: admin.cookie } });
      expect(response.status, query).toBe(200);
      const html = await response.text();
      expect(visibleText(html), query).toContain(`Some of the filters were ignored: ${message}.`);
      expect(rowsOf(html).map((row) => row.sizeId), query).toEqual(everything.slice(0, 20));
      // Dropped, so not searched: the box is empty and there is nothing to clear.
      expect(searchBox(html), query).toBe("");
      expect(searchForm(html), query).not.toContain("Clear");
    }
    const kept = await screenHtml(`/admin/stock?category=Ladies&q=${"x".repeat(101)}`, admin.cookie);
    expect(rowsOf(kept).map((row) => row.sizeId)).toEqual(await lowSizesInD1("Ladies"));
    const goodSearch = await screenHtml("/admin/stock?q=oxford&page=0", admin.cookie);
    expect(visibleText(goodSearch)).toContain("The page must be at least 1");
    expect(rowsOf(goodSearch).map((row) => row.sizeId)).toEqual(await sizesOf(gents));
    // Blank or spaces only: no search at all.
    expect((await stockPage("/admin/stock?q=+++")).map((row) => row.sizeId)).toEqual(everything.slice(0, 20));
  });

  it("a customer or a visitor is still refused, and learns nothing of the search", async () => {
    const asCustomer = await call("/admin/stock?q=oxford", { headers: { Cookie: customer.cookie } });
    expect(asCustomer.status).toBe(302);
    expect(asCustomer.headers.get("Location")).toBe("/");
    expect(await asCustomer.text()).not.toContain(gents.name);
    const asVisitor = await call("/admin/stock?q=oxford");
    expect(asVisitor.status).toBe(302);
    expect(asVisitor.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirect: "/admin/stock?q=oxford" })}`);
    const data = await call("/admin/stock.data?q=oxford", { headers: { Cookie: customer.cookie } });
    expect([202, 204, 302]).toContain(data.status);
    expect(await data.text()).not.toContain(gents.name);
  });
});

describe("the dashboard's low-stock list", () => {
  it("shows the same list's products, one line each at its emptiest size, and links to it: 'See all 23'", async () => {
    const html = await screenHtml("/admin/dashboard", admin.cookie);
    const link = /<a[^>]*data-testid="low-stock-all"[^>]*>([\s\S]*?)<\/a>/.exec(html);
    expect(link?.[0]).toContain('href="/admin/stock"');
    expect(visibleText(link![1]).replace(/<[^>]+>/g, "")).toBe("See all 23 low-stock sizes\u00a0→");
    const list = /data-testid="low-stock"[\s\S]*?<\/ul>/.exec(html)![0];
    const linked = [...list.matchAll(/href="\/product\/update\/(\d+)\?size=(\d+)&amp;back=%2Fadmin%2Fdashboard"/g)].map(([, id, size]) => [Number(id), Number(size)]);
    // The stock list's products in its order, each once, each at its first (emptiest) row: the 23 sizes are 4 products.
    const rows = [...(await stockPage("/admin/stock")), ...(await stockPage("/admin/stock?page=2"))];
    const firstRows = rows.filter((row, index) => rows.findIndex((other) => other.productId === row.productId) === index);
    expect(linked).toEqual(firstRows.map((row) => [row.productId, row.sizeId]));
    expect(linked).toHaveLength(4);
  });
});

describe("the counts and categories the list reads are kept by the database", () => {
  it("follow a restock, an order, a category change and a deletion", async () => {
    await expectCountsTrue();

    // Restocked on the product form's API: the trainer's sold-out EU 24 leaves the list.
    const restocked = await updateProductApi(
      admin.token,
      kids.id,
      productBody({ name: kids.name, brand: kids.brand, category: "Kids", sizes: kids.sizes.map((size) => ({ ...size, stockQuantity: size.label === "EU 24" ? 10 : size.stockQuantity })) }),
    );
    expect(restocked.sizes.find((size) => size.label === "EU 24")!.stockQuantity).toBe(10);
    expect((await stockPage("/admin/stock?category=Kids")).map((row) => row.sizeId)).not.toContain(sizeOf(kids, "EU 24"));
    await expectCountsTrue();

    // An order takes the Oxford's EU 41 from 4 to 3: now listed.
    await placeOrder(customer.token, [{ productId: gents.id, quantity: 1, sizeId: sizeOf(gents, "EU 41") } as { productId: number; quantity: number }]);
    expect((await stockPage("/admin/stock?category=Gents")).map((row) => row.sizeId)).toContain(sizeOf(gents, "EU 41"));
    await expectCountsTrue();

    // The mule moves to Gents: its sizes follow it.
    await updateProductApi(admin.token, ladies.id, productBody({ name: ladies.name, brand: ladies.brand, category: "Gents", sizes: ladies.sizes }));
    expect(await stockPage("/admin/stock?category=Ladies")).toEqual([]);
    const gentsRows = await stockPage("/admin/stock?category=Gents");
    expect(gentsRows.filter((row) => row.productId === ladies.id).map((row) => row.cells[2])).toEqual(Array(8).fill("Gents"));
    await expectCountsTrue();

    // A low size moved to a product of another category (no screen does it; the trigger keeps the copy true anyway).
    const moved = sizeOf(gents, "EU 41");
    await testEnv.DB.prepare("UPDATE product_sizes SET product_id = ?, position = 99 WHERE id = ?").bind(kids.id, moved).run();
    expect((await testEnv.DB.prepare("SELECT category FROM product_sizes WHERE id = ?").bind(moved).first<{ category: string }>())?.category).toBe("Kids");
    expect((await stockPage("/admin/stock?category=Kids")).map((row) => row.sizeId)).toContain(moved);
    await expectCountsTrue();

    // Deleted: its size goes from the list and the counts (the deletion cascades to the sizes).
    const deleted = await call(`/api/product/${belt.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${admin.token}` } });
    expect(deleted.status).toBeLessThan(300);
    expect(await stockPage("/admin/stock?category=Accessories")).toEqual([]);
    await expectCountsTrue();
    const total = 23 - 1 + 1 - 1;
    expect(visibleText(await screenHtml("/admin/stock", admin.cookie))).toContain(`${total} sizes with 3 units or fewer`);
  });
});

describe("one threshold", () => {
  it("the indexes and triggers of migration 0017 say LOW_STOCK, as the screens do (a new threshold needs a migration)", async () => {
    const { results } = await testEnv.DB.prepare(
      "SELECT name, sql FROM sqlite_master WHERE name IN ('product_sizes_low_stock_idx', 'product_sizes_low_stock_category_idx', 'product_sizes_low_stock_insert', 'product_sizes_low_stock_update', 'product_sizes_low_stock_delete')",
    ).all<{ name: string; sql: string }>();
    expect(results).toHaveLength(5);
    for (const { name, sql } of results) {
      const thresholds = [...sql.matchAll(/stock_quantity"?\s*<=\s*(\d+)/g)].map(([, n]) => Number(n));
      expect(thresholds.length, name).toBeGreaterThan(0);
      expect(new Set(thresholds), name).toEqual(new Set([LOW_STOCK]));
    }
  });
});
