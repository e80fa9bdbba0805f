import { applyD1Migrations } from "cloudflare:test";
import { testEnv } from "./helpers";

// Each test file gets its own storage; the schema is applied once per file (a no-op when already applied).
await applyD1Migrations(testEnv.DB, testEnv.TEST_MIGRATIONS);
