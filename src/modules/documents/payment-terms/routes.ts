import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  fromPaymentTermBody,
  paymentTermCreateBody,
  paymentTermListQuery,
  paymentTermOut,
  paymentTermPage,
  paymentTermUpdateBody,
  toPaymentTermOut,
} from "./schemas.js";
import * as terms from "./service.js";

const tags = ["documents"];

const RULES =
  "lines: percent lines (0 < value <= 100, 100 % at most in all) and fixed amounts, each due `days` " +
  "after the issue date (end_of_month: at the end of that month); the last line may be the balance, " +
  "which takes what the others leave and is the only way to combine fixed amounts. The lines must " +
  "cover the whole total. A breach is a 400 naming lines.N.field.";

/** /api/payment-terms: how each company's invoices fall due (instalments). */
export const paymentTermRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "listPaymentTerms",
        summary: "List payment terms",
        description: "Any signed-in caller sees the payment terms of the companies it may see.",
        querystring: paymentTermListQuery,
        response: { 200: paymentTermPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await terms.listPaymentTerms(ctxOf(request), {
        companyId: q.company_id,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toPaymentTermOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/:id",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "getPaymentTerm",
        summary: "Payment term detail",
        params: idParams,
        response: { 200: paymentTermOut, ...errorResponses(404) },
      },
    },
    async (request) => toPaymentTermOut(await terms.getPaymentTerm(ctxOf(request), request.params.id)),
  );

  app.post(
    "/",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "createPaymentTerm",
        summary: "Create a payment term",
        description: RULES,
        body: paymentTermCreateBody,
        response: { 201: paymentTermOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const fields = fromPaymentTermBody(b);
      const row = await terms.createPaymentTerm(ctxOf(request), {
        ...fields,
        companyId: b.company_id,
        code: b.code,
        name: b.name,
        lines: fields.lines ?? [],
      });
      return reply.code(201).send(toPaymentTermOut(row));
    },
  );

  app.put(
    "/:id",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "updatePaymentTerm",
        summary: "Update a payment term",
        description: `${RULES} Issued documents keep their instalments: a change applies to later ones.`,
        params: idParams,
        body: paymentTermUpdateBody,
        response: { 200: paymentTermOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toPaymentTermOut(
        await terms.updatePaymentTerm(ctxOf(request), request.params.id, fromPaymentTermBody(request.body)),
      ),
  );
};
