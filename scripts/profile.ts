// `npm run profile -- <path> [<path>...]`: where the Worker spends its CPU on a page, from workerd's own profiler.
//
// Serves a build (BUILD_DIR, default build/) over a state folder (STATE_DIR, default bench/state: `npm run bench`
// leaves its catalogue there) with scripts/serve-build.ts and the inspector on, records a CPU profile over
// PROFILE_REQUESTS requests of each path (after a warm-up), and prints the functions with the most self time, grouped by
// the package (or app file) they come from. `PROFILE_AS=customer`
// registers and logs in a new customer first, so the pages are rendered for them (never from the edge cache);
// `PROFILE_LOGIN=email:password` logs in to an account the state already has.
//
//   STATE_DIR=.wrangler/state npm run profile -- / "/?category=Gents&size=EU+42"
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { ROOT, servableCopy } from "./lib/local-state";

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error("usage: npm run profile -- <path> [<path>...]");
  process.exit(2);
}
// Served from a private copy, with a JWT_SECRET of its own where the build has none (PROFILE_AS and PROFILE_LOGIN log in).
const BUILD_DIR = servableCopy(resolve(process.env.BUILD_DIR ?? join(ROOT, "build")), join(tmpdir(), `stride-profile-build-${process.pid}`));
const STATE_DIR = resolve(process.env.STATE_DIR ?? join(ROOT, "bench", "state"));
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 200);
const PORT = Number(process.env.PROFILE_PORT ?? 8795);
const INSPECTOR_PORT = PORT + 1;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const server = spawn(join(ROOT, "node_modules", ".bin", "tsx"), [join(ROOT, "scripts", "serve-build.ts"), BUILD_DIR, STATE_DIR, String(PORT)], {
  env: { ...process.env, SERVE_INSPECTOR_PORT: String(INSPECTOR_PORT), WRANGLER_LOG: "warn" },
  stdio: ["ignore", "pipe", "inherit"],
  detached: true,
});
const stop = () => {
  try {
    process.kill(-server.pid!, "SIGTERM");
  } catch {
    // gone
  }
  rmSync(BUILD_DIR, { recursive: true, force: true });
};
process.on("exit", stop);
// Ctrl-C ends the run through "exit" too, so the server stops and the build's copy goes.
process.once("SIGINT", () => process.exit(130));
await new Promise<void>((ready, fail) => {
  server.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("Serving") && ready());
  server.once("exit", (code) => fail(new Error(`the server exited (${code})`)));
});
const origin = `http://127.0.0.1:${PORT}`;

/**
 * The session cookie of the account the pages are rendered for: PROFILE_LOGIN=email:password logs in to an existing
 * account (an admin of the state, say); PROFILE_AS=customer registers a fresh customer first, as the bench does.
 */
async function sessionCookie(): Promise<string | undefined> {
  const json = { "Content-Type": "application/json" };
  let account: { email: string; password: string };
  if (process.env.PROFILE_LOGIN) {
    const [email, ...password] = process.env.PROFILE_LOGIN.split(":");
    account = { email, password: password.join(":") };
  } else if (process.env.PROFILE_AS === "customer") {
    account = { email: `profile-${Date.now()}@stride.test`, password: "Profile#12345" };
    const profile = { ...account, name: "Profile Shopper", address: "12 Galle Road, Colombo 03", phone: "0771234567" };
    const registered = await fetch(`${origin}/api/auth/register`, { method: "POST", headers: json, body: JSON.stringify(profile) });
    if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  } else if (process.env.PROFILE_AS) {
    throw new Error("PROFILE_AS can only be customer (PROFILE_LOGIN=email:password for another account)");
  } else {
    return undefined;
  }
  const login = await fetch(`${origin}/api/auth/login`, { method: "POST", headers: json, body: JSON.stringify(account) });
  const { token } = (await login.json()) as { token?: string };
  if (!token) throw new Error(`login: ${login.status}`);
  return `stride_session=${token}`;
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspector() {
  const socket = new WebSocket(`ws://127.0.0.1:${INSPECTOR_PORT}/core:user:${process.env.PROFILE_WORKER ?? "stride"}`);
  await new Promise((open, fail) => {
    socket.addEventListener("open", open, { once: true });
    socket.addEventListener("error", fail, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    send<T>(method: string, params: object = {}): Promise<T> {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((done) => pending.set(id, done as (result: unknown) => void));
    },
    close: () => socket.close(),
  };
}

/** The package a frame's code comes from, or the app's source file (the build keeps module names in its chunks' names). */
function sourceOf(url: string): string {
  if (!url) return "(runtime)";
  const name = url.split("/").pop() ?? url;
  return name.replace(/-[\w-]{8}\.js$/, ".js");
}

const cookie = await sessionCookie();
// Asked for uncompressed, as the bench's autocannon asks: Miniflare's entry worker gzips a response for a client that
// accepts it, as Cloudflare's front line does outside the Worker, and that would count here as the Worker's CPU.
const headers: Record<string, string> = { "Accept-Encoding": "identity", ...(cookie ? { Cookie: cookie } : {}) };
const client = await inspector();
await client.send("Profiler.enable");
await client.send("Profiler.setSamplingInterval", { interval: 100 });

/** CPU time (ms) used so far by the server's workerd processes (Linux /proc: utime + stime of its process group). */
function serverCpuMs(): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === server.pid && stat.includes("(workerd)")) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

async function load(path: string): Promise<{ wallMs: number; cpuMs: number; bytes: number }> {
  const started = performance.now();
  const cpuBefore = serverCpuMs();
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const response = await fetch(origin + path, { headers });
    bytes = (await response.arrayBuffer()).byteLength;
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  }
  return { wallMs: (performance.now() - started) / REQUESTS, cpuMs: (serverCpuMs() - cpuBefore) / REQUESTS, bytes };
}

for (const path of paths) {
  for (let i = 0; i < 30; i++) await (await fetch(origin + path, { headers })).arrayBuffer();
  // Unprofiled first: the profiler's sampling slows the Worker, so these are the figures to compare between changes.
  const plain = await load(path);
  await client.send("Profiler.start");
  await load(path);
  const { profile } = await client.send<{ profile: CpuProfile }>("Profiler.stop");
  // PROFILE_OUT=dir keeps each path's profile, to open in Chrome's DevTools (Performance, "Load profile").
  if (process.env.PROFILE_OUT) writeFileSync(join(process.env.PROFILE_OUT, `${path.replace(/\W+/g, "_") || "root"}.cpuprofile`), JSON.stringify(profile));

  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  let busyMs = 0;
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = byNode.get(id)!.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") continue;
    busyMs += ms;
    const key = `${functionName || "(anonymous)"}  ${sourceOf(url)}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    byOrigin.set(sourceOf(url), (byOrigin.get(sourceOf(url)) ?? 0) + ms);
  }
  // Total time: each sample counts once for every function on its stack (a recursive one once).
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const totalByFunction = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { functionName, url, lineNumber } = byNode.get(at)!.callFrame;
      if (functionName && functionName !== "(root)" && functionName !== "(idle)" && functionName !== "(program)") onStack.add(`${functionName}  ${sourceOf(url)}:${lineNumber + 1}`);
    }
    for (const key of onStack) totalByFunction.set(key, (totalByFunction.get(key) ?? 0) + ms);
  }
  const perRequest = (ms: number) => (ms / REQUESTS).toFixed(3);
  console.log(
    `\n${path}${cookie ? ` (as ${process.env.PROFILE_LOGIN?.split(":")[0] ?? process.env.PROFILE_AS})` : ""}: ${REQUESTS} requests one at a time, ${plain.bytes} bytes each: ` +
      `${plain.wallMs.toFixed(2)} ms wall and ${plain.cpuMs.toFixed(2)} ms of workerd CPU a request unprofiled; ${perRequest(busyMs)} ms of JavaScript a request while profiled`,
  );
  console.log("  by file:");
  for (const [name, ms] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`    ${perRequest(ms).padStart(7)} ms  ${name}`);
  console.log("  by function (self time):");
  const top = Number(process.env.PROFILE_TOP ?? 30);
  for (const [name, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${perRequest(ms).padStart(7)} ms  ${name}`);
  console.log("  by function (total time, callees included):");
  for (const [name, ms] of [...totalByFunction].sort((a, b) => b[1] - a[1]).slice(0, top * 2)) console.log(`    ${perRequest(ms).padStart(7)} ms  ${name}`);
}
client.close();
stop();
process.exit(0);
