import type { SniffedType } from "./file-types";

export interface ImageSize {
  width: number;
  height: number;
}

// Width and height from a picture's header, so the page can reserve its box (width/height attributes) without
// decoding anything. Only the formats the shop accepts (PNG, JPEG, WebP, GIF); null when the header cannot be read.

export const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
export const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);
export const tagAt = (b: Uint8Array, i: number) => String.fromCharCode(b[i], b[i + 1], b[i + 2], b[i + 3]);

const sized = (width: number, height: number): ImageSize | null => (width > 0 && height > 0 ? { width, height } : null);

function pngSize(b: Uint8Array): ImageSize | null {
  // The signature (8 bytes), then the IHDR chunk: length (4), "IHDR", width (4), height (4), big-endian.
  if (b.length < 24 || tagAt(b, 12) !== "IHDR") return null;
  return sized(u32be(b, 16), u32be(b, 20));
}

function gifSize(b: Uint8Array): ImageSize | null {
  // "GIF89a", then the logical screen's width and height, little-endian.
  if (b.length < 13) return null;
  return sized(u16le(b, 6), u16le(b, 8)) ?? firstFrameSize(b);
}

/**
 * A GIF whose screen says 0 x 0 is shown at its first frame's size, as browsers do: past the global colour table and
 * any extensions, the first image descriptor (",", left, top, width, height).
 */
function firstFrameSize(b: Uint8Array): ImageSize | null {
  let i = 13 + (b[10] & 0x80 ? 3 * 2 ** ((b[10] & 0x07) + 1) : 0);
  while (i < b.length) {
    if (b[i] === 0x2c) return i + 9 <= b.length ? sized(u16le(b, i + 5), u16le(b, i + 7)) : null;
    if (b[i] !== 0x21) return null; // neither an image nor an extension: the end, or not a GIF
    i += 2; // "!" and the extension's label, then its sub-blocks, each prefixed by its length, up to an empty one
    while (i < b.length && b[i] !== 0) i += b[i] + 1;
    i++;
  }
  return null;
}

function webpSize(b: Uint8Array): ImageSize | null {
  if (b.length < 30) return null;
  switch (tagAt(b, 12)) {
    case "VP8 ": // lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height
      if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
      return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
    case "VP8L": {
      // lossless: the signature 0x2f, then width - 1 and height - 1 in 14 bits each, least significant bit first
      if (b[20] !== 0x2f) return null;
      const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
      return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    case "VP8X": // extended: flags (4 bytes), then the canvas width - 1 and height - 1 in 24 bits each
      return sized(u24le(b, 24) + 1, u24le(b, 27) + 1);
    default:
      return null;
  }
}

/** A JPEG's size is in its first SOFn segment, after any number of others (EXIF, tables), each of which says its length. */
function jpegSize(b: Uint8Array): ImageSize | null {
  let i = 2; // after SOI
  while (i < b.length) {
    // Stray bytes between segments: libjpeg warns and looks for the next marker, and browsers show the picture.
    while (i < b.length && b[i] !== 0xff) i++;
    while (b[i] === 0xff) i++; // markers may be padded with fill bytes
    const marker = b[i++];
    if (marker === undefined) return null;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue; // stand-alone markers carry no length
    if (marker === 0xd9 || marker === 0xda) return null; // the image data (or its end) before any frame header
    if (i + 2 > b.length) return null;
    const length = u16be(b, i);
    // SOF0 to SOF15, less DHT (c4), JPG (c8) and DAC (cc): length (2), precision (1), height (2), width (2).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return i + 7 <= b.length ? sized(u16be(b, i + 5), u16be(b, i + 3)) : null;
    }
    if (length < 2) return null;
    i += length;
  }
  return null;
}

/** The picture's width and height in pixels, read from the header of the type its bytes were sniffed as. */
export function imageSize(bytes: Uint8Array, type: SniffedType): ImageSize | null {
  switch (type) {
    case "image/png":
      return pngSize(bytes);
    case "image/gif":
      return gifSize(bytes);
    case "image/webp":
      return webpSize(bytes);
    case "image/jpeg":
      return jpegSize(bytes);
    default:
      return null;
  }
}
