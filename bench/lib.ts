import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp } from "../src/app/build.js";
import { loadConfig } from "../src/config.js";
import { type DatabaseHandle, openDatabase } from "../src/platform/db/client.js";
import { singleTenant } from "../src/platform/db/tenancy.js";
import { prepareDatabase } from "../src/runtime/database.js";

export const BENCH_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const BENCH_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const BENCH_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const ADMIN = { email: "bench-admin@example.com", password: "bench-password-1" };
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";

export interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /**
   * CPU milliseconds the bench process (server and load generator: both run in it) spent per
   * request: far less moved by other load on the machine than req/s. PostgreSQL's are not counted.
   */
  cpuMs?: number;
  /** Requests completed in the measurement. */
  requests?: number;
}

/** CPU milliseconds this process used since `since` (process.cpuUsage()). */
export const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** A fresh PostgreSQL database for the bench (dropped first if it exists). */
export async function freshDatabase(
  name: string,
  logQuery?: (query: string, params: unknown[]) => void,
): Promise<{ url: string; handle: DatabaseHandle }> {
  const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 20, logQuery });
  await prepareDatabase(handle, url.toString(), { adminEmail: ADMIN.email, adminPassword: ADMIN.password });
  return { url: url.toString(), handle };
}

export async function startApp(
  handle: DatabaseHandle,
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; base: string }> {
  const config = loadConfig({ NODE_ENV: "production", LOG_LEVEL: "silent", JWT_SECRET: SECRET, ...env });
  const app = await buildApp({ config: { ...config, jwtSecret: SECRET }, tenants: singleTenant(handle) });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, base: address };
}

export async function login(base: string, path = "/api/v1/auth/login"): Promise<string> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`bench login failed: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function measure(
  name: string,
  url: string,
  opts: {
    headers?: Record<string, string>;
    method?: "GET" | "POST";
    body?: string;
    connections?: number;
  } = {},
): Promise<Measured> {
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url,
    connections: opts.connections ?? BENCH_CONNECTIONS,
    duration: BENCH_SECONDS,
    method: opts.method ?? "GET",
    headers: opts.headers,
    body: opts.body,
  });
  const errors = result.errors + result.non2xx;
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    cpuMs: cpuMsSince(cpu) / Math.max(1, result.requests.total),
    requests: result.requests.total,
  };
}

export function report(title: string, rows: Measured[], ratios: [string, Measured, Measured][]) {
  console.log(`\n## ${title}`);
  console.log("| route | req/s | p50 ms | p99 ms | errors | CPU ms/req (bench process) |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const cpu = r.cpuMs === undefined ? "-" : r.cpuMs.toFixed(2);
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${cpu} |`);
  }
  for (const [label, a, b] of ratios) {
    const cpu = a.cpuMs && b.cpuMs ? ` (CPU per request ${(a.cpuMs / b.cpuMs).toFixed(2)}x)` : "";
    console.log(`ratio ${label}: ${(a.rps / b.rps).toFixed(2)}${cpu}`);
  }
}

/**
 * Runs the measurements interleaved for `rounds` rounds and keeps each one's median round (by
 * req/s), so background load on a shared machine hits every route alike.
 */
export async function measureInterleaved(
  targets: { name: string; url: string; opts?: Parameters<typeof measure>[2] }[],
  rounds = BENCH_ROUNDS,
): Promise<Measured[]> {
  const runs = new Map<string, Measured[]>();
  for (let i = 0; i < rounds; i++) {
    for (const t of targets)
      runs.set(t.name, [...(runs.get(t.name) ?? []), await measure(t.name, t.url, t.opts)]);
  }
  return targets.map((t) => {
    const sorted = [...(runs.get(t.name) ?? [])].sort((a, b) => a.rps - b.rps);
    return sorted[Math.floor(sorted.length / 2)];
  });
}

/** CPU seconds (user + system) the process has used: unlike wall time, barely moved by other load. */
export const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
};
