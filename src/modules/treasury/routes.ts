import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { bankAccountRoutes } from "./bank-accounts/routes.js";
import { budgetRoutes } from "./budgets/routes.js";
import { dueRoutes, paymentRoutes } from "./dues/routes.js";
import { reportRoutes } from "./reports/routes.js";

/**
 * Treasury, mounted at /api/treasury: bank accounts, customer receipts and supplier payments (the
 * dues of invoices and the payments recorded against them), treasury budgets, cash flow and aging.
 */
export const treasuryRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(bankAccountRoutes, { prefix: "/bank-accounts" });
  await app.register(dueRoutes("sale"), { prefix: "/customer-receipts" });
  await app.register(dueRoutes("purchase"), { prefix: "/supplier-payments" });
  await app.register(paymentRoutes, { prefix: "/payments" });
  await app.register(budgetRoutes, { prefix: "/budgets" });
  await app.register(reportRoutes);
};
