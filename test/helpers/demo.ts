import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, renameSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { type DemoResult, loadDemo } from "../../src/cli/demo.js";
import { openDatabase } from "../../src/platform/db/client.js";
import { TEST_ADMIN } from "./constants.js";
import { createTestDatabase, type DatabaseSource, suiteTemplate, type TestDatabase } from "./db.js";
import { adminPool, databaseUrl } from "./postgres.js";

/** How long a file waits for another worker's demo load (a whole load takes 15-60 s, more under load). */
const WAIT_MS = 360_000;

export interface DemoDatabase {
  /** A database of the file's own holding the whole demo, loaded once by `loadDemo` in this run. */
  database: TestDatabase;
  /** What that `loadDemo` returned. */
  loaded: DemoResult;
}

/**
 * The whole demo (`loadDemo` on the suite's template), loaded ONCE per run for every file that
 * reads it (ADR 039): the first file to ask loads it and leaves a copy (a PGlite dump, a
 * PostgreSQL template database) with what `loadDemo` returned; the others wait for it and start
 * from their own copy, as every file starts from a copy of the suite's template. Writes in one
 * file's database never reach another's.
 */
export async function demoDatabase(): Promise<DemoDatabase> {
  const dir = inject("demoDir");
  const result = join(dir, "loaded.json");
  const failure = join(dir, "failed.txt");
  let claimed: number | undefined;
  try {
    claimed = openSync(join(dir, "claim"), "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  if (claimed === undefined) {
    await waitForEither(dir, [result, failure]);
    if (existsSync(failure))
      throw new Error(`the demo load failed in another file: ${readFileSync(failure, "utf8")}`);
    const loaded = JSON.parse(readFileSync(result, "utf8")) as DemoResult;
    return { database: await createTestDatabase(demoSource(dir)), loaded };
  }
  closeSync(claimed);
  try {
    const built = await loadAndLeave(dir);
    writeAtomically(result, JSON.stringify(built.loaded));
    return built;
  } catch (err) {
    writeAtomically(failure, String((err as Error).stack ?? err));
    throw err;
  }
}

/** PostgreSQL: the demo's template database, beside the suite's; PGlite: the dump in `dir`. */
function demoSource(dir: string): DatabaseSource {
  return { pgliteDump: join(dir, "demo.tar"), pgTemplate: `${suiteTemplate().pgTemplate}_demo` };
}

async function loadAndLeave(dir: string): Promise<DemoDatabase> {
  const source = demoSource(dir);
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    // A template database takes no connections while it is copied: load it, close it, copy it.
    const admin = adminPool(base);
    try {
      await admin.query(`create database ${source.pgTemplate} template ${suiteTemplate().pgTemplate}`);
    } finally {
      await admin.end();
    }
    const handle = await openDatabase({ url: databaseUrl(base, source.pgTemplate), poolSize: 2 });
    let loaded: DemoResult;
    try {
      loaded = await loadDemo(handle.db, TEST_ADMIN.email);
    } finally {
      await handle.close();
    }
    return { database: await createTestDatabase(source), loaded };
  }
  // PGlite: this file keeps the database it loaded; the others get its dump.
  const database = await createTestDatabase();
  try {
    const loaded = await loadDemo(database.handle.db, TEST_ADMIN.email);
    const client = (database.handle.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir("none");
    writeAtomically(source.pgliteDump, Buffer.from(await dump.arrayBuffer()));
    return { database, loaded };
  } catch (err) {
    await database.destroy();
    throw err;
  }
}

/** Readers see the whole file or none: written beside it, then renamed over it. */
function writeAtomically(path: string, data: string | Buffer) {
  const partial = `${path}.${randomBytes(4).toString("hex")}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, path);
}

/** Resolves when one of `paths` (files in `dir`) exists. */
function waitForEither(dir: string, paths: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = () => paths.some((p) => existsSync(p));
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      watcher.close();
      if (err) reject(err);
      else resolve();
    };
    const watcher = watch(dir, () => done() && finish());
    const timer = setTimeout(() => finish(new Error(`no demo in ${dir} after ${WAIT_MS / 1000} s`)), WAIT_MS);
    // Written before the watch began.
    if (done()) finish();
  });
}
