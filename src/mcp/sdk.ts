import type * as Server from "@modelcontextprotocol/server";
import { lazyImport } from "../platform/lazy.js";

export type McpSdk = typeof Server;

let loaded: McpSdk | undefined;

/**
 * The MCP SDK (~26 MB once loaded, with its own zod schemas) is imported by the first MCP request,
 * not at start (issue 21). Every entry into the MCP code awaits this before it builds a server.
 */
export const loadMcpSdk: () => Promise<McpSdk> = lazyImport(async () => {
  loaded = await import("@modelcontextprotocol/server");
  return loaded;
});

/** The legacy SSE transport (another ~20 MB), imported by the first SSE session only. */
export const loadSseTransport = lazyImport(async () => {
  const [{ SSEServerTransport }] = await Promise.all([
    import("@modelcontextprotocol/server-legacy/sse"),
    loadMcpSdk(),
  ]);
  return SSEServerTransport;
});

/** The SDK in synchronous code that runs only after loadMcpSdk() resolved (a request's server). */
export function mcpSdk(): McpSdk {
  if (!loaded) throw new Error("The MCP SDK is used before loadMcpSdk() resolved");
  return loaded;
}
