import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  fromTaxCodeBody,
  taxCodeCreateBody,
  taxCodeListQuery,
  taxCodeOut,
  taxCodePage,
  taxCodeUpdateBody,
  toTaxCodeOut,
} from "./schemas.js";
import * as taxes from "./service.js";

const tags = ["documents"];

const RULES =
  "A VAT code needs an operation and no irpf_kind; an IRPF code needs an irpf_kind, no operation and " +
  "re_rate 0. exempt, export and exempt_intra_eu operations need an exemption_reason (E1-E6) and rate 0; " +
  "other operations take no exemption_reason. A breach is a 400 naming the field.";

/** /api/taxes: each company's VAT and IRPF codes. */
export const taxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "listTaxCodes",
        summary: "List tax codes (VAT and IRPF)",
        description: "Any signed-in caller sees the tax codes of the companies it may see.",
        querystring: taxCodeListQuery,
        response: { 200: taxCodePage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await taxes.listTaxCodes(ctxOf(request), {
        companyId: q.company_id,
        kind: q.kind,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toTaxCodeOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/:id",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "getTaxCode",
        summary: "Tax code detail",
        params: idParams,
        response: { 200: taxCodeOut, ...errorResponses(404) },
      },
    },
    async (request) => toTaxCodeOut(await taxes.getTaxCode(ctxOf(request), request.params.id)),
  );

  app.post(
    "/",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "createTaxCode",
        summary: "Create a tax code",
        description: RULES,
        body: taxCodeCreateBody,
        response: { 201: taxCodeOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const row = await taxes.createTaxCode(ctxOf(request), {
        ...fromTaxCodeBody(b),
        companyId: b.company_id,
        code: b.code,
        name: b.name,
        kind: b.kind,
        rate: b.rate,
      });
      return reply.code(201).send(toTaxCodeOut(row));
    },
  );

  app.put(
    "/:id",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "updateTaxCode",
        summary: "Update a tax code",
        description:
          `${RULES} Once a document line uses the code only name and is_active can change (409 ` +
          "otherwise): create a new code for a new rate.",
        params: idParams,
        body: taxCodeUpdateBody,
        response: { 200: taxCodeOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toTaxCodeOut(
        await taxes.updateTaxCode(ctxOf(request), request.params.id, fromTaxCodeBody(request.body)),
      ),
  );
};
