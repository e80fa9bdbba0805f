import { imageSize } from "./image-size";

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

/** PDF readers look for the closing `%%EOF` within the last 1,024 bytes; an upload cut off on the way has none there. */
const PDF_EOF_WITHIN = 1024;
const PDF_SIGNATURE_LENGTH = 5; // "%PDF-"

function pdfHasItsEnd(bytes: Uint8Array): boolean {
  // Whatever follows the marker in that window (a newline, spaces, a generator's padding) is allowed, as readers do.
  const tail = bytes.subarray(Math.max(PDF_SIGNATURE_LENGTH, bytes.length - PDF_EOF_WITHIN));
  return String.fromCharCode(...tail).includes("%%EOF");
}

/**
 * A bank slip's type when its bytes are a whole one of BANK_SLIP_TYPES, else null. The first bytes name the type; a
 * JPEG or PNG must then give its width and height (imageSize, the product pictures' own check), and a PDF its `%%EOF`,
 * so a file cut off after its signature, or bytes that only begin like one, are no slip an admin could read.
 */
export function bankSlipType(bytes: Uint8Array): SniffedType | null {
  const type = sniffFileType(bytes);
  if (!type || !BANK_SLIP_TYPES.includes(type)) return null;
  const whole = type === "application/pdf" ? pdfHasItsEnd(bytes) : imageSize(bytes, type) !== null;
  return whole ? type : null;
}
