// `npm run soak`: proves that `npm start`'s server answers every write. Starts the shop the way `npm start` does (its
// own port and a fresh state folder), then several concurrent clients send mixed writes through the REST API:
// register, login, cart add/set/remove, an order with a bank slip, a review, and an admin's cancellation (which puts
// the stock back, so the demo stock lasts). It prints the count of each status per call, the connection errors and
// the statuses API.md does not name, and exits 1 if there is any of the last two.
//
//   SOAK_WRITES=2400     stop after this many writes (at least 2,000 is the goal it proves)
//   SOAK_SECONDS=300     or after this long, whichever comes first
//   SOAK_CLIENTS=8       concurrent clients
//   SOAK_THINK_MS=6000   each client pauses up to this long (uniformly drawn) after each round, as shoppers do: idle
//                        connections are where wrangler dev's proxy fails (its keep-alive closes after 5 s)
//   SOAK_PORT=8792       the port of the server it starts (state in .wrangler/soak-state, wiped first)
//   STRIDE_SERVER=...    passed on to scripts/start.mjs: compare `wrangler` with the default
//   --base-url=http://localhost:8787   use a shop that is already running instead (localhost only)
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";

import { encodePng } from "./images/png";
import { ROOT, wranglerEnv } from "./lib/local-state";

const MAX_WRITES = Number(process.env.SOAK_WRITES ?? 2400);
const MAX_SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const THINK_MS = Number(process.env.SOAK_THINK_MS ?? 6000);
const THINK_MIN_MS = Number(process.env.SOAK_THINK_MIN_MS ?? 0);
const PORT = Number(process.env.SOAK_PORT ?? 8792);
const STATE_DIR = join(ROOT, ".wrangler", "soak-state");
const ADMIN = { email: "admin@stride.test", password: "Admin#12345" };
/** Every status API.md gives a meaning to; anything else (a 500, a proxy's 503) is a failure of the server. */
const CONTRACT_STATUSES = new Set([200, 201, 204, 304, 400, 401, 403, 404, 409, 413, 415, 429]);

const baseArg = process.argv.find((arg) => arg.startsWith("--base-url="))?.slice("--base-url=".length);
if (baseArg && !["localhost", "127.0.0.1", "[::1]"].includes(new URL(baseArg).hostname)) {
  console.error(`--base-url must be a local address, not ${baseArg}: the soak writes hundreds of accounts and orders.`);
  process.exit(2);
}
const BASE = baseArg ? baseArg.replace(/\/$/, "") : `http://127.0.0.1:${PORT}`;

type Call = "register" | "login" | "cart add" | "cart set" | "cart remove" | "order" | "review" | "cancel order";
const statusCounts = new Map<Call, Map<number, number>>();
const connectionErrors = new Map<string, number>();
const unexpected: string[] = [];
let writes = 0;
let startedAt = Date.now();
let deadline = Infinity;
const budgetLeft = () => writes < MAX_WRITES && Date.now() < deadline;

/** One write: counted by call and status, or as a connection error; the body is read so the connection is reused. */
async function write(call: Call, path: string, init: RequestInit): Promise<{ status: number; body: unknown } | null> {
  writes++;
  try {
    const response = await fetch(BASE + path, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    const byStatus = statusCounts.get(call) ?? new Map<number, number>();
    byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
    statusCounts.set(call, byStatus);
    if (!CONTRACT_STATUSES.has(response.status)) unexpected.push(`${call} ${path}: ${response.status} ${text.slice(0, 120)}`);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's own answer): counted above, nothing to read.
    }
    return { status: response.status, body };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    const code = cause?.code ?? (error as Error).name;
    connectionErrors.set(`${call}: ${code}`, (connectionErrors.get(`${call}: ${code}`) ?? 0) + 1);
    return null;
  }
}

const jsonInit = (method: string, body: unknown, token?: string): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});
const bearer = (method: string, token: string): RequestInit => ({ method, headers: { Authorization: `Bearer ${token}` } });

async function login(email: string, password: string): Promise<string | null> {
  const answer = await write("login", "/api/auth/login", jsonInit("POST", { email, password }));
  const token = (answer?.body as { token?: string } | null)?.token;
  return answer?.status === 200 && token ? token : null;
}

// A small real PNG, as a phone's photo of a slip would be checked: by its bytes.
const SLIP = Buffer.from(encodePng(8, 8, new Uint8Array(8 * 8 * 4).fill(200)));
const runId = Date.now().toString(36);

/** One client: a new customer at a time, who registers, logs in and shops until the budget is spent. */
async function client(index: number, productIds: number[], adminToken: string): Promise<void> {
  for (let customer = 0; budgetLeft(); customer++) {
    const email = `soak-${runId}-${index}-${customer}@stride.test`;
    const password = "Soak#12345";
    await write("register", "/api/auth/register", jsonInit("POST", { name: `Soak ${index}-${customer}`, email, password, address: "1 Galle Road, Colombo 03", phone: "0771234567" }));
    const token = await login(email, password);
    if (!token) continue;
    for (let round = 0; round < 3 && budgetLeft(); round++) {
      const productId = productIds[(index * 7 + customer * 3 + round) % productIds.length]!;
      await write("cart add", `/api/cart/add?productId=${productId}&quantity=1`, bearer("POST", token));
      await write("cart set", `/api/cart/set?productId=${productId}&quantity=2`, bearer("PUT", token));
      await write("cart remove", `/api/cart/remove?productId=${productId}`, bearer("DELETE", token));
      await write("cart add", `/api/cart/add?productId=${productId}&quantity=1`, bearer("POST", token));
      const form = new FormData();
      form.set(
        "order",
        JSON.stringify({ customerName: `Soak ${index}`, customerEmail: email, customerPhone: "0771234567", shippingAddress: "1 Galle Road, Colombo 03", orderItems: [{ productId, quantity: 1 }] }),
      );
      form.set("bankSlip", new Blob([SLIP], { type: "image/png" }), "slip.png");
      const order = await write("order", "/api/orders", { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
      await write("review", "/api/reviews", jsonInit("POST", { productId, rating: 1 + (round % 5), comment: `Soak review ${round}` }, token));
      const orderId = (order?.body as { id?: number } | null)?.id;
      if (order?.status === 201 && orderId) await write("cancel order", `/api/orders/admin/${orderId}/status?status=CANCELLED`, bearer("PUT", adminToken));
      await new Promise((resolve) => setTimeout(resolve, THINK_MIN_MS + Math.random() * (THINK_MS - THINK_MIN_MS)));
    }
  }
}

function startServer(): ChildProcess {
  rmSync(STATE_DIR, { recursive: true, force: true });
  return spawn(process.execPath, [join(ROOT, "scripts", "start.mjs")], {
    cwd: ROOT,
    env: wranglerEnv({ PORT: String(PORT), STRIDE_STATE: STATE_DIR, WRANGLER_LOG: "warn" }),
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
}

async function waitUntilServing(server: ChildProcess | null): Promise<void> {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if (server && server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    try {
      if ((await fetch(`${BASE}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${BASE} did not answer within 3 minutes`);
}

function report(): boolean {
  const seconds = (Date.now() - startedAt) / 1000;
  const statuses = [...new Set([...statusCounts.values()].flatMap((byStatus) => [...byStatus.keys()]))].sort((a, b) => a - b);
  const rows = [...statusCounts.entries()].map(([call, byStatus]) => [call, ...statuses.map((status) => String(byStatus.get(status) ?? 0))]);
  const answered = [...statusCounts.values()].reduce((sum, byStatus) => sum + [...byStatus.values()].reduce((a, b) => a + b, 0), 0);
  const errors = [...connectionErrors.values()].reduce((a, b) => a + b, 0);
  console.log(`\nSoak against ${BASE}: ${writes} writes from ${CLIENTS} clients in ${seconds.toFixed(1)} s (${(writes / seconds).toFixed(0)}/s)\n`);
  console.log(`| call | ${statuses.join(" | ")} |`);
  console.log(`|---|${statuses.map(() => "--:").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  console.log(`\nanswered: ${answered}; connection errors: ${errors}; statuses API.md does not name: ${unexpected.length}`);
  for (const [what, count] of connectionErrors) console.log(`  connection error ${what}: ${count}`);
  for (const line of unexpected.slice(0, 20)) console.log(`  ${line}`);
  return errors === 0 && unexpected.length === 0;
}

const server = baseArg ? null : startServer();
const stopServer = () => {
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
};
process.once("SIGINT", () => {
  stopServer();
  process.exit(130);
});

let passed = false;
try {
  await waitUntilServing(server);
  const adminToken = await login(ADMIN.email, ADMIN.password);
  if (!adminToken) throw new Error(`the demo admin ${ADMIN.email} cannot log in`);
  const products = (await (await fetch(`${BASE}/api/products`)).json()) as { id: number; stockQuantity: number; productAvailable: boolean }[];
  const productIds = products.filter((p) => p.productAvailable && p.stockQuantity > 2).map((p) => p.id);
  if (!productIds.length) throw new Error("no product in stock to order");
  writes = 0; // the admin's login above was setup, not soak
  statusCounts.clear();
  startedAt = Date.now();
  deadline = startedAt + MAX_SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index, productIds, adminToken)));
  passed = report();
} finally {
  stopServer();
}
process.exit(passed ? 0 : 1);
