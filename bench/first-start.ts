/**
 * Where the first `npm start` on an empty DATA_DIR spends its time (issue 15), phase by phase, on PGlite.
 * Run: npx tsx bench/first-start.ts   (not part of `npm run bench`, which runs on PostgreSQL)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const t0 = performance.now();
const phases: [string, number][] = [];
let last = t0;
const mark = (name: string) => {
  const now = performance.now();
  phases.push([name, now - last]);
  last = now;
};

const { buildApp } = await import("../src/app/build.js");
const { loadConfig } = await import("../src/config.js");
const { openDatabase } = await import("../src/platform/db/client.js");
const { migrateDatabase } = await import("../src/platform/db/migrate.js");
const { bootstrapIdentity } = await import("../src/modules/identity/index.js");
const { singleTenant } = await import("../src/platform/db/tenancy.js");
mark("import the server's modules (tsx transform)");

const dataDir = mkdtempSync(join(tmpdir(), "cuadra-first-start-"));
const handle = await openDatabase({ dataDir: join(dataDir, "db") });
mark("PGlite: create the cluster (initdb) in an empty directory");
await migrateDatabase(handle);
mark("migrations");
await bootstrapIdentity(handle.db, { adminEmail: "admin@example.com" });
mark("bootstrap: permissions, admin role, first administrator (argon2)");
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
const app = await buildApp({
  config: { ...config, jwtSecret: "x".repeat(48) },
  tenants: singleTenant(handle),
});
mark("build the app (routes, schemas, OpenAPI)");
await app.listen({ port: 0, host: "127.0.0.1" });
mark("listen (ready)");
await app.close();
await handle.close();
const reopened = await openDatabase({ dataDir: join(dataDir, "db") });
await reopened.ping();
mark("a second start's database open (existing directory)");
await reopened.close();
rmSync(dataDir, { recursive: true, force: true });

for (const [name, ms] of phases) console.log(`${(ms / 1000).toFixed(2).padStart(7)} s  ${name}`);
console.log(`${((last - t0) / 1000).toFixed(2).padStart(7)} s  total`);
process.exit(0);
