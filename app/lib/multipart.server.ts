import { MAX_JSON_BYTES, assertUploadWithin, discardRest, tooLargeError, type TooLarge } from "./api.server";
import { sniffFileType, type SniffedType } from "./file-types";
import { HttpError, badRequest } from "./http";

// A multipart/form-data body read as it streams in, for uploads of several files (a product's 8 pictures of 5 MB).
// request.formData() holds the whole body, then a copy of each file while it parses, and a file's arrayBuffer() is one
// more copy: a 40 MB upload sent chunked went through three or four copies at once. Here each file part is checked as
// it arrives (its type from its first bytes, its size as it grows) and kept once, in a single buffer of its own size;
// a file refused is counted but not kept, the text fields are bounded, and the whole body is refused (413) as soon as
// it passes the limit, with the rest read and thrown away so that the client reads the answer (see discardRest).

export interface UploadedFile {
  field: string;
  /** The name the client gave, at most 200 characters; "image" when it gave none. */
  name: string;
  /** Every byte the part held, kept or not. */
  size: number;
  /** The type its first bytes show, or null. */
  type: SniffedType | null;
  /** The bytes, when the file is kept: not empty, within the size and count limits, of an allowed type. */
  bytes: Uint8Array | null;
  /** Why it was not kept: over maxFileBytes ("size"), a type not allowed ("type"), past maxFiles ("count"). */
  problem: "size" | "type" | "count" | null;
}

export interface StreamedForm {
  /** Every part that is not a file of `fileFields`, as text. */
  fields: FormData;
  /** The file parts of `fileFields`, in the order they came, empty ones (no file chosen) left out. */
  files: UploadedFile[];
}

export interface UploadLimits {
  /** Parts of these names that carry a filename are files; any other part is a text field. */
  fileFields: readonly string[];
  types: readonly SniffedType[];
  maxFileBytes: number;
  /** Files kept at most; later ones are only counted (problem "count"). */
  maxFiles: number;
  /** The most the files may add up to; the body may hold MAX_JSON_BYTES more for the other fields. */
  maxBytes: number;
  tooLarge: Required<TooLarge>;
}

const encoder = new TextEncoder();
/** Bytes enough for sniffFileType to tell every type it knows. */
const SNIFF_BYTES = 16;
const MAX_HEADER_BYTES = 16 * 1024;
const MALFORMED = "Malformed multipart body";

function concat(parts: Uint8Array[], size = parts.reduce((sum, part) => sum + part.byteLength, 0)): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Where `needle` starts in `haystack` from `from`, or -1 (indexOf finds the first byte natively). */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(needle[0], from); i !== -1 && i <= last; i = haystack.indexOf(needle[0], i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

/** The part's name and filename from its Content-Disposition (quoted or bare; `filename*` is not used by forms). */
function dispositionOf(headers: string): { name: string; filename: string | null } | null {
  const line = headers.split("\r\n").find((header) => /^content-disposition\s*:/i.test(header));
  if (!line) return null;
  const params = new Map<string, string>();
  for (const [, key, quoted, bare] of line.matchAll(/;\s*([a-z*]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/gi)) {
    params.set(key.toLowerCase(), quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : bare);
  }
  const name = params.get("name");
  return name === undefined ? null : { name, filename: params.get("filename") ?? null };
}

/** What one part's bytes go to. */
interface Sink {
  write(bytes: Uint8Array): void;
  end(): void;
}

/**
 * Reads a multipart/form-data body as it streams (see the top of this file). 413 `limits.tooLarge` for a body that
 * declares or reaches more than maxBytes + MAX_JSON_BYTES, or text fields over MAX_JSON_BYTES; 400 for a body that is
 * not multipart or not well formed. Files refused for their size, type or count are returned with their problem, for
 * the caller to answer in its own order and words.
 */
export async function readMultipartStream(request: Request, limits: UploadLimits): Promise<StreamedForm> {
  const boundary = boundaryOf(request.headers.get("Content-Type") ?? "");
  if (!request.headers.get("Content-Type")?.startsWith("multipart/form-data") || !boundary) {
    await assertUploadWithin(request, limits.maxBytes, limits.tooLarge);
    if (request.body && !request.body.locked) await discardRest(request.body.getReader());
    throw badRequest("Expected a multipart/form-data body");
  }
  await assertUploadWithin(request, limits.maxBytes, limits.tooLarge);
  if (!request.body) throw badRequest(MALFORMED);

  const fields = new FormData();
  const files: UploadedFile[] = [];
  let textBytes = 0;
  let keptFiles = 0;

  const textSink = (name: string): Sink => {
    const parts: Uint8Array[] = [];
    return {
      write(bytes) {
        textBytes += bytes.byteLength;
        if (textBytes > MAX_JSON_BYTES) throw tooLargeError({ message: "Request body too large" });
        parts.push(bytes);
      },
      end: () => fields.append(name, new TextDecoder().decode(concat(parts))),
    };
  };

  const fileSink = (field: string, filename: string): Sink => {
    const file: UploadedFile = { field, name: uploadedName(filename), size: 0, type: null, bytes: null, problem: null };
    let head = new Uint8Array(0);
    let parts: Uint8Array[] | null = [];
    let sniffed = false;
    const sniff = () => {
      sniffed = true;
      file.type = sniffFileType(head);
      if (!file.type || !limits.types.includes(file.type)) file.problem = "type";
      else if (keptFiles >= limits.maxFiles) file.problem = "count";
      if (file.problem) parts = null;
      else keptFiles++;
    };
    return {
      write(bytes) {
        file.size += bytes.byteLength;
        if (!sniffed) {
          head = concat([head, bytes.subarray(0, SNIFF_BYTES - head.byteLength)]);
          if (head.byteLength >= SNIFF_BYTES) sniff();
        }
        if (file.size > limits.maxFileBytes && file.problem !== "count") {
          if (file.problem === null) keptFiles--;
          file.problem = "size"; // the size is the first thing a client is told, as before
          parts = null;
        }
        // A view of the chunk, not a copy: the file's one copy is made when it ends.
        parts?.push(bytes);
      },
      end() {
        if (file.size === 0) return; // no file chosen
        if (!sniffed) sniff();
        if (parts && !file.problem) file.bytes = concat(parts, file.size);
        parts = null;
        files.push(file);
      },
    };
  };

  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const headersEnd = encoder.encode("\r\n\r\n");
  const reader = request.body.getReader();
  const limit = limits.maxBytes + MAX_JSON_BYTES;
  let received = 0;
  // The body as if it began with CRLF, so that its first delimiter looks like every other one.
  let pending: Uint8Array = encoder.encode("\r\n");
  type State = "preamble" | "delimiter" | "headers" | "body" | "done";
  let state = "preamble" as State;
  let sink: Sink | null = null;
  let ended = false;

  /** Handles as much of `pending` as it can; what is left waits for more bytes. */
  const advance = () => {
    for (;;) {
      if (state === "preamble" || state === "body") {
        const at = indexOfBytes(pending, delimiter);
        // Without a delimiter, all but its length less one can go: the delimiter may begin in those last bytes.
        const upTo = at === -1 ? Math.max(0, pending.length - delimiter.length + 1) : at;
        if (state === "body" && upTo > 0) sink!.write(pending.subarray(0, upTo));
        if (at === -1) {
          pending = pending.subarray(upTo);
          return;
        }
        if (state === "body") sink!.end();
        sink = null;
        pending = pending.subarray(at + delimiter.length);
        state = "delimiter";
      } else if (state === "delimiter") {
        if (pending.length < 2) return;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = "done";
          return;
        }
        if (pending[0] !== 0x0d || pending[1] !== 0x0a) throw badRequest(MALFORMED);
        pending = pending.subarray(2);
        state = "headers";
      } else if (state === "headers") {
        const at = indexOfBytes(pending, headersEnd);
        if (at === -1) {
          if (pending.length > MAX_HEADER_BYTES) throw badRequest(MALFORMED);
          return;
        }
        const disposition = dispositionOf(new TextDecoder().decode(pending.subarray(0, at)));
        if (!disposition) throw badRequest(MALFORMED);
        const isFile = disposition.filename !== null && limits.fileFields.includes(disposition.name);
        sink = isFile ? fileSink(disposition.name, disposition.filename!) : textSink(disposition.name);
        pending = pending.subarray(at + headersEnd.length);
        state = "body";
      } else {
        pending = new Uint8Array(0); // the epilogue, after the closing delimiter, means nothing
        return;
      }
    }
  };

  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      received += chunk.value.byteLength;
      if (received > limit) throw tooLargeError(limits.tooLarge);
      // Only the few bytes left over (a possible start of a delimiter) are copied in front of the new chunk.
      pending = pending.length ? concat([pending, chunk.value]) : chunk.value;
      advance();
    }
    ended = true;
    // advance() moves the state on; TypeScript cannot see a closure's writes.
    if ((state as State) !== "done") throw badRequest(MALFORMED);
  } catch (error) {
    // Answering before the body is read would reset the connection: read the rest into nothing first.
    if (!ended) await discardRest(reader, received);
    if (error instanceof HttpError) throw error;
    throw badRequest(MALFORMED);
  }
  return { fields, files };
}

/**
 * The file name a client sent, as the product's `imageName` keeps it: only its last part (a browser sends no folder,
 * a script may send "../../x.png"), without control characters, at most 200 characters. A label only: storage keys are
 * made by the server.
 */
export function uploadedName(filename: string): string {
  const lastPart = filename.split(/[/\\]/).pop() ?? "";
  return [...lastPart.replace(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu, "").trim()].slice(0, 200).join("") || "image";
}
