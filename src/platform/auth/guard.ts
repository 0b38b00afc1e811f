import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import type { TenantDirectory } from "../db/tenancy.js";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../http/errors.js";
import type { AuthRequirement } from "../http/route-config.js";
import "../http/route-config.js";
import type { Actor } from "./actor.js";

/** Turns a bearer credential into an Actor, or null when it is not this authenticator's kind. */
export type Authenticator = (request: FastifyRequest, credential: string) => Promise<Actor | null>;

export interface GuardOptions {
  tenants: TenantDirectory;
  /** Tried in order; the first that recognises the credential decides. */
  authenticators: {
    jwt: Authenticator;
    apiToken?: Authenticator;
    mcpToken?: Authenticator;
    /** An MCP client's OAuth access token (POST /api/mcp only). */
    oauthToken?: Authenticator;
  };
}

/** Routes outside any tenant: liveness probes, the local CLI's control channel (src/cli/server-control.ts). */
const TENANTLESS = new Set(["/api/health", "/api/local/cli"]);

function bearerCredential(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** What a route declared about who may call it (read once every plugin has had its say). */
export interface RouteDeclaration {
  method: string;
  url: string;
  permission?: string;
  auth?: AuthRequirement;
}

const declaredRoutes = new WeakMap<FastifyInstance, RouteOptions[]>();

/** Every route registered on `app` after its guard, as registered (tests read their schemas). */
export function registeredRoutes(app: FastifyInstance): readonly RouteOptions[] {
  return declaredRoutes.get(app) ?? [];
}

/**
 * Every route registered on `app` after its guard, with its declaration. Read lazily: plugins'
 * own onRoute hooks (docs, enterprise API) may still adjust a route's config after ours ran.
 */
export function routeDeclarations(app: FastifyInstance): RouteDeclaration[] {
  return (declaredRoutes.get(app) ?? []).flatMap((route) =>
    (Array.isArray(route.method) ? route.method : [route.method]).map((method) => ({
      method,
      url: route.url,
      permission: route.config?.permission,
      auth: route.config?.auth,
    })),
  );
}

/**
 * Resolves the tenant from Host (unknown -> 404 before auth), then enforces the route's
 * declaration: public, any authenticated caller, or a "module:action" permission.
 * A route that declares nothing is refused: protected by default.
 */
export function registerGuard(app: FastifyInstance, options: GuardOptions) {
  app.decorateRequest("tenant", null as never);
  app.decorateRequest("actor", null);

  const routes: RouteOptions[] = [];
  declaredRoutes.set(app, routes);
  app.addHook("onRoute", (route) => {
    routes.push(route);
  });

  // One hook, the route's options read once (Fastify builds that object on every read).
  app.addHook("onRequest", async (request) => {
    const route = request.routeOptions;
    if (!TENANTLESS.has(route.url ?? "")) {
      const tenant = await options.tenants.resolve(request.headers.host);
      if (!tenant) throw new NotFoundError("Tenant");
      request.tenant = tenant;
    }
    if (request.is404) return;
    const config = route.config ?? {};
    if (config.auth === "public") return;
    const credential = bearerCredential(request);
    if (!credential) throw new UnauthorizedError("Missing Authorization: Bearer token");
    const { jwt, apiToken, mcpToken, oauthToken } = options.authenticators;
    const isApiToken = credential.startsWith("cdr_");
    let actor: Actor | null;
    if (config.credentials === "mcp-token-or-oauth" && !isApiToken) {
      if (!oauthToken) throw new UnauthorizedError("The MCP server needs an API token (cdr_...)");
      actor = await oauthToken(request, credential);
    } else if (config.credentials === "mcp-token" || config.credentials === "mcp-token-or-oauth") {
      if (!isApiToken || !mcpToken)
        throw new UnauthorizedError("The MCP server needs an API token (cdr_...)");
      actor = await mcpToken(request, credential);
    } else if (isApiToken) {
      if (config.credentials !== "jwt-or-api-token" || !apiToken) {
        throw new UnauthorizedError("This route does not accept API tokens");
      }
      actor = await apiToken(request, credential);
    } else {
      actor = await jwt(request, credential);
    }
    if (!actor) throw new UnauthorizedError("Invalid, expired or revoked token");
    request.actor = actor;
    if (config.permission) {
      if (!actor.permissions.has(config.permission)) {
        throw new ForbiddenError(`Requires permission ${config.permission}`);
      }
    } else if (config.auth !== "authenticated") {
      throw new ForbiddenError("This route declares no permission and is closed");
    }
  });
}
