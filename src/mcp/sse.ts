import type { ServerResponse } from "node:http";
import type { AuthInfo, JSONRPCMessage, McpServer } from "@modelcontextprotocol/server";
import type { SSEServerTransport } from "@modelcontextprotocol/server-legacy/sse";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from "../platform/http/errors.js";
import { directAnswer, directPath, directSessionCall } from "./direct-path.js";
import { bearerOf, hijack, KEEP_ALIVE_MS, MCP_ROUTE, tenantDatabase, tokenIdOf } from "./http.js";
import { mcpOpenApi } from "./openapi.js";
import { liveToken, type Principal, principalOfActor, refusal } from "./principal.js";
import type { RedisRelay } from "./relay.js";
import { loadMcpSdk, loadSseTransport, mcpSdk } from "./sdk.js";
import { createMcpServer } from "./server.js";
import { TOOLS } from "./tools/index.js";

/** Where the SSE stream tells the client to POST (the seed's path, with the trailing slash). */
export const MESSAGES_PATH = "/api/mcp/messages/";

interface SseSession {
  tenantId: string;
  tokenId: string | null;
  transport: SSEServerTransport;
  server: McpServer;
  /** The stream: what the direct path writes its answers on. */
  raw: ServerResponse;
  /** The tools the session's server calls (the others it answers with the refusal of the opening principal). */
  callable: ReadonlySet<string>;
  /** Ends the stream and forgets the session, here and in Redis. */
  close(): Promise<void>;
}

export interface SseOptions {
  tenants: TenantDirectory;
  relay: RedisRelay | null;
}

/** One assistant needs one stream; this bounds what a leaked or looping client can hold open. */
export const MAX_SESSIONS_PER_TOKEN = 20;

const relayDown = (request: FastifyRequest) => (err: unknown) => {
  request.log.error({ err }, "MCP relay: Redis unavailable");
  throw new ServiceUnavailableError("The MCP session relay is unavailable; retry shortly");
};

async function parseMessage(body: unknown): Promise<JSONRPCMessage> {
  const { parseJSONRPCMessage } = await loadMcpSdk();
  try {
    return parseJSONRPCMessage(body);
  } catch {
    throw new BadRequestError("The body is not a JSON-RPC 2.0 message", [
      { path: "body", message: "must be a JSON-RPC request, notification or response" },
    ]);
  }
}

const callableTools = (principal: Principal) =>
  new Set(TOOLS.filter((tool) => !refusal(principal, tool.name, tool.access)).map((tool) => tool.name));

/**
 * A tools/call of an initialized session answered by the direct path (ADR 042), on the stream as
 * the SDK would (accepted at once, answered when the tool is done); false when the session's
 * server must answer it.
 */
function answerDirectly(session: SseSession, request: FastifyRequest, principal: Principal): boolean {
  if (!directPath.enabled || session.server.server.getClientVersion() === undefined) return false;
  const call = directSessionCall(mcpSdk(), request.body);
  if (!call || !session.callable.has(call.name)) return false;
  const answer = directAnswer(call, {
    principal,
    database: request.tenant.handle,
    tenantId: request.tenant.id,
    log: request.log,
  });
  if (!answer) return false;
  directPath.served += 1;
  answer()
    .then((body) => {
      if (!session.raw.writableEnded) session.raw.write(`event: message\ndata: ${body}\n\n`);
    })
    .catch((err) => request.log.error({ err }, "MCP SSE tool call failed"));
  return true;
}

/**
 * The legacy HTTP+SSE transport (2024-11-05, deprecated by the specification; the SDK keeps it frozen
 * in @modelcontextprotocol/server-legacy): GET /sse opens a session, POST /messages/?sessionId= feeds it.
 */
export async function sseRoutes(app: FastifyInstance, options: SseOptions) {
  const { relay } = options;
  const sessions = new Map<string, SseSession>();

  app.get("/sse", { config: MCP_ROUTE, schema: mcpOpenApi.sse }, async (request, reply) => {
    const tokenId = tokenIdOf(request);
    const tenantId = request.tenant.id;
    const open = [...sessions.values()].filter((s) => s.tokenId === tokenId).length;
    if (open >= MAX_SESSIONS_PER_TOKEN) {
      throw new TooManyRequestsError(
        `This API token already holds ${open} open MCP sessions on this server: close some first`,
        KEEP_ALIVE_MS / 1000,
      );
    }
    const SSEServerTransport = await loadSseTransport();
    const database = tenantDatabase(options.tenants, request.headers.host);
    const principal = principalOfActor(request.actor!);
    const server = createMcpServer({
      database,
      tenantId,
      principal,
      log: request.log,
      current: liveToken(async () => (await database()).db, bearerOf(request)),
    });
    const raw = hijack(reply);
    const transport = new SSEServerTransport(MESSAGES_PATH, raw);
    const id = transport.sessionId;
    let keepAlive: NodeJS.Timeout | undefined;
    let closing: Promise<void> | null = null;
    const close = () => {
      closing ??= (async () => {
        clearInterval(keepAlive);
        sessions.delete(id);
        await server.close().catch(() => undefined);
        if (!raw.writableEnded) raw.end();
        await relay?.release(id).catch((err) => request.log.warn({ err }, "MCP relay: release failed"));
        request.log.info({ mcpSession: id }, "MCP SSE session closed");
      })();
      return closing;
    };
    raw.on("close", () => void close());
    // Registered here and in Redis before the endpoint is announced: the client may POST at once.
    const callable = callableTools(principal);
    sessions.set(id, { tenantId, tokenId, transport, server, raw, callable, close });
    if (relay) {
      const deliver = (message: unknown) => {
        transport.handleMessage(message).catch((err) => request.log.warn({ err }, "MCP relay: bad message"));
      };
      await relay
        .claim(id, { tokenId, tenant: tenantId }, deliver)
        .catch((err) => request.log.error({ err }, "MCP relay: this session is reachable on this node only"));
    }
    if (closing) {
      // The client left while the session was being advertised: withdraw it again.
      await closing;
      await relay?.release(id).catch(() => undefined);
      return;
    }
    await server.connect(transport);
    keepAlive = setInterval(() => {
      raw.write(": keepalive\n\n");
      relay?.refresh(id).catch((err) => request.log.warn({ err }, "MCP relay: refresh failed"));
    }, KEEP_ALIVE_MS);
    request.log.info({ mcpSession: id }, "MCP SSE session opened");
  });

  const messages = async (request: FastifyRequest<{ Querystring: { sessionId: string } }>) => {
    const id = request.query.sessionId;
    const tokenId = tokenIdOf(request);
    const message = await parseMessage(request.body);
    const local = sessions.get(id);
    if (local) {
      if (local.tenantId !== request.tenant.id) throw new NotFoundError("MCP session");
      if (local.tokenId !== tokenId)
        throw new ForbiddenError("This MCP session belongs to another API token");
      // The guard just read this token again: its calls act for the principal it found, at once.
      const principal = principalOfActor(request.actor!);
      const authInfo: AuthInfo = {
        token: "",
        clientId: principal.tokenId ?? "local",
        scopes: [...principal.scopes],
        extra: { principal },
      };
      if (!answerDirectly(local, request, principal))
        await local.transport.handleMessage(message, { authInfo });
      return;
    }
    if (!relay) throw new NotFoundError("MCP session");
    const owner = await relay.owner(id).catch(relayDown(request));
    if (!owner || owner.tenant !== request.tenant.id) throw new NotFoundError("MCP session");
    if (owner.tokenId !== tokenId) throw new ForbiddenError("This MCP session belongs to another API token");
    if (!(await relay.publish(id, message).catch(relayDown(request)))) throw new NotFoundError("MCP session");
  };

  const messageSchema = {
    ...mcpOpenApi.messages,
    querystring: z.object({
      sessionId: z.string().min(1).max(100).describe("The session id announced by GET /api/mcp/sse"),
    }),
  };
  // The seed announces the path with its trailing slash; the bare path is the same route, undocumented.
  const paths = [
    ["/messages/", { ...messageSchema, operationId: "sendMcpSseMessage" }],
    ["/messages", { ...messageSchema, hide: true }],
  ] as const;
  for (const [path, schema] of paths) {
    app.post(path, { config: MCP_ROUTE, schema }, async (request, reply) => {
      await messages(request as FastifyRequest<{ Querystring: { sessionId: string } }>);
      return reply.code(202).send();
    });
  }

  app.addHook("preClose", async () => {
    await Promise.all([...sessions.values()].map((session) => session.close()));
  });
}
