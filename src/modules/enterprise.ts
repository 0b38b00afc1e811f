import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { apiTokenRoutes } from "./api-tokens/routes.js";
import { companyRoutes } from "./companies/routes.js";
import type { ModuleDeps } from "./deps.js";
import { enterpriseAuthRoutes } from "./identity/enterprise-auth.routes.js";

/**
 * Every /api module (enterprise accounting), each at /api/{kebab-name}. Routes here accept user
 * JWTs and API tokens with the api_access (or *) rule.
 */
export const enterpriseModules: FastifyPluginAsyncZod<ModuleDeps> = async (app, deps) => {
  app.addHook("onRoute", (route) => {
    route.config = { credentials: "jwt-or-api-token", ...(route.config ?? {}) };
  });
  await app.register(enterpriseAuthRoutes, { prefix: "/auth", auth: deps.auth });
  await app.register(apiTokenRoutes, { prefix: "/api-tokens" });
  await app.register(companyRoutes, { prefix: "/companies" });
};
