import type { FastifyInstance } from "fastify";
import type { Bc3Budget, Bc3Decomposition, Bc3Node } from "../src/modules/projects/index.js";
import { parseBc3, writeBc3 } from "../src/modules/projects/index.js";
import { freshDatabase, login, startApp } from "./lib.js";

const CHAPTERS = 10;

/** Components shared by the decomposed items (one ~C each, as in a real price base). */
const COMPONENTS: Bc3Decomposition[] = [
  { type: "labour", code: "MO.OF1", unit: "h", summary: "Oficial 1ª", yield: "0.35", price: "20.1500" },
  {
    type: "machinery",
    code: "MQ.RETRO",
    unit: "h",
    summary: "Retroexcavadora",
    yield: "0.05",
    price: "45.0000",
  },
  {
    type: "material",
    code: "MT.HORM",
    unit: "m3",
    summary: "Hormigón HA-25",
    yield: "1.05",
    price: "72.4000",
  },
];

function benchItem(chapter: number, index: number): Bc3Node {
  const measured = index % 5 === 0;
  const decomposed = index % 7 === 0;
  // Every 11th item places the same unit as chapter 1 (one concept, placed on every floor).
  const shared = chapter > 1 && index % 11 === 0;
  return {
    code: `E${String(shared ? 1 : chapter).padStart(2, "0")}.${String(index).padStart(4, "0")}`,
    kind: "item",
    unit: "m2",
    summary: `Partida ${index} del capítulo ${chapter}: solado de baldosa cerámica`,
    longText: index % 10 === 0 ? "Solado de baldosa de gres porcelánico, recibido con adhesivo C2." : "",
    quantity: measured ? "30.000" : `${(index % 97) + 1}.250`,
    unitPrice: decomposed ? "86.1725" : `${(index % 43) + 2}.3150`,
    measurements: measured
      ? [
          { label: "Planta baja", units: "2", length: "5", width: "2", height: null },
          { label: "Planta primera", units: null, length: "5", width: "2", height: null },
        ]
      : [],
    decomposition: decomposed ? COMPONENTS : [],
    children: [],
  };
}

/** A BC3 budget of `items` items spread over 10 chapters, some with measurements or decompositions. */
export function benchBudget(items: number, code: string): Bc3Budget {
  const perChapter = Math.ceil(items / CHAPTERS);
  const chapters: Bc3Node[] = [];
  for (let c = 1; c <= CHAPTERS; c++) {
    const count = Math.max(0, Math.min(perChapter, items - (c - 1) * perChapter));
    chapters.push({
      code: `C${String(c).padStart(2, "0")}`,
      kind: "chapter",
      unit: "",
      summary: `Capítulo ${c}`,
      longText: "",
      quantity: "1",
      unitPrice: "0",
      measurements: [],
      decomposition: [],
      children: Array.from({ length: count }, (_, i) => benchItem(c, i + 1)),
    });
  }
  return {
    code,
    name: `Benchmark ${items} partidas`,
    charset: "ANSI",
    root: { code, summary: "", children: chapters },
  };
}

function multipart(file: Buffer) {
  const boundary = `----cuadra-bench-${Date.now().toString(36)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bc3"\r\n`;
  return {
    payload: Buffer.concat([
      Buffer.from(`${head}Content-Type: application/octet-stream\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * Imports a generated BC3 file of `items` items through POST /api/v1/budgets/import-bc3 and returns how
 * long the request took (upload parsing, BC3 parsing and the bulk insert). `token` needs budgets:crear.
 */
export async function benchBc3Import(
  app: FastifyInstance,
  token: string,
  items = 5000,
): Promise<{ items: number; ms: number }> {
  const file = writeBc3(benchBudget(items, `BENCH-${Date.now().toString(36)}`));
  const { payload, headers } = multipart(file);
  const started = performance.now();
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/budgets/import-bc3",
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
  const ms = performance.now() - started;
  if (res.statusCode !== 201) throw new Error(`BC3 import failed: ${res.statusCode} ${res.body}`);
  return { items, ms };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

/**
 * GET /api/health over the socket, one after the other, while an import of `items` items runs
 * through HTTP too: the latencies other requests see while the server parses and stores the file.
 */
async function healthDuringImport(base: string, token: string, items: number) {
  const file = writeBc3(benchBudget(items, `BENCH-${Date.now().toString(36)}`));
  const { payload, headers } = multipart(file);
  const latencies: number[] = [];
  let importing = true;
  const started = performance.now();
  const upload = fetch(`${base}/api/v1/budgets/import-bc3`, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: payload,
  }).then(async (res) => {
    if (res.status !== 201) throw new Error(`BC3 import failed: ${res.status} ${await res.text()}`);
    return performance.now() - started;
  });
  upload.then(
    () => {
      importing = false;
    },
    () => {
      importing = false;
    },
  );
  let failed = 0;
  while (importing) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${base}/api/health`);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
    } catch {
      failed++; // counted, and reported: a failed health check is worse than a slow one
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const importMs = await upload;
  latencies.sort((a, b) => a - b);
  return {
    bytes: file.length,
    importMs,
    checks: latencies.length,
    failed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? 0,
  };
}

/** Parsing alone (no HTTP, no database), on the main thread: what the worker takes off it. */
function parseOnly(items: number) {
  const file = writeBc3(benchBudget(items, "PARSE"));
  const started = performance.now();
  const result = parseBc3(file);
  if (!result.ok) throw new Error(JSON.stringify(result.errors.slice(0, 3)));
  return performance.now() - started;
}

/**
 * Bench section (PostgreSQL, see lib.ts): parse timings, three imports of 5,000 items into a fresh
 * database, then /api/health latency during a 100,000-item import (BENCH_BC3_ITEMS to change it).
 */
export async function benchBc3() {
  const { handle } = await freshDatabase("cuadra_bench_bc3");
  const { app, base } = await startApp(handle, { MAX_UPLOAD_MB: "64" }); // 100,000 items: about 13 MB
  try {
    const token = await login(base);
    console.log("\n## BC3 parse (main thread, no database; target: 5,000 items well under 1 s)");
    for (const items of [5000, 20000]) console.log(`${items} items: ${parseOnly(items).toFixed(0)} ms`);
    console.log("\n## BC3 import (target: 5,000 items well under 5 s)");
    for (let run = 1; run <= 3; run++) {
      const { items, ms } = await benchBc3Import(app, token);
      console.log(`run ${run}: ${items} items in ${ms.toFixed(0)} ms`);
    }
    const big = Number(process.env.BENCH_BC3_ITEMS ?? 100_000);
    console.log(`\n## /api/health while importing ${big} items (parsed in a worker thread)`);
    const r = await healthDuringImport(base, token, big);
    console.log(
      `file ${(r.bytes / 1024 / 1024).toFixed(1)} MB imported in ${(r.importMs / 1000).toFixed(1)} s; ` +
        `${r.checks} health checks (${r.failed} failed): p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms`,
    );
  } finally {
    await app.close();
    await handle.close();
  }
}
