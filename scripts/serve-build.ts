// Serves a built Worker with Miniflare: the same workerd runtime, local D1/R2 and static assets that `wrangler dev`
// runs it on, from the same state folder, but without wrangler dev's development layers in front of it. Those (a proxy
// Worker in a second workerd, the inspector attached to the Worker, and a debug-log message to Wrangler's Node process
// for every inspector event) cost more CPU a request than the Worker itself on a cheap route, and production has none
// of them. `BENCH_SERVER=miniflare npm run bench` measures the Worker this way.
//
//   tsx scripts/serve-build.ts <build dir> <state dir (wrangler's --persist-to)> <port>
//
// Bindings, variables, secrets (.dev.vars beside the built wrangler.json) and assets come from the build's
// wrangler.json, read by Wrangler itself, so they are what `wrangler dev` would give the Worker.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

const [buildDir, stateDir, portArg] = process.argv.slice(2);
if (!buildDir || !stateDir || !Number.isInteger(Number(portArg))) {
  console.error("usage: tsx scripts/serve-build.ts <build dir> <state dir> <port>");
  process.exit(2);
}

const serverDir = resolve(buildDir, "server");
const { workerOptions, main } = unstable_getMiniflareWorkerOptions(join(serverDir, "wrangler.json"));
if (!main) throw new Error(`${serverDir}/wrangler.json names no main module`);
// The server build loads its route chunks with import(); Miniflare follows only static imports, so every module is
// listed, the entry first.
const modules = readdirSync(serverDir, { recursive: true, encoding: "utf8" })
  .filter((file) => /\.m?js$/.test(file))
  .map((file) => join(serverDir, file))
  .sort((a, b) => Number(b === main) - Number(a === main))
  .map((path) => ({ type: "ESModule" as const, path }));
const persist = join(resolve(stateDir), "v3");

const { modulesRules: _rules, ...options } = workerOptions;
const miniflare = new Miniflare({
  ...options,
  name: "stride",
  modulesRoot: serverDir,
  modules,
  host: "127.0.0.1",
  port: Number(portArg),
  d1Persist: join(persist, "d1"),
  r2Persist: join(persist, "r2"),
  cachePersist: join(persist, "cache"),
  log: new Log(LogLevel.WARN),
});
const url = await miniflare.ready;
console.log(`Serving ${serverDir} on ${url.origin}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void miniflare.dispose().finally(() => process.exit(0));
  });
}
