import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { agingOut, agingQuery, cashFlowOut, cashFlowQuery, toAgingOut, toCashFlowOut } from "./schemas.js";
import { getAging, getCashFlow, MAX_BUCKETS } from "./service.js";

const tags = ["treasury"];

/** /api/treasury/cash-flow and /api/treasury/aging. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/cash-flow",
    {
      config: { permission: "treasury:leer" },
      schema: {
        tags,
        operationId: "getCashFlowForecast",
        summary: "Cash-flow forecast",
        description:
          "Opening balance (the ledger's balance of the bank subaccounts, plus what is expected between today " +
          "and from), then per bucket the inflows (open customer receipts by due date, positive forecast lines), " +
          "outflows (open supplier payments, negative forecast lines), net and running closing balance. Past-due " +
          `receipts and payments are apart (overdue). At most ${MAX_BUCKETS} buckets.`,
        querystring: cashFlowQuery,
        response: { 200: cashFlowOut, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      return toCashFlowOut(
        await getCashFlow(ctxOf(request), {
          companyId: q.company_id,
          from: q.from,
          to: q.to,
          granularity: q.granularity,
          bankAccountId: q.bank_account_id,
        }),
      );
    },
  );

  app.get(
    "/aging",
    {
      config: { permission: "treasury:leer" },
      schema: {
        tags,
        operationId: "getAgingReport",
        summary: "Aging of receivables and payables per contact",
        description:
          "Open amounts of the invoices issued by as_of, per contact, by days past due at as_of: 0-30, 31-60, " +
          "61-90, more than 90; not yet due apart.",
        querystring: agingQuery,
        response: { 200: agingOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toAgingOut(
        await getAging(ctxOf(request), { companyId: request.query.company_id, asOf: request.query.as_of }),
      ),
  );
};
