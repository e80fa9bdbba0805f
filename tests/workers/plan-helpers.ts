import { drizzle } from "drizzle-orm/d1";

import type { Db } from "~/services/db.server";
import { testEnv } from "./helpers";

// The statements a service really sends, with their EXPLAIN QUERY PLAN and the rows D1 says each read (meta.rows_read),
// for the query-plan tests. (tests/workers/catalogue-plans.test.ts keeps its own copy of the same idea.)

interface Statement {
  sql: string;
  params: unknown[];
}
let caught: Statement[] = [];

/** D1 that notes every statement prepared and the values bound to it (Drizzle's logger misses those of a batch). */
function recordingD1(d1: D1Database): D1Database {
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const entry: Statement = { sql, params: [] };
          caught.push(entry);
          const statement = target.prepare(sql);
          return new Proxy(statement, {
            get(inner, name) {
              if (name === "bind") {
                return (...params: unknown[]) => {
                  entry.params = params;
                  return inner.bind(...params);
                };
              }
              const value = Reflect.get(inner, name, inner);
              return typeof value === "function" ? value.bind(inner) : value;
            },
          });
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export const recordingDb = drizzle(recordingD1(testEnv.DB)) as Db;

export interface PlannedStatement {
  sql: string;
  plan: string[];
  rowsRead: number;
}

/** Runs `work` and returns the statements it sent, each with its plan and the rows it read when run again alone. */
export async function statementsOf(work: () => Promise<unknown>): Promise<PlannedStatement[]> {
  caught = [];
  await work();
  const sent = caught;
  return Promise.all(
    sent.map(async ({ sql, params }) => {
      const plan = await testEnv.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const run = await testEnv.DB.prepare(sql)
        .bind(...params)
        .all();
      return { sql, plan: plan.results.map((row) => row.detail), rowsRead: run.meta.rows_read };
    }),
  );
}
