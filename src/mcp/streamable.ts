import { Readable } from "node:stream";
import type { AuthInfo, McpHttpHandler } from "@modelcontextprotocol/server";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { canUseMcpTool } from "../modules/api-tokens/index.js";
import type { DatabaseHandle } from "../platform/db/client.js";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { AppError, BadRequestError } from "../platform/http/errors.js";
import { lazyImport } from "../platform/lazy.js";
import { directPath, directRequest, serveDirect } from "./direct-path.js";
import { hijack, KEEP_ALIVE_MS, MCP_OAUTH_ROUTE } from "./http.js";
import { assertLocalCaller } from "./local-server-file.js";
import { mcpOpenApi } from "./openapi.js";
import { localPrincipal, type Principal, principalOfActor } from "./principal.js";
import { InsufficientScopeError, type ResourceOptions, resourceMetadataUrl } from "./resource-metadata.js";
import { loadMcpSdk, mcpSdk } from "./sdk.js";
import { createMcpServer, type ErrorLog } from "./server.js";
import { TOOLS } from "./tools/index.js";

/** What the per-request server factory needs, carried through the SDK's pass-through authInfo. */
interface Caller {
  principal: Principal;
  database: DatabaseHandle;
  tenantId: string;
  log: ErrorLog;
  /** The tools the request's tools/call messages name: the only ones it can reach. */
  tools: ReadonlySet<string>;
}

/** The tool names of the tools/call messages of a JSON-RPC body (one message or a batch). */
function calledTools(body: unknown): Set<string> {
  const names = new Set<string>();
  for (const message of [body].flat()) {
    if (!message || typeof message !== "object") continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (method === "tools/call" && typeof params?.name === "string") names.add(params.name);
  }
  return names;
}

const serverFor = (authInfo: AuthInfo | undefined) => {
  const caller = authInfo?.extra?.caller as Caller;
  return createMcpServer(
    {
      database: async () => caller.database,
      tenantId: caller.tenantId,
      principal: caller.principal,
      log: caller.log,
    },
    caller.tools,
  );
};

type Serve = (request: Request, authInfo: AuthInfo, parsedBody: unknown) => Promise<Response>;

/** The `_meta` key whose presence is the 2026-07-28 envelope claim (the SDK's PROTOCOL_VERSION_META_KEY). */
const ENVELOPE_CLAIM = "io.modelcontextprotocol/protocolVersion";

/**
 * Whether the SDK's classification sends this body down its modern (2026-07-28) path whatever
 * else it holds: one message (not a batch) naming a method other than `initialize`, whose
 * `params._meta` carries the envelope claim. The modern path then serves it or answers its
 * validation error. Such requests skip the first classification (the handler classifies anyway);
 * every other body is classified by the SDK's own isLegacyRequest.
 */
export function claimsModernEra(body: unknown): boolean {
  if (!body || typeof body !== "object" || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { _meta?: unknown } };
  if (typeof method !== "string" || method === "initialize") return false;
  const meta = params && typeof params === "object" ? params._meta : undefined;
  return !!meta && typeof meta === "object" && !Array.isArray(meta) && ENVELOPE_CLAIM in meta;
}

/**
 * One entry for both protocol eras, each request served by a fresh server (any node answers any
 * request; no session, so GET and DELETE answer 405): 2026-07-28 requests (a `_meta` envelope,
 * `server/discover`) by the SDK's handler, 2025-era requests (`initialize`) by the SDK's own
 * classification routed to a stateless transport answering plain JSON, as this endpoint always did
 * (the SDK's built-in stateless fallback would answer every 2025 request with an SSE stream).
 */
async function mcpEntry(log: ErrorLog): Promise<{ serve: Serve; close: () => Promise<void> }> {
  const { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } = await loadMcpSdk();
  const modern: McpHttpHandler = createMcpHandler(({ authInfo }) => serverFor(authInfo), {
    legacy: "reject",
    keepAliveMs: KEEP_ALIVE_MS,
    onerror: (err) => log.error({ err }, "MCP request rejected or failed"),
  });
  const legacy: Serve = async (request, authInfo, parsedBody) => {
    const server = serverFor(authInfo);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { authInfo, parsedBody });
    } finally {
      void transport.close();
      void server.close();
    }
  };
  return {
    serve: async (request, authInfo, parsedBody) =>
      !claimsModernEra(parsedBody) && (await isLegacyRequest(request, parsedBody))
        ? legacy(request, authInfo, parsedBody)
        : modern.fetch(request, { authInfo, parsedBody }),
    close: () => modern.close(),
  };
}

/**
 * The Fastify request as the web-standard Request the SDK serves: headers and URL only, since the
 * SDK is handed the body Fastify already parsed (`parsedBody`) and never reads it again.
 */
function webRequest(request: FastifyRequest, abort: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, String(one));
  }
  const url = `${request.protocol}://${request.host}${request.url}`;
  return new Request(url, { method: request.method, headers, signal: abort });
}

/** A stateless tools/call or tools/list the direct path answers (ADR 042); anything else, the SDK. */
async function serve(
  entry: { serve: Serve },
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
) {
  const direct = directPath.enabled ? directRequest(mcpSdk(), request.headers, request.body) : undefined;
  if (direct) {
    const caller = {
      principal,
      database: request.tenant.handle,
      tenantId: request.tenant.id,
      log: request.log,
    };
    if (await serveDirect(direct, caller, reply)) return;
  }
  return serveBySdk(entry, request, reply, principal);
}

async function serveBySdk(
  entry: { serve: Serve },
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
) {
  if (request.body === undefined) {
    throw new BadRequestError("The body must be a JSON-RPC message (or a batch of them)", [
      { path: "body", message: "is empty" },
    ]);
  }
  const caller: Caller = {
    principal,
    database: request.tenant.handle,
    tenantId: request.tenant.id,
    log: request.log,
    tools: calledTools(request.body),
  };
  const abort = new AbortController();
  const raw = hijack(reply);
  // A client gone before its answer aborts the call; an answer written in full has nothing to
  // abort (an abort then would only build a DOMException and run listeners, per request).
  raw.on("close", () => {
    if (!raw.writableFinished) abort.abort();
  });
  try {
    const authInfo: AuthInfo = {
      token: "",
      clientId: principal.tokenId ?? "local",
      scopes: [...principal.scopes],
      extra: { caller },
    };
    const response = await entry.serve(webRequest(request, abort.signal), authInfo, request.body);
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      headers[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
    });
    if (!response.body || response.headers.get("content-type")?.startsWith("application/json")) {
      // A JSON answer is complete when the SDK returns it: written at once, no stream adapter.
      const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
      raw.writeHead(response.status, body ? { ...headers, "content-length": String(body.length) } : headers);
      raw.end(body);
      return;
    }
    raw.writeHead(response.status, headers);
    Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).pipe(raw);
  } catch (err) {
    request.log.error({ err }, "MCP Streamable HTTP request failed");
    if (!raw.headersSent) raw.writeHead(500, { "content-type": "application/json" });
    raw.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null }));
  }
}

const TOOL_SCOPES = new Map(TOOLS.map((tool) => [tool.name, tool.access.scope]));

/**
 * Over HTTP a tool call the token's scopes do not cover is refused before it is served: 403
 * `insufficient_scope` naming the scope, so an OAuth client can ask the user for it (step-up).
 * Tools the token may call but its user may not still answer in-band, as over SSE and stdio.
 */
function assertScopes(request: FastifyRequest, principal: Principal, resource: ResourceOptions) {
  for (const name of calledTools(request.body)) {
    const scope = TOOL_SCOPES.get(name);
    if (scope && !canUseMcpTool(principal.scopes, scope)) {
      throw new InsufficientScopeError(name, scope, resourceMetadataUrl(resource, request.tenant.id));
    }
  }
}

const methodNotAllowed = async () => {
  throw new AppError(
    405,
    "This MCP endpoint is stateless: send JSON-RPC with POST (no GET stream, no session)",
    { headers: { allow: "POST" } },
  );
};

export async function streamableRoutes(
  app: FastifyInstance,
  options: { tenants: TenantDirectory; resource: ResourceOptions },
) {
  // Made by the first MCP request, which imports the SDK (src/mcp/sdk.ts).
  let made: Awaited<ReturnType<typeof mcpEntry>> | undefined;
  const handler = lazyImport(async () => {
    made = await mcpEntry(app.log);
    return made;
  });
  app.addHook("onClose", async () => made?.close());
  app.post("/", { config: MCP_OAUTH_ROUTE, schema: mcpOpenApi.post }, (request, reply) => {
    const principal = principalOfActor(request.actor!);
    assertScopes(request, principal, options.resource);
    return handler().then((entry) => serve(entry, request, reply, principal));
  });
  for (const method of ["GET", "DELETE"] as const) {
    app.route({
      method,
      url: "/",
      config: MCP_OAUTH_ROUTE,
      schema: method === "GET" ? mcpOpenApi.get : mcpOpenApi.delete,
      handler: methodNotAllowed,
    });
  }

  const local = { config: { auth: "public" as const }, schema: { hide: true } };
  app.post(
    "/local",
    {
      ...local,
      preHandler: assertLocalCaller(options.tenants, { access: "Local MCP access", key: "local MCP key" }),
    },
    (request, reply) => handler().then((entry) => serve(entry, request, reply, localPrincipal())),
  );
  for (const method of ["GET", "DELETE"] as const) {
    app.route({
      method,
      url: "/local",
      ...local,
      preHandler: assertLocalCaller(options.tenants, { access: "Local MCP access", key: "local MCP key" }),
      handler: methodNotAllowed,
    });
  }
}
