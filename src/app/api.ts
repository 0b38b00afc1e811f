import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { mcpRoutes } from "../mcp/routes.js";
import { accountingRoutes } from "../modules/accounting/routes.js";
import { agentRoutes } from "../modules/agents/routes.js";
import { apiTokenRoutes } from "../modules/api-tokens/routes.js";
import { clientRoutes } from "../modules/clients/routes.js";
import { companyRoutes } from "../modules/companies/routes.js";
// Registers the documents engine's company hook: every company created gets its series, tax codes...
import "../modules/documents/index.js";
import { documentRoutes } from "../modules/documents/routes.js";
import { enterpriseAuthRoutes } from "../modules/identity/auth/enterprise-routes.js";
import { productRoutes } from "../modules/products/products/routes.js";
import { purchaseRoutes } from "../modules/purchases/index.js";
import { salesRoutes } from "../modules/sales/index.js";
import type { ModuleDeps } from "./deps.js";

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
  await app.register(documentRoutes);
  await app.register(salesRoutes, { prefix: "/sales" });
  await app.register(purchaseRoutes, { prefix: "/purchases" });
};
