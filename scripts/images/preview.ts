/**
 * Writes one PNG per art kind to /tmp/stride-art/ (or outDir) so the
 * illustrations can be eyeballed, and prints size + time per image.
 *
 *   npx tsx scripts/images/preview.ts [outDir] [--variants] [--sheet]
 *
 *   --variants  also writes <kind>-s2/-s3/-s4.png (same colours, other seeds)
 *   --sheet     also writes _sheet-s<SEED>.png, all kinds at 320 px (SEED env, default 1)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ART_KINDS, drawProduct, renderProduct } from "./product-art.js";
import { encodePng } from "./png.js";
import type { ArtKind } from "./product-art.js";

interface Swatch {
  primary: string;
  secondary: string;
  accent: string;
  background: string;
}

const SWATCHES: Record<ArtKind, Swatch> = {
  sneaker: { primary: "#1f6feb", secondary: "#e9eef5", accent: "#ff6b3d", background: "#e8edf3" },
  runner: { primary: "#ff5a36", secondary: "#2b2f36", accent: "#c6f432", background: "#f3ebe6" },
  boot: { primary: "#9a6434", secondary: "#4a3324", accent: "#d8b36a", background: "#efe8df" },
  "chelsea-boot": { primary: "#3a2a20", secondary: "#1f1d1c", accent: "#b08a5a", background: "#ece6e0" },
  loafer: { primary: "#7a3b1e", secondary: "#4d2412", accent: "#d9b26f", background: "#f1ebe4" },
  oxford: { primary: "#1e1b19", secondary: "#3a2c24", accent: "#9c7a54", background: "#e9e7e4" },
  heel: { primary: "#c8102e", secondary: "#f3d9c6", accent: "#1a1a1a", background: "#f6e9ea" },
  sandal: { primary: "#c98d5b", secondary: "#f0dcc2", accent: "#d4ad52", background: "#f4ede4" },
  flat: { primary: "#f0c6c9", secondary: "#fff4ef", accent: "#2b2b2b", background: "#f7eeee" },
  "kids-sneaker": { primary: "#2ec4b6", secondary: "#ffffff", accent: "#ff9f1c", background: "#e6f5f3" },
  "kids-sandal": { primary: "#ff6f91", secondary: "#ffd166", accent: "#06d6a0", background: "#fdf0f3" },
  slipper: { primary: "#8e9aaf", secondary: "#efe9f4", accent: "#cbc0d3", background: "#eef0f5" },
  bag: { primary: "#8b5a2b", secondary: "#5a3a1c", accent: "#d4ad52", background: "#f2ece5" },
  belt: { primary: "#5b3a1e", secondary: "#3e2714", accent: "#c0c6cc", background: "#eeeae6" },
  wallet: { primary: "#2d2a26", secondary: "#7a5230", accent: "#c9a46a", background: "#ebe8e4" },
  socks: { primary: "#f4f1ea", secondary: "#1f6feb", accent: "#ff6b3d", background: "#e9eef4" },
  cap: { primary: "#14213d", secondary: "#fca311", accent: "#ffffff", background: "#e8ebf1" },
  watch: { primary: "#101820", secondary: "#6b4423", accent: "#e0b04c", background: "#ececec" },
};

const outDir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "/tmp/stride-art";
mkdirSync(outDir, { recursive: true });

const start = performance.now();
let bytes = 0;
let count = 0;
for (const kind of ART_KINDS) {
  const t0 = performance.now();
  const png = drawProduct({ kind, seed: 1, ...SWATCHES[kind] });
  const ms = performance.now() - t0;
  writeFileSync(join(outDir, `${kind}.png`), png);
  bytes += png.length;
  count++;
  console.log(`${kind.padEnd(13)} ${(png.length / 1024).toFixed(1).padStart(6)} KB ${ms.toFixed(0).padStart(5)} ms`);
}
const total = performance.now() - start;
console.log(`\n${count} images, avg ${(bytes / count / 1024).toFixed(1)} KB, total ${(total / 1000).toFixed(2)} s`);

// Seed variants of every kind with the same colours, to check variety.
if (process.argv.includes("--variants")) {
  for (const kind of ART_KINDS) {
    for (const seed of [2, 3, 4]) {
      writeFileSync(join(outDir, `${kind}-s${seed}.png`), drawProduct({ kind, seed, ...SWATCHES[kind] }));
    }
  }
}

// Contact sheet: every kind at 320 px, 6 per row.
if (process.argv.includes("--sheet")) {
  const cell = 320;
  const cols = 6;
  const seed = Number(process.env.SEED ?? 1);
  const rows = Math.ceil(ART_KINDS.length / cols);
  const W = cell * cols;
  const H = cell * rows;
  const sheet = new Uint8Array(W * H * 4).fill(255);
  ART_KINDS.forEach((kind, i) => {
    const { rgba } = renderProduct({ kind, seed, size: cell, ...SWATCHES[kind] });
    const ox = (i % cols) * cell;
    const oy = Math.floor(i / cols) * cell;
    for (let y = 0; y < cell; y++) sheet.set(rgba.subarray(y * cell * 4, (y + 1) * cell * 4), ((oy + y) * W + ox) * 4);
  });
  writeFileSync(join(outDir, `_sheet-s${seed}.png`), encodePng(W, H, sheet));
}
