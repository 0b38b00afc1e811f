import type { FastifyPluginAsync } from "fastify";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { registerMcpHooks } from "./http.js";
import type { ResourceOptions } from "./resource-metadata.js";
import { sseRoutes } from "./sse.js";
import { streamableRoutes } from "./streamable.js";

/**
 * The read-only MCP server over HTTP, at /api/mcp: Streamable HTTP (stateless) at /api/mcp, the
 * legacy SSE transport at /api/mcp/sse + /api/mcp/messages/, and the local relay of `npm run mcp`.
 * With REDIS_URL, SSE messages reaching a node that does not hold the stream are relayed to the
 * node that does.
 */
export interface McpRoutesOptions {
  /** CORS_ORIGINS: the browser origins that may use the MCP server. */
  corsOrigins: readonly string[];
  /** REDIS_URL: relays SSE messages between nodes when set. */
  redisUrl?: string;
  tenants: TenantDirectory;
  /** PUBLIC_URL and BASE_DOMAIN: where the protected-resource metadata of each tenant lives. */
  resource: ResourceOptions;
}

export const mcpRoutes: FastifyPluginAsync<McpRoutesOptions> = async (app, options) => {
  registerMcpHooks(app, options.corsOrigins, options.resource);
  // ioredis (~20 MB) is imported only when REDIS_URL asks for the relay.
  const relay = options.redisUrl
    ? new (await import("./relay.js")).RedisRelay(options.redisUrl, app.log)
    : null;
  if (relay) app.addHook("onClose", () => relay.close());
  await sseRoutes(app, { tenants: options.tenants, relay });
  await streamableRoutes(app, { tenants: options.tenants, resource: options.resource });
};
