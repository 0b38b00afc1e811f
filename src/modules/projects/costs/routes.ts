import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import type { FileStorage } from "../../../platform/storage.js";
import {
  costEntryCreateBody,
  costEntryListQuery,
  costEntryOut,
  costEntryPage,
  costEntryUpdateBody,
  costSummaryOut,
  fromCostEntryBody,
  fromCostEntryCreateBody,
  summaryQuery,
  toCostEntryOut,
  toCostSummaryOut,
} from "./schemas.js";
import * as costs from "./service.js";

const tags = ["accounting"];

export const costEntryRoutes: FastifyPluginAsyncZod<{ storage: FileStorage }> = async (app, { storage }) => {
  app.get(
    "/accounting/summary",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "getBudgetCostSummary",
        summary:
          "Budgeted, certified and actual cost per chapter and item of a budget, with margin and deviation",
        querystring: summaryQuery,
        response: { 200: costSummaryOut, ...errorResponses(404) },
      },
    },
    async (request) => toCostSummaryOut(await costs.getCostSummary(ctxOf(request), request.query.budget_id)),
  );

  app.get(
    "/accounting",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "listCostEntries",
        summary: "List cost entries",
        querystring: costEntryListQuery,
        response: { 200: costEntryPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await costs.listCostEntries(ctxOf(request), {
        budgetId: q.budget_id,
        category: q.category,
        dateFrom: q.date_from,
        dateTo: q.date_to,
        search: q.search,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toCostEntryOut), total, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    "/accounting/:id",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "getCostEntry",
        summary: "Cost entry detail",
        params: idParams,
        response: { 200: costEntryOut, ...errorResponses(404) },
      },
    },
    async (request) => toCostEntryOut(await costs.getCostEntry(ctxOf(request), request.params.id)),
  );

  app.post(
    "/accounting",
    {
      config: { permission: "accounting:crear" },
      schema: {
        tags,
        operationId: "createCostEntry",
        summary: "Record an actual cost of a budget",
        body: costEntryCreateBody,
        response: { 201: costEntryOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const row = await costs.createCostEntry(ctxOf(request), fromCostEntryCreateBody(request.body));
      return reply.code(201).send(toCostEntryOut(row));
    },
  );

  app.put(
    "/accounting/:id",
    {
      config: { permission: "accounting:editar" },
      schema: {
        tags,
        operationId: "updateCostEntry",
        summary: "Update a cost entry (fields left out are unchanged)",
        params: idParams,
        body: costEntryUpdateBody,
        response: { 200: costEntryOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toCostEntryOut(
        await costs.updateCostEntry(ctxOf(request), request.params.id, fromCostEntryBody(request.body)),
      ),
  );

  app.delete(
    "/accounting/:id",
    {
      config: { permission: "accounting:eliminar" },
      schema: {
        tags,
        operationId: "deleteCostEntry",
        summary: "Delete a cost entry and its attachments",
        params: idParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await costs.deleteCostEntry(ctxOf(request), storage, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
