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

/** A fresh, migrated and bootstrapped database of its own: a copy of the suite's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const template = inject("pgTemplate");
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
  pgliteTemplate ??= readDataDirTar(new Uint8Array(readFileSync(inject("pgliteDump"))));
  const handle = await openDatabase({ pgliteFs: await templateFs(pgliteTemplate) });
  return { handle, destroy: () => handle.close() };
}
