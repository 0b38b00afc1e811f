import type { SQL } from "drizzle-orm";
import type { Db } from "./client.js";

/** Rows of a raw SQL query, whichever driver runs it (both results carry `rows`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function queryOne<T>(db: Db, query: SQL): Promise<T | undefined> {
  return (await queryRows<T>(db, query))[0];
}

/** Runs `work` in one transaction; nested calls become savepoints. */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Db));
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
