import { beforeAll, describe, expect, it } from "vitest";

import { readProductForm } from "~/lib/product-form.server";
import { adminAccount, screenHtml, type Account } from "./admin-helpers";
import { type ApiProduct, createProductApi, png, tag, visibleText } from "./catalogue-helpers";
import { call, testEnv } from "./helpers";

// The screens of sizes: the product page's size picker (a radio group that works without JavaScript), the grid's
// "Choose Size" for shoes, the admin's sizes table on the product forms, and the dashboard's low-stock list.

const t = tag();
let admin: Account;
let shoe: ApiProduct;
let belt: ApiProduct;

beforeAll(async () => {
  admin = await adminAccount();
  shoe = await createProductApi(admin.token, {
    name: `Picker Runner ${t}`,
    category: "Gents",
    sizes: [
      { label: "EU 41", stockQuantity: 9 },
      { label: "EU 42", stockQuantity: 0 },
      { label: "EU 43", stockQuantity: 2 },
    ],
  });
  belt = await createProductApi(admin.token, { name: `Plain Belt ${t}`, category: "Accessories", stockQuantity: 6 });
});

/** The <input>s of the page's size picker, as attribute maps. */
function radios(html: string): Record<string, string>[] {
  return [...html.matchAll(/<input[^>]*name="sizeId"[^>]*>/g)].map(([tagText]) =>
    Object.fromEntries([...tagText.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)].slice(1).map(([, name, value]) => [name, value ?? ""])),
  );
}

const sizeIdOf = (label: string) => String(shoe.sizes.find((size) => size.label === label)!.id);

async function productForm(cookie: string, fields: Record<string, string>, path = "/add_product"): Promise<Response> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("imageFile", new File([png().bytes], "shoe.png", { type: "image/png" }));
  return call(path, { method: "POST", body: form, headers: { Cookie: cookie, Origin: "http://localhost" } });
}

describe("the product page's size picker", () => {
  it("is a labelled radio group of every size in order; a sold-out size is shown but cannot be chosen", async () => {
    const html = await (await call(`/product/${shoe.id}`)).text();
    expect(html).toMatch(/<fieldset[^>]*>\s*(<!-- -->)?\s*<legend[^>]*>Size<\/legend>/);
    const inputs = radios(html);
    expect(inputs.map((input) => input.value)).toEqual(["EU 41", "EU 42", "EU 43"].map(sizeIdOf));
    expect(inputs.every((input) => input.type === "radio")).toBe(true);
    expect(inputs.map((input) => "disabled" in input)).toEqual([false, true, false]);
    // The few left show on their size, before any script runs.
    expect(html).toMatch(/EU 43<\/span><span[^>]*>2 left/);
    expect(html).toContain(", sold out");
    expect(html).toContain("Sold-out sizes are crossed out.");
    // The form posts to /cart/add and comes back to the page.
    expect(html).toMatch(/<form[^>]*action="\/cart\/add"/);
    expect(html).toContain(`name="redirectTo" value="/product/${shoe.id}"`);
  });

  it("with every size in stock, asks for a size rather than speak of sold-out sizes", async () => {
    const stocked = await createProductApi(admin.token, { name: `Stocked Runner ${t}`, category: "Gents", sizes: [{ label: "EU 41", stockQuantity: 9 }, { label: "EU 42", stockQuantity: 7 }] });
    const html = await (await call(`/product/${stocked.id}`)).text();
    expect(html).toContain("Choose your size.");
    expect(html).not.toContain("Sold-out sizes are crossed out.");
    // Off sale, no size can be chosen: the line does not ask for one.
    const offSale = await createProductApi(admin.token, { name: `Off Sale Runner ${t}`, category: "Gents", productAvailable: false, sizes: [{ label: "EU 41", stockQuantity: 9 }] });
    const offSaleHtml = await (await call(`/product/${offSale.id}`)).text();
    expect(radios(offSaleHtml).every((input) => "disabled" in input)).toBe(true);
    expect(offSaleHtml).not.toContain("Choose your size.");
  });

  it("has the category's size guide (EU, UK, US, foot length)", async () => {
    const html = await (await call(`/product/${shoe.id}`)).text();
    expect(html).toMatch(/<summary[^>]*>Size guide<\/summary>/);
    expect(html).toContain("Gents: find your size");
    expect(html).toMatch(/Foot \(cm\)/);
  });

  it("is not shown for a one-size product, which keeps its plain Add to Cart", async () => {
    const html = await (await call(`/product/${belt.id}`)).text();
    expect(radios(html)).toEqual([]);
    expect(html).toContain(`aria-label="Add to Cart: ${belt.name}"`);
  });

  it("without a chosen size, the form's post comes back with 'Please select a size'", async () => {
    const form = new URLSearchParams({ productId: String(shoe.id), redirectTo: `/product/${shoe.id}` });
    const response = await call("/cart/add", { method: "POST", body: form, headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost" } });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("Location")!, "http://localhost").searchParams.get("cartError")).toBe("Please select a size");
  });

  it("the toast says the cart's own refusals only: text made up in a link shows the plain failure", async () => {
    const toast = async (path: string) => (await (await call(path)).text()).match(/role="status" aria-live="polite"[^>]*><span>([^<]+)<\/span>/)?.[1];
    expect(await toast(`/product/${shoe.id}?cartError=Please+select+a+size`)).toBe("Please select a size");
    expect(await toast(`/?cartError=Cannot+add+more+than+available+stock`)).toBe("Cannot add more than available stock");
    for (const path of [`/product/${shoe.id}`, "/"]) {
      const made = `${path}?cartError=${encodeURIComponent("Your account is locked. Call +94 11 555 0000 to verify your card")}`;
      expect(await toast(made), made).toBe("Could not add this to your cart");
    }
  });

  it("a size chosen after a refusal comes back with the add alone, not the earlier refusal", async () => {
    const back = `/product/${shoe.id}?cartError=Please+select+a+size`;
    const form = new URLSearchParams({ productId: String(shoe.id), sizeId: sizeIdOf("EU 41"), redirectTo: back });
    const response = await call("/cart/add", { method: "POST", body: form, headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/product/${shoe.id}?added=${shoe.id}`);
  });
});

describe("the grid", () => {
  it("sends a shoe's shopper to its page to choose a size, and keeps Add to Cart for a one-size product", async () => {
    const html = await (await call(`/search?keyword=${t}`)).text();
    expect(html).toMatch(new RegExp(`href="/product/${shoe.id}"[^>]*aria-label="Choose Size: ${shoe.name}"`));
    expect(html).not.toContain(`aria-label="Add to Cart: ${shoe.name}"`);
    expect(html).toContain(`aria-label="Add to Cart: ${belt.name}"`);
  });
});

describe("the admin's sizes table", () => {
  const base = { name: "", brand: "Stride", description: "Sized by the form", price: "9990", category: "Gents", releaseDate: "2026-02-01", productAvailable: "on" };

  it("the update form lists the sizes with their stock, and the total", async () => {
    const html = await screenHtml(`/product/update/${shoe.id}`, admin.cookie);
    for (const [i, size] of shoe.sizes.entries()) {
      expect(html).toContain(`name="sizes.${i}.id" value="${size.id}"`);
      expect(html).toMatch(new RegExp(`name="sizes\\.${i}\\.label" value="${size.label}"`));
      expect(html).toMatch(new RegExp(`name="sizes\\.${i}\\.stock" value="${size.stockQuantity}"`));
    }
    expect(html).toMatch(/data-testid="sizes-total"[^>]*>11</);
  });

  it("adding a product with sizes (empty rows skipped) saves them in order", async () => {
    const name = `Form Sized ${t}`;
    const response = await productForm(admin.cookie, {
      ...base,
      name,
      "sizes.0.label": "EU 40",
      "sizes.0.stock": "4",
      "sizes.1.label": "",
      "sizes.1.stock": "",
      "sizes.2.label": "EU 41",
      "sizes.2.stock": "0",
    });
    expect(response.status).toBe(302);
    const { results } = await testEnv.DB.prepare(
      "SELECT s.label, s.stock_quantity AS stock, p.stock_quantity AS total FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE p.name = ? ORDER BY s.position",
    )
      .bind(name)
      .all<{ label: string; stock: number; total: number }>();
    expect(results).toEqual([
      { label: "EU 40", stock: 4, total: 4 },
      { label: "EU 41", stock: 0, total: 4 },
    ]);
  });

  it("a size with stock below zero shows its message on its row and saves nothing", async () => {
    const name = `Form Refused ${t}`;
    const response = await productForm(admin.cookie, { ...base, name, "sizes.0.label": "EU 40", "sizes.0.stock": "2", "sizes.1.label": "EU 41", "sizes.1.stock": "-3" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("A size&#x27;s stock cannot be below zero");
    const row = await testEnv.DB.prepare("SELECT count(*) AS n FROM products WHERE name = ?").bind(name).first<{ n: number }>();
    expect(row!.n).toBe(0);
  });

  it("a label used twice (any case) is named for the row that repeats it, in the form's numbering, and for the list", async () => {
    const form = new FormData();
    const fields = { ...base, name: `Form Twice ${t}`, "sizes.0.label": "EU 40", "sizes.0.stock": "2", "sizes.1.label": "", "sizes.1.stock": "", "sizes.2.label": "EU 41", "sizes.2.stock": "1", "sizes.3.label": "eu 40", "sizes.3.stock": "1" };
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    // The empty row 1 is skipped, yet the rows after it keep their numbers on the page: the repeat is row 3 there.
    const read = await readProductForm(new Request("http://localhost/add_product", { method: "POST", body: form }));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.fieldErrors).toEqual({ "sizes.3.label": ["A size above has this label"], sizes: ["Each size needs its own label"] });
  });

  it("a size's stock below zero is that row's error alone (not the total's too), beside the row's bad label", async () => {
    const form = new FormData();
    const fields = { ...base, name: `Form Negative ${t}`, "sizes.0.label": "", "sizes.0.stock": "-3", "sizes.1.label": "EU 41", "sizes.1.stock": "2" };
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    const read = await readProductForm(new Request("http://localhost/add_product", { method: "POST", body: form }));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.fieldErrors).toEqual({ "sizes.0.label": ["A size needs a label"], "sizes.0.stockQuantity": ["A size's stock cannot be below zero"] });
  });

  it("Remove on the update form removes that size and keeps the others", async () => {
    const created = await createProductApi(admin.token, { name: `Form Remove ${t}`, category: "Gents", sizes: [{ label: "EU 39", stockQuantity: 1 }, { label: "EU 40", stockQuantity: 2 }] });
    const fields: Record<string, string> = { ...base, name: created.name, category: "Gents" };
    created.sizes.forEach((size, i) => Object.assign(fields, { [`sizes.${i}.id`]: String(size.id), [`sizes.${i}.label`]: size.label, [`sizes.${i}.stock`]: String(size.stockQuantity) }));
    fields["sizes.0.remove"] = "on";
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    const response = await call(`/product/update/${created.id}`, { method: "POST", body: form, headers: { Cookie: admin.cookie, Origin: "http://localhost" } });
    expect(response.status).toBe(302);
    const product = (await (await call(`/api/product/${created.id}`)).json()) as ApiProduct;
    expect(product.sizes.map(({ label, stockQuantity }) => [label, stockQuantity])).toEqual([["EU 40", 2]]);
    expect(product.stockQuantity).toBe(2);
  });
});

describe("the dashboard's low-stock list", () => {
  it("lists each product with sizes of 3 units or fewer once, with those sizes, linking to its form at the emptiest", async () => {
    const html = await screenHtml("/admin/dashboard", admin.cookie);
    const list = /data-testid="low-stock"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
    const lines = [...list.matchAll(/<li[^>]*data-testid="low-stock-product"[^>]*>([\s\S]*?)<\/li>/g)].map(([, line]) => line);
    const shoeLines = lines.filter((line) => line.includes(shoe.name));
    expect(shoeLines).toHaveLength(1);
    // At the emptiest size (EU 42, sold out), coming back here once saved (app/lib/restock.ts).
    expect(shoeLines[0]).toContain(`href="/product/update/${shoe.id}?size=${sizeIdOf("EU 42")}&amp;back=%2Fadmin%2Fdashboard"`);
    const text = visibleText(shoeLines[0].replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim();
    // The badge says what is true of the product: one size sold out, not the whole shoe (EU 41 has 9).
    expect(text).toBe(`${shoe.name} Sold out: EU 42 · EU 43: 2 left 1 size sold out`);
    expect(text, "EU 41 has 9").not.toContain("EU 41");
    expect(list).not.toContain(belt.name);
  });

  it("says 'Sold out' only of a product with no pair left in any size; otherwise how many sizes are sold out or low", async () => {
    const made = await Promise.all([
      createProductApi(admin.token, { name: `Gone Boot ${t}`, category: "Gents", sizes: [{ label: "EU 40", stockQuantity: 0 }, { label: "EU 41", stockQuantity: 0 }] }),
      createProductApi(admin.token, { name: `Half Boot ${t}`, category: "Gents", sizes: [{ label: "EU 40", stockQuantity: 0 }, { label: "EU 41", stockQuantity: 0 }, { label: "EU 42", stockQuantity: 7 }] }),
      createProductApi(admin.token, { name: `Low Boot ${t}`, category: "Gents", sizes: [{ label: "EU 40", stockQuantity: 3 }, { label: "EU 41", stockQuantity: 1 }, { label: "EU 42", stockQuantity: 8 }] }),
      createProductApi(admin.token, { name: `Last Belts ${t}`, category: "Accessories", stockQuantity: 2 }),
    ]);
    const html = await screenHtml("/admin/dashboard", admin.cookie);
    const list = /data-testid="low-stock"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
    const lineOf = (name: string) => {
      const line = [...list.matchAll(/<li[^>]*data-testid="low-stock-product"[^>]*>([\s\S]*?)<\/li>/g)].map(([, item]) => item).find((item) => item.includes(name)) ?? "";
      return visibleText(line.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim();
    };
    const [gone, half, low, belts] = made.map((product) => product.name);
    expect(lineOf(gone)).toBe(`${gone} Sold out: EU 40, EU 41 Sold out`);
    expect(lineOf(half)).toBe(`${half} Sold out: EU 40, EU 41 2 sizes sold out`);
    expect(lineOf(low)).toBe(`${low} EU 41: 1 left · EU 40: 3 left 2 sizes low`);
    expect(lineOf(belts)).toBe(`${belts} 2 left`);
  });
});
