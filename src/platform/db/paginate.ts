import { count, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client.js";
import { allQueries } from "./sql.js";

/** One page of rows and how many rows match the filters across all pages. */
export interface Page<T> {
  rows: T[];
  total: number;
  /** True when more than EXACT_TOTAL_LIMIT rows match: `total` is then the planner's estimate. */
  totalIsEstimate?: boolean;
}

/**
 * Bounded lists count exactly up to this many matching rows and no further: an exact count(*)
 * over a million journal entries costs hundreds of milliseconds per page, a bounded one at most
 * 10,001 index entries.
 */
export const EXACT_TOTAL_LIMIT = 10_000;

/**
 * Runs a page query and its count query together (two statements in flight on a pool, one after
 * the other in a transaction: allQueries) and returns them as a Page. `count` is a query selecting
 * `{ total: count() }`.
 */
export async function paginate<T>(
  db: Db,
  rows: () => PromiseLike<T[]>,
  count: () => PromiseLike<Array<{ total: number | string | bigint }>>,
): Promise<Page<T>> {
  const [page, [counted]] = await allQueries(db, [rows, count]);
  return { rows: page, total: Number(counted?.total ?? 0) };
}

/**
 * A page whose total is exact up to EXACT_TOTAL_LIMIT matching rows of `table` (the count stops
 * there); beyond it, the planner's row estimate for the same filter, flagged `totalIsEstimate`.
 */
export async function paginateBounded<T>(
  db: Db,
  rows: () => PromiseLike<T[]>,
  table: PgTable,
  where: SQL | undefined,
  bound = EXACT_TOTAL_LIMIT,
): Promise<Page<T>> {
  const matching = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(bound + 1);
  const page = await paginate(db, rows, () => db.select({ total: count() }).from(matching.as("matching")));
  if (page.total <= bound) return { ...page, totalIsEstimate: false };
  const estimate = await plannedRows(db, db.select({ one: sql`1` }).from(table).where(where));
  return { rows: page.rows, total: Math.max(estimate, bound + 1), totalIsEstimate: true };
}

type Plan = [{ Plan: { "Plan Rows": number } }];

/** The planner's row estimate for a query (EXPLAIN, nothing run). */
export async function plannedRows(db: Db, query: { getSQL(): SQL }): Promise<number> {
  const result = (await db.execute(sql`explain (format json) ${query.getSQL()}`)) as unknown as {
    rows: { "QUERY PLAN": Plan | string }[];
  };
  const plan = result.rows[0]?.["QUERY PLAN"];
  const parsed: Plan = typeof plan === "string" ? JSON.parse(plan) : (plan ?? ([] as unknown as Plan));
  return Math.round(parsed[0]?.Plan?.["Plan Rows"] ?? 0);
}
