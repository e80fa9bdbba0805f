import { SignJWT, jwtVerify } from "jose";

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

const keyFor = (secret: string) => new TextEncoder().encode(secret);

export async function issueToken(userId: number, secret: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(userId))
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(keyFor(secret));
}

/** The user id a token names, or null for anything malformed, tampered, expired or signed another way (alg none included). */
export async function readTokenSubject(token: string, secret: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, keyFor(secret), { algorithms: ["HS256"] });
    const id = Number(payload.sub);
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}
