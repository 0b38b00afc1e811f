import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { AppError, BadRequestError, ForbiddenError, UnauthorizedError } from "../platform/http/errors.js";
import { bearerOf, hijack, MCP_ROUTE } from "./http.js";
import { isLocalKey } from "./local-server-file.js";
import { localPrincipal, type Principal, principalOfActor } from "./principal.js";
import { createMcpServer } from "./server.js";

/**
 * Stateless Streamable HTTP: a fresh server and transport per POST, so any node answers any
 * request. No session is issued, so there is no GET stream and nothing to DELETE (405, as the
 * 2025-11-25 specification allows).
 */
async function serve(request: FastifyRequest, reply: FastifyReply, principal: Principal) {
  if (request.body === undefined) {
    throw new BadRequestError("The body must be a JSON-RPC message (or a batch of them)", [
      { path: "body", message: "is empty" },
    ]);
  }
  const db = request.tenant.handle.db;
  const server = createMcpServer({
    db: async () => db,
    tenantId: request.tenant.id,
    principal,
    log: request.log,
  });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const raw = hijack(reply);
  raw.on("close", () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, raw, request.body);
  } catch (err) {
    request.log.error({ err }, "MCP Streamable HTTP request failed");
    if (!raw.headersSent) raw.writeHead(500, { "content-type": "application/json" });
    raw.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null }));
  }
}

const methodNotAllowed = async () => {
  throw new AppError(
    405,
    "This MCP endpoint is stateless: send JSON-RPC with POST (no GET stream, no session)",
    {
      headers: { allow: "POST" },
    },
  );
};

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** The local relay key (npm run mcp next to a running server): from this machine only, never proxied. */
function assertLocal(tenants: TenantDirectory) {
  return async (request: FastifyRequest) => {
    const proxied = ["x-forwarded-for", "forwarded", "x-real-ip"].some(
      (h) => request.headers[h] !== undefined,
    );
    if (proxied || !LOOPBACK.test(request.socket.remoteAddress ?? "")) {
      throw new ForbiddenError("Local MCP access is accepted only from this machine");
    }
    const key = bearerOf(request);
    if (!key || !isLocalKey(tenants, key)) throw new UnauthorizedError("Invalid local MCP key");
  };
}

export async function streamableRoutes(app: FastifyInstance, options: { tenants: TenantDirectory }) {
  const tags = ["mcp"];
  app.post(
    "/",
    {
      config: MCP_ROUTE,
      schema: { tags, summary: "MCP Streamable HTTP endpoint (stateless, JSON responses)" },
    },
    (request, reply) => serve(request, reply, principalOfActor(request.actor!)),
  );
  for (const method of ["GET", "DELETE"] as const) {
    app.route({
      method,
      url: "/",
      config: MCP_ROUTE,
      schema: { tags, summary: "Not offered by this stateless endpoint (405)" },
      handler: methodNotAllowed,
    });
  }

  const local = { config: { auth: "public" as const }, schema: { hide: true } };
  app.post("/local", { ...local, preHandler: assertLocal(options.tenants) }, (request, reply) =>
    serve(request, reply, localPrincipal()),
  );
  for (const method of ["GET", "DELETE"] as const) {
    app.route({
      method,
      url: "/local",
      ...local,
      preHandler: assertLocal(options.tenants),
      handler: methodNotAllowed,
    });
  }
}
