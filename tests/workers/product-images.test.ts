import { beforeAll, describe, expect, it } from "vitest";

import { countProducts, expectApiError, getJson, productBody, r2Keys, sendMultipart, type ApiProduct, type ProductBody } from "./catalogue-helpers";
import { JPEG_300X2, PNG_1X1, PNG_3X260, TEXT_BYTES, WEBP_37X21, paddedPng, sameBytes } from "./fixtures/images";
import { authHeader, call, registerAdmin, testEnv } from "./helpers";
import type { ImageUpload } from "~/services/catalogue.server";
import { createDb } from "~/services/db.server";
import { savePictures } from "~/services/product-images.server";

// Several pictures a product through the API: POST/PUT with imageFile, repeated imageFiles and the images part;
// GET /api/product/{id}/images/{n}; the limits (8 pictures, 5 MB each, image types by their bytes).

interface Picture {
  id: number;
  url: string;
  width: number | null;
  height: number | null;
  alt: string;
  altText: string | null;
  name: string;
  type: string;
}
type WithImages = ApiProduct & { images: Picture[] };
type File_ = { bytes: Uint8Array<ArrayBuffer>; name: string };

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
const png3 = (name = "tall.png"): File_ => ({ bytes: PNG_3X260, name });
const jpg = (name = "wide.jpg"): File_ => ({ bytes: JPEG_300X2, name });
const webp = (name = "small.webp"): File_ => ({ bytes: WEBP_37X21, name });
const tiny = (name = "tiny.png"): File_ => ({ bytes: PNG_1X1, name });

let token: string;
beforeAll(async () => {
  token = (await registerAdmin()).token;
});

/** A product multipart body: `product`, then an optional imageFile, the imageFiles and an optional images part. */
function form(product: ProductBody, { imageFile, imageFiles = [], images }: { imageFile?: File_; imageFiles?: File_[]; images?: unknown } = {}): FormData {
  const body = new FormData();
  body.set("product", JSON.stringify(product));
  if (imageFile) body.set("imageFile", new File([imageFile.bytes], imageFile.name, { type: "image/png" }));
  for (const file of imageFiles) body.append("imageFiles", new File([file.bytes], file.name, { type: "application/octet-stream" }));
  if (images !== undefined) body.set("images", typeof images === "string" ? images : JSON.stringify(images));
  return body;
}

async function create(files: Parameters<typeof form>[1], overrides: Partial<ProductBody> = {}): Promise<WithImages> {
  const response = await sendMultipart("POST", "/api/product", form(productBody(overrides), files), token);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as WithImages;
}

async function put(product: WithImages, files: Parameters<typeof form>[1], status = 200) {
  const { id: _id, imageName: _n, imageUrl: _u, averageRating: _a, reviewCount: _r, images: _i, ...body } = product;
  const response = await sendMultipart("PUT", `/api/product/${product.id}`, form(body, files), token);
  expect(response.status, await response.clone().text()).toBe(status);
  return response;
}

/** Runs a request that must fail and checks that no product and no R2 object was written or removed. */
async function expectNothingChanged(send: () => Promise<Response>, status: number) {
  const [products, keys] = [await countProducts(), await r2Keys()];
  const body = await expectApiError(await send(), status);
  expect(await countProducts()).toBe(products);
  expect(await r2Keys()).toEqual(keys);
  return body;
}

const uuidOf = (url: string) => new URL(url, "http://x").searchParams.get("v");
const bytesOf = async (path: string) => new Uint8Array(await (await call(path)).arrayBuffer());

describe("POST /api/product with several pictures", () => {
  it("imageFile and imageFiles, in order: images with sizes from the bytes, alt text, and the first is the card's", async () => {
    const product = await create({ imageFile: png3(), imageFiles: [jpg(), webp()] }, { name: "Trio Runner", brand: "Fleetfoot" });
    expect(product.images.map(({ name, type, width, height }) => ({ name, type, width, height }))).toEqual([
      { name: "tall.png", type: "image/png", width: 3, height: 260 },
      { name: "wide.jpg", type: "image/jpeg", width: 300, height: 2 },
      { name: "small.webp", type: "image/webp", width: 37, height: 21 },
    ]);
    expect(product.images.map((image) => image.alt)).toEqual([1, 2, 3].map((n) => `Fleetfoot Trio Runner, picture ${n} of 3`));
    product.images.forEach((image, index) => expect(image.url).toMatch(new RegExp(`^/api/product/${product.id}/images/${index + 1}\\?v=[0-9a-f-]{36}$`)));
    expect(product.imageName).toBe("tall.png");
    expect(uuidOf(product.imageUrl!)).toBe(uuidOf(product.images[0].url));
    expect(await r2Keys(`products/${product.id}/`)).toHaveLength(3);
    expect(await getJson(`/api/product/${product.id}`)).toEqual(product);
  });

  it("imageFiles alone: the first of them is the first picture", async () => {
    const product = await create({ imageFiles: [webp("a.webp"), tiny("b.png")] });
    expect(product.images.map((image) => image.name)).toEqual(["a.webp", "b.png"]);
    expect(product.imageName).toBe("a.webp");
    const first = await call(`/api/product/${product.id}/image`);
    expect(first.headers.get("Content-Type")).toBe("image/webp");
    expect(sameBytes(new Uint8Array(await first.arrayBuffer()), WEBP_37X21)).toBe(true);
  });

  it("8 pictures are accepted", async () => {
    const product = await create({ imageFiles: Array.from({ length: 8 }, (_, i) => tiny(`p${i}.png`)) });
    expect(product.images).toHaveLength(8);
  });

  it("a ninth picture is 400 with fieldErrors.imageFiles, and nothing is written", async () => {
    const nine = Array.from({ length: 8 }, (_, i) => tiny(`p${i}.png`));
    const a = await expectNothingChanged(() => sendMultipart("POST", "/api/product", form(productBody(), { imageFile: tiny(), imageFiles: nine }), token), 400);
    expect(a.fieldErrors?.imageFiles?.[0]).toMatch(/at most 8/);
    await expectNothingChanged(() => sendMultipart("POST", "/api/product", form(productBody(), { imageFiles: [...nine, tiny()] }), token), 400);
  });

  it("a PDF among the pictures is 415 naming it, and nothing is written", async () => {
    const body = await expectNothingChanged(
      () => sendMultipart("POST", "/api/product", form(productBody(), { imageFile: tiny(), imageFiles: [jpg(), { bytes: PDF, name: "catalogue.jpg" }] }), token),
      415,
    );
    expect(body.fieldErrors?.imageFiles?.[0]).toContain("catalogue.jpg");
  });

  it("text posing as a picture is 415; a picture over 5 MB is 413; nothing is written", async () => {
    await expectNothingChanged(() => sendMultipart("POST", "/api/product", form(productBody(), { imageFiles: [{ bytes: TEXT_BYTES, name: "x.png" }] }), token), 415);
    const big = await expectNothingChanged(() => sendMultipart("POST", "/api/product", form(productBody(), { imageFiles: [tiny(), { bytes: paddedPng(5 * 1024 * 1024 + 1), name: "big.png" }] }), token), 413);
    expect(big.fieldErrors?.imageFiles?.[0]).toMatch(/5 MB/);
  });
});

describe("GET /api/product/{id}/images/{n}", () => {
  let product: WithImages;
  beforeAll(async () => {
    product = await create({ imageFiles: [png3(), jpg(), webp()] });
  });

  it("serves picture n's bytes with its real type", async () => {
    expect(sameBytes(await bytesOf(`/api/product/${product.id}/images/1`), PNG_3X260)).toBe(true);
    const second = await call(`/api/product/${product.id}/images/2`);
    expect(second.status).toBe(200);
    expect(second.headers.get("Content-Type")).toBe("image/jpeg");
    expect(sameBytes(new Uint8Array(await second.arrayBuffer()), JPEG_300X2)).toBe(true);
    expect((await call(`/api/product/${product.id}/images/3`)).headers.get("Content-Type")).toBe("image/webp");
  });

  it("a strong ETag per picture, 304 on If-None-Match, immutable with the url's ?v= and revalidated without", async () => {
    const bare = await call(`/api/product/${product.id}/images/2`);
    const etag = bare.headers.get("ETag")!;
    await bare.arrayBuffer();
    expect(etag).toBe(`"${uuidOf(product.images[1].url)}"`);
    expect(bare.headers.get("Cache-Control")).not.toContain("immutable");
    const cached = await call(`/api/product/${product.id}/images/2`, { headers: { "If-None-Match": `W/${etag}` } });
    expect(cached.status).toBe(304);
    expect((await cached.arrayBuffer()).byteLength).toBe(0);
    const other = await call(`/api/product/${product.id}/images/3`, { headers: { "If-None-Match": etag } });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    const versioned = await call(product.images[1].url);
    expect(versioned.headers.get("Cache-Control")).toContain("immutable");
    await versioned.arrayBuffer();
  });

  it("404 for a picture it does not have, a bad n, or a missing product", async () => {
    for (const n of ["4", "9", "0", "-1", "abc", "1.5"]) await expectApiError(await call(`/api/product/${product.id}/images/${n}`), 404);
    const missing = await expectApiError(await call("/api/product/999999/images/1"), 404);
    expect(missing.message).toMatch(/product/i);
  });
});

describe("PUT /api/product/{id} and pictures", () => {
  it("without any picture part keeps every picture as it was", async () => {
    const product = await create({ imageFiles: [png3(), jpg()] });
    const keys = await r2Keys(`products/${product.id}/`);
    const updated = (await (await put({ ...product, name: "Renamed Pair" }, {})).json()) as WithImages;
    expect(updated.name).toBe("Renamed Pair");
    expect(updated.images).toEqual(product.images.map((image) => ({ ...image, alt: image.alt.replace(product.name, "Renamed Pair") })));
    expect(await r2Keys(`products/${product.id}/`)).toEqual(keys);
  });

  it("`images` reorders, removes (its R2 object too) and describes; the new first becomes the card's picture", async () => {
    const product = await create({ imageFiles: [png3("a.png"), jpg("b.jpg"), webp("c.webp")] }, { brand: "Orderly", name: "Shuffle" });
    const [a, b, c] = product.images;
    const removedKey = (await r2Keys(`products/${product.id}/`)).find((key) => key.endsWith(uuidOf(b.url)!))!;
    const updated = (await (await put(product, { images: [{ id: c.id, altText: "from above" }, { id: a.id }] })).json()) as WithImages;
    expect(updated.images.map((image) => [image.id, image.name, image.altText])).toEqual([
      [c.id, "c.webp", "from above"],
      [a.id, "a.png", null],
    ]);
    expect(updated.images[0].alt).toBe("Orderly Shuffle, picture 1 of 2: from above");
    expect(updated.images[0].url).toBe(`/api/product/${product.id}/images/1?v=${uuidOf(c.url)}`);
    expect(updated.imageName).toBe("c.webp");
    expect(uuidOf(updated.imageUrl!)).toBe(uuidOf(c.url));
    expect(sameBytes(await bytesOf(`/api/product/${product.id}/image`), WEBP_37X21)).toBe(true);
    expect(await r2Keys(`products/${product.id}/`)).toHaveLength(2);
    expect(await r2Keys(removedKey)).toEqual([]);
  });

  it("imageFile replaces the first picture (its R2 object goes), the others stay", async () => {
    const product = await create({ imageFiles: [png3("old-first.png"), jpg("second.jpg")] });
    const oldFirst = uuidOf(product.images[0].url)!;
    const updated = (await (await put(product, { imageFile: webp("new-first.webp") })).json()) as WithImages;
    expect(updated.images.map((image) => image.name)).toEqual(["new-first.webp", "second.jpg"]);
    expect(updated.images[1].id).toBe(product.images[1].id);
    expect((await r2Keys(`products/${product.id}/`)).some((key) => key.endsWith(oldFirst))).toBe(false);
  });

  it("imageFiles are added after the others, up to 8 in all; one more is 400 and changes nothing", async () => {
    const product = await create({ imageFiles: Array.from({ length: 6 }, (_, i) => tiny(`p${i}.png`)) });
    const updated = (await (await put(product, { imageFiles: [jpg("p6.jpg"), webp("p7.webp")] })).json()) as WithImages;
    expect(updated.images.map((image) => image.name)).toEqual(["p0.png", "p1.png", "p2.png", "p3.png", "p4.png", "p5.png", "p6.jpg", "p7.webp"]);
    const body = await expectNothingChanged(() => put(updated, { imageFiles: [tiny("ninth.png")] }, 400), 400);
    expect(body.fieldErrors?.imageFiles?.[0]).toMatch(/at most 8/);
    expect(((await getJson(`/api/product/${product.id}`)) as WithImages).images).toEqual(updated.images);
  });

  it("a PDF among new pictures is 415 and changes nothing", async () => {
    const product = await create({ imageFiles: [tiny()] });
    await expectNothingChanged(() => put(product, { imageFiles: [jpg(), { bytes: PDF, name: "spec.pdf" }] }, 415), 415);
    expect(((await getJson(`/api/product/${product.id}`)) as WithImages).images).toEqual(product.images);
  });

  it("a file that only begins like a PNG (its header cut off) is 415 and changes nothing", async () => {
    const product = await create({ imageFiles: [tiny()] });
    const cut = { bytes: PNG_1X1.subarray(0, 16), name: "cut.png" };
    const body = await expectNothingChanged(() => put(product, { imageFiles: [cut] }, 415), 415);
    expect(body).toEqual({ message: "Image must be a JPEG, PNG, WebP or GIF picture (cut.png)", fieldErrors: { imageFiles: ["Image must be a JPEG, PNG, WebP or GIF picture (cut.png)"] } });
    expect(((await getJson(`/api/product/${product.id}`)) as WithImages).images).toEqual(product.images);
  });

  const bad: [string, unknown, RegExp][] = [
    ["no picture left", [], /at least one/],
    ["an id of no picture of this product", "other", /No such picture/],
    ["a picture listed twice", "twice", /twice/],
    ["an id sent as a string", "string", /number/],
    ["not JSON", "{oops", /json/i],
  ];
  for (const [label, images, message] of bad) {
    it(`\`images\` with ${label} is 400 and changes nothing`, async () => {
      const product = await create({ imageFiles: [tiny("one.png"), jpg("two.jpg")] });
      const stranger = await create({ imageFiles: [tiny()] });
      const [one] = product.images;
      const part =
        images === "other" ? [{ id: stranger.images[0].id }] : images === "twice" ? [{ id: one.id }, { id: one.id }] : images === "string" ? [{ id: String(one.id) }] : images;
      const body = await expectNothingChanged(() => put(product, { images: part }, 400), 400);
      expect(JSON.stringify(body)).toMatch(message);
      expect(((await getJson(`/api/product/${product.id}`)) as WithImages).images).toEqual(product.images);
    });
  }

  it("an alt text over 200 characters is 400", async () => {
    const product = await create({ imageFiles: [tiny()] });
    const body = await expectNothingChanged(() => put(product, { images: [{ id: product.images[0].id, altText: "x".repeat(201) }] }, 400), 400);
    // Named by the part and the picture's place in it, as a field of the product part is by its name.
    expect(Object.keys((body as { fieldErrors: Record<string, string[]> }).fieldErrors)).toEqual(["images.0.altText"]);
  });
});

describe("the save's places for new pictures (addedAt: the product form's order)", () => {
  const upload = (name: string, altText: string | null = null): ImageUpload => ({ bytes: PNG_1X1, type: "image/png", name, width: 1, height: 1, altText });

  it("puts each new picture at its place among the kept ones, with its alt text, and the first becomes the card's", async () => {
    const product = await create({ imageFiles: [tiny("a.png"), jpg("b.jpg")] });
    const [a, b] = product.images;
    await savePictures(createDb(testEnv.DB), testEnv.BUCKET, product.id, { keep: [{ id: b.id }, { id: a.id }], added: [upload("n0.png", "the new front"), upload("n1.png")], addedAt: [0, 2] });
    const saved = (await getJson(`/api/product/${product.id}`)) as WithImages;
    expect(saved.images.map((image) => [image.name, image.altText])).toEqual([
      ["n0.png", "the new front"],
      ["b.jpg", null],
      ["n1.png", null],
      ["a.png", null],
    ]);
    expect(saved.imageName).toBe("n0.png");
  });

  // Two pictures kept, and this many new ones at these places.
  for (const [what, count, addedAt] of [
    ["a place past the end", 1, [3]],
    ["two new pictures at one place", 2, [0, 0]],
    ["fewer places than new pictures", 2, [1]],
  ] as const) {
    it(`${what} is 400 and changes nothing`, async () => {
      const product = await create({ imageFiles: [tiny("a.png"), jpg("b.jpg")] });
      const added = Array.from({ length: count }, (_, n) => upload(`n${n}.png`));
      const [keys, db] = [await r2Keys(), createDb(testEnv.DB)];
      await expect(savePictures(db, testEnv.BUCKET, product.id, { added, addedAt: [...addedAt] })).rejects.toMatchObject({ status: 400, message: "The new pictures' places do not fit the list of pictures" });
      expect(((await getJson(`/api/product/${product.id}`)) as WithImages).images).toEqual(product.images);
      expect(await r2Keys()).toEqual(keys);
    });
  }
});

describe("DELETE /api/product/{id} with several pictures", () => {
  it("removes every picture from R2", async () => {
    const product = await create({ imageFiles: [png3(), jpg(), webp()] });
    expect(await r2Keys(`products/${product.id}/`)).toHaveLength(3);
    const response = await call(`/api/product/${product.id}`, { method: "DELETE", headers: authHeader(token) });
    expect(response.status).toBe(204);
    expect(await r2Keys(`products/${product.id}/`)).toEqual([]);
    await expectApiError(await call(`/api/product/${product.id}/images/2`), 404);
  });
});

describe("OpenAPI", () => {
  it("documents the pictures endpoint and the new multipart fields", async () => {
    const doc = await getJson<{ paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>> }>(
      "/api/openapi.json",
    );
    expect(doc.paths["/api/product/{id}/images/{n}"]?.get).toBeDefined();
    for (const [path, method] of [["/api/product", "post"], ["/api/product/{id}", "put"]] as const) {
      const fields = doc.paths[path][method].requestBody!.content["multipart/form-data"].schema.properties;
      expect(Object.keys(fields).sort(), `${method} ${path}`).toEqual(["imageFile", "imageFiles", "images", "product"]);
    }
    expect(JSON.stringify(doc.paths["/api/product/{id}"].get)).toContain('"images"');
  });
});
