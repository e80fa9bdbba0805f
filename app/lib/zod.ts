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

/** A record's id as a form posts it (a hidden field): digits, a positive whole number; `notFound` for anything else. */
export const formIdField = (notFound: string) =>
  z.string({ error: notFound }).regex(/^\d{1,15}$/, notFound).transform(Number).pipe(z.number().int().min(1, notFound));
