import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { v1ListQuery } from "../../../platform/http/pagination.js";
import { duplicateBudget } from "./duplicate.js";
import {
  budgetCreateBody,
  budgetEstadoBody,
  budgetListQuery,
  budgetOut,
  budgetPage,
  budgetParams,
  budgetUpdateBody,
  duplicateBody,
  fromBudgetBody,
  fromBudgetCreateBody,
  historyPage,
  toBudgetOut,
  toHistoryOut,
} from "./schemas.js";
import * as budgets from "./service.js";

const tags = ["budgets"];
const out = (v: budgets.BudgetView) => toBudgetOut(v.row, v.totals);

export const budgetRoutesV1: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/budgets",
    {
      config: { permission: "budgets:leer" },
      schema: {
        tags,
        operationId: "listBudgets",
        summary: "List budgets with their totals",
        querystring: budgetListQuery,
        response: { 200: budgetPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await budgets.listBudgets(ctxOf(request), {
        search: q.search,
        estado: q.estado,
        companyId: q.company_id,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(out), total, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    "/budgets/:budget_id",
    {
      config: { permission: "budgets:leer" },
      schema: {
        tags,
        operationId: "getBudget",
        summary: "Budget detail with pem, pec, discounted, vat and total",
        params: budgetParams,
        response: { 200: budgetOut, ...errorResponses(404) },
      },
    },
    async (request) => out(await budgets.getBudget(ctxOf(request), request.params.budget_id)),
  );

  app.post(
    "/budgets",
    {
      config: { permission: "budgets:crear" },
      schema: {
        tags,
        operationId: "createBudget",
        summary: "Create a budget (estado borrador)",
        body: budgetCreateBody,
        response: { 201: budgetOut, ...errorResponses(409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(out(await budgets.createBudget(ctxOf(request), fromBudgetCreateBody(request.body)))),
  );

  app.put(
    "/budgets/:budget_id",
    {
      config: { permission: "budgets:editar" },
      schema: {
        tags,
        operationId: "updateBudget",
        summary: "Update a budget (409 when finalizado or cancelado)",
        params: budgetParams,
        body: budgetUpdateBody,
        response: { 200: budgetOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      out(await budgets.updateBudget(ctxOf(request), request.params.budget_id, fromBudgetBody(request.body))),
  );

  app.delete(
    "/budgets/:budget_id",
    {
      config: { permission: "budgets:eliminar" },
      schema: {
        tags,
        operationId: "deleteBudget",
        summary: "Delete a borrador budget and everything in it (other states: 409)",
        params: budgetParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await budgets.deleteBudget(ctxOf(request), request.params.budget_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/budgets/:budget_id/duplicate",
    {
      config: { permission: "budgets:crear" },
      schema: {
        tags,
        operationId: "duplicateBudget",
        summary: "Copy a budget, its items, measurements and decompositions into a new borrador budget",
        params: budgetParams,
        body: duplicateBody,
        response: { 201: budgetOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const copy = await duplicateBudget(ctxOf(request), request.params.budget_id, request.body ?? {});
      return reply.code(201).send(out(copy));
    },
  );

  app.put(
    "/budgets/:budget_id/estado",
    {
      config: { permission: "budgets:editar" },
      schema: {
        tags,
        operationId: "setBudgetState",
        summary: "Change the state (approve and finalize also need budgets:validar)",
        description:
          "borrador -> aprobado (budgets:validar) -> en_ejecucion -> finalizado (budgets:validar); " +
          "borrador or aprobado -> cancelado. Any other move: 409 whose `allowed` lists the reachable states.",
        params: budgetParams,
        body: budgetEstadoBody,
        response: { 200: budgetOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      out(await budgets.changeBudgetEstado(ctxOf(request), request.params.budget_id, request.body.estado)),
  );

  app.get(
    "/budgets/:budget_id/history",
    {
      config: { permission: "budgets:leer" },
      schema: {
        tags,
        operationId: "listBudgetStateChanges",
        summary: "State changes of a budget: who, when, from, to",
        params: budgetParams,
        querystring: v1ListQuery,
        response: { 200: historyPage, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await budgets.listBudgetHistory(ctxOf(request), request.params.budget_id, {
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toHistoryOut), total, limit: q.limit, offset: q.offset };
    },
  );
};
