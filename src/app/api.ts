import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { mcpRoutes } from "../mcp/routes.js";
import { accountingRoutes } from "../modules/accounting/index.js";
import { agentRoutes } from "../modules/agents/index.js";
import { apiTokenRoutes } from "../modules/api-tokens/index.js";
import { bankingRoutes } from "../modules/banking/index.js";
import { clientRoutes } from "../modules/clients/index.js";
import { companyRoutes } from "../modules/companies/index.js";
// Registers the documents engine's company hook: every company created gets its series, tax codes...
import { documentRoutes } from "../modules/documents/index.js";
import { enterpriseAuthRoutes } from "../modules/identity/index.js";
import { oauthGrantRoutes } from "../modules/oauth/index.js";
import { productsModuleRoutes } from "../modules/products/index.js";
import { purchaseRoutes } from "../modules/purchases/index.js";
import { salesRoutes } from "../modules/sales/index.js";
// Registers the period lock on the documents engine and the ledger.
import { taxRoutes } from "../modules/tax/index.js";
import { treasuryRoutes } from "../modules/treasury/index.js";
// Hooks VeriFactu into the documents engine: records of issued invoices, the QR on their PDF.
import { verifactuRoutes } from "../modules/verifactu/index.js";
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
  await app.register(productsModuleRoutes, { prefix: "/products" });
  await app.register(agentRoutes, { prefix: "/agents" });
  await app.register(mcpRoutes, {
    prefix: "/mcp",
    corsOrigins: deps.config.corsOrigins,
    redisUrl: deps.config.redisUrl,
    tenants: deps.tenants,
    resource: { publicUrl: deps.config.publicUrl, baseDomain: deps.config.baseDomain },
  });
  await app.register(oauthGrantRoutes, { prefix: "/oauth" });
  await app.register(accountingRoutes, { prefix: "/accounting" });
  await app.register(documentRoutes);
  await app.register(salesRoutes, { prefix: "/sales" });
  await app.register(purchaseRoutes, { prefix: "/purchases", storageDir: deps.config.storageDir });
  await app.register(treasuryRoutes, { prefix: "/treasury" });
  await app.register(taxRoutes, { prefix: "/tax" });
  await app.register(verifactuRoutes, {
    prefix: "/verifactu",
    verifactu: deps.config.verifactu,
    tenants: deps.tenants,
  });
  await app.register(bankingRoutes, { prefix: "/bank-reconciliation" });
};
