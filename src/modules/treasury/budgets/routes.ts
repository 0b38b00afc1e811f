import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  budgetCreateBody,
  budgetListQuery,
  budgetOut,
  budgetPage,
  budgetUpdateBody,
  fromBudgetBody,
  toBudgetOut,
} from "./schemas.js";
import * as budgets from "./service.js";

const tags = ["treasury"];

/** /api/treasury/budgets: the treasury budget's forecast lines. */
export const budgetRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { permission: "treasury:leer" },
      schema: {
        tags,
        operationId: "listTreasuryBudgetLines",
        summary: "List treasury budget lines",
        description: "By first date. search looks in the category and the description.",
        querystring: budgetListQuery,
        response: { 200: budgetPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await budgets.listBudgets(ctxOf(request), {
        companyId: q.company_id,
        category: q.category,
        contactId: q.contact_id,
        bankAccountId: q.bank_account_id,
        dateFrom: q.date_from,
        dateTo: q.date_to,
        search: q.search,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toBudgetOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.post(
    "/",
    {
      config: { permission: "treasury:crear" },
      schema: {
        tags,
        operationId: "createTreasuryBudgetLine",
        summary: "Create a treasury budget line",
        description:
          "A forecast amount on a date, repeated monthly, quarterly or yearly (until a date, or with no end). " +
          "contact_id and bank_account_id must be the company's (400 naming them otherwise).",
        body: budgetCreateBody,
        response: { 201: budgetOut, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const row = await budgets.createBudget(ctxOf(request), {
        ...fromBudgetBody(b),
        companyId: b.company_id,
        category: b.category,
        date: b.date,
        amount: b.amount,
      });
      return reply.code(201).send(toBudgetOut(row));
    },
  );

  app.get(
    "/:id",
    {
      config: { permission: "treasury:leer" },
      schema: {
        tags,
        operationId: "getTreasuryBudgetLine",
        summary: "Treasury budget line detail",
        params: idParams,
        response: { 200: budgetOut, ...errorResponses(404) },
      },
    },
    async (request) => toBudgetOut(await budgets.getBudget(ctxOf(request), request.params.id)),
  );

  app.patch(
    "/:id",
    {
      config: { permission: "treasury:editar" },
      schema: {
        tags,
        operationId: "updateTreasuryBudgetLine",
        summary: "Update a treasury budget line",
        params: idParams,
        body: budgetUpdateBody,
        response: { 200: budgetOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toBudgetOut(
        await budgets.updateBudget(ctxOf(request), request.params.id, fromBudgetBody(request.body)),
      ),
  );

  app.delete(
    "/:id",
    {
      config: { permission: "treasury:eliminar" },
      schema: {
        tags,
        operationId: "deleteTreasuryBudgetLine",
        summary: "Delete a treasury budget line",
        params: idParams,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await budgets.deleteBudget(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
