// `npm run bench`: how fast the built Worker answers with a large catalogue, measured against two floors.
//
//   build -> fresh local D1/R2 in bench/state/ (never the demo data) -> migrations -> 10,000 products (and the back
//   office's 50,000 customers and 100,000 orders, seeded once with the first catalogue size) -> serve the
//   build (as `npm start` does, or with `wrangler dev`: BENCH_SERVER) -> load from a second process
//   (autocannon) -> 100,000 products -> again -> page weight -> a table on the console and bench/results.json.
//
// Every figure is also given as a ratio to the database floor, /healthz/db (one indexed D1 query for 24 rows, plain
// JSON), measured on the same server just before each route, so runs on different machines (and a machine whose speed
// drifts during the run) can be compared by their ratios.
//
//   BENCH_SIZES=10000,100000   catalogue sizes, in increasing order (each adds rows to the previous one)
//   BENCH_DURATION=8           seconds of measured load per route (after BENCH_WARMUP seconds of unmeasured load)
//   BENCH_WARMUP=2
//   BENCH_SERVER_WARMUP=3      seconds of unmeasured load on every route once the server is up, before any measurement
//   BENCH_CONNECTIONS=10       concurrent connections
//   BENCH_PORT=8790            first port tried for the server
//   BENCH_ONLY=admin           measure only the routes whose name contains this text (case-insensitive; the floors
//                              are always measured), e.g. BENCH_ONLY=admin for the back office's routes alone
//   BENCH_SERVER=miniflare     how the build is served: `miniflare` (scripts/serve-build.ts, as `npm start` serves
//                              it: the runtime without wrangler dev's proxy Worker and inspector) or `wrangler`
//                              (`wrangler dev`, whose proxy and inspector cost more CPU a request than the db
//                              floor's Worker)
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

import { DEMO_PRODUCTS } from "./demo-catalogue";
import { SEARCH_INDEX_COMPACTION_STEPS, SEARCH_INDEXES, searchIndexCompactionStep, type SearchIndex } from "../app/lib/search-index";
import { SEARCH_WORDS_REBUILD } from "../app/lib/spelling";
import { hashPassword } from "../app/services/password.server";
import { insertProducts, insertSizes } from "./lib/bench-catalogue";
import { backOfficeStatements } from "./lib/bench-orders";
import { drawProduct } from "./images/product-art";
import { CONFIG_PATH, localVarArgs, miniflarePersistRoot, ROOT, servableCopy, WRANGLER_BIN, wranglerEnv } from "./lib/local-state";

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

// ------------------------------------------------------------------------------------------------ settings

const intEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map((size) => Number(size.trim()));
if (SIZES.some((size, i) => !Number.isInteger(size) || size < 100 || (i > 0 && size <= SIZES[i - 1]))) {
  throw new Error("BENCH_SIZES must be increasing whole numbers of at least 100, e.g. 10000,100000");
}
const DURATION = intEnv("BENCH_DURATION", 8);
const WARMUP = intEnv("BENCH_WARMUP", 2);
const SERVER_WARMUP = intEnv("BENCH_SERVER_WARMUP", 3);
const CONNECTIONS = intEnv("BENCH_CONNECTIONS", 10);
const FIRST_PORT = intEnv("BENCH_PORT", 8790);
const ONLY = process.env.BENCH_ONLY?.trim().toLowerCase() || null;
const SERVERS = {
  wrangler: "wrangler dev on the build (its proxy Worker and inspector in front of the Worker)",
  miniflare: "the built Worker in workerd through Miniflare (scripts/serve-build.ts)",
};
const SERVER_KIND = (process.env.BENCH_SERVER ?? "miniflare") as keyof typeof SERVERS;
if (!Object.hasOwn(SERVERS, SERVER_KIND)) throw new Error(`BENCH_SERVER must be one of: ${Object.keys(SERVERS).join(", ")}`);

/** The issue's targets: a route's requests per second as a share of the db floor's, by catalogue size. */
const RATIO_TARGET = (products: number) => (products >= 100_000 ? 0.5 : 0.6);
/** Issue #15: a page from the edge cache at 0.8 x the constant floor; a page rendered for a logged-in shopper at 0.6 x the db floor. */
const CACHED_TARGET = 0.8;
const RENDERED_TARGET = 0.6;
/** Requests sent one by one after a cached route's load, to read its hit ratio from Cf-Cache-Status. */
const HIT_SAMPLE = 100;
/** Cold misses timed one by one (a page no one asked for yet: a fresh query string). */
const COLD_SAMPLES = 20;
const TAIL_TARGET = 4; // p99 at most 4 x p50
const JS_TARGET_BYTES = 110_000; // 110 KB, gzipped (KB = 1,000 bytes: the stricter reading)
const CSS_TARGET_BYTES = 15_000;
/** Above this share of the CPU used by other programs during a measurement, the bench warns that figures are skewed. */
const BUSY_WARNING = 10;

const BENCH_DIR = join(ROOT, "bench");
const STATE_DIR = join(BENCH_DIR, "state");
const SERVE_DIR = join(STATE_DIR, "build");
const RESULTS_FILE = join(BENCH_DIR, "results.json");
/** CPU accounting reads /proc (Linux); elsewhere those columns stay empty. */
const HAVE_PROC = existsSync("/proc/stat");
/** USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);

const SEARCH_HIT = "runner"; // a product type: ~1 product in 24
const SEARCH_MISS = "suede runner"; // every trigram is in the index, the phrase is in no product
const FILTER_BRAND = "Urban Trek"; // one of the 13 brands of the generated catalogue, in every category
// The back office (issue 16): its customers and orders, and the admin the bench logs in as (a password made per run).
const BACKOFFICE_USERS = 50_000;
const BACKOFFICE_ORDERS = 100_000;
const BENCH_ADMIN = { email: "bench-admin@stride.test", password: crypto.randomUUID() };

// ------------------------------------------------------------------------------------------------ processes

const children = new Set<ChildProcess>();
let stopping = false;

/** Ends a child we started, and its own children (the server -> workerd): each runs in its own process group. */
async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
  // workerd may outlive wrangler by a moment; the group is ours alone.
  signalGroup("SIGKILL");
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the server and the load generator...`);
    await Promise.all([...children].map((child) => stopChild(child, 2_000)));
    process.exit(130);
  });
}

/** Runs a command to completion; its output is kept and shown only if it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = wranglerEnv(), onSpawn?: (child: ChildProcess) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    children.add(child);
    onSpawn?.(child);
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (code === 0) resolve(output);
      else reject(new Error(`${relative(ROOT, command)} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output.slice(-4_000)}`));
    });
  });
}

async function timed<T>(title: string, work: () => Promise<T>): Promise<T> {
  console.log(`▶ ${title}`);
  const started = Date.now();
  const result = await work();
  console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

// ------------------------------------------------------------------------------------------------ data

/** The bindings getPlatformProxy gives us, as far as this script uses them. */
interface BenchEnv {
  DB: {
    prepare(query: string): { first<T>(): Promise<T | null>; run(): Promise<unknown>; bind(...values: unknown[]): { run(): Promise<unknown> } };
    batch(statements: unknown[]): Promise<unknown[]>;
  };
  BUCKET: { put(key: string, value: Uint8Array, options?: { httpMetadata?: { contentType?: string; cacheControl?: string } }): Promise<unknown> };
}

/** Image keys of the pictured products: every product shows one of these (a real PNG in R2). */
const IMAGE_POOL = 8;

async function withPlatform<T>(work: (env: BenchEnv) => Promise<T>): Promise<T> {
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<BenchEnv>({ configPath: CONFIG_PATH, persist: { path: miniflarePersistRoot(STATE_DIR) }, remoteBindings: false });
  try {
    return await work(proxy.env);
  } finally {
    await proxy.dispose();
  }
}

/** Pictures for the first IMAGE_POOL products, stored once; returns their keys. */
async function storeImages(env: BenchEnv): Promise<string[]> {
  const keys: string[] = [];
  for (let id = 1; id <= IMAGE_POOL; id++) {
    const key = `products/${id}/${crypto.randomUUID()}`;
    const png = drawProduct({ ...DEMO_PRODUCTS[(id - 1) % DEMO_PRODUCTS.length].art, seed: id });
    await env.BUCKET.put(key, png, { httpMetadata: { contentType: "image/png", cacheControl: "public, max-age=31536000, immutable" } });
    keys.push(key);
  }
  return keys;
}

/** Grows the catalogue to `to` products (ids from+1..to), 10,000 rows a statement, all in one atomic batch. */
async function seed(from: number, to: number, imageKeys: string[] | null): Promise<string[]> {
  return withPlatform(async (env) => {
    const keys = imageKeys ?? (await storeImages(env));
    const statements = [];
    for (let start = from + 1; start <= to; start += 10_000) {
      statements.push(env.DB.prepare(insertProducts(start, Math.min(to, start + 9_999), keys)));
      statements.push(env.DB.prepare(insertSizes(start, Math.min(to, start + 9_999))));
    }
    // Seeded while no server runs: no cached page to purge (migrations/0010).
    statements.push(env.DB.prepare("DELETE FROM catalogue_changes"));
    await env.DB.batch(statements);
    // The search indexes as the shop's nightly cron keeps them (workers/app.ts), not as a bulk load leaves them.
    const compact = async (indexes: readonly SearchIndex[]) => {
      for (const index of indexes) for (let step = 0; step < SEARCH_INDEX_COMPACTION_STEPS; step++) await env.DB.prepare(searchIndexCompactionStep(index)).run();
    };
    await compact(["products_fts"]);
    // The spelling correction's words, as the same cron makes them again.
    await env.DB.batch([env.DB.prepare("DELETE FROM search_words"), env.DB.prepare(SEARCH_WORDS_REBUILD)]);
    if (from === 0) {
      await seedBackOffice(env, to);
      await compact(SEARCH_INDEXES.filter((index) => index !== "products_fts"));
    }
    const counted = await env.DB.prepare("SELECT (SELECT count(*) FROM products) AS rows, (SELECT product_count FROM catalogue_counts WHERE category = '') AS total").first<{
      rows: number;
      total: number;
    }>();
    if (counted?.rows !== to || counted.total !== to) throw new Error(`Seeding left ${counted?.rows} rows (counted ${counted?.total}), expected ${to}`);
    return keys;
  });
}

/**
 * The back office at the issue's size, once, with the first catalogue: 50,000 customers and 100,000 orders of the
 * products seeded so far (the triggers write each order's first history row and keep order_counts), and an admin.
 */
async function seedBackOffice(env: BenchEnv, products: number): Promise<void> {
  const statements = backOfficeStatements(BACKOFFICE_USERS, BACKOFFICE_ORDERS, products);
  // A batch a few statements long: each inserts 10,000 rows and their index entries.
  for (let start = 0; start < statements.length; start += 6) await env.DB.batch(statements.slice(start, start + 6).map((sql) => env.DB.prepare(sql)));
  const hash = await hashPassword(BENCH_ADMIN.password);
  await env.DB.prepare("INSERT INTO users (name, email, password_hash, role) VALUES ('Bench Admin', ?, ?, 'ROLE_ADMIN')").bind(BENCH_ADMIN.email, hash).run();
  const counted = await env.DB.prepare("SELECT (SELECT order_count FROM order_counts WHERE status = '') AS orders, (SELECT user_count FROM user_counts WHERE role = '') AS users").first<{
    orders: number;
    users: number;
  }>();
  if (counted?.orders !== BACKOFFICE_ORDERS || counted.users !== BACKOFFICE_USERS + 1) {
    throw new Error(`Seeding the back office left ${counted?.orders} orders and ${counted?.users} users`);
  }
}

/** The admin's session cookie on this server (logged in through the API, as a browser's login would set it). */
async function adminCookie(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!response.ok) throw new Error(`The bench admin could not log in: ${response.status} ${await response.text()}`);
  return `stride_session=${((await response.json()) as { token: string }).token}`;
}

// ------------------------------------------------------------------------------------------------ server

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer()
      .once("error", () => done(false))
      .listen(port, "127.0.0.1", () => probe.close(() => done(true)));
  });
}

async function freePort(): Promise<number> {
  for (let port = FIRST_PORT; port < FIRST_PORT + 50; port++) if (await portIsFree(port)) return port;
  throw new Error(`No free port in ${FIRST_PORT}..${FIRST_PORT + 49}`);
}

interface Server {
  origin: string;
  child: ChildProcess;
  log: string;
}

/** The command serving the private copy of the build with the bench state on `port` (BENCH_SERVER). */
function serverCommand(port: number): [string, string[]] {
  if (SERVER_KIND === "miniflare") return [bin("tsx"), [join(ROOT, "scripts", "serve-build.ts"), SERVE_DIR, STATE_DIR, String(port)]];
  // --log-level warn: no log line for every request, which is work the server would do during the measurement.
  const args = ["dev", "-c", join(SERVE_DIR, "server", "wrangler.json"), "--persist-to", STATE_DIR, "--port", String(port), "--ip", "127.0.0.1", ...localVarArgs()];
  return [WRANGLER_BIN, [...args, "--show-interactive-dev-session=false", "--log-level", "warn"]];
}

/** Serves the private copy of the build with the bench state; resolves once /healthz answers. */
async function startServer(products: number): Promise<Server> {
  const port = await freePort();
  const log = join(STATE_DIR, `${SERVER_KIND}-${products}.log`);
  const out = createWriteStream(log);
  const [command, args] = serverCommand(port);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: wranglerEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.add(child);
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  child.on("exit", () => children.delete(child));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return { origin, child, log };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stopChild(child);
  throw new Error(`The server (${SERVER_KIND}) did not start; its log (${relative(ROOT, log)}):\n${readFileSync(log, "utf8").slice(-4_000)}`);
}

// ------------------------------------------------------------------------------------------------ load

interface Target {
  name: string;
  path: string;
  headers?: Record<string, string>;
  status: number;
  /** Served from the edge cache: compared with the constant floor (/healthz), not the db floor. */
  cached?: boolean;
  /** The share of the floor's req/s the route must reach (RATIO_TARGET by catalogue size when absent). */
  target?: number;
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  status: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Share of the machine's CPU used by programs other than the bench, the server and the load generator. */
  otherCpuPercent: number | null;
  /** CPU time of the server's process group (its Node processes and workerd) per request, in ms. */
  serverCpuMsPerRequest: number | null;
}

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number; totalCount: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}

/** CPU time (clock ticks) used by the whole machine, by the server's process group and by all of ours. */
function cpuTicks(serverGroup: number, groups: number[]): { busy: number; server: number; ours: number; at: number } {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  let ours = 0;
  let server = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // rest[2] is the process group, rest[11] and rest[12] user and system time
      const ticks = Number(rest[11]) + Number(rest[12]);
      if (groups.includes(Number(rest[2])) || Number(pid) === process.pid) ours += ticks;
      if (Number(rest[2]) === serverGroup) server += ticks;
    } catch {
      // gone meanwhile
    }
  }
  return { busy: user + nice + system + irq + softirq + (steal || 0), server, ours, at: performance.now() };
}

/** A target's request headers as autocannon's arguments. */
const headerArgs = (target: Target) => Object.entries(target.headers ?? {}).flatMap(([key, value]) => ["-H", `${key}:${value}`]);

/**
 * Load from a second process: the autocannon CLI, warm-up first, then DURATION seconds measured. Meanwhile CPU time is
 * sampled over the measured window: the share used by other programs (a busy machine skews every figure), and the
 * server's CPU time a request (its process group: Node and workerd), which other programs barely change.
 */
async function measure(server: Server, target: Target): Promise<Measurement> {
  const args = ["-c", String(CONNECTIONS), "-d", String(DURATION), "-W", "[", "-c", String(CONNECTIONS), "-d", String(WARMUP), "]", "-j", "-n", ...headerArgs(target)];
  const groups = [server.child.pid!];
  const running = run(bin("autocannon"), [...args, server.origin + target.path], process.env, (child) => groups.push(child.pid!));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let otherCpuPercent: number | null = null;
  let serverTicks: number | null = null;
  let windowSeconds = 1;
  const sampling = (async () => {
    if (!HAVE_PROC) return;
    await sleep((WARMUP + 1) * 1000);
    const start = cpuTicks(server.child.pid!, groups);
    await sleep(Math.max(500, (DURATION - 1.5) * 1000));
    const end = cpuTicks(server.child.pid!, groups);
    windowSeconds = (end.at - start.at) / 1000;
    otherCpuPercent = Math.max(0, Math.round(((end.busy - start.busy - (end.ours - start.ours)) / (windowSeconds * CLOCK_TICKS * os.cpus().length)) * 100));
    serverTicks = end.server - start.server;
  })();
  const output = await running;
  await sampling;
  const result = JSON.parse(output.trim().split("\n").pop()!) as AutocannonResult;
  const serverCpuMsPerRequest =
    serverTicks === null ? null : Math.round(((serverTicks * (1000 / CLOCK_TICKS)) / Math.max(1, result.requests.average * windowSeconds)) * 100) / 100;
  const status = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
  return {
    rps: Math.round(result.requests.average * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.latency.totalCount,
    status,
    errors: result.errors,
    timeouts: result.timeouts,
    otherCpuPercent,
    serverCpuMsPerRequest,
  };
}

/** One request before the load: the route must answer what it should, or its speed means nothing. */
async function check(server: Server, target: Target, expect?: (body: string) => string | null): Promise<void> {
  const response = await fetch(server.origin + target.path, { headers: target.headers });
  const body = await response.text();
  if (response.status !== target.status) throw new Error(`${target.name}: expected ${target.status}, got ${response.status}: ${body.slice(0, 300)}`);
  const problem = expect?.(body);
  if (problem) throw new Error(`${target.name}: ${problem}`);
}

const ratio = (value: number, floor: number) => Math.round((value / floor) * 100) / 100;
const unexpected = (target: Target, m: Measurement) =>
  m.errors + m.timeouts + Object.entries(m.status).reduce((sum, [code, count]) => sum + (Number(code) === target.status ? 0 : count), 0);

interface Floor {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  otherCpuPercent: number | null;
  serverCpuMsPerRequest: number | null;
  meetsTailTarget: boolean;
}

/**
 * ratioToDbFloor: requests per second over those of the db floor measured just before (dbFloorRps).
 * cpuRatioToDbFloor: that floor's server CPU time a request over this one's.
 */
interface Compared extends Floor {
  dbFloorRps: number;
  ratioToDbFloor: number;
  cpuRatioToDbFloor: number | null;
}

interface RouteResult extends Compared {
  name: string;
  path: string;
  /** The floor the route is compared with: the db floor, or the constant floor for pages from the edge cache. */
  floor: "/healthz/db" | "/healthz";
  /** For pages from the edge cache: the share of HIT_SAMPLE requests answered with Cf-Cache-Status HIT. */
  hitRatio: number | null;
  unexpectedResponses: number;
  meetsRatioTarget: boolean;
}

interface Run {
  products: number;
  /** A page nobody asked for yet: what one request costs, median of COLD_SAMPLES, against a hit's. */
  coldMiss: { path: string; medianMs: number; hitMedianMs: number } | null;
  floors: { healthz: Compared; db: Floor & { samples: Measurement[] } };
  routes: RouteResult[];
  seedSeconds: number;
}

/** The share of `count` requests, one after another, that the edge cache answered (Cf-Cache-Status: HIT). */
async function hitRatio(server: Server, target: Target, count = HIT_SAMPLE): Promise<number> {
  let hits = 0;
  for (let i = 0; i < count; i++) {
    const response = await fetch(server.origin + target.path, { headers: target.headers });
    await response.arrayBuffer();
    if (response.headers.get("cf-cache-status") === "HIT") hits++;
  }
  return hits / count;
}

/** Median milliseconds of one request, one at a time, to each path. */
async function medianMs(server: Server, paths: string[]): Promise<number> {
  const times: number[] = [];
  for (const path of paths) {
    const started = performance.now();
    await (await fetch(server.origin + path)).arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] * 10) / 10;
}

/** A customer's session cookie: pages asked for with it are rendered for them, never from the edge cache. */
async function customerSession(server: Server): Promise<string> {
  const email = `bench-${Date.now()}@stride.test`;
  const password = "Bench#12345";
  const body = { name: "Bench Shopper", email, password, address: "12 Galle Road, Colombo 03", phone: "0771234567" };
  const registered = await fetch(`${server.origin}/api/auth/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (registered.status !== 201 && registered.status !== 200) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const login = await fetch(`${server.origin}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) });
  const { token } = (await login.json()) as { token: string };
  if (!token) throw new Error("login: no token");
  return `stride_session=${token}`;
}

async function benchSize(server: Server, products: number, image: { id: number; etag: string }, seedSeconds: number): Promise<Run> {
  const productId = Math.ceil(products / 2);
  const floors: Record<"healthz" | "db", Target> = {
    healthz: { name: "/healthz", path: "/healthz", status: 200 },
    db: { name: "/healthz/db", path: "/healthz/db", status: 200 },
  };
  // Screens asked for by a logged-in customer: rendered every time (the edge cache never holds their pages).
  const loggedIn = { Cookie: await customerSession(server) };
  const rendered = { headers: loggedIn, target: RENDERED_TARGET };
  const routes: Target[] = [
    { name: "/ (logged in)", path: "/", status: 200, ...rendered },
    { name: "/?category=Ladies&page=3 (logged in)", path: "/?category=Ladies&page=3", status: 200, ...rendered },
    { name: "/product/{id} (logged in)", path: `/product/${productId}`, status: 200, ...rendered },
    { name: `/search?keyword=${SEARCH_HIT} (logged in)`, path: `/search?${new URLSearchParams({ keyword: SEARCH_HIT })}`, status: 200, ...rendered },
    { name: "/api/products?page=1&pageSize=24", path: "/api/products?page=1&pageSize=24", status: 200 },
    { name: `/api/products/search (hit: ${SEARCH_HIT})`, path: `/api/products/search?${new URLSearchParams({ keyword: SEARCH_HIT, page: "1", pageSize: "24" })}`, status: 200 },
    { name: `/api/products/search (miss: ${SEARCH_MISS})`, path: `/api/products/search?${new URLSearchParams({ keyword: SEARCH_MISS, page: "1", pageSize: "24" })}`, status: 200 },
    { name: "/api/product/{id}/image (If-None-Match)", path: `/api/product/${image.id}/image`, headers: { "If-None-Match": image.etag }, status: 304 },
    // The filters (issue #14): a brand's page (its own index, counted from catalogue_brands) and a price range (the
    // sort's index walked until the page is full, not counted), on the grid and in the API.
    { name: `/?category=Gents&brand=${FILTER_BRAND} (logged in)`, path: `/?${new URLSearchParams({ category: "Gents", brand: FILTER_BRAND })}`, status: 200, ...rendered },
    { name: "/?category=Gents&minPrice=10000&maxPrice=20000 (logged in)", path: "/?category=Gents&minPrice=10000&maxPrice=20000", status: 200, ...rendered },
    {
      name: `/api/products?brand=${FILTER_BRAND}&minPrice=10000&maxPrice=20000&page=1&pageSize=24`,
      path: `/api/products?${new URLSearchParams({ brand: FILTER_BRAND, minPrice: "10000", maxPrice: "20000", page: "1", pageSize: "24" })}`,
      status: 200,
    },
    // The size filter: the sort's index walked until the page is full, each product looked up in the index of sizes
    // in stock (migrations/0009), not counted. EU 42 is one of the Gents sizes the catalogue seeds.
    { name: "/?category=Gents&size=EU+42 (logged in)", path: "/?category=Gents&size=EU+42", status: 200, ...rendered },
    // The same pages as an anonymous visitor with an empty cart sees them: from the edge cache (issue #15).
    { name: "/ (edge cache)", path: "/", status: 200, cached: true, target: CACHED_TARGET },
    { name: "/?category=Ladies&page=3 (edge cache)", path: "/?category=Ladies&page=3", status: 200, cached: true, target: CACHED_TARGET },
    { name: "/product/{id} (edge cache)", path: `/product/${productId}`, status: 200, cached: true, target: CACHED_TARGET },
    { name: `/search?keyword=${SEARCH_HIT} (edge cache)`, path: `/search?${new URLSearchParams({ keyword: SEARCH_HIT })}`, status: 200, cached: true, target: CACHED_TARGET },
    // A shopper who stays moves between pages in the browser: React Router asks only for the next page's data (a
    // .data request, no HTML), and that is most of what a logged-in shopper costs after the first page.
    { name: "/?category=Ladies&page=3 .data (logged in)", path: "/_root.data?category=Ladies&page=3", status: 200, ...rendered },
    { name: "/product/{id} .data (logged in)", path: `/product/${productId}.data`, status: 200, ...rendered },
  ];
  // The back office (issue 16), as the admin: the newest 20 of 100,000 orders (their ids from orders_created_idx, the
  // total from order_counts), and the first 20 of 50,000 users.
  const admin = { Cookie: await adminCookie(server.origin) };
  const backOffice: Target[] = [
    { name: "/admin/orders (admin, 100,000 orders)", path: "/admin/orders", headers: admin, status: 200 },
    { name: "/admin/users (admin, 50,000 users)", path: "/admin/users", headers: admin, status: 200 },
  ];

  // Every route answers what it should before any load.
  const items = (least: number, most = least) => (body: string) => {
    const count = (JSON.parse(body) as unknown[]).length;
    return count >= least && count <= most ? null : `expected ${least === most ? least : `${least} to ${most}`} products, got ${count}`;
  };
  for (const route of routes.slice(12, 16)) await check(server, route, (body) => (body.includes("/product/") ? null : "no product links"));
  // The navigation data of a page (React Router's turbo-stream), with the shopper's session and the page's products.
  const navigationData = (body: string) => (body.includes("Bench Shopper") && body.includes("/product/") ? null : "not the logged-in shopper's page data");
  await check(server, routes[16], navigationData);
  await check(server, routes[17], navigationData);
  await check(server, floors.healthz, (body) => (body === "ok" ? null : `answered ${body}`));
  await check(server, floors.db, items(24));
  await check(server, routes[0], (body) => (body.includes("/product/") && body.includes("Profile of Bench Shopper") ? null : "no product links, or not logged in"));
  await check(server, routes[1], (body) => (body.includes("Ladies") && body.includes("/product/") ? null : "no Ladies products"));
  await check(server, routes[2], (body) => (body.includes(`/api/product/${productId}/image`) || body.includes("/image?v=") ? null : "no product picture"));
  await check(server, routes[3], (body) => (body.includes("/product/") ? null : "no results"));
  await check(server, routes[4], items(24));
  await check(server, routes[5], items(1, 24));
  await check(server, routes[6], items(0));
  await check(server, routes[7]);
  await check(server, routes[8], (body) => (body.includes(`>${FILTER_BRAND.replace("&", "&amp;")}</p>`) && body.includes("/product/") ? null : `no ${FILTER_BRAND} cards`));
  await check(server, routes[9], (body) => (body.includes("/product/") ? null : "no products in the price range"));
  await check(server, routes[10], items(24));
  await check(server, routes[11], (body) => (body.includes("/product/") && body.includes('<option value="EU 42" selected=""') ? null : "no products in EU 42"));
  await check(server, backOffice[0], (body) => (body.includes("100,000 orders") && (body.match(/data-testid="admin-order"/g) ?? []).length === 20 ? null : "not the first 20 of 100,000 orders"));
  // The bench's customers, its admin and the shoppers it registered to measure the screens logged in.
  const accounts = (body: string) => Number(body.match(/([\d,]+) accounts/)?.[1]?.replaceAll(",", "") ?? 0);
  await check(server, backOffice[1], (body) =>
    accounts(body) > BACKOFFICE_USERS && body.includes('href="?page=2"') ? null : `not the first page of more than ${BACKOFFICE_USERS.toLocaleString("en-US")} users`,
  );
  routes.push(...backOffice);
  // BENCH_ONLY: only the routes named (the floors are always measured, to compare with).
  const chosen = ONLY ? routes.filter((route) => route.name.toLowerCase().includes(ONLY)) : routes;
  if (!chosen.length) throw new Error(`BENCH_ONLY=${ONLY} names none of the routes: ${routes.map((route) => route.name).join(", ")}`);
  routes.splice(0, routes.length, ...chosen);
  // Then load on every route, unmeasured: a fresh isolate keeps getting faster for a minute or so (V8 optimizes the
  // code that runs hot, SQLite caches its pages), and without this the first routes measured paid for it (`/`, measured
  // first, ran 20% slower than it did a minute later). A deployed Worker serves from warm isolates.
  await timed(`Warm up: ${SERVER_WARMUP} s of load on every route`, async () => {
    for (const target of [floors.healthz, floors.db, ...routes]) {
      await run(bin("autocannon"), ["-c", String(CONNECTIONS), "-d", String(SERVER_WARMUP), "-j", "-n", ...headerArgs(target), server.origin + target.path], process.env);
    }
  });

  const floorOf = (m: Measurement): Floor => ({
    rps: m.rps,
    p50: m.p50,
    p99: m.p99,
    requests: m.requests,
    otherCpuPercent: m.otherCpuPercent,
    serverCpuMsPerRequest: m.serverCpuMsPerRequest,
    meetsTailTarget: m.p99 <= TAIL_TARGET * m.p50,
  });
  const progress = (name: string, m: Measurement) =>
    console.log(
      `    ${name.padEnd(44)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  server CPU ${fixed(m.serverCpuMsPerRequest)} ms/req  (other programs: ${fixed(m.otherCpuPercent, 0)}% CPU)`,
    );
  const guard = (target: Target, m: Measurement) => {
    const bad = unexpected(target, m);
    if (bad) console.warn(`    ! ${target.name}: ${bad} responses were not ${target.status}, errors or timeouts: ${JSON.stringify(m.status)}`);
    return bad;
  };

  // The db floor is measured right before every other target, and each target is compared with the floor measured
  // beside it: on a shared machine the speed drifts by a fifth over a few minutes, which a floor taken minutes away
  // would put into the ratios. The floor reported is the mean of all its samples.
  // A page from the edge cache is compared with the constant floor measured right before it instead.
  const dbSamples: Measurement[] = [];
  const beside = async (target: Target) => {
    const floorTarget = target.cached ? floors.healthz : floors.db;
    const floor = await measure(server, floorTarget);
    progress(floorTarget.name, floor);
    guard(floorTarget, floor);
    if (!target.cached) dbSamples.push(floor);
    const m = await measure(server, target);
    progress(target.name, m);
    const hits = target.cached ? await hitRatio(server, target) : null;
    if (hits !== null) console.log(`    ${"".padEnd(44)} hit ratio ${(hits * 100).toFixed(0)}% of ${HIT_SAMPLE} requests`);
    return { target, m, floor, bad: guard(target, m), hits };
  };
  const healthz = await beside(floors.healthz);
  const measured: Array<Awaited<ReturnType<typeof beside>>> = [];
  for (const target of routes) measured.push(await beside(target));

  const meanOf = (values: number[], digits = 1) => Math.round((values.reduce((sum, v) => sum + v, 0) / values.length) * 10 ** digits) / 10 ** digits;
  const cpuSamples = dbSamples.map((m) => m.serverCpuMsPerRequest);
  const db: Floor = {
    rps: meanOf(dbSamples.map((m) => m.rps)),
    p50: meanOf(dbSamples.map((m) => m.p50)),
    p99: meanOf(dbSamples.map((m) => m.p99)),
    requests: dbSamples.reduce((sum, m) => sum + m.requests, 0),
    otherCpuPercent: dbSamples.every((m) => m.otherCpuPercent !== null) ? meanOf(dbSamples.map((m) => m.otherCpuPercent!), 0) : null,
    serverCpuMsPerRequest: cpuSamples.every((v) => v !== null) ? meanOf(cpuSamples as number[], 2) : null,
    meetsTailTarget: false,
  };
  // Judged on the figures the table shows (the means); every sample's own p50 and p99 are in results.json.
  db.meetsTailTarget = db.p99 <= TAIL_TARGET * db.p50;
  const sizeTarget = RATIO_TARGET(products);
  const hitMs = await medianMs(server, Array.from({ length: COLD_SAMPLES }, () => "/"));
  const coldPaths = Array.from({ length: COLD_SAMPLES }, (_, i) => `/?sort=name&cold=${Date.now()}-${i}`);
  const coldMiss = { path: "/?sort=name&cold=<fresh>", medianMs: await medianMs(server, coldPaths), hitMedianMs: hitMs };
  console.log(`    cold miss (a page no one asked for yet) ${coldMiss.medianMs} ms median, a hit ${hitMs} ms (one request at a time)`);
  const compared = (m: Measurement, floor: Measurement): Compared => ({
    ...floorOf(m),
    dbFloorRps: floor.rps,
    ratioToDbFloor: ratio(m.rps, floor.rps),
    cpuRatioToDbFloor: floor.serverCpuMsPerRequest && m.serverCpuMsPerRequest ? ratio(floor.serverCpuMsPerRequest, m.serverCpuMsPerRequest) : null,
  });
  return {
    products,
    coldMiss,
    floors: { healthz: compared(healthz.m, healthz.floor), db: { ...db, samples: dbSamples } },
    routes: measured.map(({ target: route, m, floor, bad, hits }) => ({
      name: route.name,
      path: route.path,
      floor: route.cached ? "/healthz" : "/healthz/db",
      hitRatio: hits,
      ...compared(m, floor),
      unexpectedResponses: bad,
      meetsRatioTarget: bad === 0 && m.rps / floor.rps >= (route.target ?? sizeTarget),
      meetsTailTarget: bad === 0 && m.p99 <= TAIL_TARGET * m.p50,
    })),
    seedSeconds,
  };
}

// ------------------------------------------------------------------------------------------------ page weight

interface Weight {
  jsGzipBytes: number;
  cssGzipBytes: number;
  jsFiles: number;
  cssFiles: number;
  jsBytes: number;
  cssBytes: number;
  htmlGzipBytes: number;
  files: Array<{ path: string; bytes: number; gzipBytes: number }>;
}

const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i"))?.[1];
/** Static imports and re-exports (`import x from "./a.js"`, `import "./a.js"`, `export {x} from "./a.js"`); not import(). */
const STATIC_IMPORT = /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"'\n]+)["']/g;

/** The JavaScript and CSS a page loads before it is interactive: gzip -9 each file, summed. */
async function pageWeight(origin: string, path: string): Promise<Weight> {
  const pageUrl = new URL(path, origin);
  const html = await (await fetch(pageUrl)).text();
  const js = new Set<string>();
  const css = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(tag, "rel")?.toLowerCase().split(/\s+/) ?? [];
    const href = attr(tag, "href");
    if (!href) continue;
    if (rel.includes("modulepreload")) js.add(new URL(href, pageUrl).href);
    if (rel.includes("stylesheet")) css.add(new URL(href, pageUrl).href);
  }
  for (const [, open, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = attr(open, "src");
    if (src) js.add(new URL(src, pageUrl).href);
    else if (/type\s*=\s*["']module["']/i.test(open)) for (const [, spec] of body.matchAll(STATIC_IMPORT)) js.add(new URL(spec, pageUrl).href);
  }
  const gz = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;
  const fetchBytes = async (url: string) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`page weight: ${url} answered ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  };
  // Follow the modules' own static imports: the browser loads those too, modulepreload or not.
  const files: Weight["files"] = [];
  const queue = [...js];
  let jsBytes = 0;
  let jsGzipBytes = 0;
  while (queue.length) {
    const url = queue.shift()!;
    const bytes = await fetchBytes(url);
    files.push({ path: new URL(url).pathname, bytes: bytes.length, gzipBytes: gz(bytes) });
    jsBytes += bytes.length;
    jsGzipBytes += files.at(-1)!.gzipBytes;
    for (const [, spec] of bytes.toString("utf8").matchAll(STATIC_IMPORT)) {
      if (!/^(\.{1,2}\/|\/)/.test(spec)) continue;
      const next = new URL(spec, url).href;
      if (!js.has(next)) {
        js.add(next);
        queue.push(next);
      }
    }
  }
  let cssBytes = 0;
  let cssGzipBytes = 0;
  for (const url of css) {
    const bytes = await fetchBytes(url);
    files.push({ path: new URL(url).pathname, bytes: bytes.length, gzipBytes: gz(bytes) });
    cssBytes += bytes.length;
    cssGzipBytes += files.at(-1)!.gzipBytes;
  }
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { jsGzipBytes, cssGzipBytes, jsFiles: js.size, cssFiles: css.size, jsBytes, cssBytes, htmlGzipBytes: gz(Buffer.from(html)), files };
}

// ------------------------------------------------------------------------------------------------ report

/** A figure for the tables; "-" where it could not be measured. */
const fixed = (value: number | null, digits = 2) => (value === null ? "-" : value.toFixed(digits));
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const mark = (ok: boolean) => (ok ? "yes" : "NO");

/** A route's name, with its hit ratio and the floor it is compared with when that is the constant one. */
const routeLabel = (r: RouteResult, quote = "") =>
  `${quote}${r.name}${quote}` + (r.hitRatio === null ? "" : ` (hits ${(r.hitRatio * 100).toFixed(0)}%, vs ${r.floor})`);

function printRun(run: Run) {
  const target = RATIO_TARGET(run.products);
  const { healthz, db } = run.floors;
  const rows: string[][] = [
    ["route", "req/s", "db floor", "p50 ms", "p99 ms", "x db floor", "p99/p50", `>= ${target}`, `p99 <= ${TAIL_TARGET}x p50`, "CPU ms/req", "x db (CPU)", "other CPU"],
    [
      "/healthz (floor)",
      healthz.rps.toFixed(0),
      healthz.dbFloorRps.toFixed(0),
      String(healthz.p50),
      String(healthz.p99),
      healthz.ratioToDbFloor.toFixed(2),
      (healthz.p99 / healthz.p50).toFixed(1),
      "",
      mark(healthz.meetsTailTarget),
      fixed(healthz.serverCpuMsPerRequest),
      fixed(healthz.cpuRatioToDbFloor),
      `${fixed(healthz.otherCpuPercent, 0)}%`,
    ],
    [
      "/healthz/db (floor)",
      db.rps.toFixed(0),
      "mean",
      String(db.p50),
      String(db.p99),
      "1.00",
      (db.p99 / db.p50).toFixed(1),
      "",
      mark(db.meetsTailTarget),
      fixed(db.serverCpuMsPerRequest),
      "1.00",
      `${fixed(db.otherCpuPercent, 0)}%`,
    ],
    ...run.routes.map((r) => [
      routeLabel(r) + (r.unexpectedResponses ? " (UNEXPECTED RESPONSES)" : ""),
      r.rps.toFixed(0),
      r.dbFloorRps.toFixed(0),
      String(r.p50),
      String(r.p99),
      r.ratioToDbFloor.toFixed(2),
      (r.p99 / r.p50).toFixed(1),
      mark(r.meetsRatioTarget),
      mark(r.meetsTailTarget),
      fixed(r.serverCpuMsPerRequest),
      fixed(r.cpuRatioToDbFloor),
      `${fixed(r.otherCpuPercent, 0)}%`,
    ]),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row: string[]) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ");
  console.log(`\n${run.products.toLocaleString("en-US")} products (${CONNECTIONS} connections, ${DURATION} s a route after ${WARMUP} s warm-up)`);
  console.log(line(rows[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** The tables of docs/performance.md ("Last run"), same figures: one a catalogue size. */
function markdown(runs: Run[]): string {
  return runs
    .map((run) => {
      const row = (name: string, f: Floor, floorBeside: string, ratioToDb: number, cpuRatio: number | null, verdict: string) =>
        `| ${name} | ${f.rps.toFixed(0)} | ${floorBeside} | ${f.p50} | ${f.p99} | ${ratioToDb.toFixed(2)} | ${(f.p99 / f.p50).toFixed(1)} | ${fixed(cpuRatio)} | ${verdict} |`;
      const verdict = (ratioOk: boolean | null, tailOk: boolean) =>
        [ratioOk === null ? null : ratioOk ? "ratio met" : "**ratio missed**", tailOk ? "tail met" : "**tail missed**"].filter(Boolean).join(", ");
      const { healthz, db } = run.floors;
      return [
        `**${run.products.toLocaleString("en-US")} products** (targets: API ≥ ${RATIO_TARGET(run.products)} × the db floor's req/s, pages rendered for a logged-in customer ≥ ${RENDERED_TARGET} ×, pages from the edge cache ≥ ${CACHED_TARGET} × the constant floor's (/healthz, measured just before, in the floor column); p99 ≤ ${TAIL_TARGET} × p50)`,
        ...(run.coldMiss ? ["", `A cold miss (a page no one asked for yet, one request at a time): ${run.coldMiss.medianMs} ms median; a hit: ${run.coldMiss.hitMedianMs} ms.`] : []),
        "",
        "| route | req/s | db floor req/s (measured just before) | p50 ms | p99 ms | × db floor | p99/p50 | × db floor (server CPU) | targets |",
        "|---|--:|--:|--:|--:|--:|--:|--:|---|",
        row("`/healthz` (floor)", healthz, healthz.dbFloorRps.toFixed(0), healthz.ratioToDbFloor, healthz.cpuRatioToDbFloor, verdict(null, healthz.meetsTailTarget)),
        row("`/healthz/db` (floor)", db, "mean of all", 1, 1, verdict(null, db.meetsTailTarget)),
        ...run.routes.map((r) => row(routeLabel(r, "`"), r, r.dbFloorRps.toFixed(0), r.ratioToDbFloor, r.cpuRatioToDbFloor, verdict(r.meetsRatioTarget, r.meetsTailTarget))),
      ].join("\n");
    })
    .join("\n\n");
}

// ------------------------------------------------------------------------------------------------ main

async function main() {
  const started = Date.now();
  const cpus = os.cpus();
  const machine = `${cpus[0]?.model.trim() ?? "unknown CPU"} x${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
  console.log(`Stride bench on ${machine}\n`);

  await timed("Build (react-router build)", () => run(bin("react-router"), ["build"], process.env));
  await timed("Fresh state in bench/state", async () => {
    rmSync(STATE_DIR, { recursive: true, force: true });
    mkdirSync(STATE_DIR, { recursive: true });
    servableCopy(join(ROOT, "build"), SERVE_DIR);
  });
  await timed("Migrations", () =>
    run(WRANGLER_BIN, ["d1", "migrations", "apply", "DB", "--local", "-c", CONFIG_PATH, "--persist-to", STATE_DIR], wranglerEnv({ CI: "true" })),
  );

  const runs: Run[] = [];
  let imageKeys: string[] | null = null;
  let seeded = 0;
  let server: Server | null = null;
  try {
    for (const products of SIZES) {
      const seedStarted = Date.now();
      imageKeys = await timed(`Seed products ${(seeded + 1).toLocaleString("en-US")}..${products.toLocaleString("en-US")}`, () =>
        seed(seeded, products, imageKeys),
      );
      const seedSeconds = Math.round((Date.now() - seedStarted) / 100) / 10;
      seeded = products;
      server = await timed(`Start the server: ${SERVERS[SERVER_KIND]}`, () => startServer(products));
      console.log(`  measuring on ${server.origin} (server log: ${relative(ROOT, server.log)})`);
      const image = { id: 1, etag: `"${imageKeys[0].split("/").pop()}"` };
      const result = await benchSize(server, products, image, seedSeconds);
      runs.push(result);
      printRun(result);
      console.log("");
      if (products !== SIZES.at(-1)) {
        // Stopped while the catalogue grows: the seed writes the same SQLite files the server reads.
        await stopChild(server.child);
        server = null;
      }
    }

    const productId = Math.ceil(SIZES.at(-1)! / 2);
    const [home, product] = await timed("Page weight", () => Promise.all([pageWeight(server!.origin, "/"), pageWeight(server!.origin, `/product/${productId}`)]));
    const pageWeightResult = { home, product };
    const totalSeconds = Math.round((Date.now() - started) / 1000);

    console.log("\nPage weight (gzip -9 of every file the page loads)");
    for (const [name, w] of Object.entries(pageWeightResult)) {
      console.log(
        `  ${name.padEnd(8)} JS ${kb(w.jsGzipBytes)} in ${w.jsFiles} files (target <= ${kb(JS_TARGET_BYTES)}: ${mark(w.jsGzipBytes <= JS_TARGET_BYTES)})   ` +
          `CSS ${kb(w.cssGzipBytes)} in ${w.cssFiles} (target <= ${kb(CSS_TARGET_BYTES)}: ${mark(w.cssGzipBytes <= CSS_TARGET_BYTES)})   HTML ${kb(w.htmlGzipBytes)}`,
      );
      console.log(`           largest: ${w.files.slice(0, 4).map((f) => `${f.path.split("/").pop()} ${kb(f.gzipBytes)}`).join(", ")}`);
    }

    const results = {
      machine,
      date: new Date().toISOString(),
      runs,
      pageWeight: pageWeightResult,
      settings: { server: SERVER_KIND, serverDescription: SERVERS[SERVER_KIND], connections: CONNECTIONS, durationSeconds: DURATION, warmupSeconds: WARMUP, serverWarmupSeconds: SERVER_WARMUP, loadGenerator: "autocannon 9.0.0 (separate process)", searchHit: SEARCH_HIT, searchMiss: SEARCH_MISS },
      targets: {
        ratioToDbFloor: Object.fromEntries(SIZES.map((size) => [size, RATIO_TARGET(size)])),
        p99OverP50Max: TAIL_TARGET,
        jsGzipBytesMax: JS_TARGET_BYTES,
        cssGzipBytesMax: CSS_TARGET_BYTES,
        met: {
          ratio: runs.every((r) => r.routes.every((route) => route.meetsRatioTarget)),
          tail: runs.every((r) => r.floors.healthz.meetsTailTarget && r.floors.db.meetsTailTarget && r.routes.every((route) => route.meetsTailTarget)),
          js: home.jsGzipBytes <= JS_TARGET_BYTES && product.jsGzipBytes <= JS_TARGET_BYTES,
          css: home.cssGzipBytes <= CSS_TARGET_BYTES && product.cssGzipBytes <= CSS_TARGET_BYTES,
        },
      },
      totalSeconds,
    };
    mkdirSync(BENCH_DIR, { recursive: true });
    writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);

    console.log(`\nTables for docs/performance.md ("Last run"):\n\n${markdown(runs)}\n`);
    const misses = runs.flatMap((r) => {
      const size = r.products.toLocaleString("en-US");
      return [
        ...(r.floors.healthz.meetsTailTarget ? [] : [`${size} /healthz (tail)`]),
        ...(r.floors.db.meetsTailTarget ? [] : [`${size} /healthz/db (tail)`]),
        ...r.routes
          .filter((route) => !route.meetsRatioTarget || !route.meetsTailTarget)
          .map((route) => `${size} ${route.name} (${[route.meetsRatioTarget ? "" : "ratio", route.meetsTailTarget ? "" : "tail"].filter(Boolean).join(", ")})`),
      ];
    });
    for (const [page, w] of Object.entries(pageWeightResult)) {
      if (w.jsGzipBytes > JS_TARGET_BYTES) misses.push(`${page} page JS`);
      if (w.cssGzipBytes > CSS_TARGET_BYTES) misses.push(`${page} page CSS`);
    }
    console.log(misses.length ? `Targets missed: ${misses.join("; ")}` : "Every target met.");
    const busiest = Math.max(0, ...runs.flatMap((r) => [r.floors.healthz, ...r.floors.db.samples, ...r.routes].map((m) => m.otherCpuPercent ?? 0)));
    if (busiest > BUSY_WARNING) {
      console.warn(`Other programs used up to ${busiest}% of the CPU during a measurement (see "other CPU"): those figures are skewed; repeat on a quiet machine.`);
    }
    console.log(`Wrote ${relative(ROOT, RESULTS_FILE)} in ${totalSeconds} s (state kept in ${relative(ROOT, STATE_DIR)}/ for inspection).`);
  } finally {
    if (server) await stopChild(server.child);
  }
}

main().catch(async (error: unknown) => {
  console.error(`\nBench failed: ${error instanceof Error ? error.message : String(error)}`);
  await Promise.all([...children].map((child) => stopChild(child, 2_000)));
  process.exit(1);
});
