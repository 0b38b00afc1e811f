import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { distIsCurrent } from "../scripts/server-build.mjs";
import { currentTemplate, TEMPLATE_DIR } from "../src/platform/db/template.js";
import { ADMIN, BENCH_CONNECTIONS, BENCH_SECONDS, cpuSeconds, login, measure } from "./lib.js";

/**
 * Issue 21: how long `npm start` takes to answer /api/ready and the server's RSS once it does,
 * compiled (dist/, what `npm start` runs) against the TypeScript sources through tsx (before).
 */
const ROOT = join(import.meta.dirname, "..");
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
const COMMANDS = {
  compiled: [process.execPath, "dist/main.js"],
  // What `npm start` runs (with the node flags it applies itself).
  launcher: [process.execPath, "scripts/start.mjs"],
  tsx: [process.execPath, "--import", "tsx", "src/main.ts"],
} as const;

/**
 * What `npm start` gives the server (package.json's start script, each `${VAR:-default}` at its
 * default): the environment variables set before `node` and node's flags. `root`: another
 * checkout (a baseline) with its own package.json.
 */
export function npmStart(root = ROOT): { env: Record<string, string>; nodeArgs: string[] } {
  const script: string = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start;
  const words = script.replace(/\$\{\w+:-([^}]*)\}/g, "$1").split(/\s+/);
  const node = words.indexOf("node");
  const env = Object.fromEntries(
    words.slice(0, node).map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]),
  );
  return { env, nodeArgs: words.slice(node + 1, words.indexOf("scripts/start.mjs")) };
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return line ? Math.round(Number(line[1]) / 1024) : Number.NaN;
};

/** The server as a child process, once /api/ready answered: seconds, CPU seconds and RSS MB by then. */
export async function spawnServer(
  kind: keyof typeof COMMANDS,
  env: Record<string, string>,
  nodeArgs?: string[],
  /** Another checkout with its own dist/ (a baseline), instead of this one. */
  cwd = ROOT,
) {
  const port = await freePort();
  const [cmd, ...entry] = COMMANDS[kind];
  // BENCH_NODE_ARGS: V8 or node flags for the server process instead of npm start's (e.g. --max-semi-space-size=4).
  const benchArgs = process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean);
  // Unless told otherwise, the server runs as `npm start` runs it: with its flags and environment.
  const start = npmStart(cwd);
  const asNpmStart = nodeArgs === undefined && benchArgs === undefined;
  const args = [...(nodeArgs ?? benchArgs ?? start.nodeArgs), ...entry];
  const started = performance.now();
  const child: ChildProcess = spawn(cmd, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PORT: String(port),
      ...(asNpmStart ? start.env : {}),
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const stop = async () => {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
  };
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${kind} start exited ${child.exitCode}: ${stderr}`);
      const up = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const seconds = (performance.now() - started) / 1000;
  const pid = child.pid as number;
  return { seconds, rss: rssMb(pid), cpu: cpuSeconds(pid), pid, base: `http://127.0.0.1:${port}`, stop };
}

async function startOnce(kind: keyof typeof COMMANDS, env: Record<string, string>) {
  const server = await spawnServer(kind, env);
  await server.stop();
  return { seconds: server.seconds, rss: server.rss, cpu: server.cpu };
}

export async function pgDatabase(name: string) {
  const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The first start on an empty PGlite DATA_DIR without the migrated template (initdb and every
 * migration, as before ADR 027: the template is moved aside meanwhile) and with it.
 */
export async function firstStartsPglite() {
  const hidden = `${TEMPLATE_DIR}.bench-hidden`;
  const once = async () => {
    const dir = mkdtempSync(join(tmpdir(), "cuadra-bench-first-"));
    try {
      return await startOnce("compiled", { DATA_DIR: dir });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  renameSync(TEMPLATE_DIR, hidden);
  let initdb: Awaited<ReturnType<typeof once>>;
  try {
    initdb = await once();
  } finally {
    renameSync(hidden, TEMPLATE_DIR);
  }
  return { initdb, template: await once() };
}

export async function benchStart() {
  if (!distIsCurrent()) throw new Error("dist/ is not current: run `npm run build:server` first");
  if (!currentTemplate())
    throw new Error("no PGlite template for these migrations: run `npm run build:server`");
  console.log(
    "\n## first start on an empty PGlite DATA_DIR, compiled (seconds to /api/ready, CPU s, RSS MB)",
  );
  console.log("| new database | first start s (CPU s) | RSS MB |");
  console.log("|---|---:|---:|");
  const first = await firstStartsPglite();
  for (const [how, r] of [
    ["initdb + migrations (no template)", first.initdb],
    ["migrated template", first.template],
  ] as const)
    console.log(`| ${how} | ${r.seconds.toFixed(1)} (${r.cpu.toFixed(1)}) | ${r.rss} |`);
  console.log("\n## start (seconds to the first 200 from /api/ready; RSS of the server process then)");
  console.log("| how | database | first start s (CPU s) | RSS MB | later start s (CPU s) | RSS MB |");
  console.log("|---|---|---:|---:|---:|---:|");
  const cell = (r: { seconds: number; cpu: number }) => `${r.seconds.toFixed(1)} (${r.cpu.toFixed(1)})`;
  for (const kind of ["compiled", "tsx"] as const) {
    if (kind === "tsx" && process.env.BENCH_START_TSX === "0") continue;
    const dir = mkdtempSync(join(tmpdir(), "cuadra-bench-start-"));
    try {
      const pglite = { DATA_DIR: dir };
      const first = await startOnce(kind, pglite);
      const later = await startOnce(kind, pglite);
      console.log(`| ${kind} | PGlite | ${cell(first)} | ${first.rss} | ${cell(later)} | ${later.rss} |`);
      const url = await pgDatabase(`cuadra_bench_start_${kind}`);
      const postgres = { DATA_DIR: dir, DATABASE_URL: url, JWT_SECRET: SECRET };
      const pgFirst = await startOnce(kind, postgres);
      const pgLater = await startOnce(kind, postgres);
      console.log(
        `| ${kind} | PostgreSQL | ${cell(pgFirst)} | ${pgFirst.rss} | ${cell(pgLater)} | ${pgLater.rss} |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  await rssUnderLoad();
}

/** A company and 200 contacts through the API; the first contact's id. */
export async function seedContacts(base: string, jwt: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`bench setup ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const company = await post("/api/companies", { name: "Bench SL", tax_id: "B12345674" });
  let first = "";
  for (let i = 0; i < 200; i++) {
    const created = await post("/api/clients", {
      company_id: company.id,
      contact_type: "customer",
      name: `Contact ${String(i).padStart(3, "0")}`,
      email: `contact${i}@example.com`,
      city: "Madrid",
    });
    first ||= created.id;
  }
  return first;
}

/**
 * RSS of the compiled server on PostgreSQL after start, then while BENCH_CONNECTIONS clients read
 * `GET /api/clients?limit=50` (200 contacts) for BENCH_SECONDS (peak, sampled every 100 ms), and
 * once they stopped (issue 21: < 150 MB under 10-client load).
 */
export async function rssUnderLoad() {
  const url = await pgDatabase("cuadra_bench_start_load");
  const server = await spawnServer("compiled", {
    DATABASE_URL: url,
    JWT_SECRET: SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  try {
    const jwt = await login(server.base);
    await seedContacts(server.base, jwt);
    const before = rssMb(server.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 100);
    const load = await measure(
      `GET /api/clients?limit=50, ${BENCH_CONNECTIONS} clients`,
      `${server.base}/api/clients?limit=50`,
      { headers: { authorization: `Bearer ${jwt}` } },
    );
    clearInterval(sampler);
    const after = rssMb(server.pid);
    console.log(`\n## RSS under load (compiled, PostgreSQL, ${BENCH_SECONDS} s)`);
    console.log(
      "| after start MB | after setup MB | peak under load MB | after load MB | req/s | p50 ms | errors |",
    );
    console.log("|---:|---:|---:|---:|---:|---:|---:|");
    console.log(
      `| ${server.rss} | ${before} | ${peak} | ${after} | ${load.rps.toFixed(0)} | ${load.p50} | ${load.errors} |`,
    );
  } finally {
    await server.stop();
  }
}
