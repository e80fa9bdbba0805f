import type { Plugin } from "vite";

/**
 * A Vite plugin for the Worker build: React's server renderer keeps the bytes of the short strings it writes.
 *
 * React's edge renderer (react-dom/server in workerd) turns every attribute name, attribute value and text node into
 * bytes with its own TextEncoder.encode call, and in workerd each call crosses from JavaScript into C++
 * (cloudflare/workerd#5317). A catalogue page makes a few thousand of them, nearly all the same strings on every
 * request ("class", the same Tailwind class lists, "href"): measured with a CPU profile, a quarter of the page's CPU
 * time. This keeps the encoded bytes of short strings in a per-isolate map, so a string is encoded once.
 *
 * Safe because React already reuses its own precomputed chunks the same way: chunks up to 4096 bytes are copied into
 * its output buffer, never handed over (a larger one would be enqueued, and so detached: those are never kept). The
 * map is emptied when it grows past MAX_ENTRIES, so one-off strings (product names, e-mails) cannot make it grow
 * without end.
 *
 * The build fails if React's code no longer has the function this replaces, or if the Worker build never met React's
 * renderer at all, rather than silently losing the gain.
 */
export function reactChunkCache(): Plugin {
  const RENDERER = /react-dom-server\.edge\.production\.js$/;
  const ORIGINAL = "function stringToChunk(content) {\n  return textEncoder.encode(content);\n}";
  const MAX_LENGTH = 256; // characters; at most 768 bytes, well below React's 4096-byte limit for copied chunks
  const MAX_ENTRIES = 4096;
  const REPLACEMENT = `var encodedChunks = new Map();
function stringToChunk(content) {
  if (content.length > ${MAX_LENGTH}) return textEncoder.encode(content);
  var chunk = encodedChunks.get(content);
  if (chunk === undefined) {
    if (encodedChunks.size >= ${MAX_ENTRIES}) encodedChunks.clear();
    chunk = textEncoder.encode(content);
    if (chunk.byteLength <= 4096) encodedChunks.set(content, chunk);
  }
  return chunk;
}`;
  let patched = false;
  return {
    name: "stride:react-chunk-cache",
    apply: "build",
    transform(code, id) {
      if (!RENDERER.test(id.split("?")[0])) return null;
      if (!code.includes(ORIGINAL)) this.error(`react-chunk-cache: stringToChunk not found in ${id}; React changed, review this plugin`);
      patched = true;
      return { code: code.replace(ORIGINAL, REPLACEMENT), map: null };
    },
    buildEnd() {
      // The Worker's environment is "ssr" (vite.config.ts); the browser build never loads React's server renderer.
      if (this.environment?.name === "ssr" && !patched) this.error("react-chunk-cache: the Worker build did not include react-dom-server.edge.production.js; review this plugin");
    },
  };
}
