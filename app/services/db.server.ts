import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";

import * as schema from "../../drizzle/schema";

// Without the schema: Stride writes its queries with the query builder, never the relational `db.query` API, and
// mapping the schema for it (extractTablesRelationalConfig) cost every request about a tenth of a page's CPU, since
// each request has a D1 session of its own and so a Drizzle database of its own.
const connect = (d1: D1Database) => drizzle(d1);
export type Db = ReturnType<typeof connect>;

const databases = new WeakMap<D1Database, Db>();

/** The Drizzle database of a D1 binding or session, made once for each. It holds no state of its own between queries. */
export function createDb(d1: D1Database): Db {
  let db = databases.get(d1);
  if (!db) {
    db = connect(d1);
    databases.set(d1, db);
  }
  return db;
}
export { schema };

export type ReadQuery = BatchItem<"sqlite">;

/**
 * A read as statements and what their results make: so a page can send the reads of several services in one D1
 * batch (readTogether) and each service still owns its queries and its view. `assemble` gets the results of its own
 * statements, in their order (as db.batch answers them).
 */
export interface ReadPlan<T> {
  statements: [ReadQuery, ...ReadQuery[]];
  assemble: (results: unknown[]) => T;
}

/** Every plan's statements in one D1 batch (one round trip, one snapshot), and each plan's answer. */
export async function readTogether<Plans extends Record<string, ReadPlan<unknown>>>(
  db: Db,
  plans: Plans,
): Promise<{ [Name in keyof Plans]: Plans[Name] extends ReadPlan<infer T> ? T : never }> {
  const named = Object.entries(plans);
  const results: unknown[] = await db.batch(named.flatMap(([, plan]) => plan.statements) as [ReadQuery, ...ReadQuery[]]);
  let next = 0;
  const answers = named.map(([name, plan]) => {
    const own = results.slice(next, (next += plan.statements.length));
    return [name, plan.assemble(own)];
  });
  return Object.fromEntries(answers);
}

export type ConstraintFailure = "unique" | "check" | "foreign-key";

/** Which SQLite constraint a failed D1 statement or batch broke, if any (D1 reports it only in the message). */
export function constraintFailure(error: unknown): ConstraintFailure | null {
  const text = `${String((error as { cause?: unknown })?.cause ?? "")} ${String(error)}`;
  if (text.includes("UNIQUE constraint failed")) return "unique";
  if (text.includes("CHECK constraint failed")) return "check";
  if (text.includes("FOREIGN KEY constraint failed")) return "foreign-key";
  return null;
}
