import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses, ServiceUnavailableError } from "./errors.js";

const status = z.object({ status: z.literal("ok") });

/** Liveness (process up, no dependency) and readiness (the tenant's database answers). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/health",
    { config: { auth: "public" }, schema: { hide: true, response: { 200: status } } },
    async () => ({ status: "ok" as const }),
  );
  app.get(
    "/api/ready",
    {
      config: { auth: "public" },
      schema: { hide: true, response: { 200: status, ...errorResponses(404, 503) } },
    },
    async (request) => {
      try {
        await request.tenant.handle.ping();
      } catch (err) {
        request.log.warn({ err }, "readiness check failed");
        throw new ServiceUnavailableError();
      }
      return { status: "ok" as const };
    },
  );
};
