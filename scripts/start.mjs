// `npm start`: from a fresh clone (after `npm install`) to a running shop, and again on every later run without
// losing data. Steps: local variables -> migrations -> demo data (once) -> build -> serve the built Worker, which
// keeps every mail in the outbox (MAIL_MODE=keep), never sends it.
//   PORT=8787 (default)        the port to serve on
//   STRIDE_STATE=<dir>         keep the local D1/R2 data there instead of .wrangler/state
//   STRIDE_SERVER=miniflare    serve with scripts/serve-build.ts (default): the built Worker in workerd through Miniflare,
//                              the runtime `wrangler dev` runs it on, without wrangler dev's proxy Worker. That proxy now
//                              and then answers a POST with its own 503 "Your worker restarted mid-request" though nothing
//                              restarted (cloudflare/workers-sdk#14641, still open in wrangler 4.151): `npm run soak`
//                              counts them. STRIDE_SERVER=wrangler serves with `wrangler dev` instead.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { constants } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const port = process.env.PORT || "8787";
const state = process.env.STRIDE_STATE ? resolve(process.env.STRIDE_STATE) : undefined;
const server = process.env.STRIDE_SERVER || "miniflare";
const persistArgs = state ? ["--persist-to", state] : [];
const childEnv = {
  ...process.env,
  ...(state ? { STRIDE_STATE: state } : {}),
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

let child; // the step running now, to forward signals to
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopping = true;
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    else process.exit(128 + constants.signals[signal]);
  });
}

const exitCodeOf = (code, signal) => code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1);

function step(title) {
  console.log(`\n\x1b[1m▶ ${title}\x1b[0m`);
}

function fail(message) {
  console.error(`\n\x1b[31m✖ ${message}\x1b[0m`);
  process.exit(1);
}

if (server !== "wrangler" && server !== "miniflare") fail(`STRIDE_SERVER must be miniflare or wrangler, not ${server}`);
// npm scripts run on the project's own Node (the `node` package in node_modules/.bin); Wrangler needs 22.12 or newer.
const [nodeMajor, nodeMinor] = process.versions.node.split(".").map(Number);
if (nodeMajor < 22 || (nodeMajor === 22 && nodeMinor < 12)) {
  fail(`Node ${process.version} is too old: run \`npm start\`, which uses the project's Node 22 (after \`npm install\`).`);
}

/** Runs a local binary with the output shown; resolves when it exits 0, stops everything otherwise. */
function run(title, command, args, env = {}) {
  step(title);
  const started = Date.now();
  return new Promise((done) => {
    child = spawn(bin(command), args, { cwd: root, env: { ...childEnv, ...env }, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", (error) => fail(`${title}: could not start ${command} (${error.message}). Did you run npm install?`));
    child.on("exit", (code, signal) => {
      child = undefined;
      if (stopping) process.exit(exitCodeOf(code, signal));
      if (code !== 0) fail(`${title} failed (exit ${exitCodeOf(code, signal)}). See the output above.`);
      console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      done();
    });
  });
}

/**
 * The local variables in .dev.vars, which `wrangler dev` and `npm run dev` read over wrangler.jsonc's: a JWT signing
 * secret, created once and never replaced, and MAIL_MODE=keep (wrangler.jsonc says "send", for deployments), added to
 * a file that lacks it. A MAIL_MODE line someone wrote there is left alone; this script's own server keeps mail anyway.
 */
function ensureDevVars() {
  const file = join(root, ".dev.vars");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const lines = [];
  if (/^\s*JWT_SECRET\s*=\s*\S/m.test(current)) console.log("  .dev.vars: JWT_SECRET present, kept");
  else lines.push(`JWT_SECRET=${randomBytes(48).toString("base64url")}`);
  if (!/^\s*MAIL_MODE\s*=/m.test(current)) lines.push("MAIL_MODE=keep");
  if (!lines.length) return;
  const added = lines.map((line) => `${line}\n`).join("");
  writeFileSync(file, current && !current.endsWith("\n") ? `${current}\n${added}` : current + added, { mode: 0o600 });
  console.log(`  .dev.vars: ${lines.map((line) => (line.startsWith("JWT_SECRET=") ? "a new JWT_SECRET" : line)).join(" and ")} written`);
}

function portIsFree(number) {
  return new Promise((done) => {
    const probe = createServer()
      .once("error", () => done(false))
      .listen(Number(number), "127.0.0.1", () => probe.close(() => done(true)));
  });
}

async function waitUntilServing(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return false;
}

if (!/^\d+$/.test(port) || !(await portIsFree(port))) {
  fail(`Port ${port} is not usable (in use by another program?). Choose another: PORT=8788 npm start`);
}
if (!existsSync(bin("wrangler")) || !existsSync(bin("react-router")) || !existsSync(bin("tsx"))) {
  fail("Dependencies are missing: run `npm install` first.");
}
console.log(`Stride: local state in ${state ?? join(root, ".wrangler/state")}`);

step("Local variables");
ensureDevVars();

// -c wrangler.jsonc: after a build Wrangler would otherwise follow .wrangler/deploy to the built config.
// CI=true and no stdin: Wrangler applies without asking.
await run("Database migrations", "wrangler", ["d1", "migrations", "apply", "DB", "--local", "-c", "wrangler.jsonc", ...persistArgs], {
  CI: "true",
});
await run("Demo data", "tsx", ["scripts/seed.ts"]);
await run("Build", "react-router", ["build"]);

// Serve a private copy of the build: a later build (npm run build, another npm start) empties build/, and the
// running server's file watcher would crash on it. Given the copied config, Wrangler would keep its state beside
// it, hence the explicit --persist-to. 127.0.0.1: `localhost` in curl and browsers falls back to it even where
// localhost resolves to ::1 first.
step(`Serving on port ${port}`);
const served = join(root, ".wrangler", "serve", port);
rmSync(served, { recursive: true, force: true });
cpSync(join(root, "build"), served, { recursive: true });
const persistTo = state ?? join(root, ".wrangler", "state");
let command;
if (server === "miniflare") {
  command = [bin("tsx"), [join(root, "scripts", "serve-build.ts"), served, persistTo, port]];
} else {
  // MAIL_MODE=keep over wrangler.jsonc's "send" (as serve-build.ts does; scripts/lib/local-state.ts LOCAL_VARS).
  const devArgs = ["dev", "-c", join(served, "server", "wrangler.json"), "--persist-to", persistTo, "--var", "MAIL_MODE:keep"];
  // Each server gets its own inspector port (Wrangler's default, 9230, would stop a second server: e2e beside npm start).
  const inspectorPort = String(Number(port) + 10_000);
  command = [bin("wrangler"), [...devArgs, "--port", port, "--ip", "127.0.0.1", "--inspector-port", inspectorPort, "--show-interactive-dev-session=false"]];
}
child = spawn(command[0], command[1], { cwd: root, env: childEnv, stdio: ["ignore", "inherit", "inherit"] });
child.on("error", (error) => fail(`could not start the server (${error.message})`));
child.on("exit", (code, signal) => process.exit(exitCodeOf(code, signal)));

const url = `http://localhost:${port}`;
if (await waitUntilServing(`http://127.0.0.1:${port}/`)) {
  console.log(`
\x1b[1m\x1b[32m  Stride is running at ${url}\x1b[0m

  Demo accounts:
    admin     admin@stride.test     / Admin#12345
    customer  customer@stride.test  / Customer#12345

  Press Ctrl+C to stop. Data is kept for the next start.
`);
} else if (child) {
  console.warn(`\n  ${url} is not answering yet; see the server's output above.`);
}
