import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import {
  BENCH_CONNECTIONS,
  BENCH_ROUNDS,
  BENCH_SECONDS,
  cpuMsSince,
  cpuSeconds,
  type Measured,
  measure,
} from "./lib.js";

const PAGE = { limit: 50, offset: 0 };

/**
 * Tool calls per second of `list_contacts` (same page as REST) by BENCH_CONNECTIONS SDK v2 clients:
 * pinned to 2026-07-28, or speaking the 2025 protocol (the default, initialize).
 */
async function measureTool(name: string, connect: () => Transport, modern = false): Promise<Measured> {
  const clients = await Promise.all(
    Array.from({ length: BENCH_CONNECTIONS }, async () => {
      const client = new Client(
        { name: "cuadra-bench", version: "1" },
        modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
      );
      await client.connect(connect());
      return client;
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + BENCH_SECONDS * 1000;
  const started = Date.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < until) {
        const t0 = performance.now();
        const result = await client.callTool({ name: "list_contacts", arguments: PAGE }).catch(() => null);
        latencies.push(performance.now() - t0);
        if (!result || result.isError) errors += 1;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const cpuMs = cpuMsSince(cpu) / Math.max(1, latencies.length);
  await Promise.all(clients.map((client) => client.close()));
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))]);
  return {
    name,
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    cpuMs,
    requests: latencies.length,
  };
}

/** The server process: its CPU per request is read apart from the bench's own. */
interface BenchServer {
  base: string;
  token: string;
  pid: number;
}

/** A measurement with the server process's CPU milliseconds per request it served. */
type ServerMeasured = Measured & { serverCpuMs: number };

async function onServer(server: BenchServer, run: () => Promise<Measured>): Promise<ServerMeasured> {
  const before = cpuSeconds(server.pid);
  const measured = await run();
  const used = (cpuSeconds(server.pid) - before) * 1000;
  return { ...measured, serverCpuMs: used / Math.max(1, measured.requests ?? 0) };
}

function reportServer(
  title: string,
  rows: ServerMeasured[],
  ratios: [string, ServerMeasured, ServerMeasured][],
) {
  console.log(`\n## ${title}`);
  console.log("| route | req/s | p50 ms | p99 ms | errors | server CPU ms/req | bench process CPU ms/req |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const bench = r.cpuMs === undefined ? "-" : r.cpuMs.toFixed(2);
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.serverCpuMs.toFixed(2)} | ${bench} |`,
    );
  }
  for (const [label, a, b] of ratios) {
    console.log(
      `ratio ${label}: req/s ${(a.rps / b.rps).toFixed(2)}; ` +
        `server-side (REST CPU per request / this one's) ${(b.serverCpuMs / a.serverCpuMs).toFixed(2)}`,
    );
  }
}

const TARGET_KEYS = ["rest", "raw", "modern", "streamable", "sse"] as const;
type TargetKey = (typeof TARGET_KEYS)[number];

/** BENCH_MCP_TARGETS=rest,raw runs only those (more rounds in the same time); REST always runs. */
function chosenTargets(): TargetKey[] {
  const wanted = (process.env.BENCH_MCP_TARGETS ?? "").split(",").filter(Boolean);
  const unknown = wanted.filter((key) => !TARGET_KEYS.includes(key as TargetKey));
  if (unknown.length)
    throw new Error(`BENCH_MCP_TARGETS: unknown ${unknown.join(", ")}; known: ${TARGET_KEYS.join(", ")}`);
  return wanted.length
    ? TARGET_KEYS.filter((key) => key === "rest" || wanted.includes(key))
    : [...TARGET_KEYS];
}

/** The five measurements against one server: REST, the raw 2026-07-28 POST, and three SDK clients. */
function targetsOf(server: BenchServer): Record<TargetKey, () => Promise<Measured>> {
  const { base } = server;
  const headers = { authorization: `Bearer ${server.token}` };
  // The same call sent by autocannon, as REST is: the server's cost without the SDK client's.
  const call = { name: "list_contacts", arguments: PAGE };
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "cuadra-bench", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const endpoint = () =>
    new StreamableHTTPClientTransport(new URL("/api/mcp", base), { requestInit: { headers } });
  return {
    rest: () =>
      measure(
        `GET /api/clients?limit=${PAGE.limit}&skip=${PAGE.offset}`,
        `${base}/api/clients?limit=${PAGE.limit}&skip=${PAGE.offset}`,
        { headers },
      ),
    raw: () =>
      measure("POST /api/mcp tools/call, 2026-07-28 (raw)", `${base}/api/mcp`, {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": call.name,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { ...call, _meta: envelope },
        }),
      }),
    modern: () => measureTool("MCP list_contacts, 2026-07-28 (SDK v2 client)", endpoint, true),
    streamable: () => measureTool("MCP list_contacts, 2025 Streamable HTTP (SDK client)", endpoint),
    sse: () =>
      measureTool(
        "MCP list_contacts, SSE (SDK client)",
        () => new SSEClientTransport(new URL("/api/mcp/sse", base), { requestInit: { headers } }),
      ),
  };
}

/**
 * MCP tool calls per second against the REST route reading the same page, with the server's CPU
 * per request for each, on every server given (a baseline checkout beside this one): rounds
 * interleaved, each target run on each server in turn, each one's median round kept, so
 * background load hits all of them alike. Tokens need both the api_access and the mcp rules.
 */
export async function benchMcp(servers: { label: string; server: BenchServer }[]) {
  const runs = new Map<string, ServerMeasured[]>();
  const targets = servers.map(({ server }) => targetsOf(server));
  const keys = chosenTargets();
  for (let round = 0; round < BENCH_ROUNDS; round++) {
    for (const key of keys) {
      for (const [i, { label, server }] of servers.entries()) {
        const id = `${label}/${key}`;
        runs.set(id, [...(runs.get(id) ?? []), await onServer(server, targets[i]![key])]);
      }
    }
  }
  const median = (id: string) => {
    const sorted = [...runs.get(id)!].sort((a, b) => a.rps - b.rps);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const RATIO_LABELS: Record<Exclude<TargetKey, "rest">, string> = {
    raw: "2026-07-28 raw POST / REST",
    modern: "2026-07-28 / REST",
    streamable: "Streamable HTTP / REST",
    sse: "SSE / REST",
  };
  const results = servers.map(({ label }) => ({
    label,
    rows: keys.map((key) => median(`${label}/${key}`)),
  }));
  for (const { label, rows } of results) {
    const rest = rows[0]!;
    reportServer(
      `MCP${servers.length > 1 ? ` (${label})` : ""}: ${BENCH_CONNECTIONS} concurrent clients, ${BENCH_SECONDS} s each, median of ${BENCH_ROUNDS} interleaved rounds`,
      rows,
      keys.slice(1).map((key, i) => [RATIO_LABELS[key as Exclude<TargetKey, "rest">], rows[i + 1]!, rest]),
    );
  }
  return results;
}

/** Starts bench/mcp-server.ts of the checkout in `dir` (node + tsx, no npm wrapper: its pid is the server's). */
async function startServer(dir: string, database: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/mcp-server.ts"], {
    cwd: dir,
    env: { ...process.env, BENCH_MCP_DATABASE: database },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`${dir}/bench/mcp-server.ts exited ${code}`))),
  );
  const firstLine = new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once("line", resolve),
  );
  const ready = JSON.parse(await Promise.race([firstLine, exited])) as { base: string; token: string };
  exited.catch(() => undefined); // from here on, the exit is the one SIGTERM asks for
  return { ...ready, pid: child.pid!, child };
}

/**
 * `npm run bench -- mcp`: a fresh PostgreSQL database with one company and 200 contacts.
 * With BENCH_MCP_BASELINE=<another checkout> (its bench/mcp-server.ts and src/), that checkout's
 * server runs beside this one on its own database, measured in the same interleaved rounds.
 */
export async function benchMcpSection() {
  const baseline = process.env.BENCH_MCP_BASELINE;
  const started = [
    { label: "this checkout", ...(await startServer(join(import.meta.dirname, ".."), "cuadra_bench_mcp")) },
  ];
  try {
    if (baseline)
      started.unshift({
        label: `baseline ${baseline}`,
        ...(await startServer(baseline, "cuadra_bench_mcp_base")),
      });
    await benchMcp(started.map(({ label, child: _child, ...server }) => ({ label, server })));
  } finally {
    await Promise.all(
      started.map(({ child }) => {
        const closed = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        return closed;
      }),
    );
  }
}
