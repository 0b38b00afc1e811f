import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  accountListQuery,
  accountPage,
  fromSubaccountCreateBody,
  subaccountCreateBody,
  subaccountListQuery,
  subaccountOut,
  subaccountPage,
  toAccountOut,
  toSubaccountOut,
} from "./schemas.js";
import * as chart from "./service.js";

const tags = ["accounting"];

export const chartRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/accounts",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "listChartAccounts",
        summary: "Chart of accounts of the fiscal years (groups, subgroups and accounts)",
        description: "search: a code prefix when digits, else part of the name.",
        querystring: accountListQuery,
        response: { 200: accountPage, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await chart.listAccounts(ctxOf(request), {
        companyId: q.company_id,
        fiscalYearCode: q.fiscal_year_code,
        isActive: q.include_inactive ? undefined : true,
        search: q.search,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toAccountOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/subaccounts",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "listSubaccounts",
        summary: "List subaccounts",
        description: "account_code: subaccounts whose code starts with it (430 -> every customer).",
        querystring: subaccountListQuery,
        response: { 200: subaccountPage, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await chart.listSubaccounts(ctxOf(request), {
        companyId: q.company_id,
        fiscalYearCode: q.fiscal_year_code,
        accountCode: q.account_code,
        contactId: q.contact_id,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toSubaccountOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/subaccounts/:id",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "getSubaccount",
        summary: "Subaccount detail",
        params: idParams,
        response: { 200: subaccountOut, ...errorResponses(404) },
      },
    },
    async (request) => toSubaccountOut(await chart.getSubaccount(ctxOf(request), request.params.id)),
  );

  app.post(
    "/subaccounts",
    {
      config: { permission: "accounting:crear" },
      schema: {
        tags,
        operationId: "createSubaccount",
        summary: "Create a subaccount",
        description:
          "The code has the company's subaccount_length digits and starts with the code of an account " +
          "(3 digits or more) of the fiscal year.",
        body: subaccountCreateBody,
        response: { 201: subaccountOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const row = await chart.createSubaccount(ctxOf(request), fromSubaccountCreateBody(request.body));
      return reply.code(201).send(toSubaccountOut(row));
    },
  );
};
