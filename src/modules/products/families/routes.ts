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
  toFamilyOut,
} from "../products/schemas.js";
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
        summary: "List product families",
        querystring: familyListQuery,
        response: { 200: familyPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await families.listFamilies(ctxOf(request), {
        companyId: q.company_id,
        search: q.search,
        includeInactive: q.include_inactive,
        skip: q.skip,
        limit: q.limit,
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
        summary: "Product family detail",
        params: idParams,
        response: { 200: familyOut, ...errorResponses(400, 401, 403, 404) },
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
        summary: "Create a product family",
        body: familyCreateBody,
        response: { 201: familyOut, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const row = await families.createFamily(ctxOf(request), {
        companyId: b.company_id,
        code: b.code,
        name: b.name,
        salesAccount: b.sales_account,
        purchasesAccount: b.purchases_account,
        isActive: b.is_active,
      });
      return reply.code(201).send(toFamilyOut(row));
    },
  );

  app.put(
    "/:id",
    {
      config: { permission: "products:editar" },
      schema: {
        tags,
        summary: "Update a product family (a new code carries over to its products)",
        params: idParams,
        body: familyUpdateBody,
        response: { 200: familyOut, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const b = request.body;
      const row = await families.updateFamily(ctxOf(request), request.params.id, {
        code: b.code,
        name: b.name,
        salesAccount: b.sales_account,
        purchasesAccount: b.purchases_account,
        isActive: b.is_active,
      });
      return toFamilyOut(row);
    },
  );
};
