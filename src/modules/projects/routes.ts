import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createFileStorage, type FileStorage } from "../../platform/storage.js";
import { activityRoutesV1 } from "./activities/routes.js";
import { attachmentRoutes } from "./attachments/routes.js";
import { bc3RoutesV1 } from "./bc3-io/routes.js";
import { budgetRoutesV1 } from "./budgets/routes.js";
import { certificationRoutes } from "./certifications/routes.js";
import { costEntryRoutes } from "./costs/routes.js";
import { budgetItemRoutesV1 } from "./items/routes.js";

export interface ProjectRoutesOptions {
  /** STORAGE_DIR: where cost attachments are kept. */
  storageDir: string;
  /** The storage itself, when the app was given one (tests inject file system faults). */
  storage?: FileStorage;
}

/** /api/v1 project cost management: one line per sub-area. */
export const projectRoutesV1: FastifyPluginAsyncZod<ProjectRoutesOptions> = async (app, options) => {
  await app.register(budgetRoutesV1);
  await app.register(budgetItemRoutesV1);
  await app.register(activityRoutesV1);
  await app.register(bc3RoutesV1);
  await app.register(certificationRoutes);
  // /accounting: a project's actual costs, their attachments and the budgeted/certified/cost summary.
  const storage = options.storage ?? createFileStorage(options.storageDir);
  await app.register(costEntryRoutes, { storage });
  await app.register(attachmentRoutes, { storage });
};
