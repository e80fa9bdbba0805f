import { beforeAll, describe, expect, it } from "vitest";

import { adminAccount, screenHtml, type Account } from "./admin-helpers";
import { type ApiProduct, createProductApi, expectApiError, postMultipartForm, productBody, productMultipart, sendMultipart, tag } from "./catalogue-helpers";
import { JPEG_300X2, PNG_3X260, WEBP_37X21 } from "./fixtures/images";
import { bucketHoldingPuts, call, testEnv } from "./helpers";
import { cartOk, newCustomer, placeOrder } from "./order-helpers";
import { createDb } from "~/services/db.server";
import { updateProduct } from "~/services/catalogue.server";

// A save from a product form that was loaded before another save of the same product (another admin, another tab)
// is refused with 409 and changes nothing: it would otherwise remove the sizes and pictures that form never showed.
// Orders moving stock meanwhile do not make a form old (stockWas handles them).

const CHANGED = "The product was changed by someone else meanwhile; reload it and try again";
const t = tag();
let admin: Account;

beforeAll(async () => {
  admin = await adminAccount();
});

type Product = ApiProduct & { version: number; images: { id: number; name: string }[] };

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const attr = (tagText: string, name: string) => new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s/>])`).exec(tagText);

/** The update form as the page serves it: every field a browser would send, as name/value pairs, in page order. */
async function servedForm(id: number): Promise<[string, string][]> {
  const html = await screenHtml(`/product/update/${id}`, admin.cookie);
  // The product form (the page's header has forms of its own: search, log out).
  const start = html.search(/<form[^>]*multipart\/form-data/);
  const form = html.slice(start, html.indexOf("</form>", start));
  const fields: [string, string][] = [];
  for (const [whole, element] of form.matchAll(/<(input|textarea|select)\b[^>]*>/g)) {
    const name = attr(whole, "name")?.[1];
    if (!name) continue;
    const type = attr(whole, "type")?.[1] ?? "text";
    if (element === "input") {
      if (type === "file" || type === "submit") continue;
      if ((type === "checkbox" || type === "radio") && !attr(whole, "checked")) continue;
      fields.push([name, decode(attr(whole, "value")?.[1] ?? (type === "checkbox" ? "on" : ""))]);
    } else if (element === "textarea") {
      const start = form.indexOf(whole) + whole.length;
      fields.push([name, decode(form.slice(start, form.indexOf("</textarea>", start)))]);
    } else {
      const end = form.indexOf("</select>", form.indexOf(whole));
      const selected = /<option[^>]*selected[^>]*value="([^"]*)"|<option[^>]*value="([^"]*)"[^>]*selected/.exec(form.slice(form.indexOf(whole), end));
      if (selected) fields.push([name, decode(selected[1] ?? selected[2])]);
    }
  }
  return fields;
}

function set(fields: [string, string][], name: string, value: string): [string, string][] {
  const found = fields.some(([key]) => key === name);
  return found ? fields.map(([key, old]) => [key, key === name ? value : old]) : [...fields, [name, value]];
}

function save(id: number, fields: [string, string][], files: { bytes: Uint8Array<ArrayBuffer>; name: string }[] = []): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  for (const file of files) form.append("imageFiles", new File([file.bytes], file.name));
  return postMultipartForm(`/product/update/${id}`, form, { cookie: admin.cookie });
}

async function productJson(id: number): Promise<Product> {
  return (await (await call(`/api/product/${id}`)).json()) as Product;
}

const sizesOf = (product: ApiProduct) => product.sizes.map(({ label, stockQuantity }) => [label, stockQuantity]);

async function shoe(name: string): Promise<Product> {
  return (await createProductApi(admin.token, { name: `${name} ${t}`, category: "Gents", sizes: [{ label: "EU 40", stockQuantity: 5 }, { label: "EU 41", stockQuantity: 2 }] })) as Product;
}

describe("a save from a form loaded before another save of the product", () => {
  it("sizes: B's old form is 409 with the message; A's new size, its stock and the cart line on it stay", async () => {
    const created = await shoe("Stale Sizes");
    const formA = await servedForm(created.id);
    const formB = await servedForm(created.id);
    expect(formB).toContainEqual(["version", String(created.version)]);

    // A adds EU 42 = 7.
    const a = await save(created.id, set(set(formA, "sizes.2.label", "EU 42"), "sizes.2.stock", "7"));
    expect(a.status, await a.clone().text()).toBe(302);
    const afterA = await productJson(created.id);
    expect(sizesOf(afterA)).toEqual([["EU 40", 5], ["EU 41", 2], ["EU 42", 7]]);
    expect(afterA.version).toBe(created.version + 1);
    const eu42 = afterA.sizes.find((size) => size.label === "EU 42")!;
    const customer = await newCustomer();
    await cartOk("POST", `/add?productId=${created.id}&sizeId=${eu42.id}&quantity=2`, customer.token);

    // B, still on the old form, changes EU 40 to 9.
    const b = await save(created.id, set(formB, "sizes.0.stock", "9"));
    expect(b.status).toBe(409);
    const page = await b.text();
    expect(page).toContain(CHANGED);
    expect(page).toContain(`href="/product/update/${created.id}"`);
    const afterB = await productJson(created.id);
    expect(sizesOf(afterB), "nothing of B's save is written").toEqual([["EU 40", 5], ["EU 41", 2], ["EU 42", 7]]);
    expect(afterB.version).toBe(afterA.version);
    const cart = await cartOk("GET", "", customer.token);
    expect(cart.map((line) => [line.sizeLabel, line.quantity])).toEqual([["EU 42", 2]]);

    // Reloaded, B's form shows EU 42 and saves.
    const reloaded = await servedForm(created.id);
    expect(reloaded).toContainEqual(["sizes.2.label", "EU 42"]);
    const again = await save(created.id, set(reloaded, "sizes.0.stock", "9"));
    expect(again.status).toBe(302);
    expect(sizesOf(await productJson(created.id))).toEqual([["EU 40", 9], ["EU 41", 2], ["EU 42", 7]]);
  });

  it("pictures: B's old form (reordering) is 409; the picture A added and A's order stay", async () => {
    const created = (await (
      await sendMultipart(
        "POST",
        "/api/product",
        (() => {
          const form = productMultipart(productBody({ name: `Stale Pictures ${t}` }), null);
          form.append("imageFiles", new File([PNG_3X260], "one.png"));
          form.append("imageFiles", new File([JPEG_300X2], "two.jpg"));
          return form;
        })(),
        admin.token,
      )
    ).json()) as Product;
    const [one, two] = created.images;
    const formA = await servedForm(created.id);
    const formB = await servedForm(created.id);

    const a = await save(created.id, formA, [{ bytes: WEBP_37X21, name: "three.webp" }]);
    expect(a.status, await a.clone().text()).toBe(302);
    const afterA = await productJson(created.id);
    expect(afterA.images.map((image) => image.name)).toEqual(["one.png", "two.jpg", "three.webp"]);

    // B's form never showed three.webp: saved, it would drop it (and put two.jpg first).
    const b = await save(created.id, set(set(formB, `position-${one.id}`, "2"), `position-${two.id}`, "1"));
    expect(b.status).toBe(409);
    expect(await b.text()).toContain(CHANGED);
    const afterB = await productJson(created.id);
    expect(afterB.images.map((image) => image.name)).toEqual(["one.png", "two.jpg", "three.webp"]);
    expect((await testEnv.BUCKET.list({ prefix: `products/${created.id}/` })).objects, "B stored nothing").toHaveLength(3);

    // B's old form with no change at all is refused too: it lists two pictures, so it would remove the third.
    expect((await save(created.id, formB)).status).toBe(409);
    expect((await productJson(created.id)).images).toHaveLength(3);
  });

  it("an order that moved stock meanwhile does not make the form old: the save passes and the pairs stay sold", async () => {
    const created = await shoe("Sold Meanwhile");
    const form = await servedForm(created.id);
    const eu40 = created.sizes[0];
    const customer = await newCustomer();
    await placeOrder(customer.token, [{ productId: created.id, sizeId: eu40.id, quantity: 2 }]);
    expect((await productJson(created.id)).version, "an order is no save of the product").toBe(created.version);

    // The admin, who saw 5, makes it 6 (one more): 5 - 2 sold + 1.
    const response = await save(created.id, set(form, "sizes.0.stock", "6"));
    expect(response.status, await response.clone().text()).toBe(302);
    expect(sizesOf(await productJson(created.id))).toEqual([["EU 40", 4], ["EU 41", 2]]);
  });

  it("the check is in the save's own batch: a save committed while the older one is under way still fails it", async () => {
    const created = await shoe("Stale Race");
    const db = createDb(testEnv.DB);
    // B's upload to R2 (after its reads, before its batch) is held until A has committed.
    const { bucket: slowBucket, uploading: bUploading, release } = bucketHoldingPuts();
    const body = { ...productBody({ name: created.name, category: "Gents" }), version: created.version };
    const webp = { bytes: WEBP_37X21, name: "b.webp", type: "image/webp", width: 37, height: 21 };
    const b = updateProduct(db, slowBucket, created.id, { ...body, sizes: [{ id: created.sizes[0].id, label: "EU 40", stockQuantity: 9 }] }, { added: [webp] }).then(
      () => "saved",
      (error: { status?: number; message?: string }) => `${error.status}: ${error.message}`,
    );
    await bUploading;
    await updateProduct(db, testEnv.BUCKET, created.id, { ...body, sizes: [...created.sizes, { label: "EU 42", stockQuantity: 7 }] }, {});
    release();
    expect(await b).toBe(`409: ${CHANGED}`);
    const after = await productJson(created.id);
    expect(sizesOf(after)).toEqual([["EU 40", 5], ["EU 41", 2], ["EU 42", 7]]);
    expect(after.images).toHaveLength(1);
  });
});

describe("PUT /api/product/{id} and the version", () => {
  const put = (id: number, product: unknown) => sendMultipart("PUT", `/api/product/${id}`, productMultipart(product, null), admin.token);

  it("without a version nothing is refused for its age (API.md's meaning), and the answer carries the new version", async () => {
    const created = await shoe("Versionless");
    expect((await put(created.id, productBody({ name: created.name, stockQuantity: 0 }))).status).toBe(200);
    const response = await put(created.id, { ...productBody({ name: created.name }), sizes: [{ label: "EU 44", stockQuantity: 1 }] });
    expect(response.status).toBe(200);
    const saved = (await response.json()) as Product;
    expect(saved.version).toBe(created.version + 2);
    expect(sizesOf(saved)).toEqual([["EU 44", 1]]);
  });

  it("with the version it loaded, a save passes; with an older one it is 409 and changes nothing", async () => {
    const created = await shoe("Versioned");
    const body = { ...productBody({ name: created.name, category: "Gents" }), sizes: created.sizes.map(({ id, label, stockQuantity }) => ({ id, label, stockQuantity })) };
    const first = await put(created.id, { ...body, version: created.version, sizes: [...body.sizes, { label: "EU 42", stockQuantity: 7 }] });
    expect(first.status, await first.clone().text()).toBe(200);
    const stale = await put(created.id, { ...body, version: created.version, sizes: [{ ...body.sizes[0], stockQuantity: 9 }, body.sizes[1]] });
    expect((await expectApiError(stale, 409)).message).toBe(CHANGED);
    const now = await productJson(created.id);
    expect(sizesOf(now)).toEqual([["EU 40", 5], ["EU 41", 2], ["EU 42", 7]]);
    expect(now.version).toBe(created.version + 1);
  });

  it("/api/openapi.json names the version: in the product answered and in PUT's product part", async () => {
    const document = (await (await call("/api/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    const put = JSON.stringify(document.paths["/api/product/{id}"].put);
    const get = JSON.stringify(document.paths["/api/product/{id}"].get);
    expect(get).toContain('"version"');
    // The request's product part and the 200 answer both hold it; the 409 says what it means.
    expect(put.match(/"version"/g)?.length).toBeGreaterThanOrEqual(2);
    expect(put).toContain("`product.version`");
  });

  it("a version that is no whole number is 400 on its field", async () => {
    const created = await shoe("Bad Version");
    const error = await expectApiError(await put(created.id, { ...productBody({ name: created.name }), version: "1" }), 400);
    expect(error.fieldErrors?.version).toEqual(["version must be a number"]);
    expect((await productJson(created.id)).version).toBe(created.version);
  });
});
