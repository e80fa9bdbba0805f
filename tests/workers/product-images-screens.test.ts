import { beforeAll, describe, expect, it } from "vitest";

import { countProducts, postMultipartForm, productBody, r2Keys, screenProductForm, sendMultipart, visibleText, type ApiProduct } from "./catalogue-helpers";
import { JPEG_300X2, PNG_1X1, PNG_3X260, WEBP_37X21 } from "./fixtures/images";
import { call, registerAdmin } from "./helpers";
import { readProductForm } from "~/lib/product-form.server";

// The pictures on the screens, without JavaScript: the product page's gallery (?image=n) and the admin forms
// (a multiple file input; the update form's position boxes, "Make first" radio, alt texts and Remove boxes).

interface Picture {
  id: number;
  url: string;
  name: string;
  alt: string;
  altText: string | null;
}
type WithImages = ApiProduct & { images: Picture[] };

let token: string;
let cookie: string;
beforeAll(async () => {
  const admin = await registerAdmin();
  token = admin.token;
  cookie = `stride_session=${admin.token}`;
});

const file = (bytes: Uint8Array<ArrayBuffer>, name: string) => new File([bytes], name, { type: "application/octet-stream" });

async function createWith(files: [Uint8Array<ArrayBuffer>, string][], overrides: Partial<ReturnType<typeof productBody>> = {}): Promise<WithImages> {
  const form = new FormData();
  form.set("product", JSON.stringify(productBody(overrides)));
  for (const [bytes, name] of files) form.append("imageFiles", file(bytes, name));
  const response = await sendMultipart("POST", "/api/product", form, token);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as WithImages;
}

const productJson = async (id: number) => (await (await call(`/api/product/${id}`)).json()) as WithImages;
const html = async (path: string) => visibleText(await (await call(path, { headers: { Cookie: cookie } })).text());
/** The first <input> that has every one of these attributes, in any order. */
function inputWith(page: string, attributes: Record<string, string>): string | undefined {
  return page.match(/<input\b[^>]*>/g)?.find((tag) => Object.entries(attributes).every(([name, value]) => tag.includes(` ${name}="${value}"`)));
}

/** The attributes of the first <img> whose alt is `alt`. */
function imgWithAlt(page: string, alt: string): string | undefined {
  return page.match(/<img\b[^>]*>/g)?.find((tag) => tag.includes(`alt="${alt}"`));
}

describe("product page gallery", () => {
  let product: WithImages;
  beforeAll(async () => {
    product = await createWith([[PNG_3X260, "tall.png"], [JPEG_300X2, "wide.jpg"], [WEBP_37X21, "small.webp"]], { brand: "Galleria", name: "Trio Boot" });
  });

  it("shows the first picture large, with its width and height, and a thumbnail link per picture", async () => {
    const page = await html(`/product/${product.id}`);
    const main = page.match(/data-testid="gallery-main"[\s\S]*?(<img\b[^>]*>)/)?.[1];
    expect(main).toContain('alt="Galleria Trio Boot, picture 1 of 3"');
    expect(main).toContain('width="3"');
    expect(main).toContain('height="260"');
    expect(main).toContain(`src="${product.images[0].url}"`);
    for (const n of [1, 2, 3]) expect(page).toContain(`href="?image=${n}"`);
    expect(page.match(/aria-current="true"[^>]*href="\?image=1"|href="\?image=1"[^>]*aria-current="true"/)).not.toBeNull();
    const thumb = imgWithAlt(page, "Galleria Trio Boot, picture 2 of 3");
    expect(thumb).toContain('width="300"');
    expect(thumb).toContain('height="2"');
  });

  it("?image=2 shows the second picture large (no JavaScript needed); a number out of range shows the first", async () => {
    const second = await html(`/product/${product.id}?image=2`);
    const main = second.match(/data-testid="gallery-main"[\s\S]*?(<img\b[^>]*>)/)?.[1];
    expect(main).toContain(`src="${product.images[1].url}"`);
    expect(main).toContain('alt="Galleria Trio Boot, picture 2 of 3"');
    expect(second).toContain('aria-label="Next picture"');
    expect(second.match(/href="\?image=3"[^>]*aria-label="Next picture"/)).not.toBeNull();
    for (const asked of ["99", "0", "abc"]) {
      const page = await html(`/product/${product.id}?image=${asked}`);
      expect(page.match(/data-testid="gallery-main"[\s\S]*?(<img\b[^>]*>)/)?.[1]).toContain(`src="${product.images[0].url}"`);
    }
  });
});

describe("add product screen with several pictures", () => {
  it("the multiple file input's pictures are saved in the order chosen", async () => {
    const form = screenProductForm({ name: "Screen Trio" }, null);
    for (const [bytes, name] of [[WEBP_37X21, "one.webp"], [PNG_1X1, "two.png"], [JPEG_300X2, "three.jpg"]] as const) form.append("imageFiles", file(bytes, name));
    const response = await postMultipartForm("/add_product", form, { cookie });
    expect(response.status, await response.clone().text()).toBe(302);
    const id = Number(response.headers.get("Location")!.match(/^\/product\/(\d+)/)![1]);
    expect((await productJson(id)).images.map((image) => image.name)).toEqual(["one.webp", "two.png", "three.jpg"]);
  });

  it("nine pictures are refused with the message under the file input, and nothing is written", async () => {
    const [products, keys] = [await countProducts(), await r2Keys()];
    const form = screenProductForm({ name: "Screen Nine" }, null);
    for (let i = 0; i < 9; i++) form.append("imageFiles", file(PNG_1X1, `p${i}.png`));
    const response = await postMultipartForm("/add_product", form, { cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/<p id="imageFiles-error"[^>]*>A product has at most 8 pictures<\/p>/);
    expect(await countProducts()).toBe(products);
    expect(await r2Keys()).toEqual(keys);
  });
});

describe("update product screen and pictures", () => {
  it("lists the current pictures with a position, a Make first radio, an alt text and a Remove box each", async () => {
    const product = await createWith([[PNG_1X1, "a.png"], [JPEG_300X2, "b.jpg"]]);
    const page = await html(`/product/update/${product.id}`);
    for (const [index, image] of product.images.entries()) {
      expect(inputWith(page, { type: "hidden", name: "picture", value: String(image.id) }), "picture").toBeDefined();
      expect(inputWith(page, { type: "number", name: `position-${image.id}`, value: String(index + 1) }), "position").toBeDefined();
      expect(inputWith(page, { name: `altText-${image.id}` }), "altText").toBeDefined();
      const radio = inputWith(page, { type: "radio", name: "first", value: String(image.id) });
      expect(radio, "first").toBeDefined();
      expect(radio!.includes("checked")).toBe(index === 0);
      expect(inputWith(page, { type: "checkbox", name: "remove", value: String(image.id) }), "remove").toBeDefined();
    }
    expect(inputWith(page, { type: "file", name: "imageFiles", multiple: "" })).toBeDefined();
  });

  it("POST: Remove, positions, Make first, alt text and new pictures together", async () => {
    const product = await createWith([[PNG_1X1, "a.png"], [JPEG_300X2, "b.jpg"], [WEBP_37X21, "c.webp"], [PNG_3X260, "d.png"]]);
    const [a, b, c, d] = product.images;
    const form = screenProductForm({ name: product.name }, null);
    for (const image of product.images) form.append("picture", String(image.id));
    form.set(`position-${a.id}`, "3");
    form.set(`position-${b.id}`, "1");
    form.set(`position-${c.id}`, "2");
    form.set(`position-${d.id}`, "4");
    form.set("first", String(d.id));
    form.append("remove", String(b.id));
    form.set(`altText-${c.id}`, "  the sole  ");
    form.set(`altText-${a.id}`, "");
    form.append("imageFiles", file(PNG_1X1, "new.png"));
    const response = await postMultipartForm(`/product/update/${product.id}`, form, { cookie });
    expect(response.status, await response.clone().text()).toBe(302);
    const updated = await productJson(product.id);
    expect(updated.images.map((image) => [image.name, image.altText])).toEqual([
      ["d.png", null],
      ["c.webp", "the sole"],
      ["a.png", null],
      ["new.png", null],
    ]);
    expect(updated.imageName).toBe("d.png");
    expect((await r2Keys(`products/${product.id}/`)).some((key) => key.endsWith(new URL(b.url, "http://x").searchParams.get("v")!))).toBe(false);
  });

  it("POST with the position boxes alone reorders, though Make first is still on the picture shown first (as a browser sends it)", async () => {
    const product = await createWith([[PNG_1X1, "a.png"], [JPEG_300X2, "b.jpg"], [WEBP_37X21, "c.webp"]]);
    const [a, b, c] = product.images;
    const form = screenProductForm({ name: product.name }, null);
    for (const image of product.images) form.append("picture", String(image.id));
    form.set(`position-${a.id}`, "3");
    form.set(`position-${b.id}`, "1");
    form.set(`position-${c.id}`, "2");
    form.set("first", String(a.id)); // the radio's state as the page was served
    const response = await postMultipartForm(`/product/update/${product.id}`, form, { cookie });
    expect(response.status, await response.clone().text()).toBe(302);
    expect((await productJson(product.id)).images.map((image) => image.name)).toEqual(["b.jpg", "c.webp", "a.png"]);
  });

  it("POST with the order shown (as the form sends it with JavaScript): a new picture first, another between the current ones", async () => {
    const product = await createWith([[PNG_1X1, "a.png"], [JPEG_300X2, "b.jpg"], [WEBP_37X21, "c.webp"]]);
    const [a, b, c] = product.images;
    const form = screenProductForm({ name: product.name }, null);
    for (const image of product.images) form.append("picture", String(image.id));
    form.append("remove", String(b.id));
    // new-1 is the second file sent: the phone's last photo, made the card's picture.
    for (const place of ["new-1", `current-${c.id}`, "new-0", `current-${a.id}`]) form.append("order", place);
    form.append("imageFiles", file(PNG_3X260, "x.png"));
    form.append("imageFiles", file(PNG_1X1, "y.png"));
    form.set("altText-new-0", "  x, from the side  ");
    form.set(`altText-${a.id}`, "a, kept");
    const response = await postMultipartForm(`/product/update/${product.id}`, form, { cookie });
    expect(response.status, await response.clone().text()).toBe(302);
    const updated = await productJson(product.id);
    expect(updated.images.map((image) => [image.name, image.altText])).toEqual([
      ["y.png", null],
      ["c.webp", null],
      ["x.png", "x, from the side"],
      ["a.png", "a, kept"],
    ]);
    expect(updated.imageName).toBe("y.png");
    expect(updated.images[2].alt).toBe(`${product.brand} ${product.name}, picture 3 of 4: x, from the side`);
  });

  it("POST with an order that leaves pictures out or names what is not there: the rest keep their places after the ones named", async () => {
    const product = await createWith([[PNG_1X1, "a.png"], [JPEG_300X2, "b.jpg"]]);
    const [a, b] = product.images;
    const form = screenProductForm({ name: product.name }, null);
    for (const image of product.images) form.append("picture", String(image.id));
    for (const place of ["new-0", "new-0", "new-7", "current-999999", `current-${b.id}`, "first"]) form.append("order", place);
    form.append("imageFiles", file(PNG_1X1, "n0.png"));
    form.append("imageFiles", file(WEBP_37X21, "n1.webp"));
    const response = await postMultipartForm(`/product/update/${product.id}`, form, { cookie });
    expect(response.status, await response.clone().text()).toBe(302);
    expect((await productJson(product.id)).images.map((image) => image.name)).toEqual(["n0.png", "b.jpg", "a.png", "n1.webp"]);
  });

  it("the add form saves each new picture's alt text with it", async () => {
    const form = screenProductForm({ name: "Screen Described" }, null);
    form.append("imageFiles", file(PNG_1X1, "front.png"));
    form.append("imageFiles", file(JPEG_300X2, "sole.jpg"));
    form.set("altText-new-1", "the sole");
    const response = await postMultipartForm("/add_product", form, { cookie });
    expect(response.status, await response.clone().text()).toBe(302);
    const id = Number(response.headers.get("Location")!.match(/^\/product\/(\d+)/)![1]);
    expect((await productJson(id)).images.map((image) => [image.name, image.altText])).toEqual([
      ["front.png", null],
      ["sole.jpg", "the sole"],
    ]);
  });

  it("an alt text refused (a control character) is named under its own field, and nothing changes", async () => {
    const product = await createWith([[PNG_1X1, "a.png"]]);
    const [a] = product.images;
    const form = screenProductForm({ name: product.name }, null);
    form.append("picture", String(a.id));
    form.set(`altText-${a.id}`, "bell\u0007");
    form.append("imageFiles", file(PNG_1X1, "n.png"));
    form.set("altText-new-0", "tab\u0008");
    const read = await readProductForm(new Request(`http://localhost/product/update/${product.id}`, { method: "POST", body: form }));
    expect(read.ok).toBe(false);
    expect(Object.keys(!read.ok ? read.fieldErrors : {}).sort()).toEqual([`altText-${a.id}`, "altText-new-0"]);
    const response = await postMultipartForm(`/product/update/${product.id}`, form, { cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(new RegExp(`<p id="altText-${a.id}-error" class="field-error">Alt text [^<]+</p>`));
    expect((await productJson(product.id)).images).toEqual(product.images);
  });

  it("POST removing every picture and adding none is 400 with the message, and changes nothing", async () => {
    const product = await createWith([[PNG_1X1, "only.png"]]);
    const form = screenProductForm({ name: product.name }, null);
    form.append("picture", String(product.images[0].id));
    form.append("remove", String(product.images[0].id));
    const response = await postMultipartForm(`/product/update/${product.id}`, form, { cookie });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("A product needs at least one picture");
    // The banner points at the field, as for the form's other checks; the spec's failure text is for a save that failed.
    expect(page).toContain("Please correct the highlighted fields.");
    expect(page).not.toContain("Failed to update product");
    expect((await productJson(product.id)).images).toEqual(product.images);
  });
});
