import { describe, expect, it } from "vitest";

import { DUMMY_HASH, PBKDF2_ITERATIONS, hashPassword, needsRehash, verifyPassword } from "~/services/password.server";

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A hash in the stored format with another iteration count, as an older version of the shop would have written. */
async function legacyHash(password: string, iterations: number): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return `pbkdf2-sha256$${iterations}$${b64(salt)}$${b64(new Uint8Array(bits))}`;
}

/** Changes one character of a base64 text into another valid base64 character. */
function flipChar(text: string, index = 0): string {
  const replacement = text[index] === "A" ? "B" : "A";
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe("hashPassword / verifyPassword", () => {
  it("stores scheme, 100,000 iterations, a 16-byte salt and a 32-byte hash", async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const stored = await hashPassword("secret123");
    const [scheme, iterations, salt, hash, ...rest] = stored.split("$");
    expect(scheme).toBe("pbkdf2-sha256");
    expect(iterations).toBe("100000");
    expect(unb64(salt)).toHaveLength(16);
    expect(unb64(hash)).toHaveLength(32);
    expect(rest).toEqual([]);
    expect(stored).not.toContain("secret123");
  });

  it("round-trips, and the wrong password is false", async () => {
    const stored = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horsf", stored)).toBe(false);
    expect(await verifyPassword("Correct horse", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("handles non-ASCII passwords", async () => {
    const stored = await hashPassword("පාස්වර්ඩ්-密码-🔑");
    expect(await verifyPassword("පාස්වර්ඩ්-密码-🔑", stored)).toBe(true);
    expect(await verifyPassword("පාස්වර්ඩ්-密码-", stored)).toBe(false);
  });

  it("salts each hash (the same password twice gives two different strings)", async () => {
    const [a, b] = await Promise.all([hashPassword("same-password"), hashPassword("same-password")]);
    expect(a).not.toBe(b);
    expect(await verifyPassword("same-password", a)).toBe(true);
    expect(await verifyPassword("same-password", b)).toBe(true);
  });

  it("a tampered stored string is false", async () => {
    const stored = await hashPassword("secret123");
    const [scheme, iterations, salt, hash] = stored.split("$");
    const variants = [
      [scheme, iterations, salt, flipChar(hash)].join("$"),
      [scheme, iterations, flipChar(salt), hash].join("$"),
      [scheme, "99999", salt, hash].join("$"),
      ["pbkdf2-sha512", iterations, salt, hash].join("$"),
      [scheme, iterations, salt, hash.slice(0, 20)].join("$"),
      [scheme, iterations, salt].join("$"),
      [scheme, iterations, salt, ""].join("$"),
      [scheme, "abc", salt, hash].join("$"),
      [scheme, "0", salt, hash].join("$"),
      [scheme, "-100000", salt, hash].join("$"),
      "",
      "secret123",
    ];
    for (const variant of variants) expect(await verifyPassword("secret123", variant), variant).toBe(false);
  });

  it("refuses an iteration count above 100,000 (workerd refuses it in production)", async () => {
    const stored = await legacyHash("secret123", 100_001);
    expect(await verifyPassword("secret123", stored)).toBe(false);
  });

  it("a stored string that is not valid base64 is false, not an exception", async () => {
    const stored = await hashPassword("secret123");
    const [scheme, iterations, salt, hash] = stored.split("$");
    await expect(verifyPassword("secret123", [scheme, iterations, salt, `*${hash.slice(1)}`].join("$"))).resolves.toBe(false);
    await expect(verifyPassword("secret123", [scheme, iterations, "!!!!", hash].join("$"))).resolves.toBe(false);
  });

  it("verifies an older hash with fewer iterations (so it can be upgraded at login)", async () => {
    const stored = await legacyHash("secret123", 1000);
    expect(await verifyPassword("secret123", stored)).toBe(true);
    expect(await verifyPassword("secret124", stored)).toBe(false);
  });

  it("the dummy hash used for unknown e-mails is well formed and matches nothing usual", async () => {
    expect(DUMMY_HASH.startsWith("pbkdf2-sha256$100000$")).toBe(true);
    expect(needsRehash(DUMMY_HASH)).toBe(false);
    expect(await verifyPassword("secret123", DUMMY_HASH)).toBe(false);
  });
});

describe("needsRehash", () => {
  it("is false for a fresh hash and true for a lower iteration count or another scheme", async () => {
    expect(needsRehash(await hashPassword("secret123"))).toBe(false);
    expect(needsRehash(await legacyHash("secret123", 1000))).toBe(true);
    expect(needsRehash("pbkdf2-sha256$10000$AAAA$AAAA")).toBe(true);
    expect(needsRehash("pbkdf2-sha256$1000000$AAAA$AAAA")).toBe(true);
    expect(needsRehash("bcrypt$12$whatever")).toBe(true);
  });
});
