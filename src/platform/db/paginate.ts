import { count, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client.js";
import { preparedByShape } from "./prepared.js";
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
export function paginateBounded<T>(
  db: Db,
  rows: () => PromiseLike<T[]>,
  table: PgTable,
  where: SQL | undefined,
  bound = EXACT_TOTAL_LIMIT,
): Promise<Page<T>> {
  return boundedPage(
    db,
    rows,
    () => db.select({ total: count() }).from(matchingRows(db, table, where, bound + 1).as("matching")),
    () => plannedRows(db, db.select({ one: sql`1` }).from(table).where(where)),
    bound,
  );
}

/** The rows matching `where`, at most `limit` of them (what a bounded count counts). */
const matchingRows = (db: Db, table: PgTable, where: SQL | undefined, limit: number | Placeholder) =>
  db.select({ one: sql`1` }).from(table).where(where).limit(limit);

async function boundedPage<T>(
  db: Db,
  rows: () => PromiseLike<T[]>,
  counted: () => PromiseLike<Array<{ total: number | string | bigint }>>,
  estimate: () => Promise<number>,
  bound: number,
): Promise<Page<T>> {
  const page = await paginate(db, rows, counted);
  if (page.total <= bound) return { ...page, totalIsEstimate: false };
  return { rows: page.rows, total: Math.max(await estimate(), bound + 1), totalIsEstimate: true };
}

/** A list's filter conditions for one shape, with `value(key)` as each value or its placeholder. */
export type ShapeConditions = (db: Db, shape: string, value: (key: string) => unknown) => SQL | undefined;

/**
 * paginateBounded for a list whose SQL depends on its filter shape (ADR 040): the bounded count is
 * a statement prepared per shape, every value and the bound a placeholder, instead of a query built
 * per request. `values` holds each key the shape's conditions read. Past the bound (rare), the
 * planner's estimate is asked of the conditions built with the values, as paginateBounded does.
 */
export function paginateBoundedByShape(name: string, table: PgTable, conditions: ShapeConditions) {
  const counted = preparedByShape(name, (db, shape) =>
    db
      .select({ total: count() })
      .from(
        matchingRows(db, table, conditions(db, shape, sql.placeholder), sql.placeholder("bound")).as(
          "matching",
        ),
      ),
  );
  return <T>(
    db: Db,
    rows: () => PromiseLike<T[]>,
    shape: string,
    values: Record<string, unknown>,
    bound = EXACT_TOTAL_LIMIT,
  ): Promise<Page<T>> =>
    boundedPage(
      db,
      rows,
      () => counted(db, shape, { ...values, bound: bound + 1 }),
      () =>
        plannedRows(
          db,
          db
            .select({ one: sql`1` })
            .from(table)
            .where(conditions(db, shape, (key) => values[key])),
        ),
      bound,
    );
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
