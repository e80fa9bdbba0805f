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
 * statements, in their order (as db.batch answers them). A batch answers rows keyed by column name, so a statement's
 * columns need names of their own: a join's second `id` is aliased, or the two overwrite each other.
 */
export interface ReadPlan<T> {
  statements: [ReadQuery, ...ReadQuery[]];
  assemble: (results: unknown[]) => T;
}

/** A read waiting for the next batch of its database (readWithNext). */
interface Rider {
  plan: ReadPlan<unknown>;
  /** Its share of the batch's results, once a batch took it. */
  taken?: Promise<unknown[]>;
}

const waitingRiders = new WeakMap<Db, Rider[]>();

/**
 * Every plan's statements in one D1 batch (one round trip, one snapshot), and each plan's answer. Reads waiting for
 * company on the same database (readWithNext) go in the same batch.
 */
export async function readTogether<Plans extends Record<string, ReadPlan<unknown>>>(
  db: Db,
  plans: Plans,
): Promise<{ [Name in keyof Plans]: Plans[Name] extends ReadPlan<infer T> ? T : never }> {
  const named = Object.entries(plans);
  const riders = waitingRiders.get(db) ?? [];
  waitingRiders.delete(db);
  const inOrder = [...named.map(([, plan]) => plan), ...riders.map((rider) => rider.plan)];
  let next = 0;
  // Where each plan's results sit among the batch's (db.batch answers in the statements' order).
  const ranges = inOrder.map((plan) => [next, (next += plan.statements.length)] as const);
  const batch: Promise<unknown[]> = db.batch(inOrder.flatMap((plan) => plan.statements) as [ReadQuery, ...ReadQuery[]]);
  riders.forEach((rider, index) => {
    const [from, to] = ranges[named.length + index];
    rider.taken = batch.then((results) => results.slice(from, to));
    // Its reader reads again alone when the batch fails; this keeps the failure from counting as unhandled till then.
    rider.taken.catch(() => {});
  });
  const results = await batch;
  return Object.fromEntries(named.map(([name, plan], index) => [name, plan.assemble(results.slice(...ranges[index]))])) as never;
}

/**
 * A read that waits for company: it goes with the next readTogether of the same database, or alone if its answer is
 * wanted first. A page's session check rides with the page's own reads this way, so a logged-in page costs one D1
 * round trip rather than two (each costs the Worker a few tenths of a millisecond of CPU, on top of the query).
 * `drop` takes it back when it is no longer wanted (a token that failed its check). A batch that fails takes the read
 * down with it, so the read is then sent again alone: a page's failed read must not fail its session check too.
 */
export function readWithNext<T>(db: Db, plan: ReadPlan<T>): { answer: () => Promise<T>; drop: () => void } {
  const rider: Rider = { plan: plan as ReadPlan<unknown> };
  const waiting = waitingRiders.get(db) ?? [];
  waiting.push(rider);
  waitingRiders.set(db, waiting);
  const drop = () => {
    const index = waitingRiders.get(db)?.indexOf(rider) ?? -1;
    if (index >= 0) waitingRiders.get(db)!.splice(index, 1);
  };
  return {
    async answer() {
      if (rider.taken) {
        const results = await rider.taken.catch(() => null);
        // A batch fails as a whole: when a companion's statement failed, this read goes again on its own.
        if (results) return plan.assemble(results);
      } else {
        drop();
      }
      return (await readTogether(db, { own: plan })).own as T;
    },
    drop,
  };
}

export type ConstraintFailure = "unique" | "check" | "foreign-key";

/** A failed D1 statement's message and its cause's: D1 tells what failed only in words. */
const failureText = (error: unknown) => `${String((error as { cause?: unknown })?.cause ?? "")} ${String(error)}`;

/** Which SQLite constraint a failed D1 statement or batch broke, if any (D1 reports it only in the message). */
export function constraintFailure(error: unknown): ConstraintFailure | null {
  const text = failureText(error);
  if (text.includes("UNIQUE constraint failed")) return "unique";
  if (text.includes("CHECK constraint failed")) return "check";
  if (text.includes("FOREIGN KEY constraint failed")) return "foreign-key";
  return null;
}

/** Whether a failed D1 statement or batch was aborted by a trigger's `RAISE(ABORT, '<tag>: ...')`. */
export const abortedByTrigger = (error: unknown, tag: string): boolean => failureText(error).includes(`${tag}:`);

/** A LIKE pattern for text containing `keyword`, its wildcards escaped (`ESCAPE '\\'`): `%` and `_` in it are ordinary characters. */
export function containsPattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
