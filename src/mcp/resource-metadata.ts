import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { MCP_SCOPE } from "../modules/api-tokens/index.js";
import { AppError } from "../platform/http/errors.js";
import { type TenantUrlOptions, tenantBaseUrl } from "../platform/http/tenant-url.js";
import { TOOLS } from "./tools/index.js";

/**
 * Cuadra as an OAuth protected resource (RFC 9728, the MCP authorization specification): the
 * metadata document telling a client which authorization server issues tokens for /api/mcp, the
 * `WWW-Authenticate` challenge pointing at it, and the `insufficient_scope` refusal.
 */
export type ResourceOptions = TenantUrlOptions;
export { tenantBaseUrl };

export const MCP_PATH = "/api/mcp";
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** The scopes an MCP client may ask for: plain `mcp` (every tool) and one per tool area. */
export const MCP_SCOPES: readonly string[] = [
  ...new Set([MCP_SCOPE, ...TOOLS.map((tool) => tool.access.scope)]),
].sort();

const metadataSchema = z
  .object({
    resource: z.string().describe("The MCP endpoint of this tenant, the audience of its access tokens"),
    authorization_servers: z.array(z.string()).describe("The tenant's OAuth issuer"),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    resource_name: z.string(),
  })
  .describe("OAuth 2.0 Protected Resource Metadata (RFC 9728)");

export function resourceMetadata(options: ResourceOptions, tenantId: string) {
  const base = tenantBaseUrl(options, tenantId);
  return {
    resource: `${base}${MCP_PATH}`,
    authorization_servers: [base],
    scopes_supported: [...MCP_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Cuadra MCP server",
  };
}

/** Where a client reads the metadata of /api/mcp (the path-suffixed location RFC 9728 defines). */
export const resourceMetadataUrl = (options: ResourceOptions, tenantId: string) =>
  `${tenantBaseUrl(options, tenantId)}${RESOURCE_METADATA_PATH}${MCP_PATH}`;

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/** `WWW-Authenticate` of a 401 from the MCP routes; `error="invalid_token"` when one was sent. */
export function bearerChallenge(options: ResourceOptions, request: FastifyRequest): string {
  const parts = ['Bearer realm="cuadra"'];
  if (request.headers.authorization) parts.push('error="invalid_token"');
  parts.push(`resource_metadata=${quoted(resourceMetadataUrl(options, request.tenant.id))}`);
  return parts.join(", ");
}

/** A tool call whose token lacks the tool's scope (RFC 6750 `insufficient_scope`, 403). */
export class InsufficientScopeError extends AppError {
  constructor(toolName: string, scope: string, metadataUrl: string) {
    super(
      403,
      `The tool ${toolName} needs the scope ${scope} (or mcp), which this token does not have. ` +
        `Authorize again asking for ${scope}, or ask an administrator for an API token with --scope ${scope}.`,
      {
        code: "insufficient-scope",
        headers: {
          "www-authenticate":
            `Bearer realm="cuadra", error="insufficient_scope", scope=${quoted(scope)}, ` +
            `resource_metadata=${quoted(metadataUrl)}, ` +
            `error_description=${quoted(`The tool ${toolName} needs the scope ${scope}`)}`,
        },
        extensions: { scope },
      },
    );
  }
}

/** The public metadata routes, at the root of every tenant host. */
export function protectedResourceRoutes(app: FastifyInstance, options: ResourceOptions) {
  for (const url of [RESOURCE_METADATA_PATH, `${RESOURCE_METADATA_PATH}${MCP_PATH}`]) {
    app.get(
      url,
      {
        config: { auth: "public" },
        schema: { hide: true, response: { 200: metadataSchema } },
      },
      async (request, reply) => {
        reply.header("cache-control", "public, max-age=3600");
        return resourceMetadata(options, request.tenant.id);
      },
    );
  }
}
