import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { reactRouter } from "@react-router/dev/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Integration tests in real workerd with real D1: requests go through SELF.fetch into workers/app.ts, which loads
// React Router's server build (hence reactRouter() here). Storage is isolated per test file, not per test.
// Do not add @cloudflare/vite-plugin's cloudflare() here: cloudflareTest() replaces it, and together they fail at
// startup ("environment options are incompatible with the Cloudflare Vite plugin": resolve.external on "ssr").
export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      main: "./workers/app.ts",
      wrangler: { configPath: "./wrangler.jsonc" },
      miniflare: {
        // A second, empty database (besides wrangler.jsonc's DB, which listing d1Databases here replaces) for the
        // migration tests, which apply the migrations step by step with data in between; setup.ts migrates DB only.
        d1Databases: { DB: "00000000-0000-0000-0000-000000000000", MIGRATION_DB: "migration-test" },
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations("migrations"),
          JWT_SECRET: "test-secret-5b0f2c1e9d7a4f3b8c6e1a2d",
          // Two listed origins for the CORS tests (tests/workers/cors.test.ts); a deployment lists none by default.
          ALLOWED_ORIGINS: "https://app.stride.test, https://tools.stride.test",
          // Local mode over wrangler.jsonc's "send": the Worker's own queue consumer keeps mail. The outbox tests that
          // send pass MAIL_MODE=send to the consumer they run themselves (tests/workers/outbox-helpers.ts sendMode).
          MAIL_MODE: "keep",
        },
        // wrangler.jsonc's EMAIL (listing send_email here replaces it) and a second binding that refuses every recipient
        // but one, so the outbox tests see Miniflare's own send_email binding both send and fail (tests/workers/outbox.test.ts).
        email: { send_email: [{ name: "EMAIL" }, { name: "REFUSING_EMAIL", allowed_destination_addresses: ["postmaster@stride.test"] }] },
      },
    }),
    reactRouter(),
  ],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    name: "workers",
    include: ["tests/workers/**/*.test.ts"],
    setupFiles: ["./tests/workers/setup.ts"],
    // The first request of a file loads the server build through Vite (a few seconds); PBKDF2 costs ~100 ms a hash.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
}));
