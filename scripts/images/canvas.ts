/**
 * A tiny software rasteriser for drawing catalogue illustrations.
 *
 * - Paths (lines, quadratic/cubic Béziers, ellipses, rounded rects) are
 *   flattened to polygons in user space, transformed by the current affine
 *   matrix and scan-converted with exact-area coverage anti-aliasing (the
 *   signed-area accumulation technique used by font rasterisers such as
 *   font-rs). Coverage is min(1, |winding area|), i.e. non-zero fill for
 *   well-formed, consistently oriented paths; holes need opposite winding.
 * - Strokes are converted to outline polygons (miter joins with a limit,
 *   butt/round/square caps, optional dashes) and filled the same way.
 * - Paints: solid colours, linear and radial gradients. Everything is
 *   alpha-blended ("source over") onto an opaque float RGB buffer.
 * - A clip stack (save/restore + clip(path)) multiplies an extra coverage mask.
 */

export interface Color {
  r: number; // 0..255
  g: number;
  b: number;
  a: number; // 0..1
}

export type Stop = readonly [offset: number, color: Color];

export interface LinearGradient {
  kind: "linear";
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  stops: readonly Stop[];
}

export interface RadialGradient {
  kind: "radial";
  cx: number;
  cy: number;
  r: number;
  stops: readonly Stop[];
}

export type Paint = Color | LinearGradient | RadialGradient;

export type Matrix = [number, number, number, number, number, number];

/* ------------------------------------------------------------------ colours */

export function rgb(r: number, g: number, b: number, a = 1): Color {
  return { r, g, b, a };
}

/** Parses `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export function hex(value: string, alpha?: number): Color {
  let h = value.trim().replace(/^#/, "");
  if (h.length === 3) h = h.split("").map((ch) => ch + ch).join("");
  if (!/^[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(h)) throw new Error(`Invalid hex colour: ${value}`);
  const n = (i: number): number => parseInt(h.slice(i, i + 2), 16);
  const a = h.length === 8 ? n(6) / 255 : 1;
  return { r: n(0), g: n(2), b: n(4), a: alpha ?? a };
}

export function mix(c1: Color, c2: Color, t: number): Color {
  return {
    r: c1.r + (c2.r - c1.r) * t,
    g: c1.g + (c2.g - c1.g) * t,
    b: c1.b + (c2.b - c1.b) * t,
    a: c1.a + (c2.a - c1.a) * t,
  };
}

const WHITE: Color = rgb(255, 255, 255);
const BLACK: Color = rgb(0, 0, 0);

export const lighten = (c: Color, t: number): Color => ({ ...mix(c, WHITE, t), a: c.a });
export const darken = (c: Color, t: number): Color => ({ ...mix(c, BLACK, t), a: c.a });
export const alpha = (c: Color, a: number): Color => ({ ...c, a });

/** Relative luminance, 0 (black) .. 1 (white). */
export function luminance(c: Color): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

export function linear(x0: number, y0: number, x1: number, y1: number, stops: readonly Stop[]): LinearGradient {
  return { kind: "linear", x0, y0, x1, y1, stops };
}

export function radial(cx: number, cy: number, r: number, stops: readonly Stop[]): RadialGradient {
  return { kind: "radial", cx, cy, r, stops };
}

/* -------------------------------------------------------------------- paths */

export interface SubPath {
  pts: number[]; // flat [x0, y0, x1, y1, ...] in user space
  closed: boolean;
}

/** Flattening density: one segment per this many user units of control polygon. */
const FLATTEN_STEP = 4;

export class Path {
  readonly subpaths: SubPath[] = [];
  private cur: SubPath | null = null;
  private lx = 0;
  private ly = 0;
  private sx = 0;
  private sy = 0;

  moveTo(x: number, y: number): this {
    this.cur = { pts: [x, y], closed: false };
    this.subpaths.push(this.cur);
    this.lx = this.sx = x;
    this.ly = this.sy = y;
    return this;
  }

  lineTo(x: number, y: number): this {
    if (!this.cur) return this.moveTo(x, y);
    this.cur.pts.push(x, y);
    this.lx = x;
    this.ly = y;
    return this;
  }

  quadTo(cx: number, cy: number, x: number, y: number): this {
    if (!this.cur) this.moveTo(this.lx, this.ly);
    const x0 = this.lx;
    const y0 = this.ly;
    const len = Math.hypot(cx - x0, cy - y0) + Math.hypot(x - cx, y - cy);
    const n = Math.max(2, Math.min(100, Math.ceil(len / FLATTEN_STEP)));
    for (let i = 1; i <= n; i++) {
      const t = i / n;
      const u = 1 - t;
      this.cur!.pts.push(u * u * x0 + 2 * u * t * cx + t * t * x, u * u * y0 + 2 * u * t * cy + t * t * y);
    }
    this.lx = x;
    this.ly = y;
    return this;
  }

  cubicTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): this {
    if (!this.cur) this.moveTo(this.lx, this.ly);
    const x0 = this.lx;
    const y0 = this.ly;
    const len = Math.hypot(c1x - x0, c1y - y0) + Math.hypot(c2x - c1x, c2y - c1y) + Math.hypot(x - c2x, y - c2y);
    const n = Math.max(3, Math.min(120, Math.ceil(len / FLATTEN_STEP)));
    for (let i = 1; i <= n; i++) {
      const t = i / n;
      const u = 1 - t;
      const a = u * u * u;
      const b = 3 * u * u * t;
      const c = 3 * u * t * t;
      const d = t * t * t;
      this.cur!.pts.push(a * x0 + b * c1x + c * c2x + d * x, a * y0 + b * c1y + c * c2y + d * y);
    }
    this.lx = x;
    this.ly = y;
    return this;
  }

  /** Circular/elliptical arc around (cx, cy) from angle a0 to a1 (radians, y down). */
  arc(cx: number, cy: number, rx: number, ry: number, a0: number, a1: number): this {
    const n = Math.max(4, Math.min(200, Math.ceil((Math.abs(a1 - a0) * Math.max(rx, ry)) / FLATTEN_STEP)));
    for (let i = 0; i <= n; i++) {
      const a = a0 + ((a1 - a0) * i) / n;
      const x = cx + Math.cos(a) * rx;
      const y = cy + Math.sin(a) * ry;
      if (i === 0 && !this.cur) this.moveTo(x, y);
      else this.lineTo(x, y);
    }
    return this;
  }

  close(): this {
    if (this.cur) {
      this.cur.closed = true;
      this.lx = this.sx;
      this.ly = this.sy;
    }
    this.cur = null;
    return this;
  }

  /** Appends all subpaths of another path. */
  add(other: Path): this {
    for (const sp of other.subpaths) this.subpaths.push({ pts: sp.pts.slice(), closed: sp.closed });
    this.cur = null;
    return this;
  }

  /** Reverses the direction of every subpath (turns a shape into a hole). */
  reversed(): Path {
    const p = new Path();
    for (const sp of this.subpaths) {
      const pts: number[] = [];
      for (let i = sp.pts.length - 2; i >= 0; i -= 2) pts.push(sp.pts[i]!, sp.pts[i + 1]!);
      p.subpaths.push({ pts, closed: sp.closed });
    }
    return p;
  }

  bounds(): { x0: number; y0: number; x1: number; y1: number } {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const sp of this.subpaths) {
      for (let i = 0; i < sp.pts.length; i += 2) {
        const x = sp.pts[i]!;
        const y = sp.pts[i + 1]!;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
    return { x0, y0, x1, y1 };
  }

  /** Total length of the first subpath. */
  length(): number {
    const pts = this.subpaths[0]?.pts ?? [];
    let len = 0;
    for (let i = 2; i < pts.length; i += 2) len += Math.hypot(pts[i]! - pts[i - 2]!, pts[i + 1]! - pts[i - 1]!);
    return len;
  }

  /**
   * Point and unit tangent at fraction t (0..1) of the arc length of the
   * first subpath. The normal used by offset() is (-ty, tx); with y growing
   * downwards it points *down* the screen for a path drawn left to right.
   */
  sample(t: number): { x: number; y: number; tx: number; ty: number } {
    const pts = this.subpaths[0]?.pts ?? [0, 0];
    const target = Math.max(0, Math.min(1, t)) * this.length();
    let acc = 0;
    for (let i = 2; i < pts.length; i += 2) {
      const dx = pts[i]! - pts[i - 2]!;
      const dy = pts[i + 1]! - pts[i - 1]!;
      const seg = Math.hypot(dx, dy);
      if (seg > 0 && (acc + seg >= target || i === pts.length - 2)) {
        const f = Math.min(1, (target - acc) / seg);
        return { x: pts[i - 2]! + dx * f, y: pts[i - 1]! + dy * f, tx: dx / seg, ty: dy / seg };
      }
      acc += seg;
    }
    return { x: pts[0]!, y: pts[1]!, tx: 1, ty: 0 };
  }

  /** A copy of the first subpath with every vertex moved d units along the normal (-ty, tx). */
  offset(d: number): Path {
    const src = this.subpaths[0];
    const p = new Path();
    if (!src) return p;
    const pts = dedupe(src.pts);
    const n = pts.length / 2;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const [nx, ny] = vertexNormal(pts, i, src.closed);
      out.push(pts[i * 2]! + nx * d, pts[i * 2 + 1]! + ny * d);
    }
    p.subpaths.push({ pts: out, closed: src.closed });
    return p;
  }

  /**
   * Parses a subset of SVG path syntax with absolute commands only:
   * M, L, H, V, Q, C, Z (numbers separated by spaces or commas).
   */
  static parse(d: string): Path {
    const p = new Path();
    const tokens = d.match(/[MLHVQCZ]|-?\d*\.?\d+(?:e-?\d+)?/gi) ?? [];
    let i = 0;
    let cmd = "";
    const num = (): number => {
      const t = tokens[i++];
      if (t === undefined || /[A-Za-z]/.test(t)) throw new Error(`Bad path data near token ${i}: ${d}`);
      return parseFloat(t);
    };
    while (i < tokens.length) {
      const t = tokens[i]!;
      if (/^[A-Za-z]$/.test(t)) {
        cmd = t.toUpperCase();
        i++;
        if (cmd === "Z") {
          p.close();
          continue;
        }
      }
      switch (cmd) {
        case "M": p.moveTo(num(), num()); cmd = "L"; break;
        case "L": p.lineTo(num(), num()); break;
        case "H": p.lineTo(num(), p.ly); break;
        case "V": p.lineTo(p.lx, num()); break;
        case "Q": p.quadTo(num(), num(), num(), num()); break;
        case "C": p.cubicTo(num(), num(), num(), num(), num(), num()); break;
        default: throw new Error(`Unsupported path command ${cmd} in: ${d}`);
      }
    }
    return p;
  }

  static ellipse(cx: number, cy: number, rx: number, ry: number, rotation = 0): Path {
    const p = new Path();
    const n = Math.max(16, Math.min(240, Math.ceil((2 * Math.PI * Math.max(rx, ry)) / FLATTEN_STEP)));
    const cr = Math.cos(rotation);
    const sr = Math.sin(rotation);
    for (let i = 0; i < n; i++) {
      const a = (i / n) * Math.PI * 2;
      const ex = Math.cos(a) * rx;
      const ey = Math.sin(a) * ry;
      const x = cx + ex * cr - ey * sr;
      const y = cy + ex * sr + ey * cr;
      if (i === 0) p.moveTo(x, y);
      else p.lineTo(x, y);
    }
    return p.close();
  }

  static circle(cx: number, cy: number, r: number): Path {
    return Path.ellipse(cx, cy, r, r);
  }

  static rect(x: number, y: number, w: number, h: number): Path {
    return new Path().moveTo(x, y).lineTo(x + w, y).lineTo(x + w, y + h).lineTo(x, y + h).close();
  }

  static roundRect(x: number, y: number, w: number, h: number, r: number): Path {
    const rr = Math.max(0, Math.min(r, w / 2, h / 2));
    if (rr === 0) return Path.rect(x, y, w, h);
    const p = new Path();
    const q = Math.PI / 2;
    p.arc(x + w - rr, y + rr, rr, rr, -q, 0);
    p.arc(x + w - rr, y + h - rr, rr, rr, 0, q);
    p.arc(x + rr, y + h - rr, rr, rr, q, 2 * q);
    p.arc(x + rr, y + rr, rr, rr, 2 * q, 3 * q);
    return p.close();
  }

  static polygon(points: readonly number[]): Path {
    const p = new Path();
    for (let i = 0; i < points.length; i += 2) {
      if (i === 0) p.moveTo(points[0]!, points[1]!);
      else p.lineTo(points[i]!, points[i + 1]!);
    }
    return p.close();
  }

  /** Open polyline through the given points. */
  static polyline(points: readonly number[]): Path {
    const p = new Path();
    for (let i = 0; i < points.length; i += 2) {
      if (i === 0) p.moveTo(points[0]!, points[1]!);
      else p.lineTo(points[i]!, points[i + 1]!);
    }
    return p;
  }
}

/* ------------------------------------------------------------------ strokes */

export interface StrokeStyle {
  width: number;
  cap?: "butt" | "round" | "square";
  /** Miter limit as a multiple of half the width (default 4). */
  miterLimit?: number;
  /** Dash pattern [on, off, on, off, ...] in user units. */
  dash?: readonly number[];
  dashOffset?: number;
}

function dedupe(pts: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < pts.length; i += 2) {
    const x = pts[i]!;
    const y = pts[i + 1]!;
    const n = out.length;
    if (n >= 2 && Math.abs(out[n - 2]! - x) < 1e-6 && Math.abs(out[n - 1]! - y) < 1e-6) continue;
    out.push(x, y);
  }
  return out;
}

/** Unit left normal at vertex i (averaged over adjacent segments). */
function vertexNormal(pts: readonly number[], i: number, closed: boolean): [number, number] {
  const n = pts.length / 2;
  const seg = (a: number, b: number): [number, number] => {
    const dx = pts[b * 2]! - pts[a * 2]!;
    const dy = pts[b * 2 + 1]! - pts[a * 2 + 1]!;
    const l = Math.hypot(dx, dy) || 1;
    return [-dy / l, dx / l];
  };
  const hasPrev = closed || i > 0;
  const hasNext = closed || i < n - 1;
  if (n < 2) return [0, -1];
  if (!hasPrev) return seg(i, i + 1);
  if (!hasNext) return seg(i - 1, i);
  const a = seg((i - 1 + n) % n, i);
  const b = seg(i, (i + 1) % n);
  const mx = a[0] + b[0];
  const my = a[1] + b[1];
  const l = Math.hypot(mx, my);
  return l < 1e-6 ? a : [mx / l, my / l];
}

/** Splits an (open) polyline into dashes. */
function dashPolyline(pts: readonly number[], dash: readonly number[], offset: number): number[][] {
  const out: number[][] = [];
  const total = dash.reduce((s, v) => s + v, 0);
  if (total <= 0) return [pts.slice()];
  let idx = 0;
  let remain = dash[0]!;
  let on = true;
  // apply offset
  let off = ((offset % total) + total) % total;
  while (off > 0) {
    if (off >= remain) {
      off -= remain;
      idx = (idx + 1) % dash.length;
      remain = dash[idx]!;
      on = !on;
    } else {
      remain -= off;
      off = 0;
    }
  }
  let cur: number[] | null = on ? [pts[0]!, pts[1]!] : null;
  for (let i = 2; i < pts.length; i += 2) {
    let x0 = pts[i - 2]!;
    let y0 = pts[i - 1]!;
    const x1 = pts[i]!;
    const y1 = pts[i + 1]!;
    let seg = Math.hypot(x1 - x0, y1 - y0);
    while (seg > 0) {
      if (seg < remain) {
        remain -= seg;
        if (cur) cur.push(x1, y1);
        seg = 0;
      } else {
        const f = remain / seg;
        const mx = x0 + (x1 - x0) * f;
        const my = y0 + (y1 - y0) * f;
        if (cur) {
          cur.push(mx, my);
          out.push(cur);
          cur = null;
        } else {
          cur = [mx, my];
        }
        seg -= remain;
        x0 = mx;
        y0 = my;
        on = !on;
        idx = (idx + 1) % dash.length;
        remain = dash[idx]!;
      }
    }
  }
  if (cur && cur.length >= 4) out.push(cur);
  return out;
}

/** Outline polygon(s) for stroking one polyline. */
function strokeOutline(src: readonly number[], closed: boolean, style: StrokeStyle): number[][] {
  const hw = style.width / 2;
  const cap = style.cap ?? "butt";
  const limit = style.miterLimit ?? 4;
  let pts = dedupe(src);
  if (closed && pts.length >= 4) {
    const n = pts.length;
    if (Math.abs(pts[0]! - pts[n - 2]!) < 1e-6 && Math.abs(pts[1]! - pts[n - 1]!) < 1e-6) pts = pts.slice(0, n - 2);
  }
  const n = pts.length / 2;
  if (n < 2) {
    if (n === 1 && cap === "round") return [Path.circle(pts[0]!, pts[1]!, hw).subpaths[0]!.pts];
    return [];
  }
  if (!closed && cap === "square") {
    // extend both ends by half the width
    const ext = (i: number, j: number): void => {
      const dx = pts[i * 2]! - pts[j * 2]!;
      const dy = pts[i * 2 + 1]! - pts[j * 2 + 1]!;
      const l = Math.hypot(dx, dy) || 1;
      pts[i * 2] = pts[i * 2]! + (dx / l) * hw;
      pts[i * 2 + 1] = pts[i * 2 + 1]! + (dy / l) * hw;
    };
    ext(0, 1);
    ext(n - 1, n - 2);
  }
  const left: number[] = [];
  const right: number[] = [];
  for (let i = 0; i < n; i++) {
    const [nx, ny] = vertexNormal(pts, i, closed);
    let scale = hw;
    const hasPrev = closed || i > 0;
    const hasNext = closed || i < n - 1;
    if (hasPrev && hasNext) {
      const p = (i - 1 + n) % n;
      const dx = pts[i * 2]! - pts[p * 2]!;
      const dy = pts[i * 2 + 1]! - pts[p * 2 + 1]!;
      const l = Math.hypot(dx, dy) || 1;
      const cos = (nx * -dy + ny * dx) / l; // dot(miter normal, segment normal)
      scale = hw / Math.max(cos, 1 / limit);
    }
    const x = pts[i * 2]!;
    const y = pts[i * 2 + 1]!;
    left.push(x + nx * scale, y + ny * scale);
    right.push(x - nx * scale, y - ny * scale);
  }
  const reverse = (a: number[]): number[] => {
    const r: number[] = [];
    for (let i = a.length - 2; i >= 0; i -= 2) r.push(a[i]!, a[i + 1]!);
    return r;
  };
  if (closed) return [left, reverse(right)];

  const outline = left.slice();
  const capArc = (cx: number, cy: number, from: number): void => {
    const steps = Math.max(6, Math.ceil(hw / 1.5));
    for (let s = 1; s < steps; s++) {
      const a = from - (Math.PI * s) / steps;
      outline.push(cx + Math.cos(a) * hw, cy + Math.sin(a) * hw);
    }
  };
  const angleOf = (i: number, j: number): number =>
    Math.atan2(pts[j * 2 + 1]! - pts[i * 2 + 1]!, pts[j * 2]! - pts[i * 2]!);
  if (cap === "round") capArc(pts[(n - 1) * 2]!, pts[(n - 1) * 2 + 1]!, angleOf(n - 2, n - 1) + Math.PI / 2);
  outline.push(...reverse(right));
  if (cap === "round") capArc(pts[0]!, pts[1]!, angleOf(0, 1) - Math.PI / 2);
  return [outline];
}

/* ----------------------------------------------------------------- raster */

interface Mask {
  x: number;
  y: number;
  w: number;
  h: number;
  cov: Float32Array;
}

/**
 * Accumulates the signed area of one edge into `acc` (row stride w + 2).
 * Straight port of the font-rs accumulation rasteriser, with x clamped.
 */
function accumulateEdge(
  acc: Float32Array, w: number, h: number,
  ax: number, ay: number, bx: number, by: number,
): void {
  if (Math.abs(ay - by) < 1e-9) return;
  let dir: number;
  let x0: number, y0: number, x1: number, y1: number;
  if (ay < by) {
    dir = 1; x0 = ax; y0 = ay; x1 = bx; y1 = by;
  } else {
    dir = -1; x0 = bx; y0 = by; x1 = ax; y1 = ay;
  }
  const stride = w + 2;
  const dxdy = (x1 - x0) / (y1 - y0);
  let x = x0;
  if (y0 < 0) x -= y0 * dxdy;
  const yStart = Math.max(0, Math.floor(y0));
  const yEnd = Math.min(h, Math.ceil(y1));
  for (let y = yStart; y < yEnd; y++) {
    const dy = Math.min(y + 1, y1) - Math.max(y, y0);
    const xnext = x + dxdy * dy;
    const d = dy * dir;
    const xa = x < 0 ? 0 : x > w ? w : x;
    const xb = xnext < 0 ? 0 : xnext > w ? w : xnext;
    const lo = xa < xb ? xa : xb;
    const hi = xa < xb ? xb : xa;
    const loFloor = Math.floor(lo);
    const loI = loFloor;
    const hiCeil = Math.ceil(hi);
    const hiI = hiCeil;
    const line = y * stride;
    if (hiI <= loI + 1) {
      const xmf = 0.5 * (xa + xb) - loFloor;
      acc[line + loI] = acc[line + loI]! + d - d * xmf;
      acc[line + loI + 1] = acc[line + loI + 1]! + d * xmf;
    } else {
      const s = 1 / (hi - lo);
      const x0f = lo - loFloor;
      const a0 = 0.5 * s * (1 - x0f) * (1 - x0f);
      const x1f = hi - hiCeil + 1;
      const am = 0.5 * s * x1f * x1f;
      acc[line + loI] = acc[line + loI]! + d * a0;
      if (hiI === loI + 2) {
        acc[line + loI + 1] = acc[line + loI + 1]! + d * (1 - a0 - am);
      } else {
        const a1 = s * (1.5 - x0f);
        acc[line + loI + 1] = acc[line + loI + 1]! + d * (a1 - a0);
        for (let xi = loI + 2; xi < hiI - 1; xi++) acc[line + xi] = acc[line + xi]! + d * s;
        const a2 = a1 + (hiI - loI - 3) * s;
        acc[line + hiI - 1] = acc[line + hiI - 1]! + d * (1 - a2 - am);
      }
      acc[line + hiI] = acc[line + hiI]! + d * am;
    }
    x = xnext;
  }
}

/** Scan-converts device-space polygons into a coverage mask clipped to W x H. */
function rasterize(polys: readonly number[][], W: number, H: number): Mask | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of polys) {
    for (let i = 0; i < p.length; i += 2) {
      const x = p[i]!;
      const y = p[i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const x0 = Math.max(0, Math.floor(minX));
  const y0 = Math.max(0, Math.floor(minY));
  const x1 = Math.min(W, Math.ceil(maxX) + 1);
  const y1 = Math.min(H, Math.ceil(maxY) + 1);
  if (!(x1 > x0 && y1 > y0)) return null;
  const w = x1 - x0;
  const h = y1 - y0;
  const stride = w + 2;
  const acc = new Float32Array(stride * h);
  for (const p of polys) {
    const n = p.length;
    if (n < 6) continue;
    for (let i = 0; i < n; i += 2) {
      const j = (i + 2) % n;
      accumulateEdge(acc, w, h, p[i]! - x0, p[i + 1]! - y0, p[j]! - x0, p[j + 1]! - y0);
    }
  }
  const cov = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    let s = 0;
    const a = y * stride;
    const c = y * w;
    for (let x = 0; x < w; x++) {
      s += acc[a + x]!;
      const v = s < 0 ? -s : s;
      cov[c + x] = v > 1 ? 1 : v;
    }
  }
  return { x: x0, y: y0, w, h, cov };
}

/* ----------------------------------------------------------------- canvas */

interface State {
  m: Matrix;
  clip: Float32Array | null;
}

/** Entries in a gradient's colour lookup table. */
const LUT_SIZE = 1024;

function sampleStops(stops: readonly Stop[], t: number, out: Float32Array): void {
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  let c0: Color = first[1];
  let c1: Color = first[1];
  let f = 0;
  if (t <= first[0]) {
    c0 = c1 = first[1];
  } else if (t >= last[0]) {
    c0 = c1 = last[1];
  } else {
    for (let i = 1; i < stops.length; i++) {
      const s1 = stops[i]!;
      if (t <= s1[0]) {
        const s0 = stops[i - 1]!;
        c0 = s0[1];
        c1 = s1[1];
        f = s1[0] > s0[0] ? (t - s0[0]) / (s1[0] - s0[0]) : 0;
        break;
      }
    }
  }
  out[0] = c0.r + (c1.r - c0.r) * f;
  out[1] = c0.g + (c1.g - c0.g) * f;
  out[2] = c0.b + (c1.b - c0.b) * f;
  out[3] = c0.a + (c1.a - c0.a) * f;
}

export class Canvas {
  readonly width: number;
  readonly height: number;
  /** Opaque RGB, 0..255 floats. */
  private readonly buf: Float32Array;
  private state: State = { m: [1, 0, 0, 1, 0, 0], clip: null };
  private readonly stack: State[] = [];
  private readonly px = new Float32Array(4);

  constructor(width: number, height: number, background: Color = WHITE) {
    this.width = width;
    this.height = height;
    this.buf = new Float32Array(width * height * 3);
    for (let i = 0; i < this.buf.length; i += 3) {
      this.buf[i] = background.r;
      this.buf[i + 1] = background.g;
      this.buf[i + 2] = background.b;
    }
  }

  /* --- state ----------------------------------------------------------- */

  save(): void {
    this.stack.push({ m: [...this.state.m] as Matrix, clip: this.state.clip });
  }

  restore(): void {
    const s = this.stack.pop();
    if (s) this.state = s;
  }

  transform(a: number, b: number, c: number, d: number, e: number, f: number): void {
    const [m0, m1, m2, m3, m4, m5] = this.state.m;
    this.state.m = [
      m0 * a + m2 * b,
      m1 * a + m3 * b,
      m0 * c + m2 * d,
      m1 * c + m3 * d,
      m0 * e + m2 * f + m4,
      m1 * e + m3 * f + m5,
    ];
  }

  translate(x: number, y: number): void {
    this.transform(1, 0, 0, 1, x, y);
  }

  scale(sx: number, sy = sx): void {
    this.transform(sx, 0, 0, sy, 0, 0);
  }

  rotate(rad: number): void {
    const c = Math.cos(rad);
    const s = Math.sin(rad);
    this.transform(c, s, -s, c, 0, 0);
  }

  /** Rotates by `rad` around user-space point (cx, cy). */
  rotateAround(rad: number, cx: number, cy: number): void {
    this.translate(cx, cy);
    this.rotate(rad);
    this.translate(-cx, -cy);
  }

  /** Intersects the clip region with a filled path. */
  clip(path: Path): void {
    const mask = rasterize(this.toDevice(path.subpaths.map((s) => s.pts)), this.width, this.height);
    const next = new Float32Array(this.width * this.height);
    if (mask) {
      const prev = this.state.clip;
      for (let y = 0; y < mask.h; y++) {
        for (let x = 0; x < mask.w; x++) {
          const di = (mask.y + y) * this.width + mask.x + x;
          const c = mask.cov[y * mask.w + x]!;
          next[di] = prev ? c * prev[di]! : c;
        }
      }
    }
    this.state.clip = next;
  }

  /* --- drawing --------------------------------------------------------- */

  /** Paints the whole canvas (respecting the clip). */
  fillAll(paint: Paint, opacity = 1): void {
    const inv = this.inverse();
    const p = new Path();
    const corners = [0, 0, this.width, 0, this.width, this.height, 0, this.height];
    for (let i = 0; i < 8; i += 2) {
      const x = corners[i]!;
      const y = corners[i + 1]!;
      p.lineTo(inv[0] * x + inv[2] * y + inv[4], inv[1] * x + inv[3] * y + inv[5]);
    }
    this.fill(p.close(), paint, opacity);
  }

  fill(path: Path, paint: Paint, opacity = 1): void {
    const mask = rasterize(this.toDevice(path.subpaths.map((s) => s.pts)), this.width, this.height);
    if (mask) this.composite(mask, paint, opacity);
  }

  stroke(path: Path, paint: Paint, style: StrokeStyle | number, opacity = 1): void {
    const st: StrokeStyle = typeof style === "number" ? { width: style } : style;
    const polys: number[][] = [];
    for (const sp of path.subpaths) {
      if (st.dash && st.dash.length > 0) {
        const pts = sp.closed ? [...sp.pts, sp.pts[0]!, sp.pts[1]!] : sp.pts;
        for (const d of dashPolyline(pts, st.dash, st.dashOffset ?? 0)) polys.push(...strokeOutline(d, false, st));
      } else {
        polys.push(...strokeOutline(sp.pts, sp.closed, st));
      }
    }
    const mask = rasterize(this.toDevice(polys), this.width, this.height);
    if (mask) this.composite(mask, paint, opacity);
  }

  /**
   * A soft, blurry elliptical shadow (no hard edge). Centre and radii are in
   * user space; rotation in the current matrix is ignored (shadows are
   * always horizontal).
   */
  softEllipse(cx: number, cy: number, rx: number, ry: number, color: Color, falloff = 1): void {
    const m = this.state.m;
    const s = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
    const dcx = m[0] * cx + m[2] * cy + m[4];
    const dcy = m[1] * cx + m[3] * cy + m[5];
    const drx = rx * s;
    const dry = ry * s;
    const x0 = Math.max(0, Math.floor(dcx - drx));
    const x1 = Math.min(this.width, Math.ceil(dcx + drx));
    const y0 = Math.max(0, Math.floor(dcy - dry));
    const y1 = Math.min(this.height, Math.ceil(dcy + dry));
    const clip = this.state.clip;
    for (let y = y0; y < y1; y++) {
      const ny = (y + 0.5 - dcy) / dry;
      for (let x = x0; x < x1; x++) {
        const nx = (x + 0.5 - dcx) / drx;
        const d = Math.sqrt(nx * nx + ny * ny);
        if (d >= 1) continue;
        let t = 1 - d;
        t = t * t * (3 - 2 * t);
        if (falloff !== 1) t = Math.pow(t, falloff);
        let a = color.a * t;
        if (clip) a *= clip[y * this.width + x]!;
        this.blend(y * this.width + x, color.r, color.g, color.b, a);
      }
    }
  }

  /** Straight RGBA bytes (alpha always 255). */
  toRGBA(): Uint8Array {
    const n = this.width * this.height;
    const out = new Uint8Array(n * 4);
    for (let i = 0; i < n; i++) {
      const s = i * 3;
      const d = i * 4;
      out[d] = clampByte(this.buf[s]!);
      out[d + 1] = clampByte(this.buf[s + 1]!);
      out[d + 2] = clampByte(this.buf[s + 2]!);
      out[d + 3] = 255;
    }
    return out;
  }

  /* --- internals ------------------------------------------------------- */

  private toDevice(polys: readonly number[][]): number[][] {
    const [a, b, c, d, e, f] = this.state.m;
    return polys.map((p) => {
      const out = new Array<number>(p.length);
      for (let i = 0; i < p.length; i += 2) {
        const x = p[i]!;
        const y = p[i + 1]!;
        out[i] = a * x + c * y + e;
        out[i + 1] = b * x + d * y + f;
      }
      return out;
    });
  }

  private inverse(): Matrix {
    const [a, b, c, d, e, f] = this.state.m;
    const det = a * d - b * c || 1;
    return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
  }

  /**
   * Returns a per-pixel gradient parameter function plus a colour lookup
   * table (LUT_SIZE RGBA entries), or null for solid colours.
   */
  private gradient(paint: LinearGradient | RadialGradient): { t: (x: number, y: number) => number; lut: Float32Array } {
    const m = this.state.m;
    const tx = (x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
    const lut = new Float32Array(LUT_SIZE * 4);
    const px = this.px;
    for (let i = 0; i < LUT_SIZE; i++) {
      sampleStops(paint.stops, i / (LUT_SIZE - 1), px);
      lut.set(px, i * 4);
    }
    if (paint.kind === "linear") {
      const [ax, ay] = tx(paint.x0, paint.y0);
      const [bx, by] = tx(paint.x1, paint.y1);
      const len2 = (bx - ax) ** 2 + (by - ay) ** 2 || 1;
      const kx = (bx - ax) / len2;
      const ky = (by - ay) / len2;
      return { t: (x, y) => (x - ax) * kx + (y - ay) * ky, lut };
    }
    const [cx, cy] = tx(paint.cx, paint.cy);
    const r = paint.r * Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2])) || 1;
    return { t: (x, y) => Math.sqrt((x - cx) ** 2 + (y - cy) ** 2) / r, lut };
  }

  private composite(mask: Mask, paint: Paint, opacity: number): void {
    const clip = this.state.clip;
    const W = this.width;
    const cov = mask.cov;
    const buf = this.buf;
    if (!("kind" in paint)) {
      const { r, g, b } = paint;
      const pa = paint.a * opacity;
      for (let y = 0; y < mask.h; y++) {
        const row = (mask.y + y) * W + mask.x;
        for (let x = 0; x < mask.w; x++) {
          let a = cov[y * mask.w + x]! * pa;
          if (a <= 0.002) continue;
          const di = row + x;
          if (clip) {
            a *= clip[di]!;
            if (a <= 0.002) continue;
          }
          const o = di * 3;
          if (a >= 1) {
            buf[o] = r;
            buf[o + 1] = g;
            buf[o + 2] = b;
          } else {
            buf[o] = buf[o]! + (r - buf[o]!) * a;
            buf[o + 1] = buf[o + 1]! + (g - buf[o + 1]!) * a;
            buf[o + 2] = buf[o + 2]! + (b - buf[o + 2]!) * a;
          }
        }
      }
      return;
    }
    const { t, lut } = this.gradient(paint);
    const top = LUT_SIZE - 1;
    for (let y = 0; y < mask.h; y++) {
      const dy = mask.y + y;
      const row = dy * W + mask.x;
      for (let x = 0; x < mask.w; x++) {
        let c = cov[y * mask.w + x]! * opacity;
        if (c <= 0.002) continue;
        const di = row + x;
        if (clip) {
          c *= clip[di]!;
          if (c <= 0.002) continue;
        }
        let k = Math.round(t(mask.x + x + 0.5, dy + 0.5) * top);
        k = k < 0 ? 0 : k > top ? top : k;
        this.blend(di, lut[k * 4]!, lut[k * 4 + 1]!, lut[k * 4 + 2]!, c * lut[k * 4 + 3]!);
      }
    }
  }

  private blend(i: number, r: number, g: number, b: number, a: number): void {
    if (a <= 0) return;
    const o = i * 3;
    const buf = this.buf;
    if (a >= 1) {
      buf[o] = r;
      buf[o + 1] = g;
      buf[o + 2] = b;
      return;
    }
    buf[o] = buf[o]! + (r - buf[o]!) * a;
    buf[o + 1] = buf[o + 1]! + (g - buf[o + 1]!) * a;
    buf[o + 2] = buf[o + 2]! + (b - buf[o + 2]!) * a;
  }
}

function clampByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}
