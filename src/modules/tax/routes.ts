import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { boxMapRoutes } from "./box-map/routes.js";
import { returnRoutes } from "./returns/routes.js";
import { taxSettingsRoutes } from "./settings/routes.js";
import { vatBookRoutes } from "./vat-books/routes.js";

/** /api/tax: the box map, the VAT books, the returns and the company's tax settings. */
export const taxRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(boxMapRoutes, { prefix: "/box-map" });
  await app.register(vatBookRoutes, { prefix: "/vat-books" });
  await app.register(returnRoutes, { prefix: "/returns" });
  await app.register(taxSettingsRoutes, { prefix: "/settings" });
};
