import pg from "pg";

/**
 * Watches node-postgres clients for a query sent while another is in flight on the same client
 * (what pg 8 queues with a deprecation warning and pg 9 refuses): every such query's SQL is
 * recorded. On PGlite nothing goes through node-postgres and nothing is recorded.
 */
export function watchPgOverlaps() {
  const overlaps: string[] = [];
  const client = pg.Client.prototype as unknown as {
    query: (...args: unknown[]) => unknown;
  };
  const original = client.query;
  client.query = function (this: { _activeQuery?: unknown; _queryQueue?: unknown[] }, ...args: unknown[]) {
    if (this._activeQuery || (this._queryQueue?.length ?? 0) > 0) {
      const config = args[0] as string | { text?: string };
      overlaps.push(typeof config === "string" ? config : String(config?.text));
    }
    return original.apply(this, args);
  };
  return {
    overlaps,
    restore: () => {
      client.query = original;
    },
  };
}
