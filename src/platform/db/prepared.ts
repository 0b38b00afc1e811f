import type { Db } from "./client.js";

interface Prepared<R> {
  execute(placeholders?: Record<string, unknown>): Promise<R>;
}

/**
 * A hot read that drizzle builds once per database object and then runs as a named prepared
 * statement with `sql.placeholder(...)` values: nothing is built per request. Building a
 * 40-column select (drizzle's `is()` checks walking prototype chains) was ~8 % of the server's
 * CPU on a detail route (issue 21, docs/performance.md). A transaction is a new database object
 * each time, so inside one the statement is built for it (as any query would be).
 */
export function preparedRead<R, P extends Record<string, unknown>>(
  name: string,
  build: (db: Db) => { prepare(name: string): Prepared<R> },
): (db: Db, placeholders: P) => Promise<R> {
  const byDb = new WeakMap<Db, Prepared<R>>();
  return (db, placeholders) => {
    let query = byDb.get(db);
    if (!query) {
      query = build(db).prepare(name);
      byDb.set(db, query);
    }
    return query.execute(placeholders);
  };
}
