import { canUseMcpTool, resolveApiToken, WILDCARD_SCOPE } from "../modules/api-tokens/index.js";
import type { Actor } from "../platform/auth/actor.js";
import type { Db } from "../platform/db/client.js";

/** Who an MCP connection acts for: the actor the services scope by, and the token's access rules. */
export interface Principal {
  actor: Actor;
  /** The API token's access rules (resource_name values); ["*"] for unrestricted local access. */
  scopes: readonly string[];
  /** The API token (or OAuth grant) behind the connection; null for unrestricted local access (stdio). */
  tokenId: string | null;
}

/** What a tool needs: an access rule of the token and a read permission of the token's user. */
export interface ToolAccess {
  scope: string;
  permission: string;
}

/** The read permissions the MCP tools rely on (a token never reads more than its user could). */
export const MCP_READ_PERMISSIONS = [
  "clients:leer",
  "products:leer",
  "accounting:leer",
  "sales:leer",
  "purchases:leer",
  "tax:leer",
  "treasury:leer",
  "banking:leer",
  "budgets:leer",
  "certifications:leer",
  "companies:leer",
] as const;

/** The principal of an HTTP request the guard authenticated with an API token. */
export function principalOfActor(actor: Actor): Principal {
  return { actor, scopes: actor.scopes ?? [], tokenId: actor.apiTokenId ?? actor.oauthGrantId ?? null };
}

/** The principal of `token` read again from the database at each call, or why it no longer works. */
export function liveToken(db: () => Promise<Db>, token: string): () => Promise<Principal | string> {
  return async () => {
    const actor = await resolveApiToken(await db(), token);
    return actor
      ? principalOfActor(actor)
      : "The API token of this connection is no longer valid (deactivated or expired): reconnect with a valid one.";
  };
}

/**
 * Unrestricted local access (stdio without MCP_AUTH_TOKEN, or the local relay key): every tool,
 * every company of the tenant. Never reachable over the network.
 */
export function localPrincipal(): Principal {
  return {
    actor: {
      kind: "user",
      userId: "00000000-0000-0000-0000-000000000000",
      email: "local-mcp@localhost",
      fullName: "Local MCP access",
      permissions: new Set(MCP_READ_PERMISSIONS),
      roles: [],
      companyId: null,
    },
    scopes: [WILDCARD_SCOPE],
    tokenId: null,
  };
}

/** Why the principal may not use a tool, or null when it may. */
export function refusal(principal: Principal, toolName: string, access: ToolAccess): string | null {
  if (!canUseMcpTool(principal.scopes, access.scope)) {
    return (
      `The tool ${toolName} needs the access rule ${access.scope} (or mcp, or *), which this API token ` +
      `does not have. Ask an administrator for a token with --scope ${access.scope}, or use only the ` +
      "tools that tools/list shows."
    );
  }
  if (!principal.actor.permissions.has(access.permission)) {
    return (
      `The tool ${toolName} reads data that needs the permission ${access.permission}, which the user ` +
      `who created this API token (${principal.actor.email}) does not hold. Ask an administrator to ` +
      "grant it, or use only the tools that tools/list shows."
    );
  }
  return null;
}
