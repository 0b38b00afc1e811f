// Plain JavaScript: tsx's loader would be part of what it measures.
/**
 * What the compiled server holds in memory right after start (issue 21): process.memoryUsage() and a
 * V8 heap snapshot of the same process, summed by node type, by constructor and its largest strings.
 * Builds the app from dist/ as src/main.ts does, on a fresh PostgreSQL database, or with
 * BENCH_HEAP_DB=pglite on a new embedded database (from the migrated template, as a first start).
 * Run: npm run build:server && node --expose-gc bench/heap.mjs
 *   (BENCH_DATABASE_URL, default the local server; node flags such as --max-semi-space-size=8 as
 *   `npm start` gives them; not part of `npm run bench`)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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

const pglite = process.env.BENCH_HEAP_DB === "pglite";
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
/** Private memory: RSS without the pages shared with other processes (node's own code, mostly). */
const privateMb = () => {
  const rollup = readFileSync("/proc/self/smaps_rollup", "utf8");
  const kb = [...rollup.matchAll(/^Private_(?:Clean|Dirty):\s+(\d+) kB/gm)].reduce(
    (a, m) => a + Number(m[1]),
    0,
  );
  return (kb / 1024).toFixed(1);
};
const usage = (label) => {
  const m = process.memoryUsage();
  console.log(
    `| ${label} | ${mb(m.rss)} | ${privateMb()} | ${mb(m.heapTotal)} | ${mb(m.heapUsed)} | ${mb(m.external)} | ${mb(m.arrayBuffers)} |`,
  );
};
console.log(`database: ${pglite ? "PGlite" : "PostgreSQL"}; node ${process.execArgv.join(" ")}`);
console.log("| when | RSS MB | private MB | heap total | heap used | external | array buffers |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
gc();
usage("node + pg, nothing else");

const load = (path) => import(pathToFileURL(join(DIST, path)).href);
const { loadConfig } = await load("config.js");
const { runWasmOnBaselineCode } = await load("platform/db/client.js");
const { openMainDatabase, prepareDatabase } = await load("runtime/database.js");
const { buildApp } = await load("app/build.js");
const { buildTenantDirectory } = await load("runtime/tenants.js");
gc();
usage("server modules imported");

const dataDir = mkdtempSync(join(tmpdir(), "cuadra-bench-heap-"));
const config = loadConfig({
  ...(pglite ? {} : { DATABASE_URL: url.toString() }),
  JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123456789",
  LOG_LEVEL: "silent",
  DATA_DIR: dataDir,
});
// As src/main.ts does for an embedded server (ADR 038).
if (pglite && !config.pgliteWasmOptimize) runWasmOnBaselineCode();
const handle = await openMainDatabase(config);
await prepareDatabase(handle, config.databaseUrl, config);
const app = await buildApp({ config, tenants: buildTenantDirectory(config, handle) });
await app.listen({ port: 0, host: "127.0.0.1" });
gc();
usage("after start (listening)");

const file = writeHeapSnapshot(join(tmpdir(), `cuadra-heap-${process.pid}.heapsnapshot`));
await app.close();
await handle.close();
rmSync(dataDir, { recursive: true, force: true });
await admin.query(`drop database if exists ${name} with (force)`);
await admin.end();

const snap = JSON.parse(readFileSync(file, "utf8"));
rmSync(file);
const fields = snap.snapshot.meta.node_fields;
const types = snap.snapshot.meta.node_types[0];
const [TYPE, NAME, SIZE, EDGES] = ["type", "name", "self_size", "edge_count"].map((f) => fields.indexOf(f));
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
// Each node's first strong retainer: what holds the memory (a route's Context, a zod schema...).
const edgeFields = snap.snapshot.meta.edge_fields;
const edgeTypes = snap.snapshot.meta.edge_types[0];
const [E_TYPE, E_TO] = ["type", "to_node"].map((f) => edgeFields.indexOf(f));
const nodeCount = snap.nodes.length / fields.length;
const parent = new Int32Array(nodeCount).fill(-1);
for (let i = 0, e = 0; i < nodeCount; i++) {
  for (let j = 0; j < snap.nodes[i * fields.length + EDGES]; j++, e += edgeFields.length) {
    const kind = edgeTypes[snap.edges[e + E_TYPE]];
    const to = snap.edges[e + E_TO] / fields.length;
    if (kind !== "weak" && kind !== "shortcut" && parent[to] === -1) parent[to] = i;
  }
}
const label = (i) => {
  const type = types[snap.nodes[i * fields.length + TYPE]];
  if (type === "string" || type === "concatenated string" || type === "closure" || type === "code")
    return type;
  return `${type} ${String(snap.strings[snap.nodes[i * fields.length + NAME]]).slice(0, 40)}`;
};
const byOwner = new Map();
for (let i = 0; i < nodeCount; i++) {
  const p = parent[i];
  const owners = [];
  for (let q = p, d = 0; q !== -1 && d < 2; q = parent[q], d++) owners.push(label(q));
  const key = `${label(i)} < ${owners.join(" < ")}`;
  byOwner.set(key, (byOwner.get(key) ?? 0) + snap.nodes[i * fields.length + SIZE]);
}
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
console.log("\n| heap snapshot: node type | self MB |\n|---|---:|");
for (const [type, size] of top(byType, 12)) console.log(`| ${type} | ${mb(size)} |`);
console.log("\n| largest constructors / closures / arrays | self MB |\n|---|---:|");
for (const [key, size] of top(byName, 15)) console.log(`| ${key} | ${mb(size)} |`);
console.log("\n| node < its retainer < the retainer's (first strong edge) | self MB |\n|---|---:|");
for (const [key, size] of top(byOwner, 15)) console.log(`| ${key.replace(/\|/g, " ")} | ${mb(size)} |`);
console.log("\n| strings over 200 kB | MB | begins with |\n|---|---:|---|");
for (const [size, text] of bigStrings.sort((a, b) => b[0] - a[0]).slice(0, 15))
  console.log(`| string | ${mb(size)} | \`${text.replace(/[|`]/g, " ")}\` |`);
process.exit(0);
