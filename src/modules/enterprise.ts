import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ModuleDeps } from "./deps.js";

/** Every /api module (enterprise accounting). Mounted under /api; each module adds its own prefix. */
export const enterpriseModules: FastifyPluginAsyncZod<ModuleDeps> = async (_app, _deps) => {};
