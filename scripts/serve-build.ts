// Serves a built Worker with Miniflare: the same workerd runtime, local D1/R2 and static assets that `wrangler dev`
// runs it on, from the same state folder, without wrangler dev's proxy Worker and inspector in front of it. Those (a
// proxy Worker in a second workerd, the inspector attached to the Worker, and a debug-log message to Wrangler's Node
// process for every inspector event, D1 and R2 calls included) cost more CPU a request than the db floor's Worker
// does, and production has none of them. `npm start` serves this way (scripts/start.mjs), and so the e2e tests, the
// soak and `BENCH_SERVER=miniflare npm run bench`: the proxy now and then answers a POST with a 503 of its own
// (cloudflare/workers-sdk#14641).
//
//   tsx scripts/serve-build.ts <build dir> <state dir (wrangler's --persist-to)> <port>
//
// Bindings, variables, secrets (.dev.vars beside the built wrangler.json) and assets come from the build's
// wrangler.json, read by Wrangler itself, so they are what `wrangler dev` would give the Worker; but mail is kept
// (MAIL_MODE=keep) and the EMAIL binding left out, whatever the config says (see below).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

import { LOCAL_VARS, miniflarePersistRoot, wranglerEnv } from "./lib/local-state";

// The machines are offline: without this, Miniflare tries to download the `cf` object on every start.
Object.assign(process.env, wranglerEnv());

const [buildDir, stateDir, portArg] = process.argv.slice(2);
if (!buildDir || !stateDir || !Number.isInteger(Number(portArg))) {
  console.error("usage: tsx scripts/serve-build.ts <build dir> <state dir> <port>");
  process.exit(2);
}

// "The same runtime" holds only while this Miniflare is the one Wrangler runs (package.json pins both).
const require = createRequire(import.meta.url);
const wranglerMiniflare: string = require("wrangler/package.json").dependencies.miniflare;
const ourMiniflare: string = require("miniflare/package.json").version;
if (wranglerMiniflare !== ourMiniflare) {
  throw new Error(`miniflare ${ourMiniflare} is installed, wrangler runs ${wranglerMiniflare}: pin miniflare to ${wranglerMiniflare} in package.json`);
}

const serverDir = resolve(buildDir, "server");
const configPath = join(serverDir, "wrangler.json");
const { workerOptions, main } = unstable_getMiniflareWorkerOptions(configPath);
const { name } = JSON.parse(readFileSync(configPath, "utf8")) as { name: string };
// React Router's browser code, bundled into the server build too, calls import() with a computed specifier, which
// Miniflare refuses to follow; so every module is listed, the entry first. `wrangler dev` keeps its own scratch
// files in .wrangler/ beside the build, which are not the Worker's.
const modules = readdirSync(serverDir, { recursive: true, encoding: "utf8" })
  .filter((file) => /\.m?js$/.test(file) && !file.split(/[\\/]/).some((part) => part.startsWith(".")))
  .map((file) => join(serverDir, file))
  .sort((a, b) => Number(b === main) - Number(a === main))
  .map((path) => ({ type: "ESModule" as const, path }));
if (modules[0]?.path !== main) throw new Error(`The entry module ${main} is not in ${serverDir}`);

// modulesRules tell Miniflare how to load modules it finds by itself; here every module is listed. Miniflare 5 takes
// the options Wrangler builds in the v4 shape through convertV4MiniflareOptions, as `wrangler dev` itself does.
// A local server keeps every mail (LOCAL_VARS: MAIL_MODE=keep over wrangler.jsonc's "send"), and has no EMAIL binding
// at all: Miniflare's send_email binding would mark a mail sent that went nowhere, so nothing here may reach it.
const { modulesRules: _rules, email: _email, bindings, ...options } = workerOptions;
const miniflare = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: Number(portArg),
    // Every store (D1, R2, cache, ...) in its folder under <state>/v3, as `wrangler dev --persist-to <state>` keeps them.
    resourcePersistencePath: miniflarePersistRoot(resolve(stateDir)),
    // One line a request, as `wrangler dev` prints; WRANGLER_LOG=warn (the e2e tests, the soak) keeps only problems.
    log: new Log(process.env.WRANGLER_LOG?.toLowerCase() === "warn" ? LogLevel.WARN : LogLevel.INFO),
    workers: [{ ...options, bindings: { ...(bindings as Record<string, unknown> | undefined), ...LOCAL_VARS }, name, modulesRoot: serverDir, modules }],
    // Set by `npm run profile` (scripts/profile.ts), which records the Worker's CPU profile through the inspector.
    ...(process.env.SERVE_INSPECTOR_PORT ? { inspectorPort: Number(process.env.SERVE_INSPECTOR_PORT) } : {}),
  }),
);
const url = await miniflare.ready;
console.log(`Serving ${serverDir} on ${url.origin}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void miniflare.dispose().finally(() => process.exit(0));
  });
}
