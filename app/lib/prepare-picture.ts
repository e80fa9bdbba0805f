import { sniffFileType, type SniffedType } from "./file-types";
import { imageSize, type ImageSize } from "./image-size";

// Pictures prepared in the browser before a form sends them: a phone photo (4000 x 3000 or more, 3-20 MB, EXIF with
// the GPS position of where it was taken) becomes a picture a few hundred KB heavy, upright, without metadata. Two
// purposes use it (PreparePurpose below): the product forms' pictures, so cards and product pages stay light and the
// owner's location is not served to every shopper; and the checkout's bank slip, so a phone photo of a slip fits under
// the 10 MB rule and the customer's location goes neither into the shop's storage nor to the admins who open it.
//
// The decisions are pure functions of a picture's facts (unit tests call them); `preparePicture` at the end is the
// thin part that needs a browser (createImageBitmap, a canvas). Any failure there keeps the file as chosen, and the
// form's usual checks (file-types.ts) and the server's speak for it.

/** A picture as the browser can encode it. */
export type EncodedType = "image/jpeg" | "image/webp" | "image/png";

/** What a picture is prepared for: how large it may stay, which chosen types are prepared, what they may become. */
export interface PreparePurpose {
  /** The longest side, in px, a picture is scaled down to (never up). */
  maxSide: number;
  /** The chosen types that are prepared; any other file is sent as chosen. */
  from: readonly SniffedType[];
  /** The types the prepared file may be (a picture with transparency prefers WebP, then PNG; without, JPEG). */
  to: readonly EncodedType[];
}

export const PREPARED_MAX_SIDE = 1600;
export const PREPARED_QUALITY = 0.85;
/** A picture already small in pixels is still re-encoded above this weight. */
export const REENCODE_ABOVE_BYTES = 600 * 1024;

/**
 * A product picture: cards are ~360 CSS px wide on a phone at up to 3x DPR, the product page's picture at most ~600
 * CSS px, so 1600 px covers both. GIFs are left as they are (an animated one would lose its frames on a canvas).
 */
export const PRODUCT_PICTURE: PreparePurpose = { maxSide: PREPARED_MAX_SIDE, from: ["image/jpeg", "image/png", "image/webp"], to: ["image/jpeg", "image/webp", "image/png"] };

/**
 * A bank slip: it must stay legible (small print, account numbers, a stamp) when an admin zooms in, so it keeps more
 * pixels than a product picture; 2400 px on the longest side is ~290 dpi across an A5 slip. SPEC's slip types are
 * JPEG, PNG and PDF: only a JPEG or PNG is prepared (a WebP or GIF stays what it is, and is refused as before; a PDF
 * is never touched), and it becomes a JPEG, or a PNG when it has transparency (a JPEG would turn it black); never a
 * WebP, which the slip rules refuse.
 */
export const BANK_SLIP_PICTURE: PreparePurpose = { maxSide: 2400, from: ["image/jpeg", "image/png"], to: ["image/jpeg", "image/png"] };

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);
const u32le = (b: Uint8Array, i: number) => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)) + ((b[i + 3] << 24) >>> 0);
const tagAt = (b: Uint8Array, i: number) => String.fromCharCode(b[i], b[i + 1], b[i + 2], b[i + 3]);

/** The size a picture is drawn at: its longest side at most `maxSide`, never scaled up, the aspect ratio kept. */
export function targetSize({ width, height }: ImageSize, maxSide = PRODUCT_PICTURE.maxSide): ImageSize {
  const longest = Math.max(width, height);
  if (longest <= maxSide) return { width, height };
  const scale = maxSide / longest;
  // At least 1 px: a 20000 x 10 strip still has a height.
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The chunks of a PNG ("IHDR", "eXIf", ...) or a WebP ("VP8X", "EXIF", ...), in file order. */
function chunkTags(b: Uint8Array, type: "image/png" | "image/webp"): string[] {
  const tags: string[] = [];
  if (type === "image/png") {
    // After the 8-byte signature: length (4, big-endian), type (4), data, CRC (4).
    for (let i = 8; i + 8 <= b.length; i += 12 + u32be(b, i)) {
      tags.push(tagAt(b, i + 4));
      if (tags.at(-1) === "IEND") break;
    }
  } else {
    // After "RIFF", its size and "WEBP": type (4), size (4, little-endian), data padded to an even length.
    for (let i = 12; i + 8 <= b.length; i += 8 + u32le(b, i + 4) + (u32le(b, i + 4) & 1)) tags.push(tagAt(b, i));
  }
  return tags;
}

/**
 * Whether a picture carries metadata worth removing: EXIF (a camera's GPS position, its orientation, the device), XMP,
 * IPTC or comments. In a JPEG, any APP1 (EXIF, XMP), APP13 (IPTC) or COM segment before the image data; in a PNG, an
 * eXIf or text chunk (XMP lives in iTXt); in a WebP, an EXIF or XMP chunk.
 */
export function carriesMetadata(b: Uint8Array, type: SniffedType): boolean {
  if (type === "image/png") return chunkTags(b, type).some((tag) => ["eXIf", "tEXt", "zTXt", "iTXt"].includes(tag));
  if (type === "image/webp") return chunkTags(b, type).some((tag) => tag === "EXIF" || tag === "XMP ");
  if (type !== "image/jpeg") return false;
  let i = 2; // after SOI
  while (i + 1 < b.length) {
    if (b[i] !== 0xff || b[i + 1] === 0xff) {
      i++; // a stray byte, or a fill byte before a marker
      continue;
    }
    const marker = b[i + 1];
    if (marker === 0xda || marker === 0xd9) return false; // the image data (or its end): no more headers
    if (marker === 0xe1 || marker === 0xed || marker === 0xfe) return true;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) i += 2; // stand-alone markers carry no length
    else i += 2 + u16be(b, i + 2);
  }
  return false;
}

/** An animated PNG (an acTL chunk) or WebP (ANIM): a canvas would keep its first frame only. */
export function isAnimated(b: Uint8Array, type: SniffedType): boolean {
  if (type === "image/gif") return true; // not looked into: every GIF is left as it is
  if (type === "image/png") return chunkTags(b, type).includes("acTL");
  if (type === "image/webp") return chunkTags(b, type).some((tag) => tag === "ANIM" || tag === "ANMF");
  return false;
}

/** What is known of a chosen picture before it is decoded: its type and size from its bytes, its weight, its metadata. */
export interface PictureFacts {
  type: SniffedType;
  size: ImageSize;
  bytes: number;
  metadata: boolean;
  animated: boolean;
}

export function pictureFacts(bytes: Uint8Array): PictureFacts | null {
  const type = sniffFileType(bytes);
  const size = type && imageSize(bytes, type);
  if (!type || !size) return null;
  return { type, size, bytes: bytes.length, metadata: carriesMetadata(bytes, type), animated: isAnimated(bytes, type) };
}

/**
 * Whether a picture is re-encoded for a purpose: too large in pixels; a JPEG (re-encoding drops its EXIF and applies
 * its orientation, so phone photos never go out as they were taken); any metadata; or heavier than 600 KB. A type the
 * purpose does not prepare (a GIF, a PDF; a WebP slip), an animated picture, are never touched.
 */
export function shouldReencode({ type, size, bytes, metadata, animated }: PictureFacts, purpose: PreparePurpose = PRODUCT_PICTURE): boolean {
  if (!purpose.from.includes(type) || animated) return false;
  const target = targetSize(size, purpose.maxSide);
  return target.width !== size.width || target.height !== size.height || type === "image/jpeg" || metadata || bytes > REENCODE_ABOVE_BYTES;
}

/**
 * The types to encode to, in order of preference, among those the purpose allows: a picture without transparency is a
 * JPEG; one with transparency keeps its alpha, as a WebP where the browser can encode one (its blob then says
 * image/webp), else a PNG.
 */
export function outputTypes(transparent: boolean, purpose: PreparePurpose = PRODUCT_PICTURE): readonly EncodedType[] {
  const preferred: EncodedType[] = transparent ? ["image/webp", "image/png"] : ["image/jpeg"];
  return preferred.filter((type) => purpose.to.includes(type));
}

/** Whether any pixel of RGBA data (a canvas's getImageData) is less than opaque. */
export function hasTransparency(rgba: Uint8ClampedArray | Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] < 255) return true;
  return false;
}

/** The prepared file replaces the chosen one when it is lighter, or always when the chosen one carries metadata. */
export function keepPrepared({ originalBytes, preparedBytes, metadata }: { originalBytes: number; preparedBytes: number; metadata: boolean }): boolean {
  return metadata || preparedBytes < originalBytes;
}

const EXTENSIONS: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

/** The prepared file's name: the chosen name, its extension changed when the type did ("logo.png" as a WebP: "logo.webp"). */
export function preparedName(name: string, from: SniffedType, to: string): string {
  if (from === to || !EXTENSIONS[to]) return name;
  const base = name.replace(/\.[a-z0-9]{1,5}$/i, "") || "picture";
  return `${base}.${EXTENSIONS[to]}`;
}

// No-break spaces inside "1600 x 1200" and "412 KB": a narrow preview wraps the line between them, never inside.
const NBSP = "\u00a0";
const dimensions = ({ width, height }: ImageSize) => `${width}${NBSP}x${NBSP}${height}`;

/** '412 KB', '5.8 MB' (in units of 1024, as the 5 MB rule counts). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}${NBSP}bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)}${NBSP}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}${NBSP}MB`;
}

export type Preparation = { kind: "resized" | "reencoded" | "kept"; size: ImageSize; bytes: number; metadataRemoved: boolean };

/** The preview's quiet line: 'Resized to 1600 x 1200, 412 KB', 'Metadata removed, 230 KB', 'As chosen, 60 x 40, 1 KB'. */
export function describePreparation({ kind, size, bytes, metadataRemoved }: Preparation): string {
  const weight = formatBytes(bytes);
  const removed = metadataRemoved ? ", metadata removed" : "";
  if (kind === "resized") return `Resized to ${dimensions(size)}, ${weight}${removed}`;
  if (kind === "reencoded") return metadataRemoved ? `Metadata removed, ${weight}` : `Compressed to ${weight}`;
  return `As chosen, ${dimensions(size)}, ${weight}`;
}

// ---- The browser's part: decode, draw, encode. Called from event handlers only (never during server rendering). ----

export interface PreparedPicture {
  file: File;
  /** What was done, for the preview; null when the file could not be read as a picture (the usual checks speak). */
  note: string | null;
}

const encode = (canvas: HTMLCanvasElement, type: string) => new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, PREPARED_QUALITY));

/**
 * The file to send for a chosen one: scaled down to the purpose's longest side, its EXIF orientation applied
 * (createImageBitmap's default imageOrientation "from-image") and re-encoded without metadata where shouldReencode
 * says so; else, or on any failure (a picture the browser cannot decode, no canvas), the chosen file itself.
 */
export async function preparePicture(file: File, purpose: PreparePurpose): Promise<PreparedPicture> {
  let facts: PictureFacts | null = null;
  let canvas: HTMLCanvasElement | null = null;
  let bitmap: ImageBitmap | null = null;
  const asChosen = () => ({ file, note: facts && describePreparation({ kind: "kept", size: facts.size, bytes: file.size, metadataRemoved: false }) });
  try {
    facts = pictureFacts(new Uint8Array(await file.arrayBuffer()));
    if (!facts || !shouldReencode(facts, purpose)) return asChosen();
    bitmap = await createImageBitmap(file);
    const size = targetSize({ width: bitmap.width, height: bitmap.height }, purpose.maxSide);
    canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext("2d");
    if (!context) return asChosen();
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    // A JPEG has no alpha; a PNG or WebP is looked at pixel by pixel (an alpha channel may be wholly opaque).
    const transparent = facts.type !== "image/jpeg" && hasTransparency(context.getImageData(0, 0, size.width, size.height).data);
    let blob: Blob | null = null;
    for (const type of outputTypes(transparent, purpose)) {
      const encoded = await encode(canvas, type);
      // A browser that cannot encode a type gives a PNG instead: its blob's type says which it made.
      if (encoded?.type === type) {
        blob = encoded;
        break;
      }
    }
    if (!blob || !keepPrepared({ originalBytes: file.size, preparedBytes: blob.size, metadata: facts.metadata })) return asChosen();
    const resized = bitmap.width !== size.width || bitmap.height !== size.height;
    return {
      file: new File([blob], preparedName(file.name, facts.type, blob.type), { type: blob.type, lastModified: file.lastModified }),
      note: describePreparation({ kind: resized ? "resized" : "reencoded", size, bytes: blob.size, metadataRemoved: facts.metadata }),
    };
  } catch {
    return asChosen();
  } finally {
    bitmap?.close();
    // Frees the canvas's pixels at once (iOS counts canvas memory per page).
    if (canvas) canvas.width = canvas.height = 0;
  }
}
