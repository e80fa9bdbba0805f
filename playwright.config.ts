import { defineConfig } from "@playwright/test";

import { closeIdleSocketsBeforeTheServerDoes } from "./tests/e2e/idle-sockets";

// End-to-end tests drive Debian's Chromium (/usr/bin/chromium); Playwright never downloads a browser here.
//
// By default Playwright starts its own shop on port 8788 with a fresh local D1/R2 state folder
// (.wrangler/e2e-state, wiped first), so tests never touch the state of `npm start` on 8787.
// BASE_URL=http://localhost:8787 npx playwright test  runs against a server that is already up instead.

// The config is loaded in every test worker too, so this reaches every request the tests send (tests/e2e/idle-sockets.ts).
closeIdleSocketsBeforeTheServerDoes();

const PORT = Number(process.env.E2E_PORT ?? 8788);
const STATE_DIR = ".wrangler/e2e-state";
const externalBaseURL = process.env.BASE_URL;
const baseURL = externalBaseURL ?? `http://localhost:${PORT}`;

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  // Rows the tests need written into the server's D1 from outside it, once, before any test (tests/e2e/global-setup.ts).
  globalSetup: "./tests/e2e/global-setup.ts",
  outputDir: "test-results/artifacts",
  // Tests are written to be stable: a retry would only hide flakiness.
  retries: 0,
  // Two cores: two browsers plus one wrangler dev is what this machine holds comfortably.
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    {
      name: "chromium",
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: externalBaseURL
    ? undefined
    : {
        // Fresh state every time: migrations and demo data go into an empty folder (start.mjs seeds it once).
        command: `rm -rf ${STATE_DIR} && node scripts/start.mjs`,
        env: {
          STRIDE_STATE: STATE_DIR,
          PORT: String(PORT),
          // The built Worker without wrangler dev's proxy, which now and then fails a POST with a 503 of its own.
          STRIDE_SERVER: "miniflare",
          CLOUDFLARE_CF_FETCH_ENABLED: "false",
          WRANGLER_SEND_METRICS: "false",
          // Wrangler's per-request lines would drown the test list; warnings and errors still show.
          WRANGLER_LOG: process.env.WRANGLER_LOG ?? "warn",
        },
        // start.mjs binds wrangler to 127.0.0.1; the readiness check goes there directly (no ::1 detour).
        url: `http://127.0.0.1:${PORT}/`,
        timeout: 180_000,
        reuseExistingServer: !process.env.CI,
        stdout: "pipe",
        stderr: "pipe",
      },
});
