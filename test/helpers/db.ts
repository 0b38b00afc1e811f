import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../src/platform/db/client.js";
import { type DataDirTree, readDataDirTar, templateFs } from "./pglite-template.js";
import { adminPool, databaseUrl } from "./postgres.js";

export interface TestDatabase {
  handle: DatabaseHandle;
  /** PostgreSQL URL of this test database (undefined on PGlite). */
  url?: string;
  destroy(): Promise<void>;
}

export const onPostgres = () => Boolean(process.env.TEST_DATABASE_URL);

/** The suite's template dump, read and unpacked once per worker (the worker runs file after file, ADR 014). */
let pgliteTemplate: DataDirTree | undefined;

/** What a test database is a copy of: a PGlite dump on PGlite, a template database on PostgreSQL. */
export interface DatabaseSource {
  pgliteDump: string;
  pgTemplate: string;
}

/** The suite's migrated and bootstrapped template (test/global-setup.ts). */
export const suiteTemplate = (): DatabaseSource => ({
  pgliteDump: inject("pgliteDump"),
  pgTemplate: inject("pgTemplate"),
});

/** A fresh database of its own: a copy of the suite's template (migrated, bootstrapped), or of `from`. */
export async function createTestDatabase(from: DatabaseSource = suiteTemplate()): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const template = from.pgTemplate;
    const name = `${template}_${randomBytes(5).toString("hex")}`;
    const admin = adminPool(base);
    await admin.query(`create database ${name} template ${template}`);
    const url = databaseUrl(base, name);
    // The suite shares 2 cores with whatever else runs: a request may queue behind the 200
    // concurrent ones of the numbering test for longer than production's 5 s.
    const handle = await openDatabase({ url, poolSize: 5, connectionTimeoutMs: 60_000 });
    return {
      handle,
      url,
      destroy: async () => {
        await handle.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const read = () => readDataDirTar(new Uint8Array(readFileSync(from.pgliteDump)));
  // Another dump (the demo's, test/helpers/demo.ts) is opened once in a run: not kept.
  if (from.pgliteDump !== inject("pgliteDump")) return openPgliteFrom(read());
  pgliteTemplate ??= read();
  return openPgliteFrom(pgliteTemplate);
}

async function openPgliteFrom(tree: DataDirTree): Promise<TestDatabase> {
  const handle = await openDatabase({ pgliteFs: await templateFs(tree) });
  return { handle, destroy: () => handle.close() };
}
