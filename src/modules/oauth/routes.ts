import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses, noContent } from "../../platform/http/errors.js";
import { interactionRoutes } from "./interaction.js";
import { pageCsp } from "./page.js";
import type { OAuthServers, TenantOAuth } from "./provider.js";
import { grantIdParams, grantListQuery, grantPage, toGrantOut } from "./schemas.js";
import * as oauth from "./service.js";

const tags = ["oauth"];

/** /api/oauth: the assistants connected by OAuth sign-in, and revoking them. */
export const oauthGrantRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/grants",
    {
      config: { auth: "authenticated", credentials: "jwt" },
      schema: {
        tags,
        operationId: "listOAuthGrants",
        summary: "List the assistants connected by OAuth sign-in",
        description:
          "The caller's own grants; every user's (of the caller's company when restricted to one) " +
          "with api_tokens:leer. Revoked grants are not listed.",
        querystring: grantListQuery,
        response: { 200: grantPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await oauth.listGrants(ctxOf(request), { limit: q.limit, offset: q.skip });
      return { data: rows.map(toGrantOut), total, skip: q.skip, limit: q.limit };
    },
  );
  app.delete(
    "/grants/:id",
    {
      config: { auth: "authenticated", credentials: "jwt" },
      schema: {
        tags,
        operationId: "revokeOAuthGrant",
        summary: "Revoke an assistant's access at once",
        description:
          "Deletes every token of the grant: the assistant's next MCP call is a 401. The caller's own " +
          "grants; another user's with api_tokens:eliminar (404 otherwise).",
        params: grantIdParams,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await oauth.revokeGrant(ctxOf(request), request.params.id, request.ip);
      return reply.code(204).send(null);
    },
  );
};

export interface AuthorizationServerOptions {
  servers: OAuthServers;
  interaction: Omit<Parameters<typeof interactionRoutes>[1], "server">;
}

/** The tenant's authorization server for this request. */
export function serverOf(servers: OAuthServers, request: FastifyRequest): Promise<TenantOAuth> {
  const handle = request.tenant.handle;
  return servers.forTenant(request.tenant.id, async () => handle.db);
}

/**
 * The authorization server's endpoints at the root of every tenant host, served by oidc-provider
 * itself (its own body parsing, so Fastify leaves the body unread), and the interaction pages.
 */
export async function authorizationServerRoutes(app: FastifyInstance, options: AuthorizationServerOptions) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
    for (const url of [
      "/oauth/*",
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
    ]) {
      scope.route({
        method: ["GET", "POST"],
        url,
        config: { auth: "public" },
        schema: { hide: true },
        handler: async (request, reply) => {
          const server = await serverOf(options.servers, request);
          const raw = reply.raw;
          raw.setHeader("content-security-policy", pageCsp());
          raw.setHeader("x-content-type-options", "nosniff");
          raw.setHeader("x-frame-options", "DENY");
          raw.setHeader("referrer-policy", "no-referrer");
          reply.hijack();
          await server.handle(request.raw, raw);
        },
      });
    }
  });
  await app.register(async (scope) => {
    interactionRoutes(scope, {
      ...options.interaction,
      server: (request) => serverOf(options.servers, request),
    });
  });
}
