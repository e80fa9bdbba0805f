import { keyFor } from "~/services/token.server";
import { base64url } from "./base64url";
import { SIZE_LABEL_MAX, SIZES_MAX } from "./sizes";
import { STOCK_MOVES_PARAM, type StockMove } from "./stock-moves";

// The stock moves of a saved product form ride in the address the save redirects to (so the page it lands on says them
// with or without JavaScript, as "Product saved" does), signed with the server's secret: the toast then says only what
// a save of this product said, never words made up in a link (a label is free text). The signature covers the product's
// id, so a note cannot be carried to another product's page.

const PURPOSE = "stride-stock-moves";
const encoder = new TextEncoder();

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[\w-]*$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

// The purpose first: a session token's signed text begins with its base64url header, never with these words.
const signedText = (productId: number, payload: string) => encoder.encode(`${PURPOSE}:${productId}:${payload}`);

/**
 * How long a note is said: the page a save lands on, a reload or two. Later the same address says only "Product saved",
 * so a link kept (a bookmark, the history) does not repeat old news as new.
 */
export const STOCK_MOVES_FRESH_SECONDS = 10 * 60;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The parameter's value for these moves of this product: as JSON (base64url) the time it was made and the moves, a dot,
 * their HMAC-SHA256.
 */
export async function signStockMoves(moves: readonly StockMove[], productId: number, secret: string): Promise<string> {
  const payload = base64url(encoder.encode(JSON.stringify([nowSeconds(), ...moves.map(({ label, saved, sold }) => [label, saved, sold])])));
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await keyFor(secret), signedText(productId, payload)));
  return `${payload}.${base64url(signature)}`;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && Math.abs(value as number) <= 1_000_000;

/** The moves the value carries if this server signed them for this product lately, else null (absent, altered, another product's, old). */
export async function readStockMoves(value: string | null, productId: number, secret: string): Promise<StockMove[] | null> {
  if (!value || value.length > 4096) return null;
  const [payload, signature, ...rest] = value.split(".");
  const signatureBytes = fromBase64url(signature ?? "");
  if (rest.length || !payload || !signatureBytes) return null;
  const valid = await crypto.subtle.verify("HMAC", await keyFor(secret), signatureBytes, signedText(productId, payload));
  if (!valid) return null;
  try {
    const note: unknown = JSON.parse(new TextDecoder().decode(fromBase64url(payload) ?? new Uint8Array()));
    if (!Array.isArray(note)) return null;
    const [madeAt, ...moves] = note as unknown[];
    const age = nowSeconds() - Number(madeAt);
    if (!Number.isSafeInteger(madeAt) || age < -60 || age > STOCK_MOVES_FRESH_SECONDS) return null;
    if (moves.length === 0 || moves.length > SIZES_MAX) return null;
    const read = moves.map((move: unknown) => {
      if (!Array.isArray(move) || move.length !== 3) return null;
      const [label, saved, sold] = move as unknown[];
      if (typeof label !== "string" || !label || label.length > SIZE_LABEL_MAX || !isCount(saved) || saved < 0 || !isCount(sold) || sold === 0) return null;
      return { label, saved, sold };
    });
    return read.every((move) => move !== null) ? (read as StockMove[]) : null;
  } catch {
    return null;
  }
}

/** The address a saved form goes to, with its stock moves when there are some. */
export async function withStockMoves(path: string, moves: readonly StockMove[], productId: number, secret: string): Promise<string> {
  if (!moves.length) return path;
  const url = new URL(path, "http://stride.invalid");
  url.searchParams.set(STOCK_MOVES_PARAM, await signStockMoves(moves, productId, secret));
  return url.pathname + url.search + url.hash;
}

/**
 * The stock moves a page's address carries for the product saved (`productId`; a list names it in `saved`), for the
 * toast that says the product was saved; null when there are none, or they are not this server's for this product.
 */
export function savedStockMoves(url: URL, productId: number, secret: string): Promise<StockMove[] | null> {
  const value = url.searchParams.get(STOCK_MOVES_PARAM);
  return value && Number.isSafeInteger(productId) && productId > 0 ? readStockMoves(value, productId, secret) : Promise.resolve(null);
}
