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
