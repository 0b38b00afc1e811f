import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { isJSONRPCRequest, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { LocalServerInfo } from "./local-server-file.js";
import type { ErrorLog } from "./server.js";

type Fetch = typeof fetch;

const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * fetch over node:http, so the relay can send the tenant's Host header (fetch() ignores Host).
 * Enough for the MCP client transport: string bodies, streamed responses, abort signals.
 */
export function hostFetch(host: string | undefined): Fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers: Record<string, string> = Object.fromEntries(new Headers(init?.headers).entries());
      if (host) headers.host = host;
      const req = httpRequest(
        url,
        { method: init?.method ?? "GET", headers, signal: init?.signal ?? undefined },
        (res) => {
          const out = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of [value ?? []].flat()) out.append(name, one);
          }
          const status = res.statusCode ?? 502;
          if (NO_BODY.has(status)) res.resume();
          const body = NO_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status, headers: out }));
        },
      );
      req.on("error", reject);
      req.end(typeof init?.body === "string" ? init.body : undefined);
    });
}

/** The server of server.json when it is alive and answering; null otherwise (stale file). */
export async function findRunningServer(info: LocalServerInfo | null): Promise<LocalServerInfo | null> {
  if (!info) return null;
  try {
    process.kill(info.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  try {
    const res = await fetch(`${info.url}/api/health`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.ok ? info : null;
  } catch {
    return null;
  }
}

export interface RelayOptions {
  server: LocalServerInfo;
  /** Host header naming the tenant ({MCP_TENANT}.{BASE_DOMAIN}) in multi-tenant mode. */
  host?: string;
  /** MCP_AUTH_TOKEN: when set, the relay uses it (its scopes and company apply). */
  token?: string;
  log: ErrorLog & { info(message: string): void };
}

/** A ping, so a bad token or key fails at start (exit 1) rather than at the assistant's first call. */
async function probe(endpoint: URL, fetchFn: Fetch, authorization: string) {
  const res = await fetchFn(endpoint, {
    method: "POST",
    headers: {
      authorization,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
  });
  const text = await res.text();
  if (res.ok) return;
  let detail = text;
  try {
    detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
  } catch {}
  throw new Error(
    `The Cuadra server at ${endpoint.origin} refused the connection (HTTP ${res.status}): ${detail}`,
  );
}

/** stdin/stdout <-> the running server's Streamable HTTP endpoint, message for message. */
export async function relayStdio(o: RelayOptions): Promise<void> {
  const endpoint = new URL(o.token ? "/api/mcp" : "/api/mcp/local", o.server.url);
  const authorization = `Bearer ${o.token ?? o.server.key}`;
  const fetchFn = hostFetch(o.host);
  await probe(endpoint, fetchFn, authorization);
  const upstream = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization } },
    fetch: fetchFn,
  });
  await pipeStdio(upstream, o.server.url, o.log);
  o.log.info(`relaying to the server running at ${o.server.url} (${o.token ? "API token" : "local key"})`);
}

/** stdin/stdout <-> an upstream MCP transport, message for message; exits when either side ends. */
export async function pipeStdio(upstream: Transport, where: string, log: RelayOptions["log"]): Promise<void> {
  const local = new StdioServerTransport();
  const answerError = (message: JSONRPCMessage, err: unknown) => {
    log.error({ err }, "relay to the server failed");
    if (!isJSONRPCRequest(message)) return;
    const reason = err instanceof Error ? err.message : String(err);
    void local.send({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32603, message: `The Cuadra server at ${where} did not answer: ${reason}` },
    });
  };
  upstream.onmessage = (message) => {
    local.send(message).catch((err) => log.error({ err }, "could not write to stdout"));
  };
  upstream.onerror = (err) => log.error({ err }, "relay transport error");
  local.onmessage = (message) => {
    upstream.send(message).catch((err) => answerError(message, err));
  };
  let closed = false;
  const shutdown = async () => {
    if (closed) return;
    closed = true;
    await upstream.close().catch(() => undefined);
    process.exit(0);
  };
  local.onclose = () => void shutdown();
  upstream.onclose = () => void shutdown();
  process.stdin.on("end", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  await upstream.start();
  await local.start();
}
