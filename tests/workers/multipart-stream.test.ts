import { beforeAll, describe, expect, it } from "vitest";

import { countProducts, expectApiError, productBody, r2Keys } from "./catalogue-helpers";
import { JPEG_300X2, PNG_3X260, paddedPng, sameBytes } from "./fixtures/images";
import { authHeader, call, registerAdmin } from "./helpers";

// The admin's picture uploads are read as they stream in (app/lib/multipart.server.ts), not by request.formData():
// bodies sent without a Content-Length (chunked), cut into chunks at every place a delimiter or header can be split,
// pictures whose bytes look like a delimiter, the limits refused as the body streams, and bodies that are not
// well-formed multipart.

const MB = 1024 * 1024;
const encoder = new TextEncoder();
type Part = { name: string; value: string | Uint8Array; filename?: string; headers?: string };

let token: string;
beforeAll(async () => {
  token = (await registerAdmin()).token;
});

/** A multipart body by hand: the byte layout a client may send, which FormData would not let the test choose. */
function multipartBytes(parts: Part[], boundary = "StrideBoundary7MA4YWxk", { close = true } = {}): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  for (const { name, value, filename, headers = "" } of parts) {
    const disposition = `Content-Disposition: form-data; name="${name}"${filename !== undefined ? `; filename="${filename}"` : ""}`;
    chunks.push(encoder.encode(`--${boundary}\r\n${disposition}\r\n${headers}\r\n`), typeof value === "string" ? encoder.encode(value) : value, encoder.encode("\r\n"));
  }
  if (close) chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The bytes as a stream (so the request has no Content-Length), in chunks of the sizes given, repeated. */
function streamOf(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  let offset = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const size = sizes[turn++ % sizes.length];
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

function postProduct(body: BodyInit, contentType: string): Promise<Response> {
  return call("/api/product", { method: "POST", headers: { ...authHeader(token), "Content-Type": contentType }, body });
}

const CONTENT_TYPE = "multipart/form-data; boundary=StrideBoundary7MA4YWxk";
/** A picture whose bytes hold CRLFs, dashes and most of the delimiter, but never all of it. */
const trickyPng = () => {
  const tail = encoder.encode("\r\n--StrideBoundary7MA4YWx\r\n\r\n--\r\n--StrideBoundary7MA4YWxK\r\n");
  const out = new Uint8Array(PNG_3X260.length + tail.length);
  out.set(PNG_3X260);
  out.set(tail, PNG_3X260.length);
  return out;
};

async function pictureBytes(productId: number, n: number): Promise<Uint8Array> {
  return new Uint8Array(await (await call(`/api/product/${productId}/images/${n}`)).arrayBuffer());
}

describe("a product upload read as it streams", () => {
  for (const sizes of [[1], [3, 7, 2], [64, 1, 5]]) {
    it(`chunked in pieces of ${sizes.join(", ")} bytes: every field and picture arrives whole, in order`, async () => {
      const tricky = trickyPng();
      const body = multipartBytes([
        { name: "product", value: JSON.stringify(productBody({ name: `Streamed ${sizes.join("-")}` })) },
        { name: "imageFile", value: tricky, filename: "tricky.png", headers: "Content-Type: image/png\r\n" },
        { name: "imageFiles", value: JPEG_300X2, filename: "wide.jpg" },
        { name: "imageFiles", value: new Uint8Array(0), filename: "" }, // an empty file input: no file chosen
      ]);
      const response = await postProduct(streamOf(body, sizes), CONTENT_TYPE);
      expect(response.status, await response.clone().text()).toBe(201);
      const product = (await response.json()) as { id: number; name: string; images: { name: string; width: number; height: number }[] };
      expect(product.name).toBe(`Streamed ${sizes.join("-")}`);
      expect(product.images.map(({ name, width, height }) => ({ name, width, height }))).toEqual([
        { name: "tricky.png", width: 3, height: 260 },
        { name: "wide.jpg", width: 300, height: 2 },
      ]);
      expect(sameBytes(await pictureBytes(product.id, 1), tricky)).toBe(true);
      expect(sameBytes(await pictureBytes(product.id, 2), JPEG_300X2)).toBe(true);
    });
  }

  it("a quoted boundary, a preamble, and `product` sent as a JSON file part", async () => {
    const boundary = "quoted:boundary=x";
    const body = multipartBytes(
      [
        { name: "product", value: JSON.stringify(productBody({ name: "Quoted Boundary" })), filename: "product.json", headers: "Content-Type: application/json\r\n" },
        { name: "imageFiles", value: PNG_3X260, filename: "a.png" },
      ],
      boundary,
    );
    const withPreamble = new Uint8Array([...encoder.encode("This is the preamble.\r\n"), ...body]);
    const response = await postProduct(streamOf(withPreamble, [100]), `multipart/form-data; boundary="${boundary}"`);
    expect(response.status, await response.clone().text()).toBe(201);
    expect(((await response.json()) as { name: string }).name).toBe("Quoted Boundary");
  });

  it("8 pictures of 5 MB streamed without a Content-Length are accepted, each stored whole", async () => {
    const picture = paddedPng(5 * MB);
    const body = multipartBytes([
      { name: "product", value: JSON.stringify(productBody({ name: "Eight Big" })) },
      ...Array.from({ length: 8 }, (_, i) => ({ name: "imageFiles", value: picture, filename: `big${i}.png` })),
    ]);
    const response = await postProduct(streamOf(body, [256 * 1024]), CONTENT_TYPE);
    expect(response.status, await response.clone().text()).toBe(201);
    const product = (await response.json()) as { id: number; images: unknown[] };
    expect(product.images).toHaveLength(8);
    expect(sameBytes(await pictureBytes(product.id, 8), picture)).toBe(true);
  });
});

describe("refused as the body streams, with nothing written", () => {
  async function expectRefused(body: BodyInit, contentType: string, status: number) {
    const [products, keys] = [await countProducts(), await r2Keys()];
    const answer = await expectApiError(await postProduct(body, contentType), status);
    expect(await countProducts()).toBe(products);
    expect(await r2Keys()).toEqual(keys);
    return answer;
  }

  it("a body past 8 × 5 MB (and the fields' 64 KiB) is 413 with the picture's message", async () => {
    const picture = paddedPng(5 * MB - 1024);
    const body = multipartBytes([
      { name: "product", value: JSON.stringify(productBody()) },
      ...Array.from({ length: 9 }, (_, i) => ({ name: "imageFiles", value: picture, filename: `p${i}.png` })),
    ]);
    const answer = await expectRefused(streamOf(body, [256 * 1024]), CONTENT_TYPE, 413);
    expect(answer).toEqual({ message: "Image must be at most 5 MB", fieldErrors: { imageFile: ["Image must be at most 5 MB"] } });
  });

  it("a ninth picture within the size limit is 400 at most 8; a picture of 5 MB + 1 byte is 413 naming it", async () => {
    const ninth = multipartBytes([
      { name: "product", value: JSON.stringify(productBody()) },
      ...Array.from({ length: 9 }, (_, i) => ({ name: "imageFiles", value: PNG_3X260, filename: `p${i}.png` })),
    ]);
    expect((await expectRefused(streamOf(ninth, [500]), CONTENT_TYPE, 400)).fieldErrors?.imageFiles?.[0]).toMatch(/at most 8/);
    const big = multipartBytes([
      { name: "product", value: JSON.stringify(productBody()) },
      { name: "imageFiles", value: paddedPng(5 * MB + 1), filename: "huge.png" },
    ]);
    expect((await expectRefused(streamOf(big, [256 * 1024]), CONTENT_TYPE, 413)).fieldErrors?.imageFiles).toEqual(["Image must be at most 5 MB (huge.png)"]);
  });

  it("text fields over 64 KiB are 413", async () => {
    const body = multipartBytes([
      { name: "product", value: JSON.stringify(productBody()) },
      { name: "notes", value: "x".repeat(70 * 1024) },
      { name: "imageFiles", value: PNG_3X260, filename: "a.png" },
    ]);
    expect((await expectRefused(streamOf(body, [4096]), CONTENT_TYPE, 413)).message).toBe("Request body too large");
  });

  const malformed: [string, Uint8Array, string][] = [
    ["cut off before its closing delimiter", multipartBytes([{ name: "product", value: "{}" }], undefined, { close: false }), CONTENT_TYPE],
    ["a part without Content-Disposition", encoder.encode("--StrideBoundary7MA4YWxk\r\nContent-Type: text/plain\r\n\r\nhello\r\n--StrideBoundary7MA4YWxk--\r\n"), CONTENT_TYPE],
    ["garbage after a delimiter", encoder.encode("--StrideBoundary7MA4YWxkXX\r\n\r\n"), CONTENT_TYPE],
    ["no boundary in its Content-Type", multipartBytes([{ name: "product", value: "{}" }]), "multipart/form-data"],
    ["headers that never end", encoder.encode(`--StrideBoundary7MA4YWxk\r\nX: ${"y".repeat(20 * 1024)}`), CONTENT_TYPE],
  ];
  for (const [label, bytes, contentType] of malformed) {
    it(`a body ${label} is 400`, async () => {
      const answer = await expectRefused(streamOf(bytes, [1000]), contentType, 400);
      expect(answer.message).toMatch(/multipart/i);
    });
  }
});
