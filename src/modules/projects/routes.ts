import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ModuleDeps } from "../deps.js";
import { activityRoutesV1 } from "./activities/routes.js";
import { bc3RoutesV1 } from "./bc3-io/routes.js";
import { budgetRoutesV1 } from "./budgets/routes.js";
import { certificationRoutes } from "./certifications/routes.js";
import { costRoutes } from "./costs/routes.js";
import { budgetItemRoutesV1 } from "./items/routes.js";

/** /api/v1 project cost management: one line per sub-area. */
export const projectRoutesV1: FastifyPluginAsyncZod<ModuleDeps> = async (app, deps) => {
  await app.register(budgetRoutesV1);
  await app.register(budgetItemRoutesV1);
  await app.register(activityRoutesV1);
  await app.register(bc3RoutesV1);
  await app.register(certificationRoutes);
  await app.register(costRoutes, deps);
};
