import { describe, expect, it } from "vitest";

import { registerSchema } from "~/lib/schemas/auth";
import { checkoutCustomerSchema } from "~/lib/schemas/order";
import { filterQueryFields, keywordSchema, productInputSchema } from "~/lib/schemas/product";
import { reviewCreateSchema } from "~/lib/schemas/review";
import { isPlainText, plainText, z } from "~/lib/zod";

// The one rule for free text (app/lib/zod.ts): what a line refuses, what several lines allow besides, and what stays.

const oneLine = (text: string) => isPlainText(text);
const lines = (text: string) => isPlainText(text, { lines: true });
const codePoint = (code: number) => String.fromCodePoint(code);

/** Text people write: Sinhala (ZWJ in ශ්‍රී, ZWNJ), Tamil, emoji (with ZWJ and a variation selector), accents, Arabic, CJK. */
const ORDINARY = [
  "ශ්‍රී ලංකා",
  "ශ්‌රී",
  "தமிழ்நாடு",
  "Nimal 👟",
  "👩‍👩‍👧 ❤️ 🇱🇰",
  "José Müller-Ødegård",
  "محمد الأحمد",
  "東京",
  "O'Brien & Sons, No. 5/2",
  "soft hyphen\u00ADhere, no-break space\u00A0here, LRM\u200E and RLM\u200F marks",
  "",
];

describe("isPlainText", () => {
  it("keeps ordinary text of any script valid, one line or several", () => {
    for (const text of ORDINARY) {
      expect(oneLine(text), text).toBe(true);
      expect(lines(text), text).toBe(true);
    }
  });

  it("refuses every Cc character in one line: C0 (NUL, TAB, LF, CR, ESC...), DEL and C1", () => {
    for (let code = 0; code <= 0x1f; code++) expect(oneLine(`a${codePoint(code)}b`), code.toString(16)).toBe(false);
    for (let code = 0x7f; code <= 0x9f; code++) expect(oneLine(`a${codePoint(code)}b`), code.toString(16)).toBe(false);
    expect(oneLine("a\r\nBcc: x@y.z")).toBe(false);
  });

  it("refuses the bidirectional embeddings, overrides (U+202A-U+202E) and isolates (U+2066-U+2069), one line or several", () => {
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      expect(oneLine(`invoice${codePoint(code)}fdp.exe`), code.toString(16)).toBe(false);
      expect(lines(`invoice${codePoint(code)}fdp.exe`), code.toString(16)).toBe(false);
    }
    // Their neighbours are ordinary characters (U+2029 PARAGRAPH SEPARATOR is Zp, not Cc, and not a direction).
    for (const code of [0x2029, 0x202f, 0x2065, 0x206a, 0x200c, 0x200d]) expect(oneLine(`a${codePoint(code)}b`), code.toString(16)).toBe(true);
  });

  it("refuses a lone surrogate, high or low, anywhere; a pair (an emoji) is one character and fine", () => {
    for (const text of ["\ud800", "a\ud800", "\udc00a", "a\udfffb", "👟\ud83d", "\ude00👟"]) {
      expect(oneLine(text), JSON.stringify(text)).toBe(false);
      expect(lines(text), JSON.stringify(text)).toBe(false);
    }
    expect(oneLine("\ud83d\udc5f")).toBe(true);
  });

  it("agrees with String.prototype.isWellFormed on surrogates", () => {
    const wellFormed = (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed();
    for (const text of ["a\ud800", "\udc00", "\ud83d\udc5f", "ශ්‍රී", "\ud800\ud800\udc00"]) expect(oneLine(text), JSON.stringify(text)).toBe(wellFormed(text));
  });

  it("several lines: LF, CR LF and TAB are allowed; a lone CR and every other Cc are not", () => {
    expect(lines("12 Galle Road\r\nColombo 03\nSri Lanka\tLK")).toBe(true);
    expect(lines("\r\n\r\n")).toBe(true);
    expect(lines("a\rb")).toBe(false);
    expect(lines("a\r")).toBe(false);
    expect(lines("a\n\rb")).toBe(false);
    for (let code = 0; code <= 0x9f; code++) {
      if (code > 0x1f && code < 0x7f) continue;
      if (code === 0x09 || code === 0x0a || code === 0x0d) continue;
      expect(lines(`a${codePoint(code)}b`), code.toString(16)).toBe(false);
    }
  });
});

describe("plainText, the zod check", () => {
  it("refuses with '<subject> must not contain control characters' and passes plain text through", () => {
    const name = z.string().trim().check(plainText("Name"));
    expect(name.parse("  ශ්‍රී ලංකා  ")).toBe("ශ්‍රී ලංකා");
    const result = name.safeParse("a\u0000b");
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(["Name must not contain control characters"]);
    expect(z.string().check(plainText("Address", { lines: true })).safeParse("a\r\nb").success).toBe(true);
  });

  it("runs after the trim: whitespace around a one-line value (a trailing CR LF, say) is trimmed, as before, not refused", () => {
    expect(z.string().trim().check(plainText("Name")).parse("\tNimal Perera\r\n")).toBe("Nimal Perera");
  });
});

describe("the schemas carry it", () => {
  const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => (result.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  const register = { name: "Nimal", email: "nimal@example.com", password: "secret123", address: "12 Galle Road", phone: "0771234567" };
  const customer = { customerName: "Kasun", customerEmail: "kasun@example.com", customerPhone: "0771234567", shippingAddress: "45 Kandy Road" };
  const product = { name: "Runner", brand: "Stridewell", description: "Soft", price: 100, category: "Gents", stockQuantity: 1, releaseDate: "2026-01-01" };

  it("one-line fields refuse a line break; multi-line fields take it", () => {
    expect(messages(registerSchema.safeParse({ ...register, name: "a\r\nb", address: "a\r\nb" }))).toEqual(["name: Name must not contain control characters"]);
    expect(messages(checkoutCustomerSchema.safeParse({ ...customer, customerName: "a\nb", shippingAddress: "a\nb" }))).toEqual(["customerName: Full name must not contain control characters"]);
    expect(messages(productInputSchema.safeParse({ ...product, brand: "a\nb", description: "a\r\nb" }))).toEqual(["brand: Brand must not contain control characters"]);
    expect(messages(reviewCreateSchema.safeParse({ productId: 1, comment: "a\r\n\tb" }))).toEqual([]);
  });

  it("the search and filter fields refuse what names, brands and labels cannot hold", () => {
    expect(keywordSchema.safeParse("run\u0000ner").success).toBe(false);
    expect(keywordSchema.safeParse("run\u202Ener").success).toBe(false);
    expect(keywordSchema.safeParse("ශ්‍රී").success).toBe(true);
    expect(filterQueryFields.size.safeParse("4\u202E").success).toBe(false);
    expect(filterQueryFields.brand.safeParse("Stride\u0000well").success).toBe(false);
  });
});
