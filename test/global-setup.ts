import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/platform/db/client.js";
import { buildTemplate, currentTemplate } from "../src/platform/db/template.js";
import { prepareDatabase } from "../src/runtime/database.js";
import { TEST_ADMIN } from "./helpers/constants.js";
import { adminPool, databaseUrl } from "./helpers/postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** PGlite: path of the migrated, bootstrapped dump every test database starts from. */
    pgliteDump: string;
    /** PostgreSQL: name of the migrated template database each test file copies. */
    pgTemplate: string;
    /** A directory of this run where the first file that needs the demo leaves it for the others. */
    demoDir: string;
  }
}

/**
 * Migrates and bootstraps ONE database, then every test file starts from a copy of it:
 * a PGlite dump (creating PGlite and migrating costs seconds) or a PostgreSQL template. The files
 * that read the whole demo share one load of it through `demoDir` (test/helpers/demo.ts).
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "cuadra-test-"));
  const demoDir = join(dir, "demo");
  mkdirSync(demoDir);
  project.provide("demoDir", demoDir);
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const template = `cuadra_tpl_${randomBytes(4).toString("hex")}`;
    const admin = adminPool(base);
    await admin.query(`create database ${template}`);
    const url = databaseUrl(base, template);
    const handle = await openDatabase({ url, poolSize: 1 });
    await prepareDatabase(handle, url, { adminEmail: TEST_ADMIN.email, adminPassword: TEST_ADMIN.password });
    await handle.close();
    project.provide("pgTemplate", template);
    project.provide("pgliteDump", "");
    return async () => {
      const stale = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname = $1 or datname like $2",
        [template, `${template}_%`],
      );
      for (const { datname } of stale.rows)
        await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
      removeDir();
    };
  }
  // From the migrated template a new embedded database starts from (built by postinstall; here
  // when missing or made for other migrations): the suite's databases descend from it too.
  if (!currentTemplate()) await buildTemplate();
  const template = currentTemplate();
  const handle = await openDatabase({ loadDataDir: template ?? undefined });
  await prepareDatabase(handle, undefined, {
    adminEmail: TEST_ADMIN.email,
    adminPassword: TEST_ADMIN.password,
  });
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir("none");
  const file = join(dir, "template.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("pgliteDump", file);
  project.provide("pgTemplate", "");
  return removeDir;
}
