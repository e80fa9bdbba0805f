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

export const badRequest = (message: string, fieldErrors?: FieldErrors) => new HttpError(400, message, fieldErrors);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const forbidden = (message = "Access denied") => new HttpError(403, message);
export const conflict = (message: string) => new HttpError(409, message);

export const INVALID_TOKEN = "Invalid or expired token";
export const unauthorized = (message = INVALID_TOKEN) => new HttpError(401, message);
