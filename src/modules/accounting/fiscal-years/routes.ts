import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  fiscalYearCreateBody,
  fiscalYearListQuery,
  fiscalYearOut,
  fiscalYearPage,
  fiscalYearStateBody,
  fromFiscalYearCreateBody,
  toFiscalYearOut,
} from "./schemas.js";
import * as fiscalYears from "./service.js";

const tags = ["accounting"];

export const fiscalYearRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/fiscal-years",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "listFiscalYears",
        summary: "List fiscal years",
        querystring: fiscalYearListQuery,
        response: { 200: fiscalYearPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await fiscalYears.listFiscalYears(ctxOf(request), {
        companyId: q.company_id,
        estado: q.estado,
        search: q.search,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toFiscalYearOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/fiscal-years/:id",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "getFiscalYear",
        summary: "Fiscal year detail",
        params: idParams,
        response: { 200: fiscalYearOut, ...errorResponses(404) },
      },
    },
    async (request) => toFiscalYearOut(await fiscalYears.getFiscalYear(ctxOf(request), request.params.id)),
  );

  app.post(
    "/fiscal-years",
    {
      config: { permission: "accounting:crear" },
      schema: {
        tags,
        operationId: "createFiscalYear",
        summary: "Create a fiscal year and load the PGC 2007 chart of accounts into it",
        description:
          "Also carries over the previous year's customer and supplier subaccounts. " +
          "A year overlapping another of the company is a 409.",
        body: fiscalYearCreateBody,
        response: { 201: fiscalYearOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const year = await fiscalYears.createFiscalYear(ctxOf(request), fromFiscalYearCreateBody(request.body));
      return reply.code(201).send(toFiscalYearOut(year));
    },
  );

  app.put(
    "/fiscal-years/:id/estado",
    {
      config: { permission: "accounting:validar" },
      schema: {
        tags,
        operationId: "setFiscalYearState",
        summary: "Close (cerrado) or reopen (abierto) a fiscal year",
        description: "No entry can be posted into a closed year.",
        params: idParams,
        body: fiscalYearStateBody,
        response: { 200: fiscalYearOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toFiscalYearOut(
        await fiscalYears.setFiscalYearState(ctxOf(request), request.params.id, request.body.estado),
      ),
  );
};
