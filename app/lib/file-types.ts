import { imageSize, tagAt, u16be, u32be } from "./image-size";

// A file's type is what its first bytes say, never its name or declared Content-Type.
export type SniffedType = "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "application/pdf";

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) => signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

export function sniffFileType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(bytes, ascii("%PDF-"))) return "application/pdf";
  return null;
}

/** A file chosen in the browser, judged as the server will judge it: by its first bytes, not its name. */
export async function sniffChosenFile(file: Blob): Promise<SniffedType | null> {
  return sniffFileType(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
}

export const PRODUCT_IMAGE_TYPES: readonly SniffedType[] = ["image/jpeg", "image/png", "image/webp", "image/gif"];
export const PRODUCT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PRODUCT_IMAGE_MESSAGES = {
  size: "Image must be at most 5 MB",
  type: "Image must be a JPEG, PNG, WebP or GIF picture",
} as const;

export const BANK_SLIP_TYPES: readonly SniffedType[] = ["image/jpeg", "image/png", "application/pdf"];
export const BANK_SLIP_MAX_BYTES = 10 * 1024 * 1024;
export const BANK_SLIP_MESSAGES = {
  missing: "Please upload a bank slip",
  type: "Please upload a valid image (JPEG, PNG) or PDF file",
  size: "File size must be less than 10MB",
} as const;

/** Of a file's name, what a message quotes: a name longer than that is cut short. */
const QUOTED_NAME_MAX = 60;

/**
 * What the slip's field says when a checkout without JavaScript is refused for something else: the page that answers
 * cannot keep the file that was chosen (no browser keeps one across a page load), so it must be chosen again.
 */
export function chooseSlipAgain(name: string): string {
  const characters = [...name]; // by code point: a cut never splits an emoji
  const shown = characters.length > QUOTED_NAME_MAX ? `${characters.slice(0, QUOTED_NAME_MAX - 1).join("")}…` : name;
  return `Please choose your bank slip (${shown}) again: a chosen file does not stay when the page reloads`;
}

/** PDF readers look for the closing `%%EOF` within the last 1,024 bytes; an upload cut off on the way has none there. */
const PDF_EOF_WITHIN = 1024;
const PDF_SIGNATURE_LENGTH = 5; // "%PDF-"
/** What may follow a PDF's `%%EOF` however long it runs (scanners pad with it): white space and NULs. */
const PDF_PADDING = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

function pdfHasItsEnd(bytes: Uint8Array): boolean {
  let end = bytes.length;
  while (end > PDF_SIGNATURE_LENGTH && PDF_PADDING.has(bytes[end - 1])) end--;
  // Whatever else follows the marker in that window (a generator's comment, say) is allowed, as readers do.
  const tail = bytes.subarray(Math.max(PDF_SIGNATURE_LENGTH, end - PDF_EOF_WITHIN), end);
  return String.fromCharCode(...tail).includes("%%EOF");
}

/** A PNG's chunks, each saying its length, walked from the signature to IEND; one running past the end is cut off. */
function pngHasItsEnd(b: Uint8Array): boolean {
  let i = 8;
  while (i + 8 <= b.length) {
    if (tagAt(b, i + 4) === "IEND") return true;
    i += 12 + u32be(b, i); // length, type, data, CRC
  }
  return false;
}

/**
 * A JPEG's segments walked to its EOI (FF D9): each says its length, and the image data after a SOS runs to the next
 * marker (in it an FF is followed by 00, or by D0-D7 for a restart). Whatever follows EOI (a phone's trailer, a motion
 * photo's video) is allowed; an upload cut off in the image data never reaches it.
 */
function jpegHasItsEnd(b: Uint8Array): boolean {
  let i = 2; // after SOI
  while (i < b.length) {
    while (i < b.length && b[i] !== 0xff) i++; // stray bytes, or the image data after a SOS
    while (b[i] === 0xff) i++; // fill bytes
    const marker = b[i++];
    if (marker === undefined) return false;
    if (marker === 0xd9) return true;
    if (marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue; // no length
    if (i + 2 > b.length) return false;
    i += u16be(b, i);
  }
  return false;
}

/**
 * A bank slip's type when its bytes are a whole one of BANK_SLIP_TYPES, else null. The first bytes name the type; a
 * JPEG or PNG must then give its width and height (imageSize, the product pictures' own check) and reach its end
 * marker, and a PDF its `%%EOF`, so a file cut off on the way, or bytes that only begin like one, are no slip an admin
 * could read.
 */
export function bankSlipType(bytes: Uint8Array): SniffedType | null {
  const type = sniffFileType(bytes);
  if (!type || !BANK_SLIP_TYPES.includes(type)) return null;
  const whole =
    type === "application/pdf" ? pdfHasItsEnd(bytes) : imageSize(bytes, type) !== null && (type === "image/png" ? pngHasItsEnd(bytes) : jpegHasItsEnd(bytes));
  return whole ? type : null;
}
