import { describe, expect, it } from "vitest";

import { sniffFileType } from "~/lib/file-types";
import { imageSize } from "~/lib/image-size";
import { JPEG_1X1, JPEG_300X2, PNG_1X1, PNG_3X260, WEBP_37X21, WEBP_ALPHA_45X19, paddedPng } from "../workers/fixtures/images";

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const size = (bytes: Uint8Array) => imageSize(bytes, sniffFileType(bytes)!);

/** A RIFF/WEBP container holding one chunk. */
function webp(chunk: string, payload: number[]): Uint8Array {
  const body = [...ascii("WEBP"), ...ascii(chunk), payload.length & 0xff, (payload.length >> 8) & 0xff, 0, 0, ...payload];
  return new Uint8Array([...ascii("RIFF"), body.length & 0xff, (body.length >> 8) & 0xff, 0, 0, ...body]);
}

describe("imageSize", () => {
  it("reads PNG's IHDR", () => {
    expect(size(PNG_1X1)).toEqual({ width: 1, height: 1 });
    expect(size(PNG_3X260)).toEqual({ width: 3, height: 260 });
  });

  it("reads a JPEG's frame header after other segments (JFIF, ICC profile)", () => {
    expect(size(JPEG_1X1)).toEqual({ width: 1, height: 1 });
    expect(size(JPEG_300X2)).toEqual({ width: 300, height: 2 });
  });

  it("reads a progressive JPEG (SOF2) and skips fill bytes before a marker", () => {
    // SOI, an APP0 of 4 bytes, two fill bytes, SOF2: length 17, precision 8, height 480, width 640.
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xff, 0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03]);
    expect(size(bytes)).toEqual({ width: 640, height: 480 });
  });

  it("does not take a DHT segment (ffc4) for a frame header", () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xc4, 0x00, 0x07, 0x00, 0x09, 0x09, 0x09, 0x09, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x40, 0x03]);
    expect(size(bytes)).toEqual({ width: 64, height: 32 });
  });

  it("reads WebP: VP8X (as browsers write it), VP8 and VP8L", () => {
    expect(size(WEBP_37X21)).toEqual({ width: 37, height: 21 });
    expect(size(WEBP_ALPHA_45X19)).toEqual({ width: 45, height: 19 });
    // VP8: frame tag (3 bytes), start code 9d 01 2a, width 300 and height 150 (14 bits, little-endian).
    expect(size(webp("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, 0x2c, 0x01, 0x96, 0x00]))).toEqual({ width: 300, height: 150 });
    // VP8L: signature 2f, then (width - 1) = 99 and (height - 1) = 49 packed in 14 bits each.
    const bits = 99 | (49 << 14);
    expect(size(webp("VP8L", [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >> 24) & 0xff, 0, 0, 0, 0, 0]))).toEqual({ width: 100, height: 50 });
  });

  it("reads GIF's logical screen", () => {
    const gif = new Uint8Array([...ascii("GIF89a"), 0x05, 0x00, 0xbc, 0x02, 0, 0, 0]);
    expect(size(gif)).toEqual({ width: 5, height: 700 });
  });

  it("a GIF whose screen is 0 x 0 has its first frame's size, past the colour table and an extension", () => {
    // Screen 0 x 0 with a global colour table of 2 entries (flags 0x80: 3 * 2 bytes), a graphic control extension
    // (21 f9, one sub-block of 4, then 0), then the image descriptor: left 0, top 0, width 12, height 34.
    const gif = new Uint8Array([...ascii("GIF89a"), 0, 0, 0, 0, 0x80, 0, 0, 1, 2, 3, 4, 5, 6, 0x21, 0xf9, 4, 0, 0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 12, 0, 34, 0, 0]);
    expect(size(gif)).toEqual({ width: 12, height: 34 });
  });

  it("a JPEG with stray bytes between its segments is read as libjpeg reads it: on to the next marker", () => {
    // SOI, an APP0 of 4 bytes, three stray bytes, then SOF0: height 2, width 3.
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34, 0x56, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x03, 0x03]);
    expect(size(bytes)).toEqual({ width: 3, height: 2 });
  });

  it("answers null for headers it cannot read, never throws", () => {
    expect(size(PNG_1X1.subarray(0, 20))).toBeNull(); // cut inside IHDR
    expect(size(JPEG_300X2.subarray(0, 200))).toBeNull(); // cut before the frame header
    expect(size(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]))).toBeNull(); // image data before any frame
    expect(size(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0x00]))).toBeNull(); // a segment length below 2
    expect(size(webp("VP8 ", [0, 0, 0, 0x00, 0x00, 0x00, 0x2c, 0x01, 0x96, 0x00]))).toBeNull(); // no start code
    expect(size(webp("ALPH", new Array(12).fill(1)))).toBeNull(); // not a header chunk
    const zeroWide = new Uint8Array(paddedPng(64));
    zeroWide.set([0, 0, 0, 0], 16);
    expect(size(zeroWide)).toBeNull(); // a width of 0 is no picture
    expect(imageSize(new TextEncoder().encode("%PDF-1.4"), "application/pdf")).toBeNull();
  });
});
