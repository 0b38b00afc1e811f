import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { balanceRoutes } from "./balances/routes.js";
import { chartRoutes } from "./chart/routes.js";
import { entryRoutes } from "./entries/routes.js";
import { fiscalYearRoutes } from "./fiscal-years/routes.js";
import { journalRoutes } from "./journals/routes.js";

/** The general ledger, mounted at /api/accounting. */
export const accountingRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fiscalYearRoutes);
  await app.register(journalRoutes);
  await app.register(chartRoutes);
  await app.register(entryRoutes);
  await app.register(balanceRoutes);
};
