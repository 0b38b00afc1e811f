import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { ADMIN, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_SECONDS, cpuSeconds, login } from "./lib.js";
import { npmStart, pgDatabase, rssMb, seedContacts, spawnServer } from "./start.js";

/**
 * Issue 21: what node/V8 flags and malloc settings cost and save on the compiled server, on
 * PostgreSQL and on PGlite. Each variant is started BENCH_ROUNDS times, interleaved with the others,
 * on one seeded database of its kind (a later start): RSS when /api/ready first answers, then BENCH_CONNECTIONS clients read the contact list
 * and a contact for BENCH_SECONDS each (peak RSS sampled every 100 ms, req/s, the server's own CPU
 * ms per request, which other load on the machine barely moves). Medians of the rounds.
 * BENCH_MEMORY_VARIANTS picks variants by name (comma-separated).
 */
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";

interface Variant {
  name: string;
  database: "postgres" | "pglite";
  kind: "compiled" | "launcher";
  nodeArgs?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

const NPM_START = npmStart();

// Not measured: --lite-mode turns WebAssembly off, which fetch (undici) and PGlite need: the server
// fails at its first fetch.
const VARIANTS: Variant[] = [
  // `node dist/main.js` with no flag: V8's defaults (16 MB semi-spaces on 64-bit).
  { name: "node dist/main.js", database: "postgres", kind: "compiled" },
  // What `npm start` runs: scripts/start.mjs with package.json's node flags and environment.
  { name: "npm start", database: "postgres", kind: "launcher", ...NPM_START },
  // npm start without its fixed malloc threshold (ADR 046): glibc raises it, and the top of its heap
  // it keeps, after the start frees its large blocks.
  {
    name: "npm start with glibc's dynamic mmap threshold",
    database: "postgres",
    kind: "launcher",
    nodeArgs: NPM_START.nodeArgs,
  },
  {
    name: "npm start with MALLOC_TRIM_THRESHOLD_=1048576 instead",
    database: "postgres",
    kind: "launcher",
    nodeArgs: NPM_START.nodeArgs,
    env: { MALLOC_TRIM_THRESHOLD_: "1048576" },
  },
  { name: "semi-space 1", database: "postgres", kind: "compiled", nodeArgs: ["--max-semi-space-size=1"] },
  { name: "semi-space 2", database: "postgres", kind: "compiled", nodeArgs: ["--max-semi-space-size=2"] },
  { name: "semi-space 4", database: "postgres", kind: "compiled", nodeArgs: ["--max-semi-space-size=4"] },
  { name: "semi-space 8", database: "postgres", kind: "compiled", nodeArgs: ["--max-semi-space-size=8"] },
  { name: "optimize-for-size", database: "postgres", kind: "compiled", nodeArgs: ["--optimize-for-size"] },
  { name: "max-old-space 96", database: "postgres", kind: "compiled", nodeArgs: ["--max-old-space-size=96"] },
  { name: "MALLOC_ARENA_MAX=2", database: "postgres", kind: "compiled", env: { MALLOC_ARENA_MAX: "2" } },
  // On top of npm start's flags (ADR 044): fewer V8 helper threads, no background GC, and no eager
  // compilation of functions V8 guesses are called at once; glibc giving freed memory back.
  {
    name: "v8-pool-size 1",
    database: "postgres",
    kind: "compiled",
    nodeArgs: [...NPM_START.nodeArgs, "--v8-pool-size=1"],
    env: NPM_START.env,
  },
  {
    name: "v8-pool-size 1 + single-threaded GC + max-lazy",
    database: "postgres",
    kind: "compiled",
    nodeArgs: [...NPM_START.nodeArgs, "--v8-pool-size=1", "--single-threaded-gc", "--max-lazy"],
    env: NPM_START.env,
  },
  {
    name: "MALLOC_TRIM_THRESHOLD_=0",
    database: "postgres",
    kind: "compiled",
    nodeArgs: NPM_START.nodeArgs,
    env: { MALLOC_TRIM_THRESHOLD_: "0" },
  },
  // PGlite's WebAssembly on V8's baseline code only (the default since ADR 038) or optimized too.
  { name: "PGlite: npm start", database: "pglite", kind: "launcher", ...NPM_START },
  { name: "PGlite: node dist/main.js", database: "pglite", kind: "compiled" },
  {
    name: "PGlite: PGLITE_WASM_OPTIMIZE=true",
    database: "pglite",
    kind: "compiled",
    env: { PGLITE_WASM_OPTIMIZE: "true" },
  },
  {
    name: "PGlite: MALLOC_ARENA_MAX=1",
    database: "pglite",
    kind: "compiled",
    env: { MALLOC_ARENA_MAX: "1" },
  },
];

/**
 * BENCH_BASELINE_DIR: another checkout (e.g. a worktree of main with its dist/ built) whose server
 * runs as `npm start` runs it, interleaved with this one's: before and after in the same rounds.
 */
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;
const IDLE_SECONDS = Number(process.env.BENCH_MEMORY_IDLE_SECONDS ?? 0);
if (BASELINE_DIR) {
  VARIANTS.push(
    {
      name: "baseline: npm start",
      database: "postgres",
      kind: "compiled",
      ...npmStart(BASELINE_DIR),
      cwd: BASELINE_DIR,
    },
    {
      name: "PGlite baseline: npm start",
      database: "pglite",
      kind: "compiled",
      ...npmStart(BASELINE_DIR),
      cwd: BASELINE_DIR,
    },
  );
}

interface Round {
  start: number;
  startPrivate: number;
  startPss: number;
  startCpu: number;
  /** The first authenticated request after /api/ready: wall ms, server CPU ms, RSS MB after it. */
  firstMs: number;
  firstCpuMs: number;
  afterFirst: number;
  /** After BENCH_MEMORY_IDLE_SECONDS without requests (0: none). */
  afterIdle: number;
  peak: number;
  after: number;
  listRps: number;
  detailRps: number;
  cpuMsPerRequest: number;
}

/** Private and proportional (PSS) memory of a process, MB: its RSS without node's shared pages. */
function smapsMb(pid: number) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (field: RegExp) => [...rollup.matchAll(field)].reduce((a, m) => a + Number(m[1]), 0);
  return {
    privateMb: Math.round(kb(/^Private_(?:Clean|Dirty):\s+(\d+) kB/gm) / 1024),
    pssMb: Math.round(kb(/^Pss:\s+(\d+) kB/gm) / 1024),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function load(url: string, jwt: string) {
  const result = await autocannon({
    url,
    connections: BENCH_CONNECTIONS,
    duration: BENCH_SECONDS,
    headers: { authorization: `Bearer ${jwt}` },
  });
  if (result.errors + result.non2xx) throw new Error(`${url}: ${result.errors + result.non2xx} errors`);
  return { rps: result.requests.average, total: result.requests.total };
}

async function seed(env: Record<string, string>) {
  const server = await spawnServer("compiled", env, []);
  try {
    const jwt = await login(server.base);
    const contact = await seedContacts(server.base, jwt);
    return { jwt, contact };
  } finally {
    await server.stop();
  }
}

async function runVariant(variant: Variant, env: Record<string, string>, jwt: string, contact: string) {
  const server = await spawnServer(
    variant.kind,
    { ...env, ...variant.env },
    variant.nodeArgs ?? [],
    variant.cwd,
  );
  try {
    const start = server.rss;
    const { privateMb, pssMb } = smapsMb(server.pid);
    const firstCpu = cpuSeconds(server.pid);
    const firstStarted = performance.now();
    const first = await fetch(`${server.base}/api/clients/${contact}`, {
      headers: { authorization: `Bearer ${jwt}` },
    });
    if (!first.ok) throw new Error(`first request: ${first.status}`);
    await first.arrayBuffer();
    const firstMs = performance.now() - firstStarted;
    const firstCpuMs = (cpuSeconds(server.pid) - firstCpu) * 1000;
    const afterFirst = rssMb(server.pid);
    // BENCH_MEMORY_IDLE_SECONDS: the load starts after the server sat idle that long, when V8's memory
    // reducer has run by itself (~10-20 s): the state a server is in after any quiet spell.
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const afterIdle = rssMb(server.pid);
    const cpuBefore = cpuSeconds(server.pid);
    let peak = start;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 100);
    const list = await load(`${server.base}/api/clients?limit=50`, jwt);
    const detail = await load(`${server.base}/api/clients/${contact}`, jwt);
    clearInterval(sampler);
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    return {
      start,
      startPrivate: privateMb,
      startPss: pssMb,
      startCpu: server.cpu,
      firstMs,
      firstCpuMs,
      afterFirst,
      afterIdle,
      peak: Math.max(peak, rssMb(server.pid)),
      after: rssMb(server.pid),
      listRps: list.rps,
      detailRps: detail.rps,
      cpuMsPerRequest: (cpu * 1000) / (list.total + detail.total),
    } satisfies Round;
  } finally {
    await server.stop();
  }
}

export async function benchMemory() {
  const wanted = process.env.BENCH_MEMORY_VARIANTS?.split(",").map((s) => s.trim());
  const variants = wanted ? VARIANTS.filter((v) => wanted.includes(v.name)) : VARIANTS;
  const admin = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
  const dataDir = mkdtempSync(join(tmpdir(), "cuadra-bench-memory-"));
  const postgresDataDir = mkdtempSync(join(tmpdir(), "cuadra-bench-memory-pg-"));
  try {
    const envs = {
      // DATA_DIR on PostgreSQL too: the local-server file goes there, not into a baseline checkout.
      postgres: {
        DATABASE_URL: await pgDatabase("cuadra_bench_memory"),
        DATA_DIR: postgresDataDir,
        JWT_SECRET: SECRET,
        ...admin,
      },
      pglite: { DATA_DIR: dataDir, JWT_SECRET: SECRET, ...admin },
    };
    const seeded = {
      postgres: variants.some((v) => v.database === "postgres") ? await seed(envs.postgres) : undefined,
      pglite: variants.some((v) => v.database === "pglite") ? await seed(envs.pglite) : undefined,
    };
    const rounds = new Map<string, Round[]>(variants.map((v) => [v.name, []]));
    for (let i = 0; i < BENCH_ROUNDS; i++) {
      for (const variant of variants) {
        const data = seeded[variant.database];
        if (!data) continue;
        rounds
          .get(variant.name)
          ?.push(await runVariant(variant, envs[variant.database], data.jwt, data.contact));
      }
    }
    printRounds(variants, rounds);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(postgresDataDir, { recursive: true, force: true });
  }
}

function printRounds(variants: Variant[], rounds: Map<string, Round[]>) {
  console.log(
    `\n## memory: node/V8 flags on the compiled server (${BENCH_CONNECTIONS} clients, ${BENCH_SECONDS} s per route, medians of ${BENCH_ROUNDS} interleaved rounds)`,
  );
  console.log(
    `| variant | database | RSS after start MB (private, PSS) | start CPU s | first request ms (server CPU ms) | RSS after it MB | RSS after ${IDLE_SECONDS} s idle MB | peak RSS under load MB | RSS after load MB | list req/s | detail req/s | server CPU ms/req |`,
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const variant of variants) {
    const rs = rounds.get(variant.name) ?? [];
    const m = (f: (r: Round) => number) => median(rs.map(f));
    console.log(
      `| ${variant.name} | ${variant.database} | ${m((r) => r.start)} (${m((r) => r.startPrivate)}, ${m((r) => r.startPss)}) | ${m((r) => r.startCpu).toFixed(2)} | ${m((r) => r.firstMs).toFixed(0)} (${m((r) => r.firstCpuMs).toFixed(0)}) | ${m((r) => r.afterFirst)} | ${m((r) => r.afterIdle)} | ${m((r) => r.peak)} | ${m((r) => r.after)} | ${m((r) => r.listRps).toFixed(0)} | ${m((r) => r.detailRps).toFixed(0)} | ${m((r) => r.cpuMsPerRequest).toFixed(3)} |`,
    );
  }
}
