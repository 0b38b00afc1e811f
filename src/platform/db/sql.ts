import { type AnyColumn, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { DatabaseHandle, Db } from "./client.js";
import { shareLookups } from "./tx-lookups.js";

/** Rows of a raw SQL query, whichever driver runs it (both results carry `rows`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function queryOne<T>(db: Db, query: SQL): Promise<T | undefined> {
  return (await queryRows<T>(db, query))[0];
}

/** What to run once the outermost transaction commits, by every transaction object inTransaction made. */
const onCommit = new WeakMap<Db, Array<() => void>>();

/** True for a transaction (or savepoint): one connection, which runs one statement at a time. */
export function isTransaction(db: Db): boolean {
  return db instanceof PgTransaction;
}

/**
 * Runs these queries together: at once on a pool (each on a connection of its own), one after
 * another in a transaction, whose single connection must not be sent a query while another is in
 * flight (node-postgres 8 queues it with a deprecation warning; pg 9 refuses it). Each query is a
 * function, so none starts before its turn.
 */
export async function allQueries<T extends readonly unknown[]>(
  db: Db,
  queries: readonly [...{ [K in keyof T]: () => PromiseLike<T[K]> }],
): Promise<T> {
  if (!isTransaction(db)) return (await Promise.all(queries.map((query) => query()))) as unknown as T;
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results as unknown as T;
}

/**
 * Runs `work` in one transaction; nested calls become savepoints. The transaction remembers some
 * lookups (`txLookup`, ADR 047); a savepoint that rolls back forgets them all, since what it read
 * after its own writes is undone with them.
 */
export async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const outer = onCommit.get(db);
  const callbacks = outer ?? [];
  const result = await db.transaction(async (tx) => {
    onCommit.set(tx as unknown as Db, callbacks);
    const lookups = shareLookups(tx as unknown as Db, db);
    try {
      return await work(tx as unknown as Db);
    } catch (err) {
      lookups.clear();
      throw err;
    }
  });
  if (!outer) for (const callback of callbacks) callback();
  return result;
}

/**
 * Runs `callback` once what `db` wrote is committed: after the outermost inTransaction when `db`
 * is one of its transactions, at once otherwise (a statement outside a transaction has committed).
 * Nothing runs when the transaction rolls back.
 */
export function afterCommit(db: Db, callback: () => void) {
  const pending = onCommit.get(db);
  if (pending) pending.push(callback);
  else callback();
}

/** PostgreSQL SQLSTATE of a driver error (node-postgres and PGlite both expose `code`). */
export function sqlState(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Node network error codes meaning "the database is unreachable". */
export function isConnectionError(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    const message = String((e as { message?: unknown }).message ?? "");
    if (
      typeof code === "string" &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P0[1-3]|08\d{3})$/.test(code)
    )
      return true;
    if (
      /Connection terminated|not queryable|timeout exceeded when trying to connect|PGlite is closed|Cannot use a pool after calling end/i.test(
        message,
      )
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The constraint a driver error names (unique, foreign key, check), walking its causes like sqlState. */
export function violatedConstraint(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const constraint = (e as { constraint?: unknown }).constraint;
    if (typeof constraint === "string") return constraint;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Runs `work` in a READ ONLY, REPEATABLE READ transaction: one consistent snapshot (a page and its
 * total agree) in which any write, by any code path, fails in the database itself.
 */
export function inReadOnlyTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Db), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
}

/**
 * Runs `work`, which only reads, so the database itself refuses any write it attempts: on
 * PostgreSQL on the read-only pool (no transaction of its own: independent statements, such as a
 * page and its total, run in parallel on two connections as the REST routes run them, and a
 * transaction the service opens for one snapshot is read-only too); on PGlite, whose single
 * connection the writers share, in a READ ONLY, REPEATABLE READ transaction.
 */
export function readOnly<T>(handle: DatabaseHandle, work: (db: Db) => Promise<T>): Promise<T> {
  const reader = handle.readOnly?.();
  return reader ? work(reader) : inReadOnlyTransaction(handle.db, work);
}

/** Only a backslash or a double quote is escaped inside a quoted array element. */
const NEEDS_ESCAPE = /[\\"]/;

/**
 * A PostgreSQL array literal of text values ('{"a","b"}'), passed as ONE parameter and cast in the
 * query (`${pgArray(ids)}::uuid[]`): with unnest, thousands of rows go in one statement whatever
 * the driver, far from the 65,535-parameter limit.
 */
export function pgArray(values: Array<string | null>): string {
  // One string grown in a loop: no array of quoted copies, no closure per value (100,000 ids).
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (i > 0) out += ",";
    if (v === null) out += "NULL";
    else if (NEEDS_ESCAPE.test(v)) out += `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    else out += `"${v}"`;
  }
  return `${out}}`;
}

/**
 * `column = any(array(subquery))`: the same rows as `column in (subquery)`, but the planner sees
 * one parameter computed first (an InitPlan) and estimates it from the column's statistics. With
 * `in (subquery)` it joined and guessed ~0.2 % of the rows matched, so a deep page of a table where
 * the filter matches everything sorted the whole table instead of walking an index.
 */
export function equalsAnyOf(column: SQL | AnyColumn, subquery: SQL | SQLWrapper): SQL {
  return sql`${column} = any(array(${subquery}))`;
}

export interface UnnestColumn {
  name: string;
  /** The column's SQL type for the array cast: uuid, text, numeric, date, int, timestamptz, jsonb. */
  type: string;
  values: Array<string | null>;
}

/**
 * Inserts many rows as INSERT ... SELECT FROM unnest(...), 10,000 rows per statement: one array
 * parameter per column, so the cost is the rows themselves and not building per-row SQL.
 * Every column lists the same number of values.
 */
export async function insertUnnest(db: Db, table: string, columns: UnnestColumn[], chunk = 10_000) {
  const count = columns[0]?.values.length ?? 0;
  const names = sql.raw(columns.map((c) => `"${c.name}"`).join(", "));
  for (let i = 0; i < count; i += chunk) {
    const arrays = sql.join(
      columns.map((c) => sql`${pgArray(c.values.slice(i, i + chunk))}::${sql.raw(c.type)}[]`),
      sql`, `,
    );
    await db.execute(sql`insert into ${sql.identifier(table)} (${names}) select * from unnest(${arrays})`);
  }
}
