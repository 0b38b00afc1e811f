import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  fromProductBody,
  fromProductCreateBody,
  productCreateBody,
  productListQuery,
  productOut,
  productPage,
  productUpdateBody,
  toProductOut,
} from "./schemas.js";
import * as products from "./service.js";

const tags = ["products"];

export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { permission: "products:leer" },
      schema: {
        tags,
        operationId: "listProducts",
        summary: "List products",
        description: "Search matches the reference and the description.",
        querystring: productListQuery,
        response: { 200: productPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await products.listProducts(ctxOf(request), {
        companyId: q.company_id,
        familyCode: q.family_code,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toProductOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/:id",
    {
      config: { permission: "products:leer" },
      schema: {
        tags,
        operationId: "getProduct",
        summary: "Product detail",
        params: idParams,
        response: { 200: productOut, ...errorResponses(404) },
      },
    },
    async (request) => toProductOut(await products.getProduct(ctxOf(request), { id: request.params.id })),
  );

  app.post(
    "/",
    {
      config: { permission: "products:crear" },
      schema: {
        tags,
        operationId: "createProduct",
        summary: "Create a product",
        body: productCreateBody,
        response: { 201: productOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const row = await products.createProduct(ctxOf(request), fromProductCreateBody(request.body));
      return reply.code(201).send(toProductOut(row));
    },
  );

  app.put(
    "/:id",
    {
      config: { permission: "products:editar" },
      schema: {
        tags,
        operationId: "updateProduct",
        summary: "Update a product",
        params: idParams,
        body: productUpdateBody,
        response: { 200: productOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toProductOut(
        await products.updateProduct(ctxOf(request), request.params.id, fromProductBody(request.body)),
      ),
  );

  app.delete(
    "/:id",
    {
      config: { permission: "products:eliminar" },
      schema: {
        tags,
        operationId: "deactivateProduct",
        summary: "Deactivate a product",
        params: idParams,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await products.deactivateProduct(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
