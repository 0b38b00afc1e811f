import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { allQueries } from "../../../platform/db/sql.js";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import { getDue } from "../../documents/index.js";
import { getPayment, undoPayment } from "../payments/service.js";
import type { PaymentDirection } from "../tables.js";
import {
  dueCreateBody,
  dueDetailOut,
  dueListQuery,
  duePage,
  dueUpdateBody,
  payBody,
  paymentOut,
  payResultOut,
  toDueDetailOut,
  toDueOut,
  toPaymentOut,
  undoBody,
} from "./schemas.js";
import * as dues from "./service.js";

const tags = ["treasury"];

const WORDS = {
  sale: {
    one: "customer receipt",
    many: "customer receipts",
    operationNoun: "CustomerReceipt",
    invoice: "issued sales invoice",
    entry: "Dr 572 (net of fees) / Dr 626 fees / Cr 430",
  },
  purchase: {
    one: "supplier payment",
    many: "supplier payments due",
    operationNoun: "SupplierPayment",
    invoice: "approved purchase invoice",
    entry: "Dr 400 / Dr 626 fees / Cr 572",
  },
} as const;

/** /api/treasury/customer-receipts or /supplier-payments: the instalments of one direction. */
export function dueRoutes(direction: PaymentDirection): FastifyPluginAsyncZod {
  const w = WORDS[direction];
  return async (app) => {
    app.get(
      "/",
      {
        config: { permission: "treasury:leer" },
        schema: {
          tags,
          operationId: `list${w.operationNoun}s`,
          summary: `List ${w.many}`,
          description:
            "By due date. status vencido: not fully paid and due before today; pendiente and parcial are the " +
            "ones not yet due. date_from/date_to filter the due date; search looks in the code, the contact's " +
            "name and tax id and the supplier's number. Deep pages: pass `after` (the last id of the previous page) " +
            "instead of a large skip. total is exact up to 10,000 instalments (total_is_estimate).",
          querystring: dueListQuery,
          response: { 200: duePage },
        },
      },
      async (request) => {
        const q = request.query;
        const { rows, total, totalIsEstimate } = await dues.listTreasuryDues(ctxOf(request), direction, {
          companyId: q.company_id,
          status: q.status,
          dateFrom: q.date_from,
          dateTo: q.date_to,
          contactId: q.contact_id,
          documentId: q.invoice_id,
          search: q.search,
          limit: q.limit,
          offset: q.skip,
          after: q.after,
        });
        return {
          data: rows.map(toDueOut),
          total,
          total_is_estimate: totalIsEstimate ?? false,
          skip: q.skip,
          limit: q.limit,
        };
      },
    );

    app.post(
      "/",
      {
        config: { permission: "treasury:crear" },
        schema: {
          tags,
          operationId: `create${w.operationNoun}`,
          summary: `Create a ${w.one} by hand`,
          description:
            `Adds an instalment to an ${w.invoice}. Its amount comes from what the invoice's instalments do not ` +
            "cover yet, else out of its last unpaid instalment that is larger (which keeps the rest): 409 otherwise.",
          body: dueCreateBody,
          response: { 201: dueDetailOut, ...errorResponses(404, 409) },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const due = await dues.createTreasuryDue(ctxOf(request), direction, {
          invoiceId: b.invoice_id,
          dueDate: b.due_date,
          amount: b.amount,
        });
        return reply.code(201).send(toDueDetailOut(due));
      },
    );

    app.get(
      "/:id",
      {
        config: { permission: "treasury:leer" },
        schema: {
          tags,
          operationId: `get${w.operationNoun}`,
          summary: `${w.one[0].toUpperCase()}${w.one.slice(1)} detail, with its payments and its invoice's instalments`,
          params: idParams,
          response: { 200: dueDetailOut, ...errorResponses(404) },
        },
      },
      async (request) =>
        toDueDetailOut(await dues.getTreasuryDue(ctxOf(request), direction, request.params.id)),
    );

    app.patch(
      "/:id",
      {
        config: { permission: "treasury:editar" },
        schema: {
          tags,
          operationId: `update${w.operationNoun}`,
          summary: `Change the due date of a ${w.one}, or split it into instalments`,
          description:
            "due_date: not on a fully paid instalment. instalments: only while nothing of it is paid; the parts " +
            "must add up to its amount (400 otherwise); the first part keeps the id. 409 when paid.",
          params: idParams,
          body: dueUpdateBody,
          response: { 200: dueDetailOut, ...errorResponses(404, 409) },
        },
      },
      async (request) => {
        const b = request.body;
        const due = await dues.updateTreasuryDue(ctxOf(request), direction, request.params.id, {
          dueDate: b.due_date,
          instalments: b.instalments?.map((i) => ({ dueDate: i.due_date, amount: i.amount })),
        });
        return toDueDetailOut(due);
      },
    );

    app.post(
      "/:id/pay",
      {
        config: { permission: "treasury:crear" },
        schema: {
          tags,
          operationId: `pay${w.operationNoun}`,
          summary: `Pay a ${w.one}, fully or partly`,
          description:
            `Posts ${w.entry} in the BAN journal, adds the amount to what was paid of the instalment and of ` +
            "its invoice (whose payment status follows), in one transaction. More than the open amount is a 409.",
          params: idParams,
          body: payBody,
          response: { 201: payResultOut, ...errorResponses(404, 409) },
        },
      },
      async (request, reply) => {
        const ctx = ctxOf(request);
        const b = request.body;
        const { paymentId } = await dues.payTreasuryDue(ctx, direction, request.params.id, {
          date: b.date,
          amount: b.amount,
          bankAccountId: b.bank_account_id,
          fees: b.fees,
        });
        const [payment, due] = await allQueries(ctx.db, [
          () => getPayment(ctx, paymentId),
          () => getDue(ctx, request.params.id),
        ]);
        return reply.code(201).send({ ...toPaymentOut(payment), due: toDueOut(due) });
      },
    );
  };
}

/** /api/treasury/payments: a recorded payment, and undoing it. */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/:id",
    {
      config: { permission: "treasury:leer" },
      schema: {
        tags,
        operationId: "getPayment",
        summary: "Payment detail",
        params: idParams,
        response: { 200: paymentOut, ...errorResponses(404) },
      },
    },
    async (request) => toPaymentOut(await getPayment(ctxOf(request), request.params.id)),
  );

  app.post(
    "/:id/undo",
    {
      config: { permission: "treasury:editar" },
      schema: {
        tags,
        operationId: "undoPayment",
        summary: "Undo a payment",
        description:
          "Posts the reversal of its entry (dated `date`, default the payment's date), gives the amount back " +
          "to the instalment and the invoice. 409 when already undone, or when it reconciles a bank movement " +
          "(unreconcile the movement instead).",
        params: idParams,
        body: undoBody,
        response: { 200: paymentOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toPaymentOut(await undoPayment(ctxOf(request), request.params.id, { date: request.body?.date })),
  );
};
