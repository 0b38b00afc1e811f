import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { moveItem } from "./move.js";
import {
  fromItemBody,
  fromItemCreateBody,
  fromMoveBody,
  itemCreateBody,
  itemDeleteQuery,
  itemDetailOut,
  itemListQuery,
  itemPage,
  itemParams,
  itemUpdateBody,
  moveBody,
  toItemDetailOut,
  toItemNodeOut,
} from "./schemas.js";
import * as items from "./service.js";

const tags = ["budget-items"];

export const budgetItemRoutesV1: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/budget-items",
    {
      config: { permission: "budgets:leer" },
      schema: {
        tags,
        operationId: "listBudgetItems",
        summary: "Items of a budget: flat in tree order, or nested with ?tree=true",
        querystring: itemListQuery,
        response: { 200: itemPage, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await items.listItems(ctxOf(request), {
        budgetId: q.budget_id,
        tree: q.tree,
        parentId: q.parent_id,
        kind: q.kind,
        search: q.search,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toItemNodeOut), total, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    "/budget-items/:id",
    {
      config: { permission: "budgets:leer" },
      schema: {
        tags,
        operationId: "getBudgetItem",
        summary: "Budget item detail with its measurement and decomposition lines",
        params: itemParams,
        response: { 200: itemDetailOut, ...errorResponses(404) },
      },
    },
    async (request) => toItemDetailOut(await items.getItem(ctxOf(request), request.params.id)),
  );

  app.post(
    "/budget-items",
    {
      config: { permission: "budgets:crear" },
      schema: {
        tags,
        operationId: "createBudgetItem",
        summary: "Create a chapter or an item",
        body: itemCreateBody,
        response: { 201: itemDetailOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(toItemDetailOut(await items.createItem(ctxOf(request), fromItemCreateBody(request.body)))),
  );

  app.put(
    "/budget-items/:id",
    {
      config: { permission: "budgets:editar" },
      schema: {
        tags,
        operationId: "updateBudgetItem",
        summary: "Update a chapter or an item (use /move to change its place)",
        params: itemParams,
        body: itemUpdateBody,
        response: { 200: itemDetailOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toItemDetailOut(await items.updateItem(ctxOf(request), request.params.id, fromItemBody(request.body))),
  );

  app.delete(
    "/budget-items/:id",
    {
      config: { permission: "budgets:eliminar" },
      schema: {
        tags,
        operationId: "deleteBudgetItem",
        summary: "Delete an item, or a chapter (with children only with ?cascade=true)",
        params: itemParams,
        querystring: itemDeleteQuery,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await items.deleteItem(ctxOf(request), request.params.id, request.query.cascade);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/budget-items/:id/move",
    {
      config: { permission: "budgets:editar" },
      schema: {
        tags,
        operationId: "moveBudgetItem",
        summary: "Move a node under another chapter of the budget (or to the top level)",
        params: itemParams,
        body: moveBody,
        response: { 200: itemDetailOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toItemDetailOut(await moveItem(ctxOf(request), request.params.id, fromMoveBody(request.body))),
  );
};
