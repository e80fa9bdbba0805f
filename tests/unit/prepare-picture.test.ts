import { describe, expect, it } from "vitest";

import {
  BANK_SLIP_PICTURE,
  carriesMetadata,
  describePreparation,
  formatBytes,
  hasTransparency,
  isAnimated,
  keepPrepared,
  outputTypes,
  pictureFacts,
  preparedName,
  PRODUCT_PICTURE,
  shouldReencode,
  targetSize,
  type PictureFacts,
} from "~/lib/prepare-picture";
import { hasExif, withExif } from "../e2e/photo-helpers";
import { JPEG_1X1, JPEG_300X2, PNG_1X1, WEBP_37X21, WEBP_ALPHA_45X19 } from "../workers/fixtures/images";

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** PNG_1X1 with a chunk (a wrong CRC does not matter here) inserted before its IDAT. */
function pngWithChunk(tag: string, data: number[] = [0]): Uint8Array {
  const idat = 33; // signature (8) + IHDR (25)
  const chunk = [0, 0, 0, data.length, ...ascii(tag), ...data, 0, 0, 0, 0];
  return new Uint8Array([...PNG_1X1.subarray(0, idat), ...chunk, ...PNG_1X1.subarray(idat)]);
}

/** WEBP_37X21 with a chunk appended (the RIFF size is not fixed up: the chunks are walked, not the RIFF size). */
function webpWithChunk(tag: string): Uint8Array {
  return new Uint8Array([...WEBP_37X21, ...ascii(tag), 2, 0, 0, 0, 0, 0]);
}

const facts = (overrides: Partial<PictureFacts>): PictureFacts => ({ type: "image/png", size: { width: 800, height: 600 }, bytes: 100 * 1024, metadata: false, animated: false, ...overrides });

describe("targetSize", () => {
  it("scales a phone photo's longest side down to 1600 px, keeping its shape", () => {
    expect(targetSize({ width: 4000, height: 3000 })).toEqual({ width: 1600, height: 1200 });
    expect(targetSize({ width: 3000, height: 4000 })).toEqual({ width: 1200, height: 1600 });
    expect(targetSize({ width: 4032, height: 3024 })).toEqual({ width: 1600, height: 1200 });
    expect(targetSize({ width: 1601, height: 1601 })).toEqual({ width: 1600, height: 1600 });
  });

  it("leaves a picture of at most 1600 px as it is: never scaled up", () => {
    expect(targetSize({ width: 1200, height: 1600 })).toEqual({ width: 1200, height: 1600 });
    expect(targetSize({ width: 1600, height: 900 })).toEqual({ width: 1600, height: 900 });
    expect(targetSize({ width: 800, height: 600 })).toEqual({ width: 800, height: 600 });
    expect(targetSize({ width: 1, height: 1 })).toEqual({ width: 1, height: 1 });
  });

  it("keeps at least 1 px on the short side of an extreme strip", () => {
    expect(targetSize({ width: 20000, height: 10 })).toEqual({ width: 1600, height: 1 });
    expect(targetSize({ width: 10, height: 20000 })).toEqual({ width: 1, height: 1600 });
    expect(targetSize({ width: 6400, height: 100 })).toEqual({ width: 1600, height: 25 });
  });
});

describe("carriesMetadata and isAnimated", () => {
  it("finds a JPEG's Exif segment (a phone's GPS position), not its JFIF or ICC profile", () => {
    expect(carriesMetadata(JPEG_1X1, "image/jpeg")).toBe(false);
    expect(carriesMetadata(JPEG_300X2, "image/jpeg")).toBe(false);
    const photo = withExif(JPEG_300X2);
    expect(hasExif(photo)).toBe(true);
    expect(carriesMetadata(photo, "image/jpeg")).toBe(true);
  });

  it("finds XMP, IPTC and comment segments in a JPEG", () => {
    const withSegment = (marker: number) => new Uint8Array([0xff, 0xd8, 0xff, marker, 0, 4, 0, 0, ...JPEG_1X1.subarray(2)]);
    expect(carriesMetadata(withSegment(0xe1), "image/jpeg")).toBe(true); // APP1 (XMP as well as Exif)
    expect(carriesMetadata(withSegment(0xed), "image/jpeg")).toBe(true); // APP13, IPTC
    expect(carriesMetadata(withSegment(0xfe), "image/jpeg")).toBe(true); // COM
    expect(carriesMetadata(withSegment(0xe2), "image/jpeg")).toBe(false); // APP2, an ICC profile
  });

  it("finds a PNG's eXIf and text chunks, and a WebP's EXIF and XMP chunks", () => {
    expect(carriesMetadata(PNG_1X1, "image/png")).toBe(false);
    for (const tag of ["eXIf", "tEXt", "zTXt", "iTXt"]) expect(carriesMetadata(pngWithChunk(tag), "image/png")).toBe(true);
    expect(carriesMetadata(pngWithChunk("sRGB"), "image/png")).toBe(false);
    expect(carriesMetadata(WEBP_37X21, "image/webp")).toBe(false);
    expect(carriesMetadata(WEBP_ALPHA_45X19, "image/webp")).toBe(false);
    expect(carriesMetadata(webpWithChunk("EXIF"), "image/webp")).toBe(true);
    expect(carriesMetadata(webpWithChunk("XMP "), "image/webp")).toBe(true);
  });

  it("tells an animated PNG or WebP, and counts every GIF as one", () => {
    expect(isAnimated(PNG_1X1, "image/png")).toBe(false);
    expect(isAnimated(pngWithChunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0]), "image/png")).toBe(true);
    expect(isAnimated(WEBP_37X21, "image/webp")).toBe(false);
    expect(isAnimated(webpWithChunk("ANIM"), "image/webp")).toBe(true);
    expect(isAnimated(JPEG_1X1, "image/jpeg")).toBe(false);
    expect(isAnimated(new Uint8Array(ascii("GIF89a")), "image/gif")).toBe(true);
  });

  it("pictureFacts reads a file's type, size, weight and metadata; null for what is no picture", () => {
    const photo = withExif(JPEG_300X2);
    expect(pictureFacts(photo)).toEqual({ type: "image/jpeg", size: { width: 300, height: 2 }, bytes: photo.length, metadata: true, animated: false });
    expect(pictureFacts(PNG_1X1)).toEqual({ type: "image/png", size: { width: 1, height: 1 }, bytes: PNG_1X1.length, metadata: false, animated: false });
    expect(pictureFacts(new Uint8Array(ascii("%PDF-1.4\n")))).toBeNull();
    expect(pictureFacts(new Uint8Array(ascii("just text")))).toBeNull();
  });
});

describe("shouldReencode", () => {
  it("re-encodes what is too large in pixels, whatever its weight", () => {
    expect(shouldReencode(facts({ size: { width: 4000, height: 3000 }, bytes: 50 * 1024 }))).toBe(true);
    expect(shouldReencode(facts({ type: "image/webp", size: { width: 1000, height: 2000 } }))).toBe(true);
  });

  it("re-encodes a JPEG small in pixels (to strip its metadata), any picture with metadata, and one over 600 KB", () => {
    expect(shouldReencode(facts({ type: "image/jpeg" }))).toBe(true);
    expect(shouldReencode(facts({ metadata: true }))).toBe(true);
    expect(shouldReencode(facts({ bytes: 600 * 1024 + 1 }))).toBe(true);
  });

  it("leaves a light PNG or WebP of at most 1600 px without metadata as it is", () => {
    expect(shouldReencode(facts({}))).toBe(false);
    expect(shouldReencode(facts({ type: "image/webp", size: { width: 1600, height: 1600 }, bytes: 600 * 1024 }))).toBe(false);
  });

  it("never touches a GIF, an animated picture or what is no raster picture", () => {
    expect(shouldReencode(facts({ type: "image/gif", size: { width: 4000, height: 3000 }, bytes: 6 * 1024 * 1024 }))).toBe(false);
    expect(shouldReencode(facts({ type: "image/webp", size: { width: 4000, height: 3000 }, animated: true }))).toBe(false);
    expect(shouldReencode(facts({ type: "application/pdf", size: { width: 4000, height: 3000 } }))).toBe(false);
  });
});

describe("the output", () => {
  it("is a JPEG without transparency, a WebP (else a PNG) with it", () => {
    expect(outputTypes(false)).toEqual(["image/jpeg"]);
    expect(outputTypes(true)).toEqual(["image/webp", "image/png"]);
  });

  it("hasTransparency looks at every pixel's alpha", () => {
    expect(hasTransparency(new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 255]))).toBe(false);
    expect(hasTransparency(new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 254]))).toBe(true);
    expect(hasTransparency(new Uint8ClampedArray([]))).toBe(false);
  });

  it("replaces the chosen file when lighter, or whenever the chosen one carries metadata", () => {
    expect(keepPrepared({ originalBytes: 7_000_000, preparedBytes: 400_000, metadata: false })).toBe(true);
    expect(keepPrepared({ originalBytes: 40_000, preparedBytes: 40_000, metadata: false })).toBe(false);
    expect(keepPrepared({ originalBytes: 40_000, preparedBytes: 52_000, metadata: false })).toBe(false);
    expect(keepPrepared({ originalBytes: 40_000, preparedBytes: 52_000, metadata: true })).toBe(true);
  });

  it("names the file for its new type", () => {
    expect(preparedName("IMG_2041.JPG", "image/jpeg", "image/jpeg")).toBe("IMG_2041.JPG");
    expect(preparedName("logo.png", "image/png", "image/webp")).toBe("logo.webp");
    expect(preparedName("flat.photo.png", "image/png", "image/jpeg")).toBe("flat.photo.jpg");
    expect(preparedName("shoe", "image/png", "image/jpeg")).toBe("shoe.jpg");
    expect(preparedName(".png", "image/png", "image/jpeg")).toBe("picture.jpg");
  });

  it("says what was done in a short line (no-break spaces inside a size and a weight)", () => {
    const said = (preparation: Parameters<typeof describePreparation>[0]) => describePreparation(preparation).replace(/\u00a0/g, "_");
    expect(said({ kind: "resized", size: { width: 1600, height: 1200 }, bytes: 412 * 1024, metadataRemoved: false })).toBe("Resized to 1600_x_1200, 412_KB");
    expect(said({ kind: "resized", size: { width: 1200, height: 1600 }, bytes: 300_000, metadataRemoved: true })).toBe("Resized to 1200_x_1600, 293_KB, metadata removed");
    expect(said({ kind: "reencoded", size: { width: 800, height: 600 }, bytes: 90 * 1024, metadataRemoved: true })).toBe("Metadata removed, 90_KB");
    expect(said({ kind: "reencoded", size: { width: 800, height: 600 }, bytes: 90 * 1024, metadataRemoved: false })).toBe("Compressed to 90_KB");
    expect(said({ kind: "kept", size: { width: 60, height: 40 }, bytes: 700, metadataRemoved: false })).toBe("As chosen, 60_x_40, 700_bytes");
    expect(formatBytes(6.2 * 1024 * 1024)).toBe("6.2\u00a0MB");
  });
});

describe("a bank slip (BANK_SLIP_PICTURE)", () => {
  const slip = BANK_SLIP_PICTURE;

  it("keeps up to 2400 px on the longest side, more than a product picture: small print stays legible", () => {
    expect(slip.maxSide).toBe(2400);
    expect(PRODUCT_PICTURE.maxSide).toBe(1600);
    expect(targetSize({ width: 4000, height: 3000 }, slip.maxSide)).toEqual({ width: 2400, height: 1800 });
    expect(targetSize({ width: 6000, height: 8000 }, slip.maxSide)).toEqual({ width: 1800, height: 2400 }); // 48 MP
    expect(targetSize({ width: 2400, height: 1080 }, slip.maxSide)).toEqual({ width: 2400, height: 1080 });
    expect(targetSize({ width: 1200, height: 900 }, slip.maxSide)).toEqual({ width: 1200, height: 900 }); // never up
  });

  it("re-encodes a photo larger than 2400 px, a JPEG, or a PNG with metadata; leaves a plain PNG of 2000 px as it is", () => {
    expect(shouldReencode(facts({ type: "image/jpeg", size: { width: 4000, height: 3000 }, bytes: 14 * 1024 * 1024, metadata: true }), slip)).toBe(true);
    expect(shouldReencode(facts({ size: { width: 3000, height: 2000 } }), slip)).toBe(true);
    expect(shouldReencode(facts({ type: "image/jpeg", size: { width: 1000, height: 800 } }), slip)).toBe(true);
    expect(shouldReencode(facts({ metadata: true }), slip)).toBe(true);
    expect(shouldReencode(facts({ size: { width: 2000, height: 1500 } }), slip)).toBe(false);
    // The same PNG is too large for a product picture.
    expect(shouldReencode(facts({ size: { width: 2000, height: 1500 } }), PRODUCT_PICTURE)).toBe(true);
  });

  it("prepares only SPEC's slip pictures: a WebP or GIF is sent as chosen (and refused as before), a PDF is never touched", () => {
    expect(slip.from).toEqual(["image/jpeg", "image/png"]);
    expect(shouldReencode(facts({ type: "image/webp", size: { width: 4000, height: 3000 }, bytes: 11 * 1024 * 1024 }), slip)).toBe(false);
    expect(shouldReencode(facts({ type: "image/gif", size: { width: 4000, height: 3000 } }), slip)).toBe(false);
    expect(shouldReencode(facts({ type: "application/pdf", size: { width: 4000, height: 3000 }, bytes: 12 * 1024 * 1024 }), slip)).toBe(false);
  });

  it("becomes a JPEG, or a PNG when it has transparency; never a WebP", () => {
    expect(outputTypes(false, slip)).toEqual(["image/jpeg"]);
    expect(outputTypes(true, slip)).toEqual(["image/png"]);
    expect(slip.to).not.toContain("image/webp");
    // A product picture with transparency still prefers WebP.
    expect(outputTypes(true, PRODUCT_PICTURE)).toEqual(["image/webp", "image/png"]);
  });

  it("says what was done in the slip's quiet line", () => {
    const line = describePreparation({ kind: "resized", size: { width: 1800, height: 2400 }, bytes: 540 * 1024, metadataRemoved: true });
    expect(line.replace(/\u00a0/g, " ")).toBe("Resized to 1800 x 2400, 540 KB, metadata removed");
  });
});
