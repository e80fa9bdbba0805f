// Creates (or promotes) an admin account, with no password kept in the repository.
//   npm run create-admin -- --email boss@shop.lk --name "Jane Admin"            local D1 (.wrangler/state)
//   npm run create-admin -- --email boss@shop.lk --name "Jane Admin" --remote   the deployed D1
//   --persist-to <dir> (or env STRIDE_STATE): the local state folder, as for `wrangler ... --persist-to`.
// The password comes from env ADMIN_PASSWORD, or is asked twice (hidden) on a terminal. An existing admin gets the new
// password and name. An existing customer account is promoted only with --promote: registration is open and e-mails
// are not verified, so whoever registered the address first may not be the owner. Either way the account's sessions
// and unused reset links end, so nobody who was logged in to it before keeps the admin's rights.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

import { PASSWORD_MIN } from "../app/lib/constants";
import { hashPassword } from "../app/services/password.server";
import { CONFIG_PATH, ROOT, STATE_DIR, WRANGLER_BIN, wranglerEnv } from "./lib/local-state";

const USAGE = `Usage: npm run create-admin -- --email <email> [--name "<name>"] [--promote] [--remote | --persist-to <dir>]
  Password: env ADMIN_PASSWORD, or asked on the terminal. At least ${PASSWORD_MIN} characters.
  --promote: make an existing customer account an admin (asked for so that a stranger's account is not promoted).`;

class UsageError extends Error {}

/** A SQL string literal: single quotes doubled; control characters refused rather than escaped. */
function sqlString(value: string): string {
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError("Control characters are not allowed in the e-mail or name.");
  return `'${value.replaceAll("'", "''")}'`;
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((done, fail) => {
    let value: string[] = [];
    const finish = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write("\n");
      if (error) fail(error);
      else done(value.join(""));
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(new UsageError("Cancelled."));
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else value.push(char);
      }
    };
    process.stdout.write(question);
    stdin.setEncoding("utf8");
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.ADMIN_PASSWORD;
  let password: string;
  if (fromEnv !== undefined && fromEnv !== "") {
    password = fromEnv;
  } else if (process.stdin.isTTY) {
    password = await promptHidden("Password for the admin: ");
    if (password.length >= PASSWORD_MIN && (await promptHidden("Repeat the password: ")) !== password) {
      throw new UsageError("The passwords do not match.");
    }
  } else {
    throw new UsageError("No password: set ADMIN_PASSWORD, or run this in a terminal to be asked for one.");
  }
  if (password.length < PASSWORD_MIN) throw new UsageError(`The password must be at least ${PASSWORD_MIN} characters long.`);
  if (password.length > 200) throw new UsageError("The password is too long (200 characters at most).");
  return password;
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      name: { type: "string", default: "Administrator" },
      remote: { type: "boolean", default: false },
      local: { type: "boolean", default: false },
      promote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) return console.log(USAGE);

  const email = values.email?.trim().toLowerCase() ?? "";
  const name = values.name.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError("A valid --email is required.");
  if (!name || name.length > 100) throw new UsageError("--name must be 1 to 100 characters.");
  if (values.remote && (values.local || values["persist-to"])) throw new UsageError("--remote cannot be combined with --local or --persist-to.");

  const password = await readPassword();
  const passwordHash = await hashPassword(password);

  const stateDir = values["persist-to"] ? resolve(values["persist-to"]) : STATE_DIR;
  const target = values.remote ? ["--remote"] : ["--local", ...(stateDir ? ["--persist-to", stateDir] : [])];
  const where = values.remote ? "the remote D1 database" : `the local D1 database (${stateDir ?? ".wrangler/state"})`;

  const [emailSql, nameSql] = [sqlString(email), sqlString(name)];
  const mayPromote = values.promote ? "1" : "0";
  // The first statement reads the account as it was; the write leaves a customer alone unless --promote was given.
  // A changed password ends the account's sessions (session_version) and its unused reset links, as a reset does.
  const command =
    `SELECT role, created_at AS createdAt FROM users WHERE email = ${emailSql}; ` +
    `INSERT INTO users (name, email, password_hash, role) VALUES (${nameSql}, ${emailSql}, ${sqlString(passwordHash)}, 'ROLE_ADMIN') ` +
    `ON CONFLICT(email) DO UPDATE SET role = 'ROLE_ADMIN', password_hash = excluded.password_hash, name = excluded.name, ` +
    `session_version = users.session_version + 1 WHERE users.role = 'ROLE_ADMIN' OR ${mayPromote}; ` +
    `DELETE FROM password_resets WHERE used_at IS NULL AND user_id = (SELECT id FROM users WHERE email = ${emailSql} AND role = 'ROLE_ADMIN');`;

  // -c wrangler.jsonc: after a build Wrangler would otherwise follow .wrangler/deploy to the built configuration.
  const result = spawnSync(
    WRANGLER_BIN,
    ["d1", "execute", "DB", ...target, "-c", CONFIG_PATH, "--json", "--command", command],
    { cwd: ROOT, env: wranglerEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  if (result.error) throw new Error(`Could not run wrangler: ${result.error.message}`);
  if (result.status !== 0) {
    // The output holds Wrangler's error; it never echoes the SQL, so the hash stays private.
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`wrangler d1 execute failed (exit ${result.status}) on ${where}.`);
  }
  const before = JSON.parse(result.stdout) as Array<{ results?: Array<{ role: string; createdAt: number }> }>;
  const existing = before[0]?.results?.[0];
  if (!existing) return console.log(`Created admin ${email} ("${name}") in ${where}.`);
  if (existing.role !== "ROLE_ADMIN" && !values.promote) {
    const registered = new Date(existing.createdAt).toISOString().slice(0, 16).replace("T", " ");
    throw new UsageError(
      `${email} is a customer account in ${where}, registered ${registered} UTC; nothing was changed. ` +
        "If it is yours, run this again with --promote: it becomes an admin with the new password, and every session it had ends.",
    );
  }
  console.log(
    `${existing.role === "ROLE_ADMIN" ? "Updated admin" : "Promoted customer"} ${email} in ${where}: ROLE_ADMIN, name "${name}", ` +
      "password replaced; its earlier sessions and reset links no longer work.",
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : `create-admin failed: ${(error as Error).message ?? error}`);
  process.exit(1);
});
