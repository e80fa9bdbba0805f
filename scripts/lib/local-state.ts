// Where the local D1 and R2 data live, shared by the Node scripts and the Wrangler commands they run.
// `wrangler dev` and `wrangler d1 ... --local` keep their state in `<dir>/v3`, where <dir> is `--persist-to`
// or `.wrangler/state` by default; getPlatformProxy takes the `v3` folder itself.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CONFIG_PATH = join(ROOT, "wrangler.jsonc");

/** The folder given to `--persist-to` (env STRIDE_STATE, relative to the caller's directory), or undefined for Wrangler's default. */
export const STATE_DIR: string | undefined = process.env.STRIDE_STATE ? resolve(process.env.STRIDE_STATE) : undefined;

/** The persistence root Miniflare uses for a `--persist-to` folder: the same folder `wrangler dev` reads. */
export const miniflarePersistRoot = (persistTo: string): string => join(persistTo, "v3");

export const MINIFLARE_PERSIST_ROOT = miniflarePersistRoot(STATE_DIR ?? join(ROOT, ".wrangler/state"));

/** Extra arguments for a local Wrangler command so it uses the same state. */
export const persistArgs = (): string[] => (STATE_DIR ? ["--persist-to", STATE_DIR] : []);

/**
 * The variables every local run of the Worker gets over wrangler.jsonc's: mail is kept in the outbox, never sent
 * (wrangler.jsonc says "send", for deployments). Miniflare's own send_email binding only writes a file, yet marks
 * the mail sent: a local run must never use it. scripts/start.mjs (plain JavaScript) spells the same out.
 */
export const LOCAL_VARS = { MAIL_MODE: "keep" } as const;

/** LOCAL_VARS as `wrangler dev` arguments. */
export const localVarArgs = (): string[] => Object.entries(LOCAL_VARS).flatMap(([name, value]) => ["--var", `${name}:${value}`]);

/** Every Wrangler child: offline machines, no telemetry. */
export const wranglerEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  ...extra,
});

export const WRANGLER_BIN = join(ROOT, "node_modules/.bin/wrangler");

/**
 * A private copy of a build to serve (a later `npm run build` empties build/ under a running server), with a
 * JWT_SECRET of its own when the build has none: a checkout that never ran `npm start` has no .dev.vars, and logging
 * in would fail. The checkout's own files are left alone. Used by the bench and the profiler.
 */
export function servableCopy(buildDir: string, copyDir: string): string {
  rmSync(copyDir, { recursive: true, force: true });
  cpSync(buildDir, copyDir, { recursive: true });
  const vars = join(copyDir, "server", ".dev.vars");
  const current = existsSync(vars) ? readFileSync(vars, "utf8") : "";
  if (!/^\s*JWT_SECRET\s*=\s*\S/m.test(current)) writeFileSync(vars, `${current}JWT_SECRET=local-${crypto.randomUUID()}\n`);
  return copyDir;
}
