/**
 * Procedural product illustrations for the demo catalogue.
 *
 * Every product is drawn in a 1000 x 1000 design space (y grows downwards,
 * shoes point their toe to the right and stand on y = FLOOR). drawProduct()
 * then fits the product's bounding box into the frame, adds a studio
 * backdrop and a soft floor shadow, and encodes the result as PNG.
 */
import { Canvas, Path, alpha, darken, hex, lighten, linear, luminance, mix, radial, rgb } from "./canvas.js";
import type { Color, Paint } from "./canvas.js";
import { encodePng } from "./png.js";

export type ArtKind =
  | "sneaker"
  | "runner"
  | "boot"
  | "chelsea-boot"
  | "loafer"
  | "oxford"
  | "heel"
  | "sandal"
  | "flat"
  | "kids-sneaker"
  | "kids-sandal"
  | "slipper"
  | "bag"
  | "belt"
  | "wallet"
  | "socks"
  | "cap"
  | "watch";

export const ART_KINDS: readonly ArtKind[] = [
  "sneaker", "runner", "boot", "chelsea-boot", "loafer", "oxford", "heel", "sandal", "flat",
  "kids-sneaker", "kids-sandal", "slipper", "bag", "belt", "wallet", "socks", "cap", "watch",
];

export interface DrawProductOptions {
  kind: ArtKind;
  /** Main material colour, hex like "#1f6feb". */
  primary: string;
  /** Secondary material (overlays, lining, straps, sole...). */
  secondary: string;
  /** Small details (logo stripe, heel tab, laces, hands...). */
  accent: string;
  /** Studio backdrop tint. */
  background: string;
  /** Any integer; varies small details so equal kinds still differ. */
  seed: number;
  /** Output width and height in pixels (default 640). */
  size?: number;
  /**
   * The camera: "side" (default, toe to the right), "other-side" (mirrored: the other shoe of the pair, toe to the
   * left) or "close" (nearer, on the front half), so one product gets pictures from several angles.
   */
  view?: "side" | "other-side" | "close";
}

/* ------------------------------------------------------------------ helpers */

const FLOOR = 746;
const WHITE = rgb(255, 255, 255);
const BLACK = rgb(0, 0, 0);

type Rng = () => number;

/** mulberry32: tiny deterministic PRNG. */
function makeRng(seed: number): Rng {
  let a = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length) % items.length]!;
const range = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng();
const int = (rng: Rng, lo: number, hi: number): number => Math.min(hi, lo + Math.floor(rng() * (hi - lo + 1)));

interface Metal {
  light: Color;
  mid: Color;
  dark: Color;
}

const SILVER: Metal = { light: hex("#f7f8fa"), mid: hex("#b9c0c8"), dark: hex("#69717a") };
const GOLD: Metal = { light: hex("#fff3c4"), mid: hex("#d4ad52"), dark: hex("#8a6420") };
const GUNMETAL: Metal = { light: hex("#c3c7cc"), mid: hex("#5d6269"), dark: hex("#2b2e33") };

interface Palette {
  primary: Color;
  secondary: Color;
  accent: Color;
  bg: Color;
  metal: Metal;
}

const isLight = (c: Color): boolean => luminance(c) > 0.45;

/** Near-white or near-black, whichever reads on top of c. */
function contrastOn(c: Color): Color {
  return isLight(c) ? hex("#25282d") : hex("#f8f8f5");
}

/** Colour distance in 0..1 (rough, sRGB). */
function distance(a: Color, b: Color): number {
  return Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b) / 441.7;
}

/** `c` unless it is too close to `against`, then a lighter/darker variant. */
function distinct(c: Color, against: Color, min = 0.12): Color {
  if (distance(c, against) >= min) return c;
  return isLight(against) ? darken(c, 0.35) : lighten(c, 0.35);
}

/** Vertical light-to-dark gradient across a path's bounding box. */
function vshade(path: Path, base: Color, top = 0.14, bottom = 0.16): Paint {
  const b = path.bounds();
  return linear(0, b.y0, 0, b.y1, [
    [0, lighten(base, top)],
    [1, darken(base, bottom)],
  ]);
}

/** Horizontal gradient: darker at both sides (cylindrical look). */
function hshade(path: Path, base: Color, light = 0.14, dark = 0.2): Paint {
  const b = path.bounds();
  return linear(b.x0, 0, b.x1, 0, [
    [0, darken(base, dark)],
    [0.35, lighten(base, light)],
    [0.7, base],
    [1, darken(base, dark)],
  ]);
}

function shaded(c: Canvas, path: Path, base: Color, top = 0.14, bottom = 0.16): void {
  c.fill(path, vshade(path, base, top, bottom));
}

function clipped(c: Canvas, path: Path, draw: () => void): void {
  c.save();
  c.clip(path);
  draw();
  c.restore();
}

/** Soft radial highlight (white) or shade (black). */
function glow(c: Canvas, cx: number, cy: number, rx: number, ry: number, color: Color, strength: number, angle = 0): void {
  c.save();
  c.translate(cx, cy);
  if (angle) c.rotate(angle);
  c.scale(1, ry / rx);
  c.fill(Path.circle(0, 0, rx), radial(0, 0, rx, [
    [0, alpha(color, strength)],
    [0.5, alpha(color, strength * 0.55)],
    [1, alpha(color, 0)],
  ]));
  c.restore();
}

/** Darkening towards the bottom of a region (call inside a clip). */
function bottomShade(c: Canvas, y0: number, y1: number, strength = 0.18): void {
  c.fill(Path.rect(0, y0, 1000, y1 - y0 + 40), linear(0, y0, 0, y1, [
    [0, alpha(BLACK, 0)],
    [1, alpha(BLACK, strength)],
  ]));
}

function stitch(c: Canvas, path: Path, color: Color, width = 2.6, dash: readonly number[] = [9, 7]): void {
  c.stroke(path, color, { width, dash, cap: "round" });
}

function edge(c: Canvas, path: Path, color: Color, width = 2.5): void {
  c.stroke(path, color, { width });
}

/** Region between two offsets (d0, d1) of an open path. */
function band(path: Path, d0: number, d1: number): Path {
  const a = path.offset(d0).subpaths[0]!.pts;
  const b = path.offset(d1).subpaths[0]!.pts;
  const pts = a.slice();
  for (let i = b.length - 2; i >= 0; i -= 2) pts.push(b[i]!, b[i + 1]!);
  return Path.polygon(pts);
}

function metalPaint(metal: Metal, x0: number, y0: number, x1: number, y1: number): Paint {
  return linear(x0, y0, x1, y1, [
    [0, metal.mid],
    [0.3, metal.light],
    [0.55, metal.mid],
    [1, metal.dark],
  ]);
}

/** Metallic ring (eyelet, rivet) with a dark hole. */
function eyelet(c: Canvas, x: number, y: number, r: number, metal: Metal, hole: Color | null): void {
  c.fill(Path.circle(x, y + 1.5, r + 1), alpha(BLACK, 0.25));
  c.fill(Path.circle(x, y, r), metalPaint(metal, x - r, y - r, x + r, y + r));
  if (hole) c.fill(Path.circle(x, y, r * 0.52), hole);
}

/* --------------------------------------------------------------- backdrop */

function backdrop(c: Canvas, pal: Palette): void {
  const bg = pal.bg;
  c.fillAll(linear(0, 0, 0, 1000, [
    [0, lighten(bg, 0.42)],
    [0.5, lighten(bg, 0.3)],
    [0.72, lighten(bg, 0.16)],
    [1, darken(bg, 0.05)],
  ]));
  glow(c, 500, 450, 620, 460, WHITE, 0.5);
}

function floorShadow(c: Canvas, pal: Palette, cx: number, y: number, rx: number, ry: number): void {
  const ink = darken(mix(pal.bg, hex("#2a2f3a"), 0.75), 0.35);
  c.softEllipse(cx, y + ry * 0.1, rx * 1.12, ry * 2.6, alpha(ink, 0.2));
  c.softEllipse(cx, y, rx * 0.96, ry, alpha(ink, 0.3));
  c.softEllipse(cx, y - ry * 0.1, rx * 0.8, ry * 0.35, alpha(ink, 0.22));
}

/* ------------------------------------------------------------ shoe parts */

interface LaceOptions {
  line: Path; // lace line, heel side first, drawn left to right
  count: number;
  from: number; // fraction along the line
  to: number;
  lace: Color;
  metal: Metal | null; // null: stitched fabric eyelets
  hole: Color;
  eyeletR: number;
  barLength: number;
  barWidth: number;
  /** Distance of the eyelet row below the lace line. */
  inset: number;
  /** How much each lace bar leans back towards the heel (0..1). */
  lean?: number;
  /** Criss-cross lacing instead of parallel bars. */
  cross?: boolean;
}

/** Eyelets along a lace line plus lace bars crossing over the top. */
function laces(c: Canvas, o: LaceOptions): void {
  const pos: { x: number; y: number; tx: number; ty: number }[] = [];
  for (let i = 0; i < o.count; i++) {
    const t = o.from + ((o.to - o.from) * i) / Math.max(1, o.count - 1);
    const s = o.line.sample(t);
    pos.push({ x: s.x - s.ty * o.inset, y: s.y + s.tx * o.inset, tx: s.tx, ty: s.ty });
  }
  for (const p of pos) {
    if (o.metal) eyelet(c, p.x, p.y, o.eyeletR, o.metal, o.hole);
    else {
      c.fill(Path.circle(p.x, p.y, o.eyeletR), alpha(BLACK, 0.18));
      c.fill(Path.circle(p.x, p.y, o.eyeletR * 0.6), o.hole);
    }
  }
  const lean = o.lean ?? 0.55;
  const laceDark = darken(o.lace, 0.3);
  const bar = (x0: number, y0: number, x1: number, y1: number): void => {
    const p = Path.polyline([x0, y0, x1, y1]);
    c.stroke(p, alpha(BLACK, 0.2), { width: o.barWidth + 5, cap: "round" });
    c.stroke(p, o.lace, { width: o.barWidth, cap: "round" });
    const dx = x1 - x0;
    const dy = y1 - y0;
    const l = Math.hypot(dx, dy) || 1;
    const sx = (dy / l) * o.barWidth * 0.22;
    const sy = (-dx / l) * o.barWidth * 0.22;
    c.stroke(Path.polyline([x0 + sx, y0 + sy, x1 + sx, y1 + sy]), laceDark, { width: o.barWidth * 0.22, cap: "round" }, 0.45);
  };
  const len = o.barLength + o.inset;
  const tops = pos.map((p) => ({ x: p.x + p.ty * len, y: p.y - p.tx * len }));
  if (o.cross) {
    // criss-cross: each eyelet laces up to the top above its neighbour
    for (let i = 0; i + 1 < pos.length; i++) {
      const a = pos[i]!;
      const b = pos[i + 1]!;
      bar(b.x, b.y, tops[i]!.x, tops[i]!.y);
      bar(a.x, a.y, tops[i + 1]!.x, tops[i + 1]!.y);
    }
  } else {
    pos.forEach((p, i) => bar(p.x, p.y, tops[i]!.x - p.tx * len * lean, tops[i]!.y - p.ty * len * lean));
  }
}

/** Tread notches along the bottom of an outsole (call inside a clip). */
function tread(c: Canvas, x0: number, x1: number, y: number, step: number, h: number, color: Color): void {
  for (let x = x0; x < x1; x += step) c.fill(Path.roundRect(x, y - h, step * 0.45, h + 30, 3), color);
}

/** Stacked leather heel block for dress shoes. */
function stackedHeel(c: Canvas, x0: number, x1: number, top: number, color: Color): void {
  const heel = Path.parse(`M ${x0} ${top} L ${x1} ${top + 4} L ${x1 - 6} ${FLOOR} L ${x0 + 6} ${FLOOR} Z`);
  shaded(c, heel, color, 0.08, 0.1);
  clipped(c, heel, () => {
    for (let y = top + 9; y < FLOOR - 10; y += 8) c.stroke(Path.polyline([x0 - 5, y, x1 + 5, y + 1]), alpha(BLACK, 0.16), 1.6);
    c.fill(Path.rect(x0 - 10, FLOOR - 9, x1 - x0 + 20, 12), darken(color, 0.45));
  });
}

/**
 * Thin dress-shoe sole following `curve` (toe first, heel last), drawn
 * from the curve down by `thick`.
 */
function dressSole(c: Canvas, curve: Path, thick: number, color: Color): void {
  const b = band(curve, 0, -thick);
  shaded(c, b, color, 0.12, 0.1);
  c.stroke(curve.offset(-2), alpha(lighten(color, 0.4), 0.7), 1.6);
  stitch(c, curve.offset(-thick * 0.45), alpha(lighten(color, 0.45), 0.75), 1.8, [5, 5]);
}

/* ----------------------------------------------------------------- shoes */

function laceColor(upper: Color, rng: Rng): Color {
  return isLight(upper) ? pick(rng, [hex("#2a2d33"), hex("#fbfbf8")]) : hex("#fbfbf8");
}

function sneaker(c: Canvas, pal: Palette, rng: Rng): void {
  const upperC = pal.primary;
  const overlay = distinct(pal.secondary, upperC, 0.08);
  const accent = pal.accent;
  const soleC = hex("#f5f4f0");
  const outsoleC = pick(rng, [hex("#c48a4f"), hex("#40444c"), darken(pal.secondary, 0.3)]);
  const liningC = darken(upperC, 0.5);
  const line = darken(upperC, 0.4);
  const seam = alpha(darken(overlay, 0.45), 0.7);

  // tongue (behind the upper)
  const tongue = Path.parse(`M 372 520 C 376 474 392 434 418 420 C 440 410 460 414 466 432
    C 520 474 600 528 676 560 L 650 620 L 380 620 Z`);
  shaded(c, tongue, lighten(upperC, 0.06), 0.12, 0.12);
  edge(c, tongue, alpha(line, 0.45), 2);
  c.fill(Path.roundRect(420, 424, 32, 20, 5), accent, 0.95);

  const upper = Path.parse(`M 188 700 C 164 640 164 560 190 484 C 196 464 210 456 226 460
    C 270 474 330 500 380 506 C 402 506 424 486 444 466
    C 512 494 592 536 656 566 C 736 594 812 616 842 660
    C 854 680 848 696 832 700 Z`);
  shaded(c, upper, upperC, 0.12, 0.2);

  clipped(c, upper, () => {
    // collar padding with the lining peeking out
    const topline = Path.parse("M 190 470 C 240 470 330 500 382 508");
    c.stroke(topline, liningC, { width: 16 });
    c.stroke(topline.offset(12), alpha(lighten(upperC, 0.35), 0.45), { width: 6 });

    // toe cap with perforations
    const toeEdge = Path.parse("M 708 560 C 690 600 694 650 724 700");
    const toe = Path.parse("M 708 560 C 690 600 694 650 724 700 L 900 700 L 900 540 Z");
    shaded(c, toe, overlay, 0.12, 0.16);
    edge(c, toeEdge, alpha(darken(overlay, 0.4), 0.6), 2);
    stitch(c, toeEdge.offset(-9), seam);
    if (rng() < 0.6) {
      for (let row = 0; row < 3; row++) {
        for (let i = 0; i < 6; i++) {
          const x = 746 + i * 16 + row * 8;
          const y = 612 + row * 16 + i * 3;
          if (x < 830) c.fill(Path.circle(x, y, 2.6), alpha(darken(overlay, 0.5), 0.55));
        }
      }
    }

    // heel counter
    const heelEdge = Path.parse("M 150 452 C 220 482 262 536 286 600 C 296 630 300 670 302 700");
    const heel = Path.parse("M 120 700 L 120 440 C 210 470 262 530 286 600 C 296 630 300 670 302 700 Z");
    shaded(c, heel, overlay, 0.1, 0.16);
    edge(c, heelEdge, alpha(darken(overlay, 0.4), 0.6), 2);
    stitch(c, heelEdge.offset(10), seam);

    // side logo (seed-varied)
    const style = int(rng, 0, 2);
    if (style === 0) {
      const s = Path.parse("M 318 664 C 430 560 580 548 700 590 C 590 580 460 610 360 672 C 344 682 322 680 318 664 Z");
      shaded(c, s, accent, 0.12, 0.1);
    } else if (style === 1) {
      for (let i = 0; i < 2; i++) {
        const x = 420 + i * 54;
        const s = Path.polygon([x, 676, x + 28, 676, x + 124, 524 + i * 12, x + 96, 524 + i * 12]);
        shaded(c, s, accent, 0.12, 0.1);
      }
    } else {
      const s = Path.parse("M 330 620 L 520 620 L 560 586 L 620 586 L 560 650 L 330 650 Z");
      shaded(c, s, accent, 0.12, 0.12);
      stitch(c, Path.polyline([340, 628, 522, 628, 558, 596, 604, 596]), alpha(WHITE, 0.5), 1.8, [6, 5]);
    }

    // eyestay along the lace line
    const laceLine = Path.parse("M 444 466 C 512 494 592 536 656 566");
    const stay = band(laceLine, -4, 46);
    shaded(c, stay, overlay, 0.08, 0.12);
    edge(c, laceLine.offset(46), alpha(darken(overlay, 0.4), 0.55), 2);
    stitch(c, laceLine.offset(38), seam, 2.2, [7, 6]);

    glow(c, 650, 565, 240, 110, WHITE, 0.3);
    glow(c, 250, 520, 110, 140, WHITE, 0.14);
    bottomShade(c, 610, 700, 0.16);
  });
  edge(c, upper, alpha(line, 0.35), 2);

  laces(c, {
    line: Path.parse("M 444 466 C 512 494 592 536 656 566"),
    count: int(rng, 5, 6),
    from: 0.1,
    to: 0.88,
    lace: laceColor(upperC, rng),
    metal: pick(rng, [SILVER, GUNMETAL, null]),
    hole: liningC,
    eyeletR: 7,
    barLength: 14,
    barWidth: 11,
    inset: 22,
    cross: true,
  });

  // heel pull tab
  const tab = Path.parse("M 184 522 C 182 486 190 452 204 434 L 234 442 C 226 468 222 500 224 524 Z");
  shaded(c, tab, accent, 0.14, 0.14);
  stitch(c, Path.parse("M 196 514 C 194 488 200 462 210 446"), alpha(WHITE, 0.55), 1.8, [5, 4]);

  // cupsole
  const sole = Path.parse(`M 172 664 C 260 676 620 688 800 680 C 834 678 852 668 860 660
    C 870 690 852 724 812 736 C 740 748 300 750 206 744 C 172 740 156 712 162 684
    C 163 676 166 668 172 664 Z`);
  shaded(c, sole, soleC, 0.05, 0.12);
  clipped(c, sole, () => {
    c.stroke(Path.parse("M 150 702 C 300 710 700 716 880 694"), accent, { width: 7 });
    const out = Path.parse("M 150 726 C 300 732 700 734 880 712 L 880 780 L 150 780 Z");
    c.fill(out, outsoleC);
    tread(c, 170, 860, 752, 26, 6, darken(outsoleC, 0.22));
    c.fill(Path.rect(140, 660, 760, 12), alpha(BLACK, 0.07));
  });
  edge(c, sole, alpha(darken(soleC, 0.4), 0.45), 2);
  stitch(c, Path.parse("M 184 678 C 300 688 620 698 800 692 C 826 690 842 684 850 676"), alpha(darken(soleC, 0.4), 0.6), 2.2, [8, 6]);
}

function runner(c: Canvas, pal: Palette, rng: Rng): void {
  const upperC = pal.primary;
  const second = pal.secondary;
  const accent = pal.accent;
  const foam = hex("#f6f6f3");
  const lining = darken(upperC, 0.5);
  const line = darken(upperC, 0.4);

  const tongue = Path.parse(`M 374 528 C 378 480 394 440 416 428 C 436 418 454 420 462 436
    C 522 478 602 536 684 574 L 660 630 L 380 630 Z`);
  shaded(c, tongue, lighten(upperC, 0.1), 0.1, 0.12);
  edge(c, tongue, alpha(line, 0.4), 2);

  const upper = Path.parse(`M 176 680 C 160 610 164 540 184 480 C 188 466 180 452 170 440
    C 184 428 206 434 224 448 C 270 484 330 512 384 516 C 406 516 424 498 442 478
    C 512 508 592 550 664 580 C 744 606 822 624 854 656 C 864 668 860 680 846 684 Z`);
  shaded(c, upper, upperC, 0.14, 0.18);
  clipped(c, upper, () => {
    // engineered-knit texture
    for (let x = 60; x < 1000; x += 11) c.stroke(Path.polyline([x, 420, x - 160, 700]), alpha(darken(upperC, 0.3), 0.14), 2.4);
    const topline = Path.parse("M 176 452 C 240 480 330 512 386 518");
    c.stroke(topline, lining, { width: 14 });
    // toe bumper
    const toe = Path.parse("M 760 600 C 740 630 744 660 760 690 L 900 690 L 900 590 Z");
    shaded(c, toe, second, 0.12, 0.1);
    // heel clip
    const heel = Path.parse("M 120 690 L 120 470 C 190 500 230 560 250 620 C 260 650 262 670 262 690 Z");
    shaded(c, heel, second, 0.12, 0.14);
    const heelEdge = Path.parse("M 150 480 C 200 506 232 562 250 620 C 260 650 262 670 262 690");
    edge(c, heelEdge, alpha(darken(second, 0.5), 0.5), 2);
    // reflective strip on the heel
    c.stroke(Path.parse("M 172 560 C 196 566 214 580 226 600"), alpha(WHITE, 0.65), { width: 6, cap: "round" });
    // dynamic side stripes (seed-varied)
    const n = int(rng, 1, 3);
    for (let i = 0; i < n; i++) {
      const d = i * 26;
      const s = Path.parse(`M ${300 + d} ${676} C ${380 + d} ${600 - d * 0.4} ${500 + d} ${560 - d * 0.3} ${620} ${570 + d * 0.2}
        L ${628} ${586 + d * 0.2} C ${510 + d} ${582 - d * 0.3} ${400 + d} ${620 - d * 0.4} ${330 + d} ${680} Z`);
      shaded(c, s, i === 0 ? accent : mix(accent, WHITE, 0.35), 0.12, 0.1);
    }
    // eyestay
    const laceLine = Path.parse("M 442 478 C 512 508 592 550 664 580");
    shaded(c, band(laceLine, -4, 40), darken(upperC, 0.12), 0.1, 0.1);
    stitch(c, laceLine.offset(34), alpha(lighten(upperC, 0.4), 0.5), 2, [6, 5]);
    glow(c, 650, 570, 240, 110, WHITE, 0.3);
    bottomShade(c, 610, 684, 0.15);
  });
  edge(c, upper, alpha(line, 0.35), 2);

  laces(c, {
    line: Path.parse("M 442 478 C 512 508 592 550 664 580"),
    count: int(rng, 6, 7),
    from: 0.08,
    to: 0.9,
    lace: isLight(upperC) ? darken(upperC, 0.6) : lighten(accent, 0.1),
    metal: null,
    hole: lining,
    eyeletR: 6,
    barLength: 10,
    barWidth: 9,
    inset: 19,
    lean: 0.6,
  });

  // heel pull loop
  c.stroke(Path.parse("M 178 470 C 160 440 168 414 186 410 C 204 408 210 432 206 456"), accent, { width: 9, cap: "round" });

  // thick two-tone midsole with heel bevel
  const sole = Path.parse(`M 168 636 C 300 650 600 676 790 676 C 830 676 856 668 866 660
    C 876 690 852 722 800 734 C 700 748 330 750 230 746 C 186 744 150 722 144 692
    C 140 664 150 642 168 636 Z`);
  shaded(c, sole, foam, 0.04, 0.1);
  clipped(c, sole, () => {
    const wave = Path.parse(`M 130 706 C 230 690 300 716 420 712 C 540 708 640 702 890 690 L 890 780 L 130 780 Z`);
    shaded(c, wave, second, 0.1, 0.08);
    c.stroke(Path.parse("M 130 706 C 230 690 300 716 420 712 C 540 708 640 702 890 690"), accent, { width: 5 });
    c.fill(Path.parse("M 130 734 C 300 740 700 740 890 716 L 890 790 L 130 790 Z"), darken(second, 0.45));
    tread(c, 170, 860, 754, 22, 5, darken(second, 0.6));
    c.fill(Path.rect(140, 630, 760, 14), alpha(BLACK, 0.07));
    // foam pods
    for (let i = 0; i < 4; i++) c.stroke(Path.parse(`M ${210 + i * 34} 660 C ${200 + i * 34} 676 ${204 + i * 34} 690 ${214 + i * 34} 700`), alpha(BLACK, 0.1), 3);
  });
  edge(c, sole, alpha(BLACK, 0.18), 2);
}

function kidsSneaker(c: Canvas, pal: Palette, rng: Rng): void {
  const upperC = pal.primary;
  const second = distinct(pal.secondary, upperC);
  const accent = pal.accent;
  const soleC = hex("#f7f6f2");
  const line = darken(upperC, 0.4);
  const lining = darken(upperC, 0.45);

  const upper = Path.parse(`M 246 696 C 226 630 226 560 250 500 C 256 484 270 476 288 480
    C 330 494 380 516 420 518 C 440 518 456 504 470 486
    C 530 500 600 536 660 562 C 730 590 790 610 806 650 C 812 668 806 684 792 690 Z`);
  shaded(c, upper, upperC, 0.14, 0.18);
  clipped(c, upper, () => {
    c.stroke(Path.parse("M 250 490 C 300 496 370 516 424 522"), lining, { width: 16 });
    // padded collar
    c.stroke(Path.parse("M 250 508 C 300 512 370 532 440 534"), alpha(lighten(upperC, 0.3), 0.35), { width: 10 });
    // heel patch
    const heel = Path.parse("M 200 700 L 200 470 C 280 500 320 560 330 700 Z");
    shaded(c, heel, second, 0.12, 0.14);
    stitch(c, Path.parse("M 262 490 C 300 530 318 600 318 700"), alpha(darken(second, 0.45), 0.6));
    // rubber toe bumper
    const toe = Path.parse("M 700 590 C 680 620 684 660 700 700 L 860 700 L 860 560 Z");
    shaded(c, toe, soleC, 0.04, 0.14);
    stitch(c, Path.parse("M 716 596 C 700 624 702 660 714 700"), alpha(BLACK, 0.25));
    // side emblem: star or circle
    const ex = 420;
    const ey = 620;
    if (rng() < 0.5) {
      const pts: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = i % 2 === 0 ? 42 : 18;
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        pts.push(ex + Math.cos(a) * r, ey + Math.sin(a) * r);
      }
      const star = Path.polygon(pts);
      shaded(c, star, accent, 0.15, 0.1);
      edge(c, star, alpha(darken(accent, 0.4), 0.4), 2);
    } else {
      c.fill(Path.circle(ex, ey, 36), vshade(Path.circle(ex, ey, 36), accent, 0.15, 0.1));
      c.fill(Path.circle(ex, ey, 18), lighten(accent, 0.7));
    }
    glow(c, 620, 560, 200, 100, WHITE, 0.3);
    bottomShade(c, 620, 700, 0.15);
  });
  edge(c, upper, alpha(line, 0.35), 2);

  // velcro straps
  const lineP = Path.parse("M 470 486 C 530 500 600 536 660 562");
  const straps = int(rng, 2, 3);
  for (let i = 0; i < straps; i++) {
    const t = straps === 2 ? 0.18 + i * 0.55 : 0.1 + i * 0.38;
    const s = lineP.sample(t);
    c.save();
    c.translate(s.x, s.y - 14);
    c.rotate(Math.atan2(s.ty, s.tx) + Math.PI / 2 + 0.55);
    const strap = Path.roundRect(-10, -28, 150, 56, 26);
    c.fill(Path.roundRect(-6, -24, 150, 56, 26), alpha(BLACK, 0.18));
    c.fill(strap, linear(0, -28, 0, 28, [[0, lighten(accent, 0.18)], [1, darken(accent, 0.12)]]));
    stitch(c, Path.roundRect(0, -18, 130, 36, 18), alpha(WHITE, 0.7), 2, [6, 5]);
    c.fill(Path.roundRect(96, -16, 30, 32, 10), alpha(darken(accent, 0.3), 0.5));
    c.restore();
  }

  // heel loop
  c.stroke(Path.parse("M 262 494 C 250 462 256 440 272 438 C 290 436 296 458 292 486"), accent, { width: 10, cap: "round" });

  // chunky sole
  const sole = Path.parse(`M 232 664 C 330 672 620 680 740 676 C 774 674 796 666 806 658
    C 818 690 800 724 760 736 C 680 750 360 750 280 746 C 244 742 226 716 228 690
    C 228 678 230 668 232 664 Z`);
  shaded(c, sole, soleC, 0.04, 0.12);
  clipped(c, sole, () => {
    c.fill(Path.parse("M 200 716 C 400 724 640 724 830 700 L 830 790 L 200 790 Z"), second);
    c.stroke(Path.parse("M 200 716 C 400 724 640 724 830 700"), darken(second, 0.2), 2);
    tread(c, 240, 800, 756, 24, 6, darken(second, 0.22));
    c.fill(Path.rect(200, 658, 640, 12), alpha(BLACK, 0.06));
  });
  edge(c, sole, alpha(BLACK, 0.15), 2);
}

function boot(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const second = distinct(pal.secondary, leather, 0.1);
  const laceC = isLight(pal.accent) ? pal.accent : lighten(pal.accent, 0.2);
  const line = darken(leather, 0.45);
  const seam = alpha(lighten(leather, 0.45), 0.7);

  // tongue
  const tongue = Path.parse(`M 440 320 C 446 272 468 246 496 242 C 518 240 532 254 530 276
    C 532 360 552 450 600 520 L 480 560 Z`);
  shaded(c, tongue, second, 0.12, 0.12);
  edge(c, tongue, alpha(line, 0.5), 2);

  const upper = Path.parse(`M 200 690 C 184 600 196 440 222 330 C 228 300 236 282 250 272
    C 262 264 280 262 296 264 C 360 270 420 276 470 272 C 490 270 504 282 506 298
    C 512 380 530 460 572 520 C 620 572 740 584 820 616 C 858 632 870 660 858 688 Z`);
  shaded(c, upper, leather, 0.14, 0.2);
  clipped(c, upper, () => {
    // padded collar
    const collar = Path.parse("M 150 330 C 250 300 400 312 560 318 L 560 200 L 150 200 Z");
    shaded(c, collar, second, 0.14, 0.1);
    stitch(c, Path.parse("M 150 338 C 250 308 400 320 560 326"), seam);
    c.stroke(Path.parse("M 150 330 C 250 300 400 312 560 318"), alpha(BLACK, 0.25), 3);
    // heel counter
    const heelEdge = Path.parse("M 196 520 C 262 540 306 610 318 700");
    const heel = Path.parse("M 150 700 L 150 500 C 262 540 306 610 318 700 Z");
    shaded(c, heel, darken(leather, 0.12), 0.1, 0.14);
    edge(c, heelEdge, alpha(line, 0.6), 2);
    stitch(c, heelEdge.offset(12), seam);
    // toe cap
    const toeEdge = Path.parse("M 690 566 C 668 610 676 660 700 700");
    const toe = Path.parse("M 690 566 C 668 610 676 660 700 700 L 900 700 L 900 540 Z");
    shaded(c, toe, darken(leather, 0.12), 0.12, 0.14);
    edge(c, toeEdge, alpha(line, 0.6), 2);
    stitch(c, toeEdge.offset(-10), seam);
    // quarter panel seam
    stitch(c, Path.parse("M 360 330 C 380 440 420 540 520 600 C 560 626 610 650 700 660"), alpha(line, 0.5));
    // pull loop stitching
    glow(c, 660, 590, 200, 90, WHITE, 0.25);
    glow(c, 300, 420, 120, 200, WHITE, 0.14);
    bottomShade(c, 600, 700, 0.2);
  });
  edge(c, upper, alpha(line, 0.4), 2);

  // lace hooks + eyelets
  const laceLine = Path.parse("M 506 310 C 512 390 530 470 576 526");
  laces(c, {
    line: laceLine,
    count: int(rng, 6, 7),
    from: 0.04,
    to: 0.94,
    lace: laceC,
    metal: pal.metal,
    hole: darken(leather, 0.6),
    eyeletR: 8,
    barLength: 12,
    barWidth: 9,
    inset: 20,
    lean: 0.5,
  });

  // back pull loop
  c.stroke(Path.parse("M 246 300 C 236 262 244 236 262 232 C 282 228 290 252 286 290"), darken(second, 0.1), { width: 12, cap: "round" });

  // lug sole: welt + rubber outsole with lugs and an arch gap
  const welt = Path.parse("M 186 668 C 300 672 600 680 820 676 C 846 675 864 668 872 660 C 884 668 886 684 878 694 L 184 694 Z");
  shaded(c, welt, lighten(second, 0.1), 0.1, 0.1);
  stitch(c, Path.parse("M 196 680 C 300 684 600 690 820 688 C 846 686 862 680 872 674"), alpha(lighten(second, 0.6), 0.8), 2.2, [7, 5]);
  const pts: number[] = [180, 692, 880, 692, 884, 704, 872, 728, 846, 742];
  for (let x = 830; x >= 200; x -= 34) {
    const y = x > 330 && x < 440 ? FLOOR - 14 : FLOOR;
    pts.push(x, y - 10, x - 4, y, x - 22, y, x - 26, y - 10);
  }
  pts.push(184, 740, 178, 716);
  const outsole = Path.polygon(pts);
  shaded(c, outsole, hex("#34302c"), 0.1, 0.1);
  c.stroke(Path.polyline([184, 698, 878, 698]), alpha(WHITE, 0.12), 3);
}

function chelseaBoot(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const gore = distinct(pal.secondary, leather, 0.06);
  const line = darken(leather, 0.5);
  const soleCurve = Path.parse("M 878 722 C 800 734 640 740 520 734 C 430 728 360 716 196 714");

  const upper = Path.parse(`M 206 716 C 188 620 200 430 226 318 C 230 302 238 294 252 292
    L 506 300 C 520 300 528 310 526 324 C 520 420 536 500 590 560
    C 660 626 780 648 862 684 C 884 694 886 712 872 720
    C 800 734 640 740 520 734 C 430 728 360 716 206 716 Z`);
  shaded(c, upper, leather, 0.16, 0.18);
  clipped(c, upper, () => {
    // elastic gore with ribs
    const g = Path.parse("M 300 296 C 304 400 320 470 362 510 C 404 470 418 400 422 296 Z");
    c.fill(g, vshade(g, gore, 0.08, 0.1));
    clipped(c, g, () => {
      for (let x = 300; x < 424; x += 9) c.stroke(Path.polyline([x, 290, x + 2, 520]), alpha(BLACK, 0.28), 2.6);
      for (let x = 304; x < 424; x += 9) c.stroke(Path.polyline([x, 290, x + 2, 520]), alpha(WHITE, 0.12), 1.5);
    });
    edge(c, Path.parse("M 300 296 C 304 400 320 470 362 510 C 404 470 418 400 422 296"), alpha(BLACK, 0.35), 3);
    stitch(c, Path.parse("M 286 300 C 290 408 308 482 362 528 C 416 482 434 408 436 300"), alpha(lighten(leather, 0.45), 0.7), 2.2, [7, 5]);
    // heel counter seam + toe seam (seed)
    stitch(c, Path.parse("M 206 470 C 240 520 270 620 280 716"), alpha(lighten(leather, 0.4), 0.5), 2.2, [7, 5]);
    if (rng() < 0.5) {
      stitch(c, Path.parse("M 740 640 C 720 670 722 700 736 730"), alpha(lighten(leather, 0.4), 0.6), 2.2, [7, 5]);
    }
    // leather shine
    glow(c, 760, 660, 150, 44, WHITE, 0.4);
    glow(c, 300, 420, 80, 180, WHITE, 0.2);
    glow(c, 560, 520, 90, 60, WHITE, 0.12);
    bottomShade(c, 640, 730, 0.22);
  });
  edge(c, upper, alpha(line, 0.45), 2);

  // pull tab at the back
  const tab = Path.parse("M 232 308 C 230 270 236 240 250 238 L 276 240 C 286 242 286 270 282 308 Z");
  shaded(c, tab, pal.accent, 0.12, 0.14);
  stitch(c, Path.parse("M 246 300 C 244 272 248 254 256 252 L 266 252 C 272 256 272 276 270 300"), alpha(WHITE, 0.5), 1.8, [5, 4]);

  dressSole(c, soleCurve, 14, darken(leather, 0.55));
  stackedHeel(c, 196, 338, 724, darken(leather, 0.5));
}

/** Shared dress-shoe last: sole curve (toe first) and vamp from the throat to the toe. */
const DRESS_SOLE = "M 876 716 C 800 734 640 740 520 734 C 430 728 360 714 202 712";
const DRESS_VAMP = "C 660 594 740 624 800 644 C 850 660 880 682 880 702 C 880 711 878 714 876 716";
const DRESS_BACK = "C 800 734 640 740 520 734 C 430 728 360 714 206 712 Z";

/** Dark inside of the shoe seen just above the near topline. */
function innerLining(c: Canvas, far: string, lining: Color): void {
  const p = Path.parse(far);
  const b = p.bounds();
  const pts = p.subpaths[0]!.pts.slice();
  pts.push(b.x1, b.y1 + 50, b.x0, b.y1 + 50);
  const shape = Path.polygon(pts);
  c.fill(shape, linear(0, b.y0, 0, b.y1 + 12, [[0, lighten(lining, 0.05)], [1, darken(lining, 0.55)]]));
}

function loafer(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const lining = distinct(lighten(pal.secondary, 0.3), leather);
  const line = darken(leather, 0.5);
  const seamLight = alpha(isLight(leather) ? darken(leather, 0.4) : lighten(leather, 0.45), 0.65);

  innerLining(c, "M 236 558 C 300 572 380 588 440 588 C 500 586 530 572 560 562", lining);

  const upper = Path.parse(`M 208 712 C 194 690 188 640 196 600 C 200 584 206 570 216 566
    C 224 563 232 563 240 566 C 300 584 380 602 440 600 C 500 598 530 582 560 570 ${DRESS_VAMP} ${DRESS_BACK}`);
  shaded(c, upper, leather, 0.16, 0.18);
  clipped(c, upper, () => {
    // moc-toe apron seam
    const apron = Path.parse("M 566 592 C 660 612 740 640 800 662 C 836 676 856 696 862 716");
    c.stroke(apron, alpha(BLACK, 0.3), 4);
    c.stroke(apron.offset(4), alpha(lighten(leather, 0.45), 0.35), 2);
    stitch(c, apron.offset(-9), seamLight, 2.2, [6, 5]);
    // topline binding
    c.stroke(Path.parse("M 196 600 C 200 584 206 570 216 566 C 224 563 232 563 240 566 C 300 584 380 602 440 600 C 500 598 530 582 560 570"), darken(leather, 0.32), 7);
    // heel seam
    stitch(c, Path.parse("M 244 580 C 258 616 266 660 268 714"), seamLight, 2.2, [6, 5]);
    // vamp/quarter seam running down from the saddle
    const side = Path.parse("M 540 640 C 510 670 494 700 488 740");
    c.stroke(side, alpha(BLACK, 0.28), 3);
    stitch(c, side.offset(-8), seamLight, 2, [5, 4]);
    // shine: long highlight along the toe box + heel
    glow(c, 780, 660, 100, 18, WHITE, 0.38, 0.36);
    glow(c, 650, 610, 110, 14, WHITE, 0.18, 0.3);
    glow(c, 214, 640, 14, 44, WHITE, 0.16);
    bottomShade(c, 650, 732, 0.22);
  });
  edge(c, upper, alpha(line, 0.45), 2);

  if (rng() < 0.55) {
    // penny strap across the vamp
    const strap = Path.parse("M 552 572 C 590 572 622 580 652 592 C 640 620 630 640 616 654 C 590 652 560 646 530 644 C 540 620 548 596 552 572 Z");
    shaded(c, strap, darken(leather, 0.06), 0.14, 0.16);
    c.fill(Path.parse("M 578 600 C 594 592 616 594 630 602 C 620 612 604 616 590 613 C 584 611 580 606 578 600 Z"), darken(leather, 0.6));
    edge(c, strap, alpha(line, 0.5), 2);
    stitch(c, Path.parse("M 540 636 C 570 636 600 640 630 646"), seamLight, 2, [5, 4]);
  } else {
    // horse-bit hardware
    const m = pal.metal === GUNMETAL ? GOLD : pal.metal;
    c.stroke(Path.parse("M 566 594 C 590 588 620 592 648 600"), alpha(BLACK, 0.25), { width: 12, cap: "round" });
    c.stroke(Path.parse("M 566 590 C 590 584 620 588 648 596"), metalPaint(m, 566, 584, 648, 600), { width: 9, cap: "round" });
    for (const [x, y] of [[560, 596], [654, 604]] as const) {
      c.stroke(Path.ellipse(x, y, 12, 15), metalPaint(m, x - 12, y - 15, x + 12, y + 15), 6);
    }
  }

  dressSole(c, Path.parse(DRESS_SOLE), 14, darken(leather, 0.55));
  stackedHeel(c, 202, 336, 722, darken(leather, 0.5));
}

function oxford(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const lightLeather = isLight(leather);
  const seam = alpha(lightLeather ? darken(leather, 0.4) : lighten(leather, 0.4), 0.7);
  const lining = distinct(lighten(pal.secondary, 0.4), leather);
  const crease = alpha(BLACK, lightLeather ? 0.28 : 0.45);

  innerLining(c, "M 232 534 C 300 538 350 536 404 530", lining);
  // tongue
  const tongue = Path.parse("M 400 580 C 404 546 420 524 440 520 C 458 517 470 524 476 534 L 590 590 Z");
  shaded(c, tongue, lighten(leather, 0.06), 0.16, 0.1);
  edge(c, tongue, alpha(BLACK, 0.3), 2);

  const upper = Path.parse(`M 208 712 C 194 690 188 640 196 596 C 200 572 206 554 214 546 C 220 540 226 540 234 542
    C 290 548 350 548 404 540 C 436 536 520 546 590 566 ${DRESS_VAMP} ${DRESS_BACK}`);
  shaded(c, upper, leather, 0.18, 0.16);
  const brogue = rng() < 0.5;
  clipped(c, upper, () => {
    const vampSeam = Path.parse("M 600 586 C 556 618 506 672 490 740");
    c.stroke(vampSeam, crease, 3);
    stitch(c, vampSeam.offset(-8), seam, 2, [5, 4]);
    // heel counter
    const counter = Path.parse("M 252 544 C 292 590 302 660 306 730");
    c.stroke(counter, crease, 3);
    stitch(c, counter.offset(8), seam, 2, [5, 4]);
    // toe cap
    const capSeam = Path.parse("M 742 636 C 726 664 726 702 740 740");
    c.stroke(capSeam, crease, 3);
    stitch(c, capSeam.offset(8), seam, 2, [5, 4]);
    if (brogue) {
      for (let i = 0; i < 9; i++) {
        const s = capSeam.sample(0.04 + i * 0.1);
        c.fill(Path.circle(s.x - 14, s.y, 3), alpha(BLACK, 0.5));
      }
      for (let i = 0; i < 9; i++) {
        const s = vampSeam.sample(0.06 + i * 0.1);
        c.fill(Path.circle(s.x + 13, s.y + 4, 2.6), alpha(BLACK, 0.45));
      }
      // medallion on the toe cap
      for (const [x, y] of [[820, 666], [834, 676], [826, 684], [812, 676]] as const) c.fill(Path.circle(x, y, 2.4), alpha(BLACK, 0.45));
    }
    // shine
    glow(c, 790, 658, 90, 16, WHITE, 0.4, 0.36);
    glow(c, 660, 606, 100, 12, WHITE, 0.18, 0.3);
    glow(c, 212, 630, 14, 50, WHITE, 0.16);
    bottomShade(c, 660, 732, 0.2);
  });
  edge(c, upper, alpha(BLACK, 0.35), 2);

  laces(c, {
    line: Path.parse("M 410 540 C 470 544 530 560 594 580"),
    count: 5,
    from: 0.06,
    to: 0.9,
    lace: lightLeather ? hex("#3a2a20") : darken(pal.accent, 0.2),
    metal: null,
    hole: darken(leather, 0.6),
    eyeletR: 5,
    barLength: 10,
    barWidth: 6,
    inset: 14,
    lean: 0.6,
  });

  dressSole(c, Path.parse(DRESS_SOLE), 14, darken(pal.secondary, 0.3));
  stackedHeel(c, 202, 336, 722, darken(pal.secondary, 0.35));
}

function heel(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const lining = distinct(pal.secondary, leather);
  const heelColor = rng() < 0.6 ? leather : distinct(pal.accent, pal.bg, 0.15);
  const toeTip = range(rng, 880, 900);

  // inside of the shoe: far topline + insole
  const inner = Path.parse("M 238 392 C 330 456 470 572 566 624 L 566 668 L 238 520 Z");
  c.fill(inner, linear(0, 400, 0, 640, [[0, lighten(lining, 0.1)], [1, darken(lining, 0.35)]]));

  // stiletto (behind the upper's heel seat)
  const stiletto = Path.parse(`M 214 496 C 216 580 232 680 240 738 L 258 738
    C 258 680 266 604 302 546 C 272 532 240 516 214 496 Z`);
  shaded(c, stiletto, heelColor, 0.2, 0.12);
  clipped(c, stiletto, () => glow(c, 232, 600, 10, 90, WHITE, 0.35));
  c.fill(Path.roundRect(238, 730, 22, 16, 3), hex("#1b1b1b"));

  const sole = `C 290 530 370 610 440 670 C 490 708 520 726 560 734 C 620 748 780 748 ${toeTip} 738`;
  const upper = Path.parse(`M ${toeTip} 738 C 820 702 720 654 610 632 C 590 628 574 630 562 636
    C 470 588 330 468 236 402 C 218 424 210 464 216 498 ${sole} Z`);
  shaded(c, upper, leather, 0.2, 0.16);
  clipped(c, upper, () => {
    glow(c, 760, 694, 110, 18, WHITE, 0.4, 0.22);
    glow(c, 228, 450, 10, 40, WHITE, 0.25);
    bottomShade(c, 640, 740, 0.18);
  });
  // topline binding
  c.stroke(Path.parse("M 562 636 C 470 588 330 468 236 402"), darken(leather, 0.25), 4);
  edge(c, upper, alpha(BLACK, 0.25), 2);

  // thin outsole
  c.stroke(Path.parse(`M 216 498 ${sole}`), hex("#2a2422"), { width: 7, cap: "round" });

  // ornament at the throat (seed)
  const orn = int(rng, 0, 2);
  if (orn === 1) {
    const m = pal.metal;
    c.fill(Path.roundRect(590, 620, 44, 26, 6), metalPaint(m, 590, 620, 634, 646));
    c.fill(Path.roundRect(598, 627, 28, 12, 4), leather);
  } else if (orn === 2) {
    const bow = pal.accent;
    c.fill(Path.parse("M 606 640 L 570 616 C 560 630 562 650 572 662 Z"), vshade(Path.rect(560, 610, 50, 60), bow));
    c.fill(Path.parse("M 606 640 L 642 614 C 652 628 650 650 640 662 Z"), vshade(Path.rect(600, 610, 50, 60), bow));
    c.fill(Path.ellipse(606, 640, 9, 12), darken(bow, 0.15));
  }
}

function flat(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const lining = distinct(pal.secondary, leather);
  const line = darken(leather, 0.45);
  const capToe = rng() < 0.4;
  const topline = "M 204 650 C 208 640 216 636 228 636 C 300 648 400 668 500 672 C 550 674 590 668 620 660";

  innerLining(c, "M 226 628 C 320 638 420 656 500 660 C 550 662 590 656 620 650", lining);
  const upper = Path.parse(`M 210 738 C 196 716 192 676 204 650 C 208 640 216 636 228 636
    C 300 648 400 668 500 672 C 550 674 590 668 620 660
    C 700 646 790 656 840 686 C 866 702 870 728 856 738 Z`);
  shaded(c, upper, leather, 0.2, 0.14);
  clipped(c, upper, () => {
    if (capToe) {
      const cap = Path.parse("M 752 662 C 734 684 732 714 746 742 L 900 742 L 900 640 Z");
      shaded(c, cap, distinct(pal.accent, leather), 0.16, 0.12);
      c.stroke(Path.parse("M 752 662 C 734 684 732 714 746 742"), alpha(BLACK, 0.25), 2);
    }
    glow(c, 770, 684, 90, 16, WHITE, 0.4, 0.3);
    glow(c, 216, 690, 12, 40, WHITE, 0.16);
    bottomShade(c, 700, 740, 0.16);
    stitch(c, Path.parse("M 224 650 C 300 662 400 682 500 686 C 550 688 590 682 624 674"), alpha(line, 0.5), 1.8, [5, 4]);
  });
  c.stroke(Path.parse(topline), line, 5);
  edge(c, upper, alpha(BLACK, 0.22), 2);

  // bow at the throat
  const bowC = capToe ? distinct(pal.accent, leather) : darken(leather, 0.2);
  if (rng() < 0.8) {
    const lx = 622;
    const ly = 662;
    const left = Path.parse(`M ${lx} ${ly} C ${lx - 30} ${ly - 30} ${lx - 54} ${ly - 14} ${lx - 46} ${ly + 6} C ${lx - 38} ${ly + 18} ${lx - 14} ${ly + 8} ${lx} ${ly} Z`);
    const right = Path.parse(`M ${lx} ${ly} C ${lx + 26} ${ly - 32} ${lx + 52} ${ly - 20} ${lx + 48} ${ly} C ${lx + 42} ${ly + 16} ${lx + 16} ${ly + 10} ${lx} ${ly} Z`);
    for (const p of [left, right]) {
      c.fill(p, vshade(p, bowC, 0.22, 0.1));
      edge(c, p, alpha(darken(bowC, 0.4), 0.4), 1.5);
    }
    c.fill(Path.ellipse(lx, ly, 9, 12), darken(bowC, 0.15));
  }

  // thin sole and low heel
  c.fill(Path.parse("M 206 734 L 852 734 C 868 734 870 746 856 746 L 212 746 Z"), hex("#2c2826"));
  c.fill(Path.roundRect(212, 730, 76, 16, 3), darken(leather, 0.45));
}

/** Contoured sandal footbed: sole slab plus the visible top surface. */
function footbed(c: Canvas, x0: number, x1: number, top: number, bed: Color, sole: Color, rng: Rng, cork: boolean): void {
  const slab = Path.parse(`M ${x0} ${top + 20} C ${x0} ${top + 4} ${x0 + 14} ${top - 4} ${x0 + 36} ${top - 4}
    L ${x1 - 40} ${top + 4} C ${x1 - 10} ${top + 4} ${x1 + 2} ${top + 18} ${x1} ${top + 30}
    C ${x1 - 2} ${FLOOR - 14} ${x1 - 24} ${FLOOR} ${x1 - 50} ${FLOOR} L ${x0 + 40} ${FLOOR}
    C ${x0 + 14} ${FLOOR} ${x0} ${FLOOR - 20} ${x0} ${top + 20} Z`);
  shaded(c, slab, sole, 0.1, 0.12);
  clipped(c, slab, () => {
    if (cork) {
      for (let i = 0; i < 260; i++) {
        const x = range(rng, x0, x1);
        const y = range(rng, top, FLOOR);
        c.fill(Path.circle(x, y, range(rng, 1.2, 2.6)), alpha(darken(sole, 0.35), 0.45));
      }
    }
    c.fill(Path.rect(x0 - 10, FLOOR - 14, x1 - x0 + 20, 30), darken(sole, 0.5));
    c.fill(Path.rect(x0 - 10, top - 10, x1 - x0 + 20, 26), linear(0, top, 0, top + 16, [[0, alpha(BLACK, 0.25)], [1, alpha(BLACK, 0)]]));
  });
  // top surface of the footbed (seen from slightly above)
  const surface = Path.parse(`M ${x0 + 6} ${top + 4} C ${x0 + 4} ${top - 14} ${x0 + 24} ${top - 22} ${x0 + 50} ${top - 22}
    L ${x1 - 60} ${top - 14} C ${x1 - 22} ${top - 12} ${x1 - 4} ${top - 2} ${x1 - 6} ${top + 10} Z`);
  c.fill(surface, linear(0, top - 22, 0, top + 8, [[0, darken(bed, 0.12)], [1, lighten(bed, 0.12)]]));
  footbedLip(c, x0, x1, top, bed);
}

/** Near edge of the footbed; drawn again over strap ends so they tuck in. */
function footbedLip(c: Canvas, x0: number, x1: number, top: number, bed: Color): void {
  c.fill(Path.parse(`M ${x0 + 8} ${top - 2} L ${x1 - 8} ${top + 4} L ${x1 - 8} ${top + 14} L ${x0 + 8} ${top + 14} Z`), lighten(bed, 0.12));
  c.stroke(Path.parse(`M ${x0 + 8} ${top + 14} L ${x1 - 8} ${top + 14}`), alpha(BLACK, 0.14), 2);
}

/** A wide strap crossing the foot: solid hump seen from the side. */
function hump(xl: number, xr: number, base: number, top: number): Path {
  const mid = (xl + xr) / 2;
  const w = xr - xl;
  return Path.parse(`M ${xl} ${base} C ${xl + w * 0.02} ${top + 40} ${xl + w * 0.22} ${top} ${mid} ${top}
    C ${xr - w * 0.22} ${top} ${xr - w * 0.02} ${top + 40} ${xr} ${base} Z`);
}

function strapHump(c: Canvas, xl: number, xr: number, base: number, top: number, color: Color, seamC: Color): Path {
  const p = hump(xl, xr, base, top);
  c.fill(hump(xl - 4, xr + 6, base, top - 2), alpha(BLACK, 0.16));
  c.fill(p, vshade(p, color, 0.16, 0.14));
  clipped(c, p, () => {
    // rolled top edge: the strap curving away over the foot
    c.fill(hump(xl + 10, xr - 10, base + 40, top + 16).reversed().add(hump(xl - 10, xr + 10, base + 40, top - 4)), alpha(WHITE, 0.16));
    c.fill(Path.rect(xl - 10, base - 26, xr - xl + 20, 30), linear(0, base - 26, 0, base, [[0, alpha(BLACK, 0)], [1, alpha(BLACK, 0.22)]]));
  });
  clipped(c, p, () => stitch(c, hump(xl + 12, xr - 12, base + 20, top + 12), seamC, 2, [6, 5]));
  return p;
}

function buckle(c: Canvas, x: number, y: number, w: number, h: number, m: Metal): void {
  c.stroke(Path.roundRect(x, y + 3, w, h, 6), alpha(BLACK, 0.25), 8);
  c.stroke(Path.roundRect(x, y, w, h, 6), metalPaint(m, x, y, x + w, y + h), 6);
  c.stroke(Path.polyline([x + w / 2, y + h / 2, x + w + 6, y + h / 2]), metalPaint(m, x, y, x + w, y + h), { width: 4, cap: "round" });
}

function sandal(c: Canvas, pal: Palette, rng: Rng): void {
  const strap = pal.primary;
  const bed = distinct(pal.secondary, strap, 0.1);
  const sole = darken(mix(bed, hex("#8a6a4a"), 0.5), 0.1);
  const seamC = alpha(isLight(strap) ? darken(strap, 0.4) : lighten(strap, 0.45), 0.7);
  const m = pal.metal;
  const style = int(rng, 0, 1);

  if (style === 1) {
    // far side of heel strap / ankle strap (behind the footbed)
    c.stroke(Path.ellipse(330, 470, 104, 24), darken(strap, 0.35), { width: 20 });
  }
  footbed(c, 190, 862, 700, bed, sole, rng, style === 0);

  if (style === 0) {
    // two wide buckled straps
    for (const [xl, xr, top] of [[600, 770, 590], [410, 590, 548]] as const) {
      strapHump(c, xl, xr, 700, top, strap, seamC);
      const bx = (xl + xr) / 2 - 28;
      const by = top + 30;
      c.fill(Path.roundRect(bx - 6, by + 8, 64, 22, 10), darken(strap, 0.12));
      buckle(c, bx + 18, by, 34, 38, m);
    }
  } else {
    // strappy: toe strap, V straps, heel strap and ankle strap with buckle
    strapHump(c, 690, 770, 700, 606, strap, seamC);
    for (const [x0, x1] of [[470, 530], [610, 560]] as const) {
      const p = Path.polyline([x0, 704, x1, 560]);
      c.stroke(p, alpha(BLACK, 0.18), { width: 40 });
      c.stroke(p, vshade(Path.rect(0, 560, 10, 140), strap, 0.14, 0.12), { width: 34 });
      stitch(c, p.offset(10), seamC, 1.8, [5, 4]);
      stitch(c, p.offset(-10), seamC, 1.8, [5, 4]);
    }
    eyelet(c, 546, 562, 12, m, null);
    const heelStrap = Path.parse("M 222 706 C 214 610 236 530 290 486");
    c.stroke(heelStrap, alpha(BLACK, 0.18), { width: 36 });
    c.stroke(heelStrap, vshade(Path.rect(0, 480, 10, 220), strap, 0.14, 0.12), { width: 30 });
    stitch(c, heelStrap.offset(9), seamC, 1.8, [5, 4]);
    stitch(c, heelStrap.offset(-9), seamC, 1.8, [5, 4]);
    const front = new Path().arc(330, 470, 104, 24, 0.02 * Math.PI, 0.98 * Math.PI);
    c.stroke(front, alpha(BLACK, 0.15), { width: 28 });
    c.stroke(front, strap, { width: 22 });
    stitch(c, front, seamC, 1.6, [5, 4]);
    buckle(c, 382, 474, 28, 34, m);
    footbedLip(c, 190, 862, 700, bed);
  }
}

function kidsSandal(c: Canvas, pal: Palette, rng: Rng): void {
  const strap = pal.primary;
  const bed = distinct(pal.secondary, strap, 0.1);
  const sole = distinct(pal.accent, strap, 0.1);
  const white = alpha(WHITE, 0.75);
  const top = 676;

  // far half of the ankle strap
  c.stroke(Path.ellipse(350, 540, 92, 22), darken(strap, 0.35), { width: 24 });
  // chunky sole with tread
  const slab = Path.parse(`M 250 ${top + 28} C 250 ${top + 6} 264 ${top - 6} 292 ${top - 6} L 744 ${top - 2}
    C 776 ${top - 2} 792 ${top + 14} 792 ${top + 34} C 792 732 772 746 742 746 L 292 746 C 264 746 250 730 250 ${top + 28} Z`);
  shaded(c, slab, sole, 0.14, 0.14);
  clipped(c, slab, () => {
    tread(c, 264, 790, 754, 22, 8, darken(sole, 0.25));
    c.stroke(Path.polyline([240, 716, 800, 716]), alpha(WHITE, 0.35), 3);
  });
  // footbed top surface
  const surface = Path.parse(`M 258 ${top + 2} C 256 ${top - 18} 272 ${top - 26} 300 ${top - 26} L 740 ${top - 20} C 770 ${top - 20} 784 ${top - 10} 784 ${top + 4} Z`);
  c.fill(surface, linear(0, top - 26, 0, top + 2, [[0, darken(bed, 0.15)], [1, lighten(bed, 0.1)]]));
  // two velcro straps over the foot
  for (const [xl, xr, t] of [[548, 672, 606], [392, 530, 586]] as const) {
    strapHump(c, xl, xr, top + 8, t, strap, white);
    const tab = Path.roundRect((xl + xr) / 2 - 16, t + 22, 78, 34, 17);
    c.fill(Path.roundRect((xl + xr) / 2 - 12, t + 26, 78, 34, 17), alpha(BLACK, 0.18));
    c.fill(tab, vshade(tab, lighten(strap, 0.1), 0.15, 0.1));
    stitch(c, Path.roundRect((xl + xr) / 2 - 8, t + 30, 62, 18, 9), white, 1.8, [5, 4]);
  }
  // heel strap up to the ankle strap
  const heelStrap = Path.parse(`M 286 ${top + 10} C 278 ${top - 50} 282 ${top - 100} 300 ${top - 128}`);
  c.stroke(heelStrap, alpha(BLACK, 0.16), { width: 44 });
  c.stroke(heelStrap, vshade(Path.rect(0, top - 130, 10, 140), strap, 0.15, 0.12), { width: 38 });
  stitch(c, heelStrap.offset(12), white, 2, [6, 5]);
  stitch(c, heelStrap.offset(-12), white, 2, [6, 5]);
  // front half of the ankle strap with a velcro tab
  const front = new Path().arc(350, 540, 92, 22, 0.02 * Math.PI, 0.98 * Math.PI);
  c.stroke(front, alpha(BLACK, 0.15), { width: 30 });
  c.stroke(front, strap, { width: 26 });
  stitch(c, front, white, 1.8, [5, 4]);
  const atab = Path.roundRect(370, 546, 74, 30, 15);
  c.fill(atab, vshade(atab, lighten(strap, 0.1), 0.15, 0.1));
  stitch(c, Path.roundRect(378, 552, 58, 18, 9), white, 1.6, [5, 4]);
  footbedLip(c, 252, 790, top, bed);
  // closed toe bumper
  const bumper = Path.parse(`M 690 ${top + 8} C 688 ${top - 44} 726 ${top - 66} 762 ${top - 52} C 790 ${top - 40} 798 ${top - 10} 792 ${top + 14} Z`);
  shaded(c, bumper, lighten(sole, 0.18), 0.14, 0.12);
  stitch(c, Path.parse(`M 704 ${top + 2} C 704 ${top - 34} 730 ${top - 50} 758 ${top - 40}`), white, 2, [6, 5]);

  // appliqué on the front strap
  const ax = 596;
  const ay = 650;
  const petal = lighten(pal.accent, 0.25);
  if (rng() < 0.5) {
    for (let i = 0; i < 5; i++) {
      const a = (i / 5) * Math.PI * 2 - Math.PI / 2;
      c.fill(Path.circle(ax + Math.cos(a) * 13, ay + Math.sin(a) * 13, 10), petal);
    }
    c.fill(Path.circle(ax, ay, 8), hex("#ffd23f"));
  } else {
    const pts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 === 0 ? 24 : 10;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      pts.push(ax + Math.cos(a) * r, ay + Math.sin(a) * r);
    }
    c.fill(Path.polygon(pts), hex("#ffd23f"));
  }
}

function slipper(c: Canvas, pal: Palette, rng: Rng): void {
  const plush = pal.primary;
  const fluff = distinct(pal.secondary, plush, 0.08);
  const sole = darken(plush, 0.35);
  const closedBack = rng() < 0.35;

  // soft thick sole
  const slab = Path.parse("M 200 712 C 200 688 214 678 240 678 L 800 684 C 826 684 842 696 842 714 C 842 734 826 746 798 746 L 240 746 C 214 746 200 734 200 712 Z");
  shaded(c, slab, lighten(fluff, 0.05), 0.05, 0.12);
  clipped(c, slab, () => c.fill(Path.rect(180, 732, 700, 40), sole));
  stitch(c, Path.polyline([222, 704, 822, 708]), alpha(darken(fluff, 0.35), 0.55), 2, [6, 5]);
  // footbed top
  const surface = Path.parse("M 206 692 C 204 672 222 664 250 664 L 800 670 C 826 670 840 680 840 696 Z");
  c.fill(surface, linear(0, 664, 0, 694, [[0, darken(fluff, 0.1)], [1, lighten(fluff, 0.2)]]));

  if (closedBack) {
    const back = Path.parse("M 212 694 C 204 662 212 634 240 626 C 282 616 326 630 348 660 C 356 672 358 684 356 694 Z");
    shaded(c, back, plush, 0.14, 0.14);
    c.stroke(Path.parse("M 214 660 C 214 638 226 628 244 624 C 282 616 322 630 344 656"), lighten(fluff, 0.08), { width: 16, cap: "round" });
  }
  const upper = Path.parse("M 420 694 C 428 612 500 566 610 558 C 716 552 800 592 828 644 C 842 668 840 688 832 694 Z");
  shaded(c, upper, plush, 0.16, 0.16);
  clipped(c, upper, () => {
    if (rng() < 0.5) {
      for (let y = 566; y < 700; y += 18) {
        for (let x = 420; x < 850; x += 18) {
          const o = ((y - 566) / 18) % 2 ? 9 : 0;
          c.fill(Path.ellipse(x + o, y, 5, 7), alpha(darken(plush, 0.25), 0.28));
        }
      }
    } else {
      for (let x = 300; x < 1000; x += 40) {
        c.stroke(Path.polyline([x, 540, x + 160, 700]), alpha(darken(plush, 0.3), 0.35), 2);
        c.stroke(Path.polyline([x + 160, 540, x, 700]), alpha(darken(plush, 0.3), 0.35), 2);
      }
    }
    glow(c, 650, 590, 170, 60, WHITE, 0.3);
    bottomShade(c, 640, 694, 0.16);
  });
  // fluffy trim along the opening
  const trim = Path.parse("M 424 700 C 430 614 502 568 612 562");
  const n = 24;
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i <= n; i++) {
      const s = trim.sample(i / n);
      const j = pass === 0 ? range(rng, -2, 2) : -3;
      c.fill(Path.circle(s.x + j, s.y + j, pass === 0 ? 18 : 14), pass === 0 ? darken(fluff, 0.12) : lighten(fluff, 0.12));
    }
  }
  // pom or embroidered heart
  if (rng() < 0.5) {
    c.fill(Path.circle(700, 574, 30), radial(690, 564, 36, [[0, lighten(pal.accent, 0.35)], [1, darken(pal.accent, 0.12)]]));
  } else {
    const hx = 700;
    const hy = 622;
    const heart = Path.parse(`M ${hx} ${hy + 22} C ${hx - 40} ${hy - 2} ${hx - 26} ${hy - 32} ${hx} ${hy - 12} C ${hx + 26} ${hy - 32} ${hx + 40} ${hy - 2} ${hx} ${hy + 22} Z`);
    shaded(c, heart, pal.accent, 0.15, 0.1);
  }
}

/* -------------------------------------------------------------- accessories */

function bag(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const trim = distinct(pal.secondary, leather, 0.06);
  const m = pal.metal;
  const line = darken(leather, 0.45);
  const seam = alpha(isLight(leather) ? darken(leather, 0.35) : lighten(leather, 0.45), 0.75);
  const flap = rng() < 0.5;

  // back handle
  const handle = (dx: number, col: Color): void => {
    const dy = dx ? -14 : 0;
    const h = Path.parse(`M ${390 + dx} 392 C ${386 + dx} ${230 + dy} ${614 + dx} ${230 + dy} ${610 + dx} 392`);
    c.stroke(h, alpha(BLACK, 0.15), { width: 30 });
    c.stroke(h, col, { width: 24 });
    c.stroke(h.offset(-5), alpha(WHITE, 0.15), { width: 5 });
  };
  handle(34, darken(trim, 0.3));

  const body = Path.parse("M 300 380 L 700 380 L 752 726 C 756 752 744 760 720 760 L 280 760 C 256 760 244 752 248 726 Z");
  c.fill(body, hshade(body, leather, 0.12, 0.22));
  clipped(c, body, () => {
    // gussets
    c.fill(Path.polygon([300, 380, 320, 380, 282, 760, 240, 760]), alpha(BLACK, 0.16));
    c.fill(Path.polygon([700, 380, 680, 380, 718, 760, 760, 760]), alpha(BLACK, 0.16));
    c.fill(Path.rect(200, 380, 600, 40), linear(0, 380, 0, 420, [[0, alpha(BLACK, 0.15)], [1, alpha(BLACK, 0)]]));
    glow(c, 460, 520, 220, 160, WHITE, 0.18);
    bottomShade(c, 640, 760, 0.16);
    stitch(c, Path.parse("M 316 396 L 684 396"), seam);
    stitch(c, Path.parse("M 312 396 L 264 740"), seam);
    stitch(c, Path.parse("M 688 396 L 736 740"), seam);
    if (flap) {
      const f = Path.parse("M 290 370 L 710 370 L 726 520 C 640 578 360 578 274 520 Z");
      c.fill(Path.parse("M 290 380 L 710 380 L 728 530 C 640 590 360 590 272 530 Z"), alpha(BLACK, 0.2));
      c.fill(f, vshade(f, trim, 0.12, 0.1));
      stitch(c, Path.parse("M 286 510 C 360 560 640 560 714 510"), seam);
      // turn-lock clasp
      c.fill(Path.roundRect(468, 528, 64, 44, 12), metalPaint(m, 468, 528, 532, 572));
      c.fill(Path.roundRect(484, 540, 32, 20, 8), metalPaint(m, 516, 560, 484, 540));
    } else {
      // zip + front pocket
      c.fill(Path.rect(310, 392, 380, 8), darken(leather, 0.5));
      const pocket = Path.roundRect(352, 520, 296, 170, 18);
      c.fill(pocket, vshade(pocket, trim, 0.1, 0.12));
      stitch(c, Path.roundRect(362, 530, 276, 150, 12), seam);
      c.fill(Path.roundRect(470, 512, 60, 26, 8), metalPaint(m, 470, 512, 530, 538));
    }
  });
  edge(c, body, alpha(line, 0.5), 2);

  // handle tabs + rings
  for (const x of [390, 610]) {
    c.fill(Path.roundRect(x - 20, 376, 40, 56, 8), vshade(Path.rect(x - 20, 376, 40, 56), trim, 0.1, 0.1));
    c.stroke(Path.ellipse(x, 380, 18, 14), metalPaint(m, x - 18, 366, x + 18, 394), 6);
    eyelet(c, x, 414, 6, m, null);
  }
  handle(0, trim);
  // feet
  for (const x of [300, 700]) c.fill(Path.ellipse(x, 764, 14, 6), metalPaint(m, x - 14, 758, x + 14, 770));
}

function belt(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const inside = darken(distinct(pal.secondary, leather, 0.05), 0.1);
  const m: Metal = pal.metal;
  const cx = 500;
  const rx = 330;
  const ry = 150;
  const yTop = 500;
  const H = 66;
  const yBot = yTop + H;
  const seam = alpha(isLight(leather) ? darken(leather, 0.4) : lighten(leather, 0.45), 0.7);

  const arc = (y: number, a0: number, a1: number): number[] => {
    const pts: number[] = [];
    const n = 120;
    for (let i = 0; i <= n; i++) {
      const a = a0 + ((a1 - a0) * i) / n;
      pts.push(cx + Math.cos(a) * rx, y + Math.sin(a) * ry);
    }
    return pts;
  };
  const revPts = (p: number[]): number[] => {
    const r: number[] = [];
    for (let i = p.length - 2; i >= 0; i -= 2) r.push(p[i]!, p[i + 1]!);
    return r;
  };
  // back wall: inner face
  const back = Path.polygon([...arc(yTop, Math.PI, 2 * Math.PI), ...revPts(arc(yBot, Math.PI, 2 * Math.PI))]);
  c.fill(back, linear(0, yTop - ry, 0, yBot - ry + 20, [[0, lighten(inside, 0.1)], [1, darken(inside, 0.25)]]));
  c.stroke(Path.polyline(arc(yTop, Math.PI, 2 * Math.PI)), alpha(lighten(inside, 0.4), 0.6), 3);
  // front wall: outer face
  const frontTop = arc(yTop, 0, Math.PI);
  const frontBot = arc(yBot, 0, Math.PI);
  const front = Path.polygon([...frontTop, ...revPts(frontBot)]);
  c.fill(front, hshade(front, leather, 0.14, 0.3));
  clipped(c, front, () => {
    c.fill(Path.rect(100, 500, 800, 400), linear(0, yTop + ry - 10, 0, yBot + ry, [[0, alpha(WHITE, 0.12)], [1, alpha(BLACK, 0.15)]]));
    stitch(c, Path.polyline(arc(yTop + 9, 0, Math.PI)), seam, 2.2, [7, 5]);
    stitch(c, Path.polyline(arc(yBot - 9, 0, Math.PI)), seam, 2.2, [7, 5]);
  });
  c.stroke(Path.polyline(frontTop), alpha(lighten(leather, 0.35), 0.7), 2.5);

  // tail: from the buckle to the right, over the front wall
  const a0 = Math.PI / 2 - 0.06;
  const a1 = Math.PI / 2 - range(rng, 0.62, 0.75);
  const tTop = arc(yTop - 2, a1, a0);
  const tBot = arc(yBot + 2, a1, a0);
  const tipX = cx + Math.cos(a1) * rx;
  const tipY = (yTop + yBot) / 2 + Math.sin(a1) * ry;
  const tail = Path.polygon([...tTop, ...revPts(tBot), tipX + 26, tipY - 4]);
  c.fill(Path.polygon([...tTop, ...revPts(tBot), tipX + 26, tipY - 4]), alpha(BLACK, 0.2));
  c.save();
  c.translate(-3, -4);
  c.fill(tail, hshade(tail, lighten(leather, 0.04), 0.16, 0.2));
  clipped(c, tail, () => stitch(c, Path.polyline(arc(yTop + 8, a1 + 0.02, a0)), seam, 2, [7, 5]));
  // holes
  for (let i = 0; i < 5; i++) {
    const a = a1 + 0.08 + i * 0.055;
    const x = cx + Math.cos(a) * rx;
    const y = (yTop + yBot) / 2 + Math.sin(a) * ry;
    c.fill(Path.ellipse(x, y, 4, 6), darken(leather, 0.6));
  }
  c.restore();

  // keeper loop
  const kx = cx + Math.cos(Math.PI / 2 - 0.2) * rx;
  const ky = (yTop + yBot) / 2 + Math.sin(Math.PI / 2 - 0.2) * ry;
  const keeper = Path.roundRect(kx - 12, ky - H / 2 - 10, 24, H + 20, 6);
  shaded(c, keeper, leather, 0.12, 0.2);
  edge(c, keeper, alpha(BLACK, 0.3), 1.5);

  // buckle frame and prong
  const bx = cx - 6;
  const by = (yTop + yBot) / 2 + ry;
  const shape = int(rng, 0, 1);
  const frame = shape === 0 ? Path.roundRect(bx - 52, by - 58, 96, 116, 14) : Path.roundRect(bx - 52, by - 58, 96, 116, 44);
  c.stroke(frame, alpha(BLACK, 0.25), { width: 20 });
  c.stroke(frame, metalPaint(m, bx - 52, by - 58, bx + 44, by + 58), { width: 15 });
  c.stroke(frame.offset(0), alpha(WHITE, 0.35), { width: 2 });
  c.fill(Path.roundRect(bx - 56, by - 8, 94, 14, 6), metalPaint(m, bx - 56, by - 8, bx + 38, by + 6));
}

function wallet(c: Canvas, pal: Palette, rng: Rng): void {
  const leather = pal.primary;
  const edgeC = distinct(pal.secondary, leather, 0.06);
  const seam = alpha(isLight(leather) ? darken(leather, 0.4) : lighten(pal.accent, 0.1), 0.8);
  const x0 = 190;
  const x1 = 810;
  const y0 = 350;
  const y1 = 690;

  // thickness
  c.fill(Path.roundRect(x0, y0 + 8, x1 - x0, y1 - y0 + 6, 28), darken(edgeC, 0.35));
  const outer = Path.roundRect(x0, y0, x1 - x0, y1 - y0, 28);
  shaded(c, outer, edgeC, 0.1, 0.12);
  const inner = Path.roundRect(x0 + 8, y0 + 8, x1 - x0 - 16, y1 - y0 - 16, 22);
  c.fill(inner, vshade(inner, leather, 0.1, 0.14));
  clipped(c, inner, () => {
    const cards = [hex("#2f6fde"), hex("#d9b45a"), hex("#c9ced6"), hex("#1d1f24"), hex("#e04f5f"), hex("#2fa37a")];
    for (const [px0, px1] of [[x0 + 30, 490], [510, x1 - 30]] as const) {
      const slots = int(rng, 3, 4);
      for (let i = 0; i < slots; i++) {
        const y = 420 + i * (200 / slots);
        // card peeking out
        const card = pick(rng, cards);
        const cy = y - 22;
        c.fill(Path.roundRect(px0 + 14, cy, px1 - px0 - 28, 60, 8), vshade(Path.rect(px0, cy, 10, 40), card, 0.15, 0.1));
        if (i === 0) c.fill(Path.roundRect(px0 + 30, cy + 10, 34, 8, 3), alpha(WHITE, 0.6));
        // pocket
        const dip = i === 0 ? 16 : 0;
        const pocket = Path.parse(`M ${px0} ${y} L ${(px0 + px1) / 2 - 50} ${y} C ${(px0 + px1) / 2 - 30} ${y + dip} ${(px0 + px1) / 2 + 30} ${y + dip} ${(px0 + px1) / 2 + 50} ${y} L ${px1} ${y} L ${px1} ${y1} L ${px0} ${y1} Z`);
        c.fill(Path.rect(px0, y - 4, px1 - px0, 10), alpha(BLACK, 0.16));
        c.fill(pocket, vshade(pocket, lighten(leather, 0.04 + i * 0.02), 0.1, 0.12));
        c.stroke(Path.parse(`M ${px0} ${y} L ${(px0 + px1) / 2 - 50} ${y} C ${(px0 + px1) / 2 - 30} ${y + dip} ${(px0 + px1) / 2 + 30} ${y + dip} ${(px0 + px1) / 2 + 50} ${y} L ${px1} ${y}`), alpha(lighten(leather, 0.35), 0.5), 2);
        stitch(c, Path.polyline([px0 + 10, y + 10, px1 - 10, y + 10]), seam, 2, [6, 5]);
      }
    }
    // centre fold
    c.fill(Path.rect(470, y0, 60, y1 - y0), linear(470, 0, 530, 0, [
      [0, alpha(BLACK, 0)], [0.45, alpha(BLACK, 0.28)], [0.55, alpha(BLACK, 0.28)], [1, alpha(BLACK, 0)],
    ]));
    glow(c, 360, 400, 240, 110, WHITE, 0.12);
  });
  stitch(c, Path.roundRect(x0 + 16, y0 + 16, x1 - x0 - 32, y1 - y0 - 32, 18), seam, 2.2, [7, 5]);
}

function socks(c: Canvas, pal: Palette, rng: Rng): void {
  const base = pal.primary;
  const patch = distinct(pal.secondary, base);
  const stripe = pal.accent;
  const stripes = int(rng, 1, 3);

  const shape = `M 320 170 L 470 170 L 472 460 C 474 520 500 556 560 568 L 700 586
    C 762 596 792 630 790 668 C 788 706 756 728 704 726 L 480 722
    C 410 720 350 690 332 630 C 318 590 318 520 320 460 Z`;
  const one = (dx: number, dy: number, shade: number): void => {
    c.save();
    c.translate(dx, dy);
    const sock = Path.parse(shape);
    c.fill(sock, hshade(sock, darken(base, shade), 0.1, 0.12));
    clipped(c, sock, () => {
      // ribbed cuff
      c.fill(Path.rect(300, 160, 200, 90), darken(base, 0.04 + shade));
      for (let x = 326; x < 470; x += 10) c.stroke(Path.polyline([x, 170, x, 250]), alpha(BLACK, 0.1), 3);
      c.stroke(Path.polyline([300, 250, 500, 250]), alpha(BLACK, 0.12), 3);
      // stripes
      for (let i = 0; i < stripes; i++) c.fill(Path.rect(300, 280 + i * 34, 200, 18), darken(stripe, shade));
      // heel + toe patches
      c.fill(Path.parse("M 300 600 C 340 620 400 640 450 660 C 470 690 470 710 460 740 L 300 740 Z"), darken(patch, shade));
      c.fill(Path.parse("M 690 560 C 670 620 670 680 690 760 L 820 760 L 820 560 Z"), darken(patch, shade));
      // knit texture
      for (let y = 180; y < 740; y += 8) c.stroke(Path.polyline([300, y, 820, y]), alpha(BLACK, 0.035), 2);
      glow(c, 400, 380, 60, 200, WHITE, 0.2);
      bottomShade(c, 640, 730, 0.12);
    });
    edge(c, sock, alpha(BLACK, 0.18), 2);
    c.restore();
  };
  one(90, -34, 0.12);
  one(-10, 6, 0);
}

function cap(c: Canvas, pal: Palette, rng: Rng): void {
  const fabric = pal.primary;
  const brimC = rng() < 0.5 ? fabric : distinct(pal.secondary, fabric);
  const logo = distinct(pal.accent, fabric);
  const seam = alpha(isLight(fabric) ? darken(fabric, 0.35) : lighten(fabric, 0.35), 0.6);

  // back opening + strap (visible through the back)
  const crown = Path.parse(`M 244 592 C 222 462 320 334 486 322 C 646 312 728 440 716 608
    C 600 620 400 610 244 592 Z`);
  c.fill(crown, radial(420, 380, 420, [[0, lighten(fabric, 0.2)], [0.6, fabric], [1, darken(fabric, 0.3)]]));
  clipped(c, crown, () => {
    // panel seams from the button
    const seams = [
      "M 486 324 C 420 380 372 480 360 616",
      "M 486 324 C 540 390 580 480 590 612",
      "M 486 324 C 380 340 290 420 262 520",
    ];
    for (const s of seams) {
      const p = Path.parse(s);
      c.stroke(p, alpha(BLACK, 0.25), 3);
      stitch(c, p.offset(7), seam, 2, [6, 5]);
      stitch(c, p.offset(-7), seam, 2, [6, 5]);
    }
    // vent eyelets
    for (const [x, y] of [[410, 420], [540, 418], [310, 480]] as const) {
      c.fill(Path.ellipse(x, y, 9, 7), darken(fabric, 0.35));
      c.stroke(Path.ellipse(x, y, 9, 7), seam, 2);
    }
    // back strap opening
    const opening = Path.parse("M 236 600 C 236 548 260 528 290 528 C 316 528 332 558 334 606 Z");
    c.fill(opening, darken(fabric, 0.6));
    c.fill(Path.roundRect(230, 574, 112, 20, 6), darken(pal.secondary, 0.1));
    // front logo
    const lx = 650;
    const ly = 470;
    const style = int(rng, 0, 2);
    c.save();
    c.translate(lx, ly);
    c.scale(0.78, 1);
    c.translate(-lx, -ly);
    if (style === 0) {
      c.fill(Path.roundRect(lx - 48, ly - 26, 96, 52, 12), logo);
      c.fill(Path.roundRect(lx - 32, ly - 6, 64, 12, 6), fabric);
    } else if (style === 1) {
      c.fill(Path.circle(lx, ly, 36), logo);
      c.fill(Path.circle(lx, ly, 18), fabric);
      c.fill(Path.circle(lx, ly, 9), logo);
    } else {
      const pts: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = i % 2 === 0 ? 42 : 17;
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        pts.push(lx + Math.cos(a) * r, ly + Math.sin(a) * r);
      }
      c.fill(Path.polygon(pts), logo);
    }
    c.restore();
    bottomShade(c, 520, 620, 0.22);
  });
  edge(c, crown, alpha(BLACK, 0.25), 2);
  // sweatband line
  c.stroke(Path.parse("M 244 588 C 400 606 600 616 716 604"), alpha(BLACK, 0.25), 3);
  // button
  c.fill(Path.ellipse(486, 318, 22, 9), vshade(Path.rect(464, 309, 44, 18), fabric, 0.25, 0.2));

  // brim seen slightly from above: top surface + underside thickness, curving down
  const brim = Path.parse(`M 592 596 C 700 562 830 586 900 672 C 906 682 898 692 886 688
    C 840 662 760 642 690 636 C 650 633 620 632 596 634 Z`);
  const under = Path.parse(`M 596 634 C 620 632 650 633 690 636 C 760 642 840 662 886 688
    L 880 702 C 834 678 760 656 690 650 C 650 647 620 646 596 648 Z`);
  c.fill(Path.parse("M 592 610 C 700 576 830 600 900 686 L 880 712 C 834 688 760 666 690 660 L 596 658 Z"), alpha(BLACK, 0.12));
  c.fill(under, darken(brimC, 0.5));
  c.fill(brim, linear(620, 580, 660, 660, [[0, darken(brimC, 0.1)], [0.6, lighten(brimC, 0.12)], [1, brimC]]));
  clipped(c, brim, () => {
    for (let k = 1; k <= 4; k++) {
      const t = k * 7;
      stitch(c, Path.parse(`M 596 ${598 + t} C 704 ${566 + t} 830 ${592 + t * 0.6} 896 ${676 + t * 0.1}`), seam, 1.8, [6, 5]);
    }
  });
  edge(c, brim, alpha(BLACK, 0.25), 2);
}

function watch(c: Canvas, pal: Palette, rng: Rng): void {
  const dial = pal.primary;
  const strap = distinct(pal.secondary, pal.bg, 0.1);
  const accent = pal.accent;
  const m = pal.metal;
  const cx = 500;
  const cy = 470;
  const R = 170;
  const seam = alpha(lighten(strap, 0.5), 0.7);

  // straps
  const top = Path.parse("M 428 140 C 428 120 440 112 460 112 L 540 112 C 560 112 572 120 572 140 L 578 360 L 422 360 Z");
  const bottomS = Path.parse("M 422 580 L 578 580 L 572 850 C 572 876 552 892 500 892 C 448 892 428 876 428 850 Z");
  for (const s of [top, bottomS]) {
    c.fill(s, hshade(s, strap, 0.1, 0.25));
    const b = s.bounds();
    stitch(c, Path.polyline([b.x0 + 16, b.y0 + 24, b.x0 + 16, b.y1 - 24]), seam, 2.2, [7, 5]);
    stitch(c, Path.polyline([b.x1 - 16, b.y0 + 24, b.x1 - 16, b.y1 - 24]), seam, 2.2, [7, 5]);
  }
  // buckle at the end of the short strap
  c.stroke(Path.roundRect(416, 100, 168, 56, 16), alpha(BLACK, 0.2), 16);
  c.stroke(Path.roundRect(416, 96, 168, 56, 16), metalPaint(m, 416, 96, 584, 152), 12);
  c.fill(Path.roundRect(494, 100, 12, 70, 5), metalPaint(m, 494, 100, 506, 170));
  // holes + keeper on the long strap
  for (let i = 0; i < 5; i++) c.fill(Path.ellipse(cx, 700 + i * 32, 6, 7), darken(strap, 0.6));
  const keeper = Path.roundRect(414, 640, 172, 30, 8);
  shaded(c, keeper, darken(strap, 0.05), 0.15, 0.2);

  // lugs
  c.fill(Path.parse("M 404 340 L 596 340 L 584 400 L 416 400 Z"), metalPaint(m, 404, 340, 596, 400));
  c.fill(Path.parse("M 416 540 L 584 540 L 596 600 L 404 600 Z"), metalPaint(m, 404, 540, 596, 600));
  // crown
  c.fill(Path.roundRect(cx + R - 6, cy - 24, 36, 48, 8), metalPaint(m, cx + R, cy - 24, cx + R + 30, cy + 24));
  for (let i = 0; i < 6; i++) c.stroke(Path.polyline([cx + R + 4 + i * 5, cy - 22, cx + R + 4 + i * 5, cy + 22]), alpha(BLACK, 0.2), 1.5);
  // case
  c.fill(Path.circle(cx, cy + 6, R + 4), alpha(BLACK, 0.25));
  c.fill(Path.circle(cx, cy, R), metalPaint(m, cx - R, cy - R, cx + R, cy + R));
  c.fill(Path.circle(cx, cy, R - 16), linear(cx + R, cy + R, cx - R, cy - R, [[0, m.light], [0.5, m.mid], [1, m.dark]]));
  const dialR = R - 26;
  c.fill(Path.circle(cx, cy, dialR), radial(cx - 40, cy - 50, dialR * 1.4, [[0, lighten(dial, 0.18)], [1, darken(dial, 0.25)]]));
  const ink = contrastOn(dial);
  // minute track + indices
  for (let i = 0; i < 60; i++) {
    const a = (i / 60) * Math.PI * 2;
    const major = i % 5 === 0;
    const r0 = major ? dialR - 34 : dialR - 12;
    const r1 = dialR - 6;
    const sx = Math.sin(a);
    const cy2 = -Math.cos(a);
    c.stroke(Path.polyline([cx + sx * r0, cy + cy2 * r0, cx + sx * r1, cy + cy2 * r1]), alpha(ink, major ? 0.95 : 0.5), major ? (i % 15 === 0 ? 9 : 6) : 2);
  }
  // hands (seed sets the time)
  const hour = int(rng, 0, 11);
  const minute = int(rng, 0, 59);
  const ah = ((hour + minute / 60) / 12) * Math.PI * 2;
  const am = (minute / 60) * Math.PI * 2;
  const as = range(rng, 0, Math.PI * 2);
  const hand = (a: number, len: number, w: number, col: Color): void => {
    const sx = Math.sin(a);
    const sy = -Math.cos(a);
    const p = Path.polyline([cx - sx * 14, cy - sy * 14, cx + sx * len, cy + sy * len]);
    c.stroke(p, alpha(BLACK, 0.3), { width: w + 3, cap: "round" });
    c.stroke(p, col, { width: w, cap: "round" });
  };
  hand(ah, dialR * 0.52, 11, ink);
  hand(am, dialR * 0.8, 8, ink);
  hand(as, dialR * 0.86, 3, accent);
  c.fill(Path.circle(cx, cy, 9), accent);
  c.fill(Path.circle(cx, cy, 4), m.light);
  // date window
  c.fill(Path.roundRect(cx + dialR * 0.5, cy - 13, 30, 26, 4), hex("#f7f7f2"));
  // crystal reflection
  c.save();
  c.clip(Path.circle(cx, cy, dialR));
  c.fill(Path.parse(`M ${cx - dialR} ${cy - dialR} L ${cx + dialR} ${cy - dialR} L ${cx - dialR} ${cy + dialR * 0.3} Z`), alpha(WHITE, 0.08));
  c.restore();
}

/* ----------------------------------------------------------------- public */

interface KindSpec {
  draw: (c: Canvas, pal: Palette, rng: Rng) => void;
  /** Bounding box of the drawing in design units [x0, y0, x1, y1]. */
  box: readonly [number, number, number, number];
  /** Floor shadow in design units: centre x, floor y, half width, half height. */
  shadow: readonly [number, number, number, number];
  /** Maximum random tilt in degrees. */
  tilt: number;
}

const SHOE_SHADOW = [512, FLOOR, 360, 16] as const;

const KINDS: Record<ArtKind, KindSpec> = {
  sneaker: { draw: sneaker, box: [156, 410, 870, 750], shadow: SHOE_SHADOW, tilt: 1.2 },
  runner: { draw: runner, box: [140, 405, 876, 750], shadow: SHOE_SHADOW, tilt: 1.2 },
  boot: { draw: boot, box: [176, 226, 888, 750], shadow: SHOE_SHADOW, tilt: 1 },
  "chelsea-boot": { draw: chelseaBoot, box: [186, 236, 888, 750], shadow: SHOE_SHADOW, tilt: 1 },
  loafer: { draw: loafer, box: [190, 540, 886, 750], shadow: SHOE_SHADOW, tilt: 1 },
  oxford: { draw: oxford, box: [190, 510, 886, 750], shadow: SHOE_SHADOW, tilt: 1 },
  heel: { draw: heel, box: [204, 390, 904, 750], shadow: [560, FLOOR, 350, 12], tilt: 0.8 },
  sandal: { draw: sandal, box: [186, 420, 864, 750], shadow: SHOE_SHADOW, tilt: 1 },
  flat: { draw: flat, box: [190, 610, 872, 750], shadow: SHOE_SHADOW, tilt: 0.8 },
  "kids-sneaker": { draw: kidsSneaker, box: [222, 420, 812, 750], shadow: [515, FLOOR, 300, 16], tilt: 1.5 },
  "kids-sandal": { draw: kidsSandal, box: [246, 500, 796, 750], shadow: [520, FLOOR, 280, 16], tilt: 1.5 },
  slipper: { draw: slipper, box: [196, 520, 844, 750], shadow: [520, FLOOR, 330, 16], tilt: 1 },
  bag: { draw: bag, box: [236, 250, 766, 770], shadow: [500, 764, 280, 18], tilt: 0 },
  belt: { draw: belt, box: [164, 340, 836, 740], shadow: [500, 640, 360, 80], tilt: 2 },
  wallet: { draw: wallet, box: [184, 340, 816, 706], shadow: [500, 700, 330, 20], tilt: 1.5 },
  socks: { draw: socks, box: [300, 130, 890, 740], shadow: [560, 728, 260, 16], tilt: 1.5 },
  cap: { draw: cap, box: [220, 300, 908, 702], shadow: [560, 694, 340, 18], tilt: 2 },
  watch: { draw: watch, box: [400, 90, 710, 896], shadow: [505, 892, 110, 12], tilt: 0 },
};

/** Draws one product illustration and returns it as PNG bytes. */
export function drawProduct(opts: DrawProductOptions): Uint8Array {
  const { width, height, rgba } = renderProduct(opts);
  return encodePng(width, height, rgba);
}

/** Same as drawProduct() but returns the raw RGBA pixels (alpha always 255). */
export function renderProduct(opts: DrawProductOptions): { width: number; height: number; rgba: Uint8Array } {
  const size = Math.max(16, Math.round(opts.size ?? 640));
  const spec = KINDS[opts.kind];
  if (!spec) throw new Error(`Unknown product art kind: ${String(opts.kind)}`);
  const rng = makeRng(opts.seed);
  const pal: Palette = {
    primary: hex(opts.primary),
    secondary: hex(opts.secondary),
    accent: hex(opts.accent),
    bg: hex(opts.background),
    metal: pick(rng, [SILVER, SILVER, GOLD, GUNMETAL]),
  };

  const c = new Canvas(size, size);
  c.scale(size / 1000);
  backdrop(c, pal);

  // fit the product box into the frame (design units), slightly below centre
  const [bx0, by0, bx1, by1] = spec.box;
  const close = opts.view === "close";
  const fit = Math.min(820 / (bx1 - bx0), 700 / (by1 - by0), 1.35) * range(rng, 0.97, 1.0) * (close ? 1.6 : 1);
  // Close up, the front three quarters of the product fill the frame (its back runs off the left edge).
  const ox = 500 - (close ? bx0 + (bx1 - bx0) * 0.62 : (bx0 + bx1) / 2) * fit;
  const oy = 515 - ((by0 + by1) / 2) * fit;
  // The backdrop is symmetric, so mirroring everything after it shows the pair's other shoe.
  if (opts.view === "other-side") {
    c.translate(1000, 0);
    c.scale(-1, 1);
  }
  const [sx, sy, srx, sry] = spec.shadow;
  floorShadow(c, pal, ox + sx * fit, oy + sy * fit, srx * fit, sry * fit);

  c.save();
  c.translate(ox, oy);
  c.scale(fit);
  const tilt = ((rng() - 0.5) * 2 * spec.tilt * Math.PI) / 180;
  c.rotateAround(tilt, sx, sy);
  spec.draw(c, pal, rng);
  c.restore();

  return { width: size, height: size, rgba: c.toRGBA() };
}
