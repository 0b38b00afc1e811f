import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { importRoutes } from "./imports/routes.js";
import { movementRoutes } from "./movements/routes.js";

/** /api/bank-reconciliation: statement imports, movements, matching and reconciliation. */
export const bankingRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(importRoutes);
  await app.register(movementRoutes);
};
