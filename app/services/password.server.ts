// PBKDF2-SHA256 through WebCrypto, so the same code runs in the Worker and in Node scripts (seed, create-admin).
// Production workerd refuses more than 100,000 iterations, so that is the cost; it is stored with the hash so a
// later scheme or cost can be recognised and upgraded on the next successful login.
const SCHEME = "pbkdf2-sha256";
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `${SCHEME}$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** Compares every byte whatever the first difference, so the time taken says nothing about the hash. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ (b[i] ?? 0);
  return difference === 0;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  if (scheme !== SCHEME || !Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS || !saltText || !hashText) {
    return false;
  }
  let salt: Uint8Array<ArrayBuffer>, expected: Uint8Array<ArrayBuffer>;
  try {
    [salt, expected] = [fromBase64(saltText), fromBase64(hashText)];
  } catch {
    return false; // a corrupted stored hash matches nothing
  }
  return constantTimeEqual(await derive(password, salt, iterations), expected);
}

/** A hash made with an older cost should be replaced by a fresh one once the password is known again. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`${SCHEME}$${PBKDF2_ITERATIONS}$`);
}

/** A valid hash of a random password, compared against when the e-mail is unknown so both paths cost the same. */
export const DUMMY_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;
