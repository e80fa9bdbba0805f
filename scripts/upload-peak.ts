// How much memory the Worker's process takes on for an admin's biggest picture upload: 8 pictures of 5 MB, sent
// chunked (no Content-Length), to the API (POST /api/product) and to the add form (POST /add_product), then a body one
// picture over the limit, which must get its 413, not a reset. The isolate's own heap cannot be read from outside, so
// this samples the resident memory (VmRSS) of the served workerd every few milliseconds during each upload and prints
// the peak above the level before it. It is a proxy (RSS also holds freed memory the allocator keeps), good for
// comparing two versions of the code on one machine, not an exact figure of the 128 MB isolate limit.
//
//   npx tsx scripts/upload-peak.ts            (builds and serves a fresh shop on UPLOAD_PEAK_PORT, default 8795)
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { encodePng } from "./images/png";

const PORT = Number(process.env.UPLOAD_PEAK_PORT ?? 8795);
const BASE = `http://127.0.0.1:${PORT}`;
const MB = 1024 * 1024;
const ROUNDS = Number(process.env.UPLOAD_PEAK_ROUNDS ?? 3);

/** A real 2x2 PNG padded with random bytes to exactly `size` bytes (a picture's type and size are read from its head). */
function picture(size: number): Buffer {
  const head = Buffer.from(encodePng(2, 2, new Uint8Array(16).fill(200)));
  return Buffer.concat([head, randomBytes(size - head.length)]);
}

function multipart(parts: { name: string; value: string | Buffer; filename?: string }[]) {
  const boundary = `----peak${Date.now().toString(16)}`;
  const chunks = parts.flatMap(({ name, value, filename }) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: image/png` : ""}\r\n\r\n`),
    Buffer.isBuffer(value) ? value : Buffer.from(value),
    Buffer.from("\r\n"),
  ]);
  return { body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs chunked (Transfer-Encoding: chunked, no Content-Length) in 64 KB writes; the status, or the socket's error. */
function postChunked(path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${BASE}${path}`, { method: "POST", headers: { ...headers, "Transfer-Encoding": "chunked" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    const write = (offset: number): void => {
      if (offset >= body.length) return void req.end();
      const more = req.write(body.subarray(offset, offset + 64 * 1024));
      if (more) write(offset + 64 * 1024);
      else req.once("drain", () => write(offset + 64 * 1024));
    };
    write(0);
  });
}

/** The workerd processes below `root` (Miniflare starts one for the served Worker). */
function workerdPids(root: number): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      names.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const below = (pid: number): boolean => pid === root || (parents.has(pid) && pid !== 1 && below(parents.get(pid)!));
  return [...names].filter(([pid, name]) => name === "workerd" && below(pid)).map(([pid]) => pid);
}

function rssKb(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    try {
      return sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      return sum;
    }
  }, 0);
}

/** Runs `send` while sampling RSS every 5 ms: the answer and the peak above the level just before. */
async function measure<T>(pids: number[], send: () => Promise<T>): Promise<{ answer: T; baseMb: number; peakMb: number }> {
  await new Promise((r) => setTimeout(r, 500));
  const base = rssKb(pids);
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, rssKb(pids))), 5);
  const answer = await send();
  clearInterval(timer);
  peak = Math.max(peak, rssKb(pids));
  return { answer, baseMb: base / 1024, peakMb: (peak - base) / 1024 };
}

const state = mkdtempSync(join(tmpdir(), "stride-upload-peak-"));
let server: ChildProcess | undefined;
const stop = async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server!.once("exit", r));
  server.kill("SIGTERM");
  await exited;
};
process.on("exit", () => {
  if (server?.exitCode === null) server.kill("SIGTERM");
  rmSync(state, { recursive: true, force: true });
});

async function serving(): Promise<void> {
  for (let waited = 0; ; waited += 300) {
    if (waited > 240_000 || server?.exitCode !== null) throw new Error("the shop did not start");
    if (await fetch(`${BASE}/healthz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Serves the build start.mjs copied to .wrangler/serve/<port>, on the seeded state: a fresh workerd each time. */
async function freshServer(): Promise<number[]> {
  server = spawn(process.execPath, ["--import", "tsx", "scripts/serve-build.ts", `.wrangler/serve/${PORT}`, state, String(PORT)], {
    env: { ...process.env, WRANGLER_LOG: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await serving();
  const pids = workerdPids(server.pid!);
  if (!pids.length) throw new Error("no workerd process found below the server");
  return pids;
}

const product = (name: string) => JSON.stringify({ name, brand: "Peak", description: "Upload peak", price: 1000, category: "Gents", stockQuantity: 1, releaseDate: "2026-01-01", productAvailable: true });
const pictures = (count: number) => Array.from({ length: count }, (_, i) => ({ name: "imageFiles", value: picture(5 * MB), filename: `p${i}.png` }));
const formFields = (name: string) =>
  Object.entries({ name, brand: "Peak", description: "Upload peak", price: "1000", category: "Gents", "sizes.0.label": "One size", "sizes.0.stock": "1", releaseDate: "2026-01-01", productAvailable: "on" }).map(([field, value]) => ({ name: field, value }));

try {
  // Migrations, demo data (the admin) and the build, once.
  server = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, PORT: String(PORT), STRIDE_STATE: state, STRIDE_SERVER: "miniflare", WRANGLER_LOG: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await serving();
  await stop();

  const rows: string[] = [];
  const run = async (label: string, path: string, parts: Parameters<typeof multipart>[0]) => {
    const pids = await freshServer();
    const login = await fetch(`${BASE}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "admin@stride.test", password: "Admin#12345" }) });
    const { token } = (await login.json()) as { token: string };
    const auth: Record<string, string> = path.startsWith("/api") ? { Authorization: `Bearer ${token}` } : { Cookie: `stride_session=${token}` };
    // Warm up: the first requests compile the Worker's modules and open D1 and R2.
    const warm = multipart([{ name: "product", value: product("Warm") }, ...pictures(1)]);
    await postChunked("/api/product", { Authorization: `Bearer ${token}`, "Content-Type": warm.contentType }, warm.body);
    await fetch(`${BASE}/add_product`, { headers: { Cookie: `stride_session=${token}` } });
    const { body, contentType } = multipart(parts);
    const { answer, baseMb, peakMb } = await measure(pids, () => postChunked(path, { ...auth, "Content-Type": contentType }, body));
    const status = "status" in answer ? String(answer.status) : answer.error;
    rows.push(`| ${label} | ${(body.length / MB).toFixed(1)} MB | ${status} | ${baseMb.toFixed(0)} MB | +${peakMb.toFixed(0)} MB |`);
    console.log(rows.at(-1));
    await stop();
  };
  for (let round = 1; round <= ROUNDS; round++) {
    await run(`POST /api/product, 8 × 5 MB`, "/api/product", [{ name: "product", value: product(`Peak ${round}`) }, ...pictures(8)]);
    await run(`POST /add_product, 8 × 5 MB`, "/add_product", [...formFields(`Peak form ${round}`), ...pictures(8)]);
  }
  await run("POST /api/product, 9 × 5 MB (over the limit)", "/api/product", [{ name: "product", value: product("Too many") }, ...pictures(9)]);
  console.log(`\n| upload (chunked), each on a fresh workerd | body | status | workerd RSS before | peak above it |\n|---|--:|--:|--:|--:|\n${rows.join("\n")}`);
} finally {
  await stop();
}
