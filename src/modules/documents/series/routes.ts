import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  fromSeriesBody,
  seriesCreateBody,
  seriesListQuery,
  seriesOut,
  seriesPage,
  seriesUpdateBody,
  toSeriesOut,
} from "./schemas.js";
import * as series from "./service.js";

const tags = ["documents"];

/** /api/series: the numbering series of each company's documents (A, R, S by default). */
export const seriesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "listSeries",
        summary: "List document series",
        description: "Any signed-in caller sees the series of the companies it may see.",
        querystring: seriesListQuery,
        response: { 200: seriesPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await series.listSeries(ctxOf(request), {
        companyId: q.company_id,
        kind: q.kind,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toSeriesOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/:id",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "getSeries",
        summary: "Document series detail",
        params: idParams,
        response: { 200: seriesOut, ...errorResponses(404) },
      },
    },
    async (request) => toSeriesOut(await series.getSeries(ctxOf(request), request.params.id)),
  );

  app.post(
    "/",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "createSeries",
        summary: "Create a document series",
        body: seriesCreateBody,
        response: { 201: seriesOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const row = await series.createSeries(ctxOf(request), {
        ...fromSeriesBody(b),
        companyId: b.company_id,
        code: b.code,
        name: b.name,
        kind: b.kind,
      });
      return reply.code(201).send(toSeriesOut(row));
    },
  );

  app.put(
    "/:id",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "updateSeries",
        summary: "Update a document series",
        description:
          "name and is_active can always change; code and kind only while no document uses the series " +
          "(409 otherwise). Series are never deleted: deactivate them.",
        params: idParams,
        body: seriesUpdateBody,
        response: { 200: seriesOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toSeriesOut(await series.updateSeries(ctxOf(request), request.params.id, fromSeriesBody(request.body))),
  );
};
