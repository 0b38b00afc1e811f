import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { distIsCurrent } from "../scripts/server-build.mjs";
import { currentTemplate, TEMPLATE_DIR } from "../src/platform/db/template.js";
import { cpuSeconds } from "./lib.js";

/**
 * Issue 21: how long `npm start` takes to answer /api/ready and the server's RSS once it does,
 * compiled (dist/, what `npm start` runs) against the TypeScript sources through tsx (before).
 */
const ROOT = join(import.meta.dirname, "..");
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
const COMMANDS = {
  compiled: [process.execPath, "dist/main.js"],
  tsx: [process.execPath, "--import", "tsx", "src/main.ts"],
} as const;

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

async function startOnce(kind: keyof typeof COMMANDS, env: Record<string, string>) {
  const port = await freePort();
  const [cmd, ...args] = COMMANDS[kind];
  const started = performance.now();
  const child: ChildProcess = spawn(cmd, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PORT: String(port),
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
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
    const seconds = (performance.now() - started) / 1000;
    const rss = rssMb(child.pid as number);
    return { seconds, rss, cpu: cpuSeconds(child.pid as number) };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
  }
}

async function pgDatabase(name: string) {
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
}
