import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createFileStorage } from "../../../platform/storage.js";
import type { ModuleDeps } from "../../deps.js";
import { attachmentRoutes } from "./attachments.routes.js";
import { costEntryRoutes } from "./entries.routes.js";

/** /accounting: a project's actual costs, their attachments and the budgeted/certified/cost summary. */
export const costRoutes: FastifyPluginAsyncZod<ModuleDeps> = async (app, deps) => {
  const storage = createFileStorage(deps.config.storageDir);
  await app.register(costEntryRoutes, { storage });
  await app.register(attachmentRoutes, { storage });
};
