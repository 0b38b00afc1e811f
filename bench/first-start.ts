/**
 * Where the first `npm start` on an empty DATA_DIR spends its time (issues 15 and 21), phase by phase,
 * on PGlite: wall and CPU seconds (CPU barely moves with other load on the machine). Then the same
 * new database from the migrated template `npm run build:server` makes (src/platform/db/template.ts).
 * Run: npx tsx bench/first-start.ts   (not part of `npm run bench`, which runs on PostgreSQL)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const t0 = performance.now();
const cpu0 = process.cpuUsage();
const phases: [string, number, number][] = [];
let last = t0;
let lastCpu = cpu0;
const mark = (name: string) => {
  const now = performance.now();
  const cpu = process.cpuUsage();
  phases.push([name, now - last, (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000]);
  last = now;
  lastCpu = cpu;
};

const { buildApp } = await import("../src/app/build.js");
const { loadConfig } = await import("../src/config.js");
const { openDatabase } = await import("../src/platform/db/client.js");
const { migrateDatabase } = await import("../src/platform/db/migrate.js");
const { bootstrapIdentity } = await import("../src/modules/identity/index.js");
const { singleTenant } = await import("../src/platform/db/tenancy.js");
const { buildTemplate, currentTemplate } = await import("../src/platform/db/template.js");
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

let template = currentTemplate();
if (!template) {
  await buildTemplate();
  template = currentTemplate() as Blob;
  mark("(no template for these migrations: built it, as `npm run build:server` does once)");
}
const fromTemplate = await openDatabase({
  dataDir: join(dataDir, "db-from-template"),
  loadDataDir: template,
});
mark("PGlite: a new directory from the migrated template (replaces initdb)");
await migrateDatabase(fromTemplate);
mark("migrations (none pending)");
await bootstrapIdentity(fromTemplate.db, { adminEmail: "admin@example.com" });
mark("bootstrap on the template's database");
await fromTemplate.close();
rmSync(dataDir, { recursive: true, force: true });

console.log("   wall s    CPU s");
for (const [name, ms, cpu] of phases)
  console.log(`${(ms / 1000).toFixed(2).padStart(7)}  ${(cpu / 1000).toFixed(2).padStart(7)}  ${name}`);
const cpu = process.cpuUsage(cpu0);
console.log(
  `${((last - t0) / 1000).toFixed(2).padStart(7)}  ${((cpu.user + cpu.system) / 1e6).toFixed(2).padStart(7)}  total`,
);
process.exit(0);
