import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { accountCodeParam } from "../params.js";
import {
  accountBalanceOut,
  balancesOut,
  balancesQuery,
  toAccountBalanceOut,
  toBalancesOut,
  toTrialBalanceOut,
  trialBalanceOut,
  trialBalanceQuery,
} from "./schemas.js";
import * as balances from "./service.js";

const tags = ["accounting"];

export const balanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/balances",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "listBalances",
        summary: "Balances per subaccount, rolled up to accounts, subgroups and groups",
        querystring: balancesQuery,
        response: { 200: balancesOut, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await balances.getBalances(ctxOf(request), {
        companyId: q.company_id,
        fiscalYearCode: q.fiscal_year_code,
        accountCode: q.account_code,
        dateTo: q.date_to,
      });
      return toBalancesOut(result);
    },
  );

  app.get(
    "/balances/:account_code",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "getAccountBalance",
        summary: "Balance of one group, subgroup, account or subaccount",
        params: z.object({ account_code: accountCodeParam }),
        querystring: balancesQuery.omit({ account_code: true }),
        response: { 200: accountBalanceOut, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await balances.getAccountBalance(ctxOf(request), {
        accountCode: request.params.account_code,
        companyId: q.company_id,
        fiscalYearCode: q.fiscal_year_code,
        dateTo: q.date_to,
      });
      return toAccountBalanceOut(result);
    },
  );

  app.get(
    "/trial-balance",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "getTrialBalance",
        summary: "Trial balance (sumas y saldos) per subaccount for a period of a fiscal year",
        querystring: trialBalanceQuery,
        response: { 200: trialBalanceOut, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await balances.getTrialBalance(ctxOf(request), {
        companyId: q.company_id,
        fiscalYearCode: q.fiscal_year_code,
        accountCode: q.account_code,
        dateFrom: q.date_from,
        dateTo: q.date_to,
      });
      return toTrialBalanceOut(result);
    },
  );
};
