import type { AppLoadContext } from "react-router";
import { z } from "zod";

import type { SessionUser } from "~/services/auth.server";
import { getOptionalUser, requireApiAdmin, requireApiUser } from "~/services/session.server";
import { HttpError, badRequest, parseId, type FieldErrors } from "./http";

export const MAX_JSON_BYTES = 64 * 1024;

export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(data), { ...init, headers });
}

export function errorJson(status: number, message: string, fieldErrors?: FieldErrors, headers?: HeadersInit): Response {
  return json(fieldErrors ? { message, fieldErrors } : { message }, { status, headers });
}

/** Field errors keyed by the field's path (under `at`, where the value sits in the body), and the first message as the summary. */
export function zodFieldErrors(error: z.ZodError, at: PropertyKey[] = []): { message: string; fieldErrors: FieldErrors } {
  const fieldErrors: FieldErrors = {};
  for (const issue of error.issues) {
    const path = [...at, ...issue.path];
    const key = path.length ? path.map(String).join(".") : "_";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return { message: error.issues[0]?.message ?? "Invalid input", fieldErrors };
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, at: PropertyKey[] = []): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { message, fieldErrors } = zodFieldErrors(result.error, at);
  throw badRequest(message, fieldErrors);
}

/**
 * The most of a refused body the Worker reads and throws away before it answers 413: Cloudflare's edge accepts request
 * bodies of up to 100 MB, so every body that reaches a deployed Worker is drained; only locally can a bigger one
 * arrive, and that is cut off (a reset) once this much is read.
 */
const DRAIN_LIMIT_BYTES = 100 * 1024 * 1024;

/**
 * Reads what is left of a body into nothing, so that a client still sending it gets to read the 413 that follows. An
 * HTTP/1.1 server that answers early and closes the connection with the rest of the body unread resets it, and Node's
 * fetch and curl then report ECONNRESET or EPIPE instead of the answer. Only a chunk at a time is held in memory.
 */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead = 0): Promise<void> {
  let read = alreadyRead;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      read += chunk.value.byteLength;
      if (read > DRAIN_LIMIT_BYTES) return void (await reader.cancel());
    }
  } catch {
    // The client went away: nobody is left to answer.
  }
}

export type TooLarge = { message: string; field?: string };

export function tooLargeError({ message, field }: TooLarge): HttpError {
  return new HttpError(413, message, field ? { [field]: [message] } : undefined);
}

/**
 * Drains a request body nobody read (see discardRest): any answer given before an upload was read (a 413, a 401 or 403,
 * a bad query) reaches a client still sending it, instead of a reset.
 */
export async function discardUnreadBody(request: Request): Promise<void> {
  if (request.body && !request.bodyUsed && !request.body.locked) await discardRest(request.body.getReader());
}

/** A 413 for a body not read yet: drains it first, then throws. */
async function refuseBody(request: Request, tooLarge: TooLarge): Promise<never> {
  await discardUnreadBody(request);
  throw tooLargeError(tooLarge);
}

/** Reads a body but keeps no more than the limit, so a body without Content-Length cannot fill the isolate's memory. */
async function readBounded(request: Request, limit: number, tooLarge: TooLarge): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > limit) {
      await discardRest(reader, size);
      throw tooLargeError(tooLarge);
    }
    chunks.push(chunk.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The body as a stream that fails once more than `limit` bytes have passed, instead of holding the body to count it
 * (a form parsed from it is then held once, by formData, not also as chunks and as one buffer). `over()` says whether
 * it failed for that; the reader stays with the caller, to drain what is left.
 */
function boundedStream(body: ReadableStream<Uint8Array>, limit: number) {
  const reader = body.getReader();
  let size = 0;
  let over = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) return controller.close();
      size += chunk.value.byteLength;
      if (size > limit) {
        over = true;
        return controller.error(new RangeError("body over its limit"));
      }
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { stream, over: () => over, drain: () => discardRest(reader, size) };
}

/** The body's declared length, or null when it declares none (chunked). */
function declaredLength(request: Request): number | null {
  const header = request.headers.get("Content-Length");
  return header === null ? null : Number(header);
}

const JSON_TOO_LARGE: TooLarge = { message: "Request body too large" };

/** A JSON body, bounded in size before it is read, validated by its schema. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  if ((declaredLength(request) ?? 0) > MAX_JSON_BYTES) await refuseBody(request, JSON_TOO_LARGE);
  const bytes = await readBounded(request, MAX_JSON_BYTES, JSON_TOO_LARGE);
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw badRequest("Malformed JSON body");
  }
  return parseWith(schema, body);
}

export function toErrorResponse(error: unknown): Response {
  if (error instanceof HttpError) return errorJson(error.status, error.message, error.fieldErrors, error.headers);
  if (error instanceof Response) return error;
  console.error("Unhandled API error", error);
  return errorJson(500, "Internal error");
}

type Method = "GET" | "POST" | "PUT" | "DELETE";
export interface ApiArgs {
  request: Request;
  /** The request's URL as the route sees it (React Router's `url`: request.url of a fetcher's load has ".data"). */
  url: URL;
  params: Record<string, string | undefined>;
  context: AppLoadContext;
}

/** A positive integer id from the path; anything else is a 404, as API.md says. */
export function idParam(value: string | undefined, what = "Resource"): number {
  const id = parseId(value);
  if (id === null) throw new HttpError(404, `${what} not found`);
  return id;
}

type Auth = "none" | "optional" | "user" | "admin";
type UserFor<A extends Auth> = A extends "user" | "admin" ? SessionUser : A extends "optional" ? SessionUser | null : undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface EndpointDoc {
  summary: string;
  auth: Auth;
  body?: z.ZodType;
  /** Multipart fields, for the document: name → schema (a JSON string field) or "binary" (a file). */
  multipart?: Record<string, z.ZodType | "binary">;
  query?: z.ZodObject;
  /** Request headers read by the endpoint, by their names (e.g. "Idempotency-Key"): an absent header is undefined. */
  headers?: z.ZodObject;
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
}

export interface Endpoint<A extends Auth = Auth, B extends z.ZodType | undefined = any, Q extends z.ZodObject | undefined = any, H extends z.ZodObject | undefined = any>
  extends Omit<EndpointDoc, "auth" | "body" | "query" | "headers"> {
  auth: A;
  body?: B;
  query?: Q;
  headers?: H;
  handler(args: ApiArgs & { params: Record<string, string>; user: UserFor<A>; body: Out<B>; query: Out<Q>; headers: Out<H> }): Promise<Response> | Response;
}

/** Declares one endpoint; a function only so TypeScript infers the body, query, headers and user types for the handler. */
export function endpoint<const A extends Auth, B extends z.ZodType | undefined = undefined, Q extends z.ZodObject | undefined = undefined, H extends z.ZodObject | undefined = undefined>(
  definition: Endpoint<A, B, Q, H>,
): Endpoint<A, B, Q, H> {
  return definition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry keeps its own precise types
export type ApiTable = Record<`${Method} /${string}`, Endpoint<any, any, any, any>>;

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/").filter(Boolean);
  const have = path.split("/").filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i];
    if (segment.startsWith("{")) {
      try {
        params[segment.slice(1, -1)] = decodeURIComponent(have[i]);
      } catch {
        return null; // a malformed escape such as %ZZ names nothing
      }
    } else if (segment !== have[i]) return null;
  }
  return params;
}

async function userFor(auth: Auth, { request, context }: ApiArgs): Promise<SessionUser | null | undefined> {
  if (auth === "user") return requireApiUser(request, context);
  if (auth === "admin") return requireApiAdmin(request, context);
  if (auth === "optional") return getOptionalUser(request, context);
  return undefined;
}

function queryObject(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

/** The headers a schema names, as sent (names compared case-insensitively); an absent one is left out. */
function headerObject(request: Request, schema: z.ZodObject): Record<string, string> {
  return Object.fromEntries(Object.keys(schema.shape).flatMap((name) => {
    const value = request.headers.get(name);
    return value === null ? [] : [[name, value]];
  }));
}

/**
 * One REST resource: its endpoints by "METHOD /path" under a prefix (e.g. "/api/auth"). The module's loader and
 * action both dispatch through it, so every method of every path answers JSON in API.md's shape (405 for a method the
 * path does not have, 404 for an unknown path), and the OpenAPI document is built from the same table.
 */
export function apiResource(prefix: string, table: ApiTable) {
  const entries = Object.entries(table).map(([key, definition]) => {
    const [method, path] = key.split(" ") as [Method, string];
    return { method, path: prefix + (path === "/" ? "" : path), definition };
  });
  const handle = async (args: ApiArgs): Promise<Response> => {
    const { url } = args;
    const method = args.request.method === "HEAD" ? "GET" : args.request.method;
    const onPath = entries.flatMap((entry) => {
      const params = matchPath(entry.path, url.pathname);
      return params ? [{ ...entry, params }] : [];
    });
    if (!onPath.length) return errorJson(404, "Not found");
    const match = onPath.find((entry) => entry.method === method);
    if (!match) return errorJson(405, "Method not allowed", undefined, { Allow: onPath.map((e) => e.method).join(", ") });
    try {
      const { definition } = match;
      const user = await userFor(definition.auth, args);
      const query = definition.query ? parseWith(definition.query, queryObject(url)) : undefined;
      const headers = definition.headers ? parseWith(definition.headers, headerObject(args.request, definition.headers)) : undefined;
      const body = definition.body ? await readJson(args.request, definition.body) : undefined;
      return await definition.handler({ ...args, params: match.params, user, body, query, headers });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
  return { handle, entries };
}
export type ApiResource = ReturnType<typeof apiResource>;

/**
 * Refuses a body declared larger than the biggest upload plus room for the other fields, reading none of it but to
 * drain it (see discardRest).
 */
export async function assertUploadWithin(request: Request, maxBytes: number, tooLarge: Required<TooLarge>): Promise<void> {
  if ((declaredLength(request) ?? 0) > maxBytes + MAX_JSON_BYTES) await refuseBody(request, tooLarge);
}

/**
 * A form body (multipart or URL-encoded), bounded before it is read, and while it is read when it declares no length
 * (chunked), so no body keeps more than the limit in memory. A body that is no form is a 400 with `malformed`.
 */
export async function readBoundedForm(request: Request, maxBytes: number, tooLarge: Required<TooLarge>, malformed = "Expected a form submission"): Promise<FormData> {
  await assertUploadWithin(request, maxBytes, tooLarge);
  if (declaredLength(request) !== null || !request.body) {
    try {
      return await request.formData();
    } catch {
      throw badRequest(malformed);
    }
  }
  const bounded = boundedStream(request.body, maxBytes + MAX_JSON_BYTES);
  try {
    return await new Response(bounded.stream, { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();
  } catch {
    if (!bounded.over()) throw badRequest(malformed);
    await bounded.drain();
    throw tooLargeError(tooLarge);
  }
}

/** A multipart body (the API's uploads), bounded as readBoundedForm says. */
export async function readMultipart(request: Request, maxBytes: number, tooLarge: Required<TooLarge>): Promise<FormData> {
  if (!request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    await assertUploadWithin(request, maxBytes, tooLarge);
    throw badRequest("Expected a multipart/form-data body");
  }
  return readBoundedForm(request, maxBytes, tooLarge, "Malformed multipart body");
}

/** A multipart field that holds JSON (the API's `product` and `order` parts), as text or as a JSON file part. */
export async function parseJsonField<S extends z.ZodType>(form: FormData, field: string, schema: S): Promise<z.output<S>> {
  const part = form.get(field);
  const value = part instanceof File && part.size <= MAX_JSON_BYTES ? await part.text() : part;
  if (typeof value !== "string") throw badRequest(`The '${field}' part is required`, { [field]: [`The '${field}' part is required`] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw badRequest(`The '${field}' part is not valid JSON`);
  }
  // An object part's fields are the API's own (`name`, `price`); an array part's items are named by the part (`images.0.id`).
  return parseWith(schema, parsed, Array.isArray(parsed) ? [field] : []);
}
