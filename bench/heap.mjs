// Plain JavaScript: tsx's loader would be part of what it measures.
/**
 * What the compiled server holds in memory right after start (issue 21): process.memoryUsage() and a
 * V8 heap snapshot of the same process, summed by node type, by constructor and its largest strings.
 * Builds the app from dist/ as src/main.ts does, on a fresh PostgreSQL database.
 * Run: npm run build:server && node --expose-gc bench/heap.mjs
 *   (BENCH_DATABASE_URL, default the local server; not part of `npm run bench`)
 */
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { writeHeapSnapshot } from "node:v8";
import pg from "pg";
import { DIST, distIsCurrent } from "../scripts/server-build.mjs";

if (!distIsCurrent()) throw new Error("dist/ is not current: run `npm run build:server` first");
const gc = globalThis.gc;
if (!gc) throw new Error("run with node --expose-gc");

const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = "cuadra_bench_heap";
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const usage = (label) => {
  const m = process.memoryUsage();
  console.log(
    `| ${label} | ${mb(m.rss)} | ${mb(m.heapTotal)} | ${mb(m.heapUsed)} | ${mb(m.external)} | ${mb(m.arrayBuffers)} |`,
  );
};
console.log("| when | RSS MB | heap total | heap used | external | array buffers |");
console.log("|---|---:|---:|---:|---:|---:|");
gc();
usage("node + pg, nothing else");

const load = (path) => import(pathToFileURL(join(DIST, path)).href);
const { loadConfig } = await load("config.js");
const { openMainDatabase, prepareDatabase } = await load("runtime/database.js");
const { buildApp } = await load("app/build.js");
const { buildTenantDirectory } = await load("runtime/tenants.js");
gc();
usage("server modules imported");

const config = loadConfig({
  DATABASE_URL: url.toString(),
  JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123456789",
  LOG_LEVEL: "silent",
  DATA_DIR: join(tmpdir(), "cuadra-bench-heap"),
});
const handle = await openMainDatabase(config);
await prepareDatabase(handle, config.databaseUrl, config);
const app = await buildApp({ config, tenants: buildTenantDirectory(config, handle) });
await app.listen({ port: 0, host: "127.0.0.1" });
gc();
usage("after start (listening)");

const file = writeHeapSnapshot(join(tmpdir(), `cuadra-heap-${process.pid}.heapsnapshot`));
await app.close();
await handle.close();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.end();

const snap = JSON.parse(readFileSync(file, "utf8"));
rmSync(file);
const fields = snap.snapshot.meta.node_fields;
const types = snap.snapshot.meta.node_types[0];
const [TYPE, NAME, SIZE] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
const byType = new Map();
const byName = new Map();
const bigStrings = [];
for (let i = 0; i < snap.nodes.length; i += fields.length) {
  const type = types[snap.nodes[i + TYPE]];
  const size = snap.nodes[i + SIZE];
  const nodeName = snap.strings[snap.nodes[i + NAME]];
  byType.set(type, (byType.get(type) ?? 0) + size);
  if (type === "object" || type === "closure" || type === "array")
    byName.set(`${type} ${nodeName}`, (byName.get(`${type} ${nodeName}`) ?? 0) + size);
  if ((type === "string" || type === "concatenated string") && size > 200_000)
    bigStrings.push([size, nodeName.slice(0, 80).replace(/\s+/g, " ")]);
}
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
console.log("\n| heap snapshot: node type | self MB |\n|---|---:|");
for (const [type, size] of top(byType, 12)) console.log(`| ${type} | ${mb(size)} |`);
console.log("\n| largest constructors / closures / arrays | self MB |\n|---|---:|");
for (const [key, size] of top(byName, 15)) console.log(`| ${key} | ${mb(size)} |`);
console.log("\n| strings over 200 kB | MB | begins with |\n|---|---:|---|");
for (const [size, text] of bigStrings.sort((a, b) => b[0] - a[0]).slice(0, 15))
  console.log(`| string | ${mb(size)} | \`${text.replace(/[|`]/g, " ")}\` |`);
process.exit(0);
