import { mkdirSync } from "node:fs";
import type { PGliteOptions } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { lazyImport } from "../lazy.js";

/** A Drizzle database or transaction: both drivers share the pg-core query builder. */
export type Db = PgDatabase<PgQueryResultHKT>;

export interface DatabaseHandle {
  kind: "pglite" | "postgres";
  db: Db;
  /** Where it lives: a data directory, ":memory:", or the URL without its password. */
  location: string;
  ping(): Promise<void>;
  /**
   * A hot-path query as a named prepared statement (parsed and planned once per connection),
   * bypassing the ORM's result mapping. Rows come back as the driver parses them.
   */
  prepared<T>(name: string, text: string, params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
  /** PGlite only: a consistent gzipped tarball of the data directory, taken while it stays open. */
  dumpDataDir?(): Promise<Blob>;
}

export interface OpenOptions {
  /** postgres://... ; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory (created when missing); omitted = in memory. */
  dataDir?: string;
  /** PGlite: start from a dump made with dumpDataDir() (tests). */
  loadDataDir?: Blob | File;
  /** PGlite: an in-memory file system that already holds a data directory (tests, ADR 037). */
  pgliteFs?: PGliteOptions["fs"];
  /** node-postgres pool size. */
  poolSize?: number;
  /** How long a request waits for a pooled connection before it fails (a 503); default 5 s. */
  connectionTimeoutMs?: number;
  onPoolError?: (err: Error) => void;
  /** Sees every SQL statement Drizzle sends (benchmarks capture the SQL a route runs). */
  logQuery?: (query: string, params: unknown[]) => void;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  return options.url ? openPostgres(options.url, options) : openPglite(options);
}

/**
 * PostgreSQL's default 128 MB of shared buffers is resident in PGlite's WebAssembly memory from the
 * moment it starts: 16 MB keeps an embedded server ~110 MB smaller (issue 21, docs/performance.md),
 * and the OS page cache still holds the data files. Written into the data directory's
 * postgresql.conf, and given again at every open.
 */
const PGLITE_CONF = ["shared_buffers=16MB"];

/** PGlite and its Drizzle driver, imported only when the database is embedded (not on PostgreSQL). */
const pglite = lazyImport(() =>
  Promise.all([import("@electric-sql/pglite"), import("drizzle-orm/pglite")]).then(([engine, driver]) => ({
    PGlite: engine.PGlite,
    drizzlePglite: driver.drizzle,
  })),
);

async function openPglite(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const { PGlite, drizzlePglite } = await pglite();
  const client = await PGlite.create(options.dataDir, {
    loadDataDir: options.loadDataDir,
    fs: options.pgliteFs,
    postgresqlconf: PGLITE_CONF,
  });
  const db = drizzlePglite(client, { logger: queryLogger(options) }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    location: options.dataDir ?? ":memory:",
    ping: async () => {
      await client.query("select 1");
    },
    prepared: async <T>(_name: string, text: string, params: unknown[]) =>
      (await client.query<T>(text, params)).rows,
    close: async () => {
      if (!client.closed) await client.close();
    },
    dumpDataDir: () => client.dumpDataDir("gzip"),
  };
}

async function openPostgres(url: string, options: OpenOptions): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
  });
  // An idle client losing its server must not crash the process: the next query reports it.
  pool.on("error", (err) => options.onPoolError?.(err));
  // The pool only listens to its idle clients: a client checked out by a transaction (or between
  // two statements of any request) that loses its server would emit an unhandled 'error' and end
  // the process. Every client keeps this listener for its whole life; once it fired the client is
  // not queryable, its next statement fails (a 503 for the request) and the pool discards it on
  // release.
  pool.on("connect", (client) => {
    client.on("error", (err) => options.onPoolError?.(err));
  });
  const db = drizzlePg(pool, { logger: queryLogger(options) }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    location: redactUrl(url),
    ping: async () => {
      await pool.query("select 1");
    },
    prepared: async <T>(name: string, text: string, params: unknown[]) =>
      (await pool.query({ name, text, values: params })).rows as T[],
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}

function queryLogger(options: OpenOptions) {
  const log = options.logQuery;
  return log ? { logQuery: (query: string, params: unknown[]) => log(query, params) } : false;
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparseable)";
  }
}
