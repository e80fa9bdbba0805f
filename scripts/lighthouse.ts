// `npm run lighthouse`: Lighthouse scores of the built shop, as a phone sees it.
//
// Starts its own shop with scripts/start.mjs (migrations, demo data, build, the built Worker served as npm start does) on
// a free port with its own state folder, runs the `lighthouse` package in Debian's Chromium with Lighthouse's default
// mobile settings (Moto G Power screen, simulated slow 4G and 4x CPU slowdown) on /, a product page, /cart and /login,
// prints the four category scores of each page and writes them to bench/lighthouse.json. Then it stops the shop.
//
//   PORT=<port>                    serve on this port (default: the first free one from 8790)
//   STRIDE_STATE=<dir>             the shop's local D1/R2 state (default .wrangler/lighthouse-state, kept between runs)
//   CHROME_PATH=<path>             the browser (default /usr/bin/chromium)
//   --runs=<n>                     audit each page n times and keep the run with the median Performance score (default 3:
//                                  the simulated throttling still starts from a real page load, which a busy machine slows)
//   --base-url=<url>               audit a shop that is already running instead of starting one
//   --pages=home,product,cart,login  audit only some of the pages (default all four; then bench/lighthouse.json is left as is)
//   --reports=<dir>                also write each page's full Lighthouse report there (HTML and JSON)
//
// The targets (Performance >= 95, the others 100) are reported, not enforced: the exit code is 0 whatever the scores,
// and non-zero only if the shop or Lighthouse could not run.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";
// STACK.md's flags for Debian's Chromium on these offline machines.
const CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const TARGETS = { performance: 95, accessibility: 100, bestPractices: 100, seo: 100 } as const;
const OUTPUT = join(root, "bench", "lighthouse.json");

type Category = (typeof CATEGORIES)[number];
type ScoreKey = keyof typeof TARGETS;
const KEY_OF: Record<Category, ScoreKey> = { performance: "performance", accessibility: "accessibility", "best-practices": "bestPractices", seo: "seo" };

interface PageResult {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** The Core Web Vitals and friends behind the Performance score (ms, CLS unitless). */
  metrics: Record<string, number | null>;
  /** What a score below 100 is made of: the failed audits of each category, and for Performance the metrics below 0.9
   *  and the opportunities Lighthouse estimates would save time. */
  failing: { category: Category; id: string; title: string; score: number | null; displayValue?: string }[];
  runs: number[];
}

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer()
      .once("error", () => done(false))
      .listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}

/** A port for the shop from 8790 up (under STRIDE_SERVER=wrangler, start.mjs also gives its inspector the port 10000 above). */
async function freePort(): Promise<number> {
  for (let port = 8790; port < 8890; port++) {
    if ((await portIsFree(port)) && (await portIsFree(port + 10_000))) return port;
  }
  throw new Error("no free port between 8790 and 8889: set PORT");
}

// ---------------------------------------------------------------------------------------------------------------------
// The shop

/** The last lines start.mjs printed, shown if it fails. */
const serverLog: string[] = [];
let server: ChildProcess | undefined;

async function startShop(port: number): Promise<string> {
  const state = process.env.STRIDE_STATE || ".wrangler/lighthouse-state";
  console.log(`Starting the shop on port ${port} (state in ${state}): migrations, demo data, build, serve...`);
  server = spawn(process.execPath, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: String(port), STRIDE_STATE: state, WRANGLER_LOG: process.env.WRANGLER_LOG ?? "warn", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    serverLog.push(...chunk.toString().split("\n").filter(Boolean));
    serverLog.splice(0, Math.max(0, serverLog.length - 60));
  };
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  const exited = new Promise<never>((_, fail) => server!.once("exit", (code) => fail(new Error(`the shop stopped (exit ${code}) before it answered`))));
  exited.catch(() => {}); // only awaited in the race below

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 240_000;
  const ready = (async () => {
    while (Date.now() < deadline) {
      try {
        const response = await fetch(`${base}/`, { signal: AbortSignal.timeout(3_000) });
        if (response.ok) return base;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error("the shop did not answer within 4 minutes");
  })();
  return Promise.race([ready, exited]);
}

async function stopShop(): Promise<void> {
  const child = server;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((done) => child.once("exit", done));
  child.kill("SIGINT"); // start.mjs forwards it to the server
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await gone;
  clearTimeout(timer);
}

/** A product of the demo catalogue that is for sale, so its page shows Add to Cart as a shopper would see it. */
async function inStockProductPath(base: string): Promise<string> {
  const response = await fetch(`${base}/api/products?page=1&pageSize=50`);
  if (!response.ok) throw new Error(`GET /api/products answered ${response.status}`);
  const products = (await response.json()) as { id: number; productAvailable: boolean; stockQuantity: number }[];
  const product = products.find((candidate) => candidate.productAvailable && candidate.stockQuantity > 0);
  if (!product) throw new Error("no product in stock in the catalogue");
  return `/product/${product.id}`;
}

// ---------------------------------------------------------------------------------------------------------------------
// Lighthouse

const METRICS = {
  FCP: "first-contentful-paint",
  LCP: "largest-contentful-paint",
  TBT: "total-blocking-time",
  CLS: "cumulative-layout-shift",
  SI: "speed-index",
} as const;

async function audit(url: string, port: number, reports?: { dir: string; name: string }) {
  const result = await lighthouse(url, { port, output: reports ? ["html", "json"] : "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (reports) {
    mkdirSync(reports.dir, { recursive: true });
    const [html, json] = result.report as string[];
    writeFileSync(join(reports.dir, `${reports.name}.html`), html);
    writeFileSync(join(reports.dir, `${reports.name}.json`), json);
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = {} as Record<ScoreKey, number>;
  const failing: PageResult["failing"] = [];
  for (const category of CATEGORIES) {
    const entry = lhr.categories[category];
    scores[KEY_OF[category]] = Math.round((entry?.score ?? 0) * 100);
    for (const ref of entry?.auditRefs ?? []) {
      const result = lhr.audits[ref.id];
      if (!result || result.score === null || result.score >= 1) continue;
      if (category === "performance") {
        const saves = Object.values(result.metricSavings ?? {}).some((ms) => (ms ?? 0) > 0);
        if (ref.weight > 0 ? result.score >= 0.9 : !saves) continue; // a good metric, or advice that saves nothing
      } else if (ref.weight === 0) continue; // informative only
      failing.push({ category, id: ref.id, title: result.title, score: result.score, ...(result.displayValue ? { displayValue: result.displayValue } : {}) });
    }
  }
  const metrics = Object.fromEntries(Object.entries(METRICS).map(([name, id]) => [name, lhr.audits[id]?.numericValue ?? null]));
  return { scores, metrics, failing, version: lhr.lighthouseVersion, userAgent: lhr.environment.hostUserAgent };
}

// ---------------------------------------------------------------------------------------------------------------------

function pad(text: string | number, width: number, right = false) {
  const value = String(text);
  return right ? value.padStart(width) : value.padEnd(width);
}

function printTable(pages: PageResult[]) {
  const mark = (key: ScoreKey, score: number) => `${score}${score >= TARGETS[key] ? " ✓" : " ✗"}`;
  const width = Math.max(4, ...pages.map((page) => page.path.length));
  const header = `${pad("page", width)}  ${pad("Performance", 12, true)}  ${pad("Accessibility", 14, true)}  ${pad("Best Practices", 15, true)}  ${pad("SEO", 6, true)}`;
  console.log(`\n${header}\n${"-".repeat(header.length)}`);
  for (const page of pages) {
    console.log(
      `${pad(page.path, width)}  ${pad(mark("performance", page.performance), 12, true)}  ${pad(mark("accessibility", page.accessibility), 14, true)}  ${pad(
        mark("bestPractices", page.bestPractices),
        15,
        true,
      )}  ${pad(mark("seo", page.seo), 6, true)}`,
    );
  }
  console.log(`\nTargets: Performance >= ${TARGETS.performance}, Accessibility ${TARGETS.accessibility}, Best Practices ${TARGETS.bestPractices}, SEO ${TARGETS.seo}.`);
  for (const page of pages) {
    const m = page.metrics;
    const ms = (value: number | null) => (value === null ? "?" : `${(value / 1000).toFixed(1)} s`);
    console.log(`\n${page.path}: FCP ${ms(m.FCP)}, LCP ${ms(m.LCP)}, TBT ${m.TBT === null ? "?" : `${Math.round(m.TBT)} ms`}, CLS ${m.CLS === null ? "?" : m.CLS.toFixed(3)}, SI ${ms(m.SI)}${page.runs.length > 1 ? `; Performance over ${page.runs.length} runs: ${page.runs.join(", ")}` : ""}`);
    for (const item of page.failing) console.log(`  - [${item.category}] ${item.title}${item.displayValue ? ` (${item.displayValue})` : ""}${item.score === null ? "" : `, score ${item.score}`}`);
  }
}

async function main() {
  const runs = Math.max(1, Number(option("runs") ?? 3) || 3);
  const external = option("base-url");
  const reportsDir = option("reports");
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  const stopAll = async () => {
    await chrome?.kill();
    await stopShop();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => void stopAll().finally(() => process.exit(130)));
  }

  try {
    const base = external ? external.replace(/\/$/, "") : await startShop(process.env.PORT ? Number(process.env.PORT) : await freePort());
    const wanted = (option("pages") ?? "home,product,cart,login").split(",");
    const paths = [];
    for (const page of wanted) {
      if (page === "home") paths.push("/");
      else if (page === "product") paths.push(await inStockProductPath(base));
      else if (page === "cart" || page === "login") paths.push(`/${page}`);
      else throw new Error(`--pages: unknown page "${page}" (home, product, cart, login)`);
    }
    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
    console.log(`Lighthouse in ${CHROME_PATH}, mobile settings, ${runs} ${runs === 1 ? "run" : "runs"} a page, against ${base}`);
    const loadBefore = loadavg()[0];

    const pages: PageResult[] = [];
    let version = "";
    let userAgent = "";
    for (const path of paths) {
      const results = [];
      for (let run = 0; run < runs; run++) {
        process.stdout.write(`  ${path}${runs > 1 ? ` (run ${run + 1}/${runs})` : ""}... `);
        const name = `${path === "/" ? "home" : path.replace(/^\//, "").replace(/[^\w-]+/g, "-")}${runs > 1 ? `-${run + 1}` : ""}`;
        const result = await audit(base + path, chrome.port, reportsDir ? { dir: resolve(reportsDir), name } : undefined);
        console.log(CATEGORIES.map((category) => result.scores[KEY_OF[category]]).join(" / "));
        results.push(result);
        version = result.version;
        userAgent = result.userAgent;
      }
      // The run with the median Performance score stands for the page (Lighthouse's own advice for noisy machines).
      const sorted = [...results].sort((a, b) => a.scores.performance - b.scores.performance);
      const median = sorted[Math.floor((sorted.length - 1) / 2)];
      pages.push({ path, ...median.scores, metrics: median.metrics, failing: median.failing, runs: results.map((result) => result.scores.performance) });
    }

    printTable(pages);
    const load = Math.max(loadBefore, loadavg()[0]);
    const cores = availableParallelism();
    if (load > cores) {
      console.warn(`\nThe machine was busy (load average ${load.toFixed(1)} on ${cores} cores): Performance scores are lower and noisier than on a quiet machine.`);
    }
    if (option("pages")) {
      console.log(`\n--pages: ${OUTPUT.slice(root.length + 1)} left as it was (it holds full runs only).`);
      return;
    }
    mkdirSync(dirname(OUTPUT), { recursive: true });
    const report = {
      generatedAt: new Date().toISOString(),
      lighthouseVersion: version,
      browser: userAgent,
      formFactor: "mobile",
      throttling: "simulated (Lighthouse defaults: slow 4G, 4x CPU slowdown)",
      runsPerPage: runs,
      loadAverage: Number(load.toFixed(2)),
      cores,
      targets: TARGETS,
      pages,
    };
    writeFileSync(OUTPUT, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nWrote ${OUTPUT.slice(root.length + 1)}`);
  } catch (error) {
    console.error(`\nnpm run lighthouse failed: ${error instanceof Error ? error.message : String(error)}`);
    if (serverLog.length) console.error(`\nThe shop's last lines:\n${serverLog.join("\n")}`);
    process.exitCode = 1;
  } finally {
    await stopAll();
  }
}

await main();
