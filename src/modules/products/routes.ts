import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { familyRoutes } from "./families/routes.js";
import { productRoutes } from "./products/routes.js";

/** Products and their families, mounted at /api/products. */
export const productsModuleRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(familyRoutes, { prefix: "/families" });
  await app.register(productRoutes);
};
