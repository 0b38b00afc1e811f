import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accountingRoutes } from "./accounting/routes.js";
import { agentRoutes } from "./agents/routes.js";
import { apiTokenRoutes } from "./api-tokens/routes.js";
import { clientRoutes } from "./clients/routes.js";
import { companyRoutes } from "./companies/routes.js";
import type { ModuleDeps } from "./deps.js";
import { enterpriseAuthRoutes } from "./identity/enterprise-auth.routes.js";
import { mcpRoutes } from "./mcp/routes.js";
import { productRoutes } from "./products/routes.js";

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
  await app.register(clientRoutes, { prefix: "/clients" });
  await app.register(productRoutes, { prefix: "/products" });
  await app.register(agentRoutes, { prefix: "/agents" });
  await app.register(mcpRoutes, { prefix: "/mcp", ...deps });
  await app.register(accountingRoutes, { prefix: "/accounting" });
};
