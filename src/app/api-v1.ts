import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { identityRoutesV1 } from "../modules/identity/index.js";
import { projectRoutesV1 } from "../modules/projects/index.js";
import type { ModuleDeps } from "./deps.js";

/** Every /api/v1 module (project cost management). Mounted under /api/v1. */
export const v1Modules: FastifyPluginAsyncZod<ModuleDeps> = async (app, deps) => {
  await app.register(identityRoutesV1, { auth: deps.auth });
  await app.register(projectRoutesV1, { storageDir: deps.config.storageDir, storage: deps.fileStorage });
};
