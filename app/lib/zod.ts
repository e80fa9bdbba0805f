import { z } from "zod";

// Zod compiles object parsers with `new Function` where it may, and probes for that the first time an object schema
// is built. The pages' Content-Security-Policy forbids eval (script-src has no 'unsafe-eval'), so in the browser the
// probe fails and is reported as a CSP violation (DevTools Issues, Lighthouse Best Practices). Without the JIT the
// parsers are the same, only not compiled; Workers refuse eval anyway. Schemas import `z` from here, so this runs
// before the first schema is built.
z.config({ jitless: true });

export { z };

/**
 * A field's type error that tells a missing field from one of the wrong type ("Comment is required", "Comment must be
 * text"). Only for that error: a schema-wide message would also stand in for every check left without its own.
 */
export const typeError =
  (missing: string, wrongType = missing) =>
  (issue: { code?: string; input?: unknown }) =>
    issue.code === "invalid_type" ? (issue.input === undefined ? missing : wrongType) : undefined;

/** An empty query parameter or form field (`?category=`, a blank search box or date) is the same as none. */
export const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** A record's id as a form posts it (a hidden field): digits, a positive whole number; `notFound` for anything else. */
export const formIdField = (notFound: string) =>
  z.string({ error: notFound }).regex(/^\d{1,15}$/, notFound).transform(Number).pipe(z.number().int().min(1, notFound));

// What free text may not hold, whatever it says: Unicode's control characters (Cc: C0 with NUL, TAB, CR and LF, DEL,
// C1), the bidirectional embeddings and overrides (U+202A-U+202E) and isolates (U+2066-U+2069), which turn the text
// after them around in an admin's list or a CSV export (a spoofing vector), and lone surrogates (\p{Cs} under the `u`
// flag matches only a half without its other half; D1 would store it as U+FFFD, not what was sent). Other format
// characters stay allowed: Sinhala needs ZWJ and ZWNJ, emoji need ZWJ and variation selectors.
const NOT_IN_A_LINE = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;
// Text of several lines (an address, a description, a comment) may also break lines (LF, or CR LF as browsers send a
// textarea's) and hold TABs; a CR alone is no line break anyone types.
const NOT_IN_LINES = /\r(?!\n)|[^\P{Cc}\t\n\r]|[\p{Cs}\u202A-\u202E\u2066-\u2069]/u;

/** Whether free text is plain: one line of it, or with `lines`, several (see NOT_IN_A_LINE and NOT_IN_LINES). */
export const isPlainText = (text: string, { lines = false } = {}) => !(lines ? NOT_IN_LINES : NOT_IN_A_LINE).test(text);

/**
 * The check every free-text field carries, after its trim and length checks: `.check(plainText("Name"))` refuses
 * "Name must not contain control characters" (the words size labels had), `{ lines: true }` for a multi-line field.
 */
export const plainText = (subject: string, options: { lines?: boolean } = {}) =>
  z.refine<string>((text) => isPlainText(text, options), `${subject} must not contain control characters`);
