import { drizzle } from "drizzle-orm/d1";

import * as schema from "../../drizzle/schema";

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}
export type Db = ReturnType<typeof createDb>;
export { schema };

export type ConstraintFailure = "unique" | "check" | "foreign-key";

/** Which SQLite constraint a failed D1 statement or batch broke, if any (D1 reports it only in the message). */
export function constraintFailure(error: unknown): ConstraintFailure | null {
  const text = `${String((error as { cause?: unknown })?.cause ?? "")} ${String(error)}`;
  if (text.includes("UNIQUE constraint failed")) return "unique";
  if (text.includes("CHECK constraint failed")) return "check";
  if (text.includes("FOREIGN KEY constraint failed")) return "foreign-key";
  return null;
}
