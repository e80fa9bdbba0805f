import { beforeAll, describe, expect, it, vi } from "vitest";

import { readProductForm } from "~/lib/product-form.server";
import { adminAccount, customerAccount, screenHtml, setStatus, sizeStockOf, type Account } from "./admin-helpers";
import { type ApiProduct, createProductApi, png, tag, visibleText } from "./catalogue-helpers";
import { call, testEnv } from "./helpers";
import { placeOrder } from "./order-helpers";

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

/** The size picker's form as a browser without JavaScript posts it (a visitor: the cookie cart). */
const addPlain = (fields: Record<string, string>) =>
  call("/cart/add", { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost" } });

/** What a page's toast says (its live region holds the message), or undefined when it is empty. */
/** The toast's message in a page, its apostrophes as typed. */
const toastOf = (html: string) => html.match(/role="status" aria-live="polite"[^>]*><span>([^<]+)<\/span>/)?.[1]?.replace(/&#x27;/g, "'");

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

  it("without a chosen size, the form's post comes back with 'Please select a size', at the picker (its #fragment)", async () => {
    const response = await addPlain({ productId: String(shoe.id), redirectTo: `/product/${shoe.id}` });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, "http://localhost");
    expect(location.pathname).toBe(`/product/${shoe.id}`);
    expect(location.searchParams.get("cartError")).toBe("Please select a size");
    expect(location.hash).toBe(`#size-picker-${shoe.id}`);
  });

  it("a size that is not the product's comes back at the picker too; a refusal of another kind comes back at the top", async () => {
    const notItsSize = await addPlain({ productId: String(shoe.id), sizeId: String(belt.sizes[0].id), redirectTo: `/product/${shoe.id}` });
    expect(notItsSize.status).toBe(302);
    expect(notItsSize.headers.get("Location")).toMatch(new RegExp(`^/product/${shoe.id}\\?cartError=[^#]+#size-picker-${shoe.id}$`));
    // A sold-out size (the toast says it): the page's top, as before.
    const soldOut = await addPlain({ productId: String(shoe.id), sizeId: sizeIdOf("EU 42"), redirectTo: `/product/${shoe.id}` });
    expect(soldOut.status).toBe(302);
    const location = new URL(soldOut.headers.get("Location")!, "http://localhost");
    expect(location.searchParams.get("cartError")).toBe("Cannot add more than available stock");
    expect(location.hash).toBe("");
  });

  it("the page it comes back to says it under the sizes (an alert that describes the group), not in the toast", async () => {
    const html = await (await call(`/product/${shoe.id}?cartError=Please+select+a+size`)).text();
    expect(html).toMatch(new RegExp(`<form id="size-picker-${shoe.id}"[^>]*action="/cart/add"`));
    expect(html).toMatch(new RegExp(`<p id="size-missing-${shoe.id}" role="alert"[^>]*>Please select a size</p>`));
    expect(html).toMatch(new RegExp(`<fieldset aria-describedby="size-missing-${shoe.id} size-hint-${shoe.id}"`));
    expect(toastOf(html)).toBeUndefined();
    // Without a refusal in the address, the picker asks nothing yet.
    const plain = await (await call(`/product/${shoe.id}`)).text();
    expect(plain).not.toContain(`id="size-missing-${shoe.id}"`);
    expect(plain).toMatch(new RegExp(`<fieldset aria-describedby="size-hint-${shoe.id}"`));
  });

  it("the toast says the cart's own refusals only: text made up in a link shows the plain failure", async () => {
    const toast = async (path: string) => toastOf(await (await call(path)).text());
    expect(await toast(`/product/${shoe.id}?cartError=Cannot+add+more+than+available+stock`)).toBe("Cannot add more than available stock");
    expect(await toast(`/?cartError=Cannot+add+more+than+available+stock`)).toBe("Cannot add more than available stock");
    for (const path of [`/product/${shoe.id}`, "/"]) {
      const made = `${path}?cartError=${encodeURIComponent("Your account is locked. Call +94 11 555 0000 to verify your card")}`;
      expect(await toast(made), made).toBe("Could not add this to your cart");
    }
  });

  it("the toast's Close is a link to the page without its one-time parameter, so it closes without JavaScript", async () => {
    const closeOf = (html: string) => html.match(/<a href="([^"]*)"[^>]*>Close<\/a>/)?.[1]?.replace(/&amp;/g, "&");
    expect(closeOf(await (await call(`/product/${belt.id}?image=2&added=${belt.id}`)).text())).toBe(`/product/${belt.id}?image=2`);
    expect(closeOf(await (await call(`/product/${belt.id}?cartError=Cannot+add+more+than+available+stock`)).text())).toBe(`/product/${belt.id}`);
    // No toast, no Close.
    expect(closeOf(await (await call(`/product/${belt.id}`)).text())).toBeUndefined();
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

describe("a save after orders came in while the form was open", () => {
  // The server moves each size's stock by the change typed (stockWas), so pairs sold meanwhile stay sold; the page the
  // save lands on then says, per size, that the stock saved is not the figure typed, and why.
  let customer: Account;
  beforeAll(async () => {
    customer = await customerAccount("Edit Race Shopper");
  });

  /** A Gents shoe at EU 40: 8 and EU 41: 5, as its update form shows it (sizes, stockWas and version). */
  async function shoeOnTheForm(): Promise<ApiProduct & { version: number }> {
    const created = await createProductApi(admin.token, { name: `Edit Race ${crypto.randomUUID().slice(0, 8)} ${t}`, category: "Gents", sizes: [{ label: "EU 40", stockQuantity: 8 }, { label: "EU 41", stockQuantity: 5 }] });
    return created as ApiProduct & { version: number };
  }

  /** The update form's post as a browser sends it: each size's stock as typed, and as the form showed it. */
  function saveForm(product: ApiProduct & { version: number }, typed: Record<string, number>, query = ""): Promise<Response> {
    const form = new FormData();
    const fields: Record<string, string> = { name: product.name, brand: product.brand, description: product.description, price: String(product.price), category: product.category, releaseDate: product.releaseDate, productAvailable: "on", version: String(product.version) };
    product.sizes.forEach((size, i) => Object.assign(fields, { [`sizes.${i}.id`]: String(size.id), [`sizes.${i}.stockWas`]: String(size.stockQuantity), [`sizes.${i}.label`]: size.label, [`sizes.${i}.stock`]: String(typed[size.label] ?? size.stockQuantity) }));
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    return call(`/product/update/${product.id}${query}`, { method: "POST", body: form, headers: { Cookie: admin.cookie, Origin: "http://localhost" } });
  }


  it("2 pairs sold meanwhile: EU 40 typed 10 is saved as 8, and the product page says so for EU 40 alone (nothing sold: the plain toast; the API as before)", async () => {
    const shoe = await shoeOnTheForm();
    const [eu40, eu41] = shoe.sizes;
    await placeOrder(customer.token, [{ productId: shoe.id, sizeId: eu40.id, quantity: 2 }]);
    const response = await saveForm(shoe, { "EU 40": 10, "EU 41": 6 });
    expect(response.status, await response.clone().text()).toBe(302);
    // The rule is kept: the change typed (+2) is applied to what is left (6), and EU 41 (nothing sold) is as typed.
    expect([await sizeStockOf(eu40.id), await sizeStockOf(eu41.id)]).toEqual([8, 6]);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(new RegExp(`^/product/${shoe.id}\\?saved=1&moved=[\\w-]+\\.[\\w-]+$`));
    expect(toastOf(await screenHtml(location, admin.cookie))).toBe("Product saved. EU 40 saved as 8: 2 sold while you were editing.");

    // Saved again from the form as it is now (EU 40 shows 8), nothing sold meanwhile: the plain toast, no note.
    const again = await saveForm({ ...shoe, version: shoe.version + 1, sizes: [{ ...eu40, stockQuantity: 8 }, { ...eu41, stockQuantity: 6 }] }, { "EU 40": 12 });
    expect(again.headers.get("Location")).toBe(`/product/${shoe.id}?saved=1`);
    expect(toastOf(await screenHtml(`/product/${shoe.id}?saved=1`, admin.cookie))).toBe("Product saved");

    // The API's PUT keeps its contract (API.md: 200 Product, the fields GET gives), the stock moved by the change.
    await placeOrder(customer.token, [{ productId: shoe.id, sizeId: eu40.id, quantity: 2 }]); // EU 40: 10 left
    const { id, imageName: _n, imageUrl: _u, averageRating: _a, reviewCount: _r, sizes: _s, version: _v, ...body } = shoe;
    const form = new FormData();
    form.set("product", JSON.stringify({ ...body, sizes: [{ ...eu40, stockWas: 12, stockQuantity: 15 }, { ...eu41, stockWas: 6, stockQuantity: 6 }] }));
    const put = await call(`/api/product/${id}`, { method: "PUT", body: form, headers: { Authorization: `Bearer ${admin.token}` } });
    expect(put.status).toBe(200);
    const answer = (await put.json()) as ApiProduct;
    expect(Object.keys(answer).sort()).toEqual(Object.keys(await (await call(`/api/product/${id}`)).json()).sort());
    expect(answer.sizes.map((size) => size.stockQuantity)).toEqual([13, 6]);
  });

  it("a cancelled order's pairs came back meanwhile: the opposite words", async () => {
    const shoe = await shoeOnTheForm();
    const [eu40] = shoe.sizes;
    const order = await placeOrder(customer.token, [{ productId: shoe.id, sizeId: eu40.id, quantity: 3 }]);
    const onTheForm = { ...shoe, sizes: shoe.sizes.map((size) => (size.id === eu40.id ? { ...size, stockQuantity: 5 } : size)) };
    await setStatus(admin.token, order.id, "CANCELLED"); // EU 40 back to 8 while the form shows 5
    const response = await saveForm(onTheForm, { "EU 40": 4 });
    expect(response.status).toBe(302);
    expect(await sizeStockOf(eu40.id)).toBe(7);
    expect(toastOf(await screenHtml(response.headers.get("Location")!, admin.cookie))).toBe("Product saved. EU 40 saved as 7: 3 came back from a cancellation while you were editing.");
  });

  it("opened from the low-stock list, the list it goes back to says it", async () => {
    const shoe = await shoeOnTheForm();
    const [eu40] = shoe.sizes;
    await placeOrder(customer.token, [{ productId: shoe.id, sizeId: eu40.id, quantity: 7 }]); // EU 40: 1 left
    const response = await saveForm(shoe, { "EU 40": 9 }, `?size=${eu40.id}&back=${encodeURIComponent("/admin/stock?category=Gents")}`);
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(new RegExp(`^/admin/stock\\?category=Gents&saved=${shoe.id}&moved=`));
    expect(await sizeStockOf(eu40.id)).toBe(2);
    expect(toastOf(await screenHtml(location, admin.cookie))).toBe("Product saved. EU 40 saved as 2: 7 sold while you were editing.");
  });

  it("says only what the server signed for that product: an altered note, or another product's, is the plain 'Product saved'", async () => {
    const shoe = await shoeOnTheForm();
    const other = await shoeOnTheForm();
    await placeOrder(customer.token, [{ productId: shoe.id, sizeId: shoe.sizes[0].id, quantity: 1 }]);
    const location = (await saveForm(shoe, { "EU 40": 9 })).headers.get("Location")!;
    const moved = new URL(location, "http://localhost").searchParams.get("moved")!;
    const [payload, signature] = moved.split(".");
    const forged = btoa(JSON.stringify([["Call 0115550000", 0, 5]])).replace(/=+$/, "");
    for (const [path, why] of [
      [`/product/${shoe.id}?saved=1&moved=${forged}.${signature}`, "made-up words under the real signature"],
      [`/product/${shoe.id}?saved=1&moved=${payload}.${signature.slice(0, -2)}AA`, "an altered signature"],
      [`/product/${other.id}?saved=1&moved=${moved}`, "another product's note"],
      [`/admin/stock?saved=${other.id}&moved=${moved}`, "another product's note on the list"],
    ] as const) {
      expect(toastOf(await screenHtml(path, admin.cookie)), why).toBe("Product saved");
    }
    // And the note is the admin's: a shopper on the same address sees the page's plain toast.
    expect(toastOf(await (await call(location)).text())).toBe("Product saved");
  });

  it("says the note on the pages soon after the save, not from a link kept for later", async () => {
    const shoe = await shoeOnTheForm();
    await placeOrder(customer.token, [{ productId: shoe.id, sizeId: shoe.sizes[0].id, quantity: 1 }]);
    const location = (await saveForm(shoe, { "EU 40": 9 })).headers.get("Location")!;
    const later = async (minutes: number) => {
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + minutes * 60_000 });
      try {
        return toastOf(await screenHtml(location, admin.cookie));
      } finally {
        vi.useRealTimers();
      }
    };
    expect(await later(9)).toMatch(/^Product saved\. EU 40 saved as \d+: 1 sold while you were editing\.$/);
    expect(await later(11)).toBe("Product saved");
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
