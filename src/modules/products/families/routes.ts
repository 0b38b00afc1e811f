import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  familyCreateBody,
  familyListQuery,
  familyOut,
  familyPage,
  familyUpdateBody,
  fromFamilyCreateBody,
  fromFamilyUpdateBody,
  toFamilyOut,
} from "./schemas.js";
import * as families from "./service.js";

const tags = ["products"];

/** /api/products/families: the product families of each company. */
export const familyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { permission: "products:leer" },
      schema: {
        tags,
        operationId: "listProductFamilies",
        summary: "List product families",
        querystring: familyListQuery,
        response: { 200: familyPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await families.listFamilies(ctxOf(request), {
        companyId: q.company_id,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toFamilyOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/:id",
    {
      config: { permission: "products:leer" },
      schema: {
        tags,
        operationId: "getProductFamily",
        summary: "Product family detail",
        params: idParams,
        response: { 200: familyOut, ...errorResponses(404) },
      },
    },
    async (request) => toFamilyOut(await families.getFamily(ctxOf(request), request.params.id)),
  );

  app.post(
    "/",
    {
      config: { permission: "products:crear" },
      schema: {
        tags,
        operationId: "createProductFamily",
        summary: "Create a product family",
        body: familyCreateBody,
        response: { 201: familyOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const row = await families.createFamily(ctxOf(request), fromFamilyCreateBody(request.body));
      return reply.code(201).send(toFamilyOut(row));
    },
  );

  app.put(
    "/:id",
    {
      config: { permission: "products:editar" },
      schema: {
        tags,
        operationId: "updateProductFamily",
        summary: "Update a product family (a new code carries over to its products)",
        params: idParams,
        body: familyUpdateBody,
        response: { 200: familyOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toFamilyOut(
        await families.updateFamily(ctxOf(request), request.params.id, fromFamilyUpdateBody(request.body)),
      ),
  );
};
