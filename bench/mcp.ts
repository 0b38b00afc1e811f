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
  freshDatabase,
  login,
  type Measured,
  measure,
  report,
  startApp,
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
  return { name, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors, cpuMs };
}

/**
 * MCP tool calls per second against the REST route reading the same page, same run.
 * `apiToken` needs both the api_access and the mcp rules.
 */
export async function benchMcp(base: string, apiToken: string): Promise<Measured[]> {
  const headers = { authorization: `Bearer ${apiToken}` };
  // The same call sent by autocannon, as REST is: the server's cost without the SDK client's.
  const call = { name: "list_contacts", arguments: PAGE };
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "cuadra-bench", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const endpoint = () =>
    new StreamableHTTPClientTransport(new URL("/api/mcp", base), { requestInit: { headers } });
  const targets: [string, () => Promise<Measured>][] = [
    [
      "rest",
      () =>
        measure(
          `GET /api/clients?limit=${PAGE.limit}&skip=${PAGE.offset}`,
          `${base}/api/clients?limit=${PAGE.limit}&skip=${PAGE.offset}`,
          { headers },
        ),
    ],
    [
      "raw",
      () =>
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
    ],
    ["modern", () => measureTool("MCP list_contacts, 2026-07-28 (SDK v2 client)", endpoint, true)],
    ["streamable", () => measureTool("MCP list_contacts, 2025 Streamable HTTP (SDK client)", endpoint)],
    [
      "sse",
      () =>
        measureTool(
          "MCP list_contacts, SSE (SDK client)",
          () => new SSEClientTransport(new URL("/api/mcp/sse", base), { requestInit: { headers } }),
        ),
    ],
  ];
  // Interleaved rounds, each target's median round kept: background load hits all of them alike.
  const runs = new Map<string, Measured[]>();
  for (let round = 0; round < BENCH_ROUNDS; round++) {
    for (const [key, run] of targets) runs.set(key, [...(runs.get(key) ?? []), await run()]);
  }
  const median = (key: string) => {
    const sorted = [...runs.get(key)!].sort((a, b) => a.rps - b.rps);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const [rest, rawModern, modern, streamable, sse] = targets.map(([key]) => median(key)) as [
    Measured,
    Measured,
    Measured,
    Measured,
    Measured,
  ];
  report(
    `MCP (${BENCH_CONNECTIONS} concurrent clients, ${BENCH_SECONDS} s each, median of ${BENCH_ROUNDS} interleaved rounds)`,
    [rest, rawModern, modern, streamable, sse],
    [
      ["2026-07-28 raw POST / REST", rawModern, rest],
      ["2026-07-28 / REST", modern, rest],
      ["Streamable HTTP / REST", streamable, rest],
      ["SSE / REST", sse, rest],
    ],
  );
  return [rest, rawModern, modern, streamable, sse];
}

/** `npm run bench -- mcp`: a fresh PostgreSQL database with one company and 200 contacts. */
export async function benchMcpSection() {
  const { handle } = await freshDatabase("cuadra_bench_mcp");
  const { app, base } = await startApp(handle);
  try {
    const jwt = await login(base);
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`bench setup ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; token?: string };
    };
    const company = await call("/api/companies", { name: "Bench SL", tax_id: "B12345674" });
    for (let i = 0; i < 200; i++) {
      await call("/api/clients", {
        company_id: company.id,
        contact_type: i % 3 === 0 ? "supplier" : "customer",
        name: `Contact ${String(i).padStart(3, "0")}`,
        email: `contact${i}@example.com`,
        city: "Madrid",
      });
    }
    const { token } = await call("/api/api-tokens", { name: "bench", scopes: ["api_access", "mcp"] });
    await benchMcp(base, token!);
  } finally {
    await app.close();
    await handle.close();
  }
}
