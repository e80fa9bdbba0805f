/**
 * Minimal, dependency-free PNG encoder (Node built-ins only).
 *
 * - 8-bit truecolour. If every pixel is fully opaque the alpha channel is
 *   dropped and colour type 2 (RGB) is written, otherwise colour type 6 (RGBA).
 * - Each scanline gets the PNG filter (None/Sub/Up/Average/Paeth) with the
 *   smallest sum of absolute residuals (the heuristic libpng uses), then the
 *   whole stream is zlib-deflated (level 6).
 */
import { deflateSync } from "node:zlib";

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function writeU32(out: Uint8Array, pos: number, value: number): void {
  out[pos] = (value >>> 24) & 0xff;
  out[pos + 1] = (value >>> 16) & 0xff;
  out[pos + 2] = (value >>> 8) & 0xff;
  out[pos + 3] = value & 0xff;
}

/** Serialises one chunk: length, type, data, CRC32(type + data). */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  writeU32(out, 0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  writeU32(out, 8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Applies the best of the five PNG filters to every row. */
function filterRows(raw: Uint8Array, height: number, stride: number, bpp: number): Uint8Array {
  const out = new Uint8Array(height * (stride + 1));
  const candidates = Array.from({ length: 5 }, () => new Uint8Array(stride));
  const zero = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const row = raw.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? raw.subarray((y - 1) * stride, y * stride) : zero;
    let best = 0;
    let bestScore = Infinity;
    for (let f = 0; f < 5; f++) {
      const dst = candidates[f]!;
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const x = row[i]!;
        const a = i >= bpp ? row[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        let v: number;
        switch (f) {
          case 0: v = x; break;
          case 1: v = x - a; break;
          case 2: v = x - b; break;
          case 3: v = x - ((a + b) >>> 1); break;
          default: v = x - paeth(a, b, c); break;
        }
        v &= 0xff;
        dst[i] = v;
        score += v < 128 ? v : 256 - v;
        if (score >= bestScore) break; // cannot win any more
      }
      if (score < bestScore) {
        bestScore = score;
        best = f;
      }
    }
    // Only losing filters can have stopped early, so the winner's row is complete.
    const o = y * (stride + 1);
    out[o] = best;
    out.set(candidates[best]!, o + 1);
  }
  return out;
}

/**
 * Encodes straight (non-premultiplied) RGBA pixels, row-major, 4 bytes per
 * pixel, as a PNG file.
 */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new RangeError(`encodePng: invalid size ${width}x${height}`);
  }
  if (rgba.length !== width * height * 4) {
    throw new RangeError(`encodePng: expected ${width * height * 4} bytes, got ${rgba.length}`);
  }

  let opaque = true;
  for (let i = 3; i < rgba.length; i += 4) {
    if (rgba[i] !== 255) {
      opaque = false;
      break;
    }
  }

  const bpp = opaque ? 3 : 4;
  let raw: Uint8Array;
  if (opaque) {
    raw = new Uint8Array(width * height * 3);
    for (let s = 0, d = 0; s < rgba.length; s += 4, d += 3) {
      raw[d] = rgba[s]!;
      raw[d + 1] = rgba[s + 1]!;
      raw[d + 2] = rgba[s + 2]!;
    }
  } else {
    raw = rgba;
  }

  const ihdr = new Uint8Array(13);
  writeU32(ihdr, 0, width);
  writeU32(ihdr, 4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = opaque ? 2 : 6; // colour type
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace

  const filtered = filterRows(raw, height, width * bpp, bpp);
  // Level 6: level 9 is ~15x slower on filtered image data for a ~7% smaller file.
  const idat = new Uint8Array(deflateSync(filtered, { level: 6 }));

  const parts = [SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", new Uint8Array(0))];
  const total = parts.reduce((n, p) => n + p.length, 0);
  const png = new Uint8Array(total);
  let pos = 0;
  for (const p of parts) {
    png.set(p, pos);
    pos += p.length;
  }
  return png;
}
