import { data } from "react-router";

export type FieldErrors = Record<string, string[]>;

/** An answer a client caused (400 to 429): thrown by services, turned into JSON by the API and into a message by screens. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/**
 * The refusal of a write whose page was rendered for another user than the session's (assertRenderedFor,
 * app/lib/rendered-for.ts): its words are for the person as they stand, never inside a form's "Failed to ...".
 */
export class RenderedForRefusal extends HttpError {}

export const badRequest = (message: string, fieldErrors?: FieldErrors) => new HttpError(400, message, fieldErrors);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const forbidden = (message = "Access denied") => new HttpError(403, message);
export const conflict = (message: string) => new HttpError(409, message);

export const INVALID_TOKEN = "Invalid or expired token";
export const unauthorized = (message = INVALID_TOKEN) => new HttpError(401, message);

/** A positive integer id from a path, query or form; null for anything else ("abc", "0", "-1", "1.5", 16+ digits). */
export function parseId(value: unknown): number | null {
  return typeof value === "string" && /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/** Screens: the id in the path, or the 404 page. */
export function routeId(value: string | undefined): number {
  const id = parseId(value);
  if (id === null) throw data(null, { status: 404 });
  return id;
}

/**
 * A screen's `headers` export that passes on its action's Retry-After (a 429's): React Router keeps only an action's
 * cookies on a page unless the route says which headers to keep.
 */
export function keepRetryAfter({ actionHeaders }: { actionHeaders: Headers }): Record<string, string> {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}
