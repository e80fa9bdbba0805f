import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { createElement, lazy, Suspense, type ReactNode } from "react";
import type { Plugin } from "vite";
import { describe, expect, it } from "vitest";

import { reactTextWriter } from "../../scripts/react-text-writer";

// The plugin patches React's edge renderer; these load the patched renderer in Node and compare what it writes with
// what React's own renderer writes: pages large and small, text ASCII and not, boundaries streamed after the shell, and
// renders that run at the same time (the pending text is module-wide, as React's own buffer is).
const require = createRequire(import.meta.url);
const RENDERER = join(dirname(require.resolve("react-dom/package.json")), "cjs", "react-dom-server.edge.production.js");

type Renderer = { renderToReadableStream(node: ReactNode): Promise<ReadableStream<Uint8Array>> };

function transform(code: string, id: string): string | null {
  const plugin = reactTextWriter() as Plugin & { transform: (this: { error(message: string): never }, code: string, id: string) => { code: string } | null };
  const context = {
    error(message: string): never {
      throw new Error(message);
    },
  };
  return plugin.transform.call(context, code, id)?.code ?? null;
}

function loadPatchedRenderer(): Renderer {
  const patched = transform(readFileSync(RENDERER, "utf8"), RENDERER);
  if (!patched) throw new Error("the plugin did not patch React's renderer");
  const module = new Module(RENDERER) as Module & { _compile(code: string, filename: string): void; paths: string[] };
  module.filename = RENDERER;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(RENDERER));
  module._compile(patched, RENDERER);
  return module.exports as Renderer;
}

async function html(renderer: Renderer, node: ReactNode): Promise<string> {
  return new Response(await renderer.renderToReadableStream(node)).text();
}

const card = (name: string, price: string, index: number) =>
  createElement(
    "article",
    { className: "group card relative flex flex-col overflow-hidden", key: index },
    createElement("a", { href: `/product/${index}`, className: "after:absolute after:inset-0" }, name),
    createElement("p", { className: "mt-auto pt-2 text-lg font-bold" }, price),
    createElement("button", { type: "submit", name: "productId", value: index, className: "btn-primary w-full" }, "Add to Cart"),
  );
const page = (names: string[]) => createElement("main", null, names.map((name, index) => card(name, `Rs ${(index + 1) * 1250}.00`, index)));

/**
 * A boundary whose content arrives after the shell: React streams it in a later flush, with its script. (Lazy, and its
 * element made beforehand: a hook or createElement while rendering would need this file's React to be the renderer's.)
 */
const streamed = (delayMs: number) => {
  const content = createElement("p", { className: "later" }, `Streamed after ${delayMs} ms – ලංකා`);
  const Later = lazy(() => new Promise<{ default: () => ReactNode }>((resolve) => setTimeout(() => resolve({ default: () => content }), delayMs)));
  return createElement(
    "main",
    null,
    createElement("h1", null, "Shell"),
    createElement(Suspense, { fallback: createElement("p", null, "Loading...") }, createElement(Later)),
    page(["Cinnamon Wedge", "Lotus Derby"]),
  );
};

describe("react-text-writer", () => {
  it("patches React's edge renderer and leaves every other module alone", () => {
    const source = readFileSync(RENDERER, "utf8");
    expect(transform(source, RENDERER)).toContain("pendingText += chunk");
    expect(transform(source, RENDERER)).not.toContain("currentView.set(chunk");
    expect(transform(source, "/app/components/Stars.tsx")).toBeNull();
  });

  it("fails the build when React's renderer no longer has what it replaces", () => {
    const source = readFileSync(RENDERER, "utf8");
    expect(() => transform("function somethingElse() {}", RENDERER)).toThrow(/byte writer .* not found/);
    // A function added to the writer, or the segment size counted differently: React changed under the patch.
    expect(() => transform(source.replace("function completeWriting(", "function flushWriting() {}\nfunction completeWriting("), RENDERER)).toThrow(/byte writer/);
    expect(() => transform(source.replace("segmentByteSize += segment[i].byteLength;", "segmentByteSize += size(segment[i]);"), RENDERER)).toThrow(/segment size/);
  });

  it("writes exactly what React writes, with names long and short, ASCII and not, and pages over 4 KB", async () => {
    const patched = loadPatchedRenderer();
    const original = require(RENDERER) as Renderer;
    const pages = [
      page(["Cinnamon Wedge", "Lotus Derby", "Cinnamon Wedge"]),
      page(["Kandy Craft Sandal – ලංකා", "x".repeat(5_000), "Lotus Derby"]),
      page(Array.from({ length: 1_500 }, (_, i) => `Product ${i}`)),
    ];
    for (let round = 0; round < 2; round++) {
      for (const node of pages) expect(await html(patched, node)).toBe(await html(original, node));
    }
  });

  it("streams boundaries completed after the shell, and keeps renders running at once apart", async () => {
    const patched = loadPatchedRenderer();
    const original = require(RENDERER) as Renderer;
    const expected = await Promise.all([5, 15, 10].map((delay) => html(original, streamed(delay))));
    expect(expected[0]).toContain("Streamed after 5 ms – ලංකා");
    expect(expected[0]).toContain("<p>Loading...</p>");
    const written = await Promise.all([5, 15, 10].map((delay) => html(patched, streamed(delay))));
    expect(written).toEqual(expected);
  });
});
