import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { createElement, type ReactNode } from "react";
import type { Plugin } from "vite";
import { describe, expect, it } from "vitest";

import { reactChunkCache } from "../../scripts/react-chunk-cache";

// The plugin patches React's edge renderer; these load the patched renderer in Node and compare what it writes with
// what React's own renderer writes, over repeated renders that reuse the cached bytes.
const require = createRequire(import.meta.url);
const RENDERER = join(dirname(require.resolve("react-dom/package.json")), "cjs", "react-dom-server.edge.production.js");

type Renderer = { renderToReadableStream(node: ReactNode): Promise<ReadableStream<Uint8Array>> };

function transform(code: string, id: string): string | null {
  const plugin = reactChunkCache() as Plugin & { transform: (this: { error(message: string): never }, code: string, id: string) => { code: string } | null };
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

describe("react-chunk-cache", () => {
  it("patches React's edge renderer and leaves every other module alone", () => {
    const source = readFileSync(RENDERER, "utf8");
    expect(transform(source, RENDERER)).toContain("encodedChunks");
    expect(transform(source, "/app/components/Stars.tsx")).toBeNull();
  });

  it("fails the build when React's renderer no longer has the function it replaces", () => {
    expect(() => transform("function somethingElse() {}", RENDERER)).toThrow(/stringToChunk not found/);
  });

  it("writes exactly what React writes, render after render, with names long and short, ASCII and not", async () => {
    const patched = loadPatchedRenderer();
    const original = require(RENDERER) as Renderer;
    const pages = [
      page(["Cinnamon Wedge", "Lotus Derby", "Cinnamon Wedge"]),
      page(["Kandy Craft Sandal – ලංකා", "x".repeat(5_000), "Lotus Derby"]),
      page(Array.from({ length: 1_500 }, (_, i) => `Product ${i}`)), // over 4,096 strings: the cache empties mid-render
      page(["Cinnamon Wedge", "Lotus Derby", "Cinnamon Wedge"]),
    ];
    for (let round = 0; round < 3; round++) {
      for (const node of pages) expect(await html(patched, node)).toBe(await html(original, node));
    }
  });
});
