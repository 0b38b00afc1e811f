import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DatabaseHandle } from "../platform/db/client.js";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../platform/http/errors.js";
import { bearerChallenge, type ResourceOptions } from "./resource-metadata.js";

/** Every MCP route over HTTP: API tokens only, with an MCP rule (checked by the guard). */
export const MCP_ROUTE = { auth: "authenticated", credentials: "mcp-token" } as const;

/** POST /api/mcp also takes the OAuth access tokens of assistants that signed in (docs/mcp.md). */
export const MCP_OAUTH_ROUTE = { auth: "authenticated", credentials: "mcp-token-or-oauth" } as const;

export const KEEP_ALIVE_MS = 15_000;

const QUERY_CREDENTIALS = ["token", "access_token", "api_key", "apikey", "key", "auth", "authorization"];

/**
 * Hooks of the MCP scope: credentials in the URL are refused (they leak into logs and proxies),
 * a browser Origin outside CORS_ORIGINS is refused (DNS-rebinding protection), and every 401
 * points the client at the protected-resource metadata (RFC 9728), where OAuth sign-in starts.
 */
export function registerMcpHooks(
  app: FastifyInstance,
  corsOrigins: readonly string[],
  resource: ResourceOptions,
) {
  app.addHook("onSend", async (request, reply, payload) => {
    if (reply.statusCode === 401 && request.tenant) {
      reply.header("www-authenticate", bearerChallenge(resource, request));
    }
    return payload;
  });
  app.addHook("onRequest", async (request) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const leaked = Object.keys(query).some((k) => QUERY_CREDENTIALS.includes(k.toLowerCase()));
    if (leaked) {
      throw new UnauthorizedError(
        "Credentials in the URL are refused: send the API token as Authorization: Bearer <API_TOKEN>",
      );
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !corsOrigins.includes(origin)) {
      throw new ForbiddenError(`Origin ${origin} may not use the MCP server (it is not in CORS_ORIGINS)`);
    }
  });

  // An empty body with a JSON content type (DELETE, some clients' POSTs) is no body, not a 400.
  const json = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (typeof body === "string" && body.trim() === "") return done(null, undefined);
    json(request, body as string, done);
  });
}

/**
 * Takes the raw response away from Fastify (no serializer, compression or hook may touch a stream)
 * keeping the headers Fastify already set (CORS, request id).
 */
export function hijack(reply: FastifyReply) {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
  }
  reply.raw.setHeader("X-Accel-Buffering", "no");
  reply.hijack();
  return reply.raw;
}

/** The request's tenant database, looked up again at each use. */
export function tenantDatabase(
  tenants: TenantDirectory,
  host: string | undefined,
): () => Promise<DatabaseHandle> {
  return async () => {
    const tenant = await tenants.resolve(host);
    if (!tenant) throw new NotFoundError("Tenant");
    return tenant.handle;
  };
}

/** The bearer credential of a request the guard already accepted. */
export function bearerOf(request: FastifyRequest): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
}

export function tokenIdOf(request: FastifyRequest): string | null {
  return request.actor?.apiTokenId ?? null;
}
