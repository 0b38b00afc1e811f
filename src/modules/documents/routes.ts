import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { paymentTermRoutes } from "./payment-terms/routes.js";
import { seriesRoutes } from "./series/routes.js";
import { documentSettingsRoutes } from "./settings/routes.js";
import { taxRoutes } from "./taxes/routes.js";

/**
 * The documents engine's configuration, mounted at /api: series, tax codes, payment terms and each
 * company's document settings. The documents themselves are served by sales and purchases.
 */
export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(seriesRoutes, { prefix: "/series" });
  await app.register(taxRoutes, { prefix: "/taxes" });
  await app.register(paymentTermRoutes, { prefix: "/payment-terms" });
  await app.register(documentSettingsRoutes, { prefix: "/document-settings" });
};
