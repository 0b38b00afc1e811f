import type { FastifyPluginAsync } from "fastify";
import type { ModuleDeps } from "../app/deps.js";
import { registerMcpHooks } from "./http.js";
import { RedisRelay } from "./relay.js";
import { sseRoutes } from "./sse.js";
import { streamableRoutes } from "./streamable.js";

/**
 * The read-only MCP server over HTTP, at /api/mcp: Streamable HTTP (stateless) at /api/mcp, the
 * legacy SSE transport at /api/mcp/sse + /api/mcp/messages/, and the local relay of `npm run mcp`.
 * With REDIS_URL, SSE messages reaching a node that does not hold the stream are relayed to the
 * node that does.
 */
export const mcpRoutes: FastifyPluginAsync<ModuleDeps> = async (app, deps) => {
  registerMcpHooks(app, deps.config.corsOrigins);
  const relay = deps.config.redisUrl ? new RedisRelay(deps.config.redisUrl, app.log) : null;
  if (relay) app.addHook("onClose", () => relay.close());
  await sseRoutes(app, { tenants: deps.tenants, relay });
  await streamableRoutes(app, { tenants: deps.tenants });
};
