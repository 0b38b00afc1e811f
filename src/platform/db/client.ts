import { mkdirSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
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
  /**
   * PostgreSQL only: the database through a second pool, opened at first use, whose connections
   * start with `default_transaction_read_only=on`: every statement and every transaction begun on
   * it is read-only in the server itself (a write fails with 25006), and independent statements
   * run in parallel on several connections. PGlite has one connection shared with the writers.
   */
  readOnly?(): Db;
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

/**
 * Runs the WebAssembly compiled from now on (PGlite's PostgreSQL) on V8's baseline code (Liftoff)
 * only. By default V8 recompiles a module's hot functions with TurboFan on background threads
 * during the first queries; their compile memory stays in those threads' malloc arenas: an
 * embedded server started ~60 MB larger and spent ~0.9 CPU s more on its start (ADR 038,
 * docs/performance.md). Process-wide and one-way: call it before the first PGlite opens.
 */
export function runWasmOnBaselineCode() {
  setFlagsFromString("--liftoff-only");
}

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

/** Every statement of a session with this startup option runs in a read-only transaction. */
const READ_ONLY_SESSION = "-c default_transaction_read_only=on";

function openPool(url: string, options: OpenOptions, sessionOptions?: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    options: sessionOptions,
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
  return pool;
}

async function openPostgres(url: string, options: OpenOptions): Promise<DatabaseHandle> {
  const pool = openPool(url, options);
  const db = drizzlePg(pool, { logger: queryLogger(options) }) as unknown as Db;
  let reader: { pool: pg.Pool; db: Db } | undefined;
  return {
    kind: "postgres",
    db,
    location: redactUrl(url),
    ping: async () => {
      await pool.query("select 1");
    },
    prepared: async <T>(name: string, text: string, params: unknown[]) =>
      (await pool.query({ name, text, values: params })).rows as T[],
    readOnly: () => {
      if (pool.ended) throw new Error("Cannot use a pool after calling end on the pool");
      if (!reader) {
        const readPool = openPool(url, options, READ_ONLY_SESSION);
        reader = {
          pool: readPool,
          db: drizzlePg(readPool, { logger: queryLogger(options) }) as unknown as Db,
        };
      }
      return reader.db;
    },
    close: async () => {
      await Promise.all([pool, reader?.pool].map((p) => (p && !p.ended ? p.end() : undefined)));
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
