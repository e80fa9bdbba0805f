import { beforeAll, describe, expect, it } from "vitest";

import { PNG_3X260, JPEG_300X2, WEBP_37X21 } from "./fixtures/images";
import { productBody } from "./catalogue-helpers";
import { authHeader, bucketHoldingPuts, call, registerAdmin, testEnv } from "./helpers";
import { createDb } from "~/services/db.server";
import type { ImageUpload } from "~/services/catalogue.server";
import { savePictures } from "~/services/product-images.server";

// Two saves of one product's pictures at once (two admins, or two tabs): the one that commits second was planned on
// rows that are no longer there. It must not write back a picture row whose R2 object the first save deleted: it
// gets 409, and no row ever names a missing object.

interface Picture {
  id: number;
  name: string;
}

let token: string;
beforeAll(async () => {
  token = (await registerAdmin()).token;
});

function productForm(product: unknown, { images, imageFiles = [] }: { images?: unknown; imageFiles?: { bytes: Uint8Array<ArrayBuffer>; name: string }[] }) {
  const form = new FormData();
  form.set("product", JSON.stringify(product));
  for (const file of imageFiles) form.append("imageFiles", new File([file.bytes], file.name));
  if (images !== undefined) form.set("images", JSON.stringify(images));
  return form;
}

async function createWithTwo(name: string): Promise<{ id: number; body: ReturnType<typeof productBody>; images: Picture[] }> {
  const body = productBody({ name });
  const response = await call("/api/product", {
    method: "POST",
    headers: authHeader(token),
    body: productForm(body, { imageFiles: [{ bytes: PNG_3X260, name: "one.png" }, { bytes: JPEG_300X2, name: "two.jpg" }] }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const created = (await response.json()) as { id: number; images: Picture[] };
  return { id: created.id, body, images: created.images };
}

/** Every picture row of the product whose R2 object is gone. */
async function rowsWithoutObject(productId: number): Promise<string[]> {
  const { results } = await testEnv.DB.prepare("SELECT key FROM product_images WHERE product_id = ?").bind(productId).all<{ key: string }>();
  const missing: string[] = [];
  for (const { key } of results) if (!(await testEnv.BUCKET.head(key))) missing.push(key);
  return missing;
}

const upload = (bytes: Uint8Array, name: string, type: string, width: number, height: number): ImageUpload => ({ bytes, name, type, width, height });

describe("two saves of one product's pictures at once", () => {
  it("the save that read the old pictures and commits second gets 409; nothing names a deleted object", async () => {
    const { id, images } = await createWithTwo("Race Step By Step");
    const [first, second] = images;
    const db = createDb(testEnv.DB);
    // B keeps both pictures and adds a third; its upload to R2 is held until A has committed and deleted `second`.
    const { bucket: slowBucket, uploading: bUploading, release } = bucketHoldingPuts();
    const b = savePictures(db, slowBucket, id, { keep: [{ id: first.id }, { id: second.id }], added: [upload(WEBP_37X21, "three.webp", "image/webp", 37, 21)] }).then(
      () => "saved",
      (error: { status?: number; message?: string }) => `${error.status}: ${error.message}`,
    );
    await bUploading; // B has read the two pictures
    // A removes `second` and commits, deleting its R2 object.
    await savePictures(db, testEnv.BUCKET, id, { keep: [{ id: first.id }] });
    expect(await testEnv.BUCKET.head(`${(await testEnv.DB.prepare("SELECT key FROM product_images WHERE id = ?").bind(first.id).first<{ key: string }>())!.key}`)).not.toBeNull();
    release();
    expect(await b).toBe("409: The product was changed by someone else meanwhile; reload it and try again");
    expect(await rowsWithoutObject(id)).toEqual([]);
    const { results } = await testEnv.DB.prepare("SELECT name FROM product_images WHERE product_id = ? ORDER BY position").bind(id).all<{ name: string }>();
    expect(results.map((row) => row.name), "A's pictures stand").toEqual(["one.png"]);
    // B's upload was removed again: the product's objects are exactly its rows'.
    const listed = await testEnv.BUCKET.list({ prefix: `products/${id}/` });
    expect(listed.objects).toHaveLength(1);
  });

  it("PUT /api/product/{id} twice at once, over and over: every answer is 200, 400 or 409, and every row's object exists", async () => {
    /**
     * Both bodies are sent but for their last bytes, which are let through together, so the two saves read the
     * pictures at the same moment rather than one after the other.
     */
    async function heldBody(form: FormData, gate: Promise<void>) {
      const encoded = new Request("http://stride.test/", { method: "POST", body: form });
      const bytes = new Uint8Array(await encoded.arrayBuffer());
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!sent) {
            sent = true;
            return controller.enqueue(bytes.slice(0, -8));
          }
          await gate;
          controller.enqueue(bytes.slice(-8));
          controller.close();
        },
      });
      return { body, contentType: encoded.headers.get("Content-Type")! };
    }
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const { id, body, images } = await createWithTwo(`Race ${round}`);
      const [first, second] = images;
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const put = async (form: FormData) => {
        const held = await heldBody(form, gate);
        return call(`/api/product/${id}`, { method: "PUT", headers: { ...authHeader(token), "Content-Type": held.contentType }, body: held.body });
      };
      const answers = Promise.all([
        put(productForm(body, { images: [{ id: first.id }] })),
        put(productForm(body, { images: [{ id: first.id }, { id: second.id }], imageFiles: [{ bytes: WEBP_37X21, name: "three.webp" }] })),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      open();
      const statuses = (await answers).map((answer) => answer.status);
      outcomes.add(statuses.join(","));
      // 400: the second save read the pictures after the first had committed, and names one that is gone.
      expect(statuses.every((status) => [200, 400, 409].includes(status)), `round ${round}: ${statuses}`).toBe(true);
      expect(statuses, "at least one save commits").toContain(200);
      expect(await rowsWithoutObject(id), `round ${round} (${statuses}): rows naming deleted objects`).toEqual([]);
      const product = (await (await call(`/api/product/${id}`)).json()) as { images: Picture[] };
      for (let n = 1; n <= product.images.length; n++) expect((await call(`/api/product/${id}/images/${n}`)).status).toBe(200);
    }
    console.log("outcomes (A removes a picture, B keeps it and adds one):", [...outcomes].join(" | "));
  });
});
