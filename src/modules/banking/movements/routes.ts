import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  autoMatchBody,
  autoMatchOut,
  movementListQuery,
  movementOut,
  movementPage,
  reconcileBody,
  toAutoMatchOut,
  toMovementOut,
} from "./schemas.js";
import * as movements from "./service.js";

const tags = ["bank-reconciliation"];

export const movementRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/movements",
    {
      config: { permission: "banking:leer" },
      schema: {
        tags,
        operationId: "listBankMovements",
        summary: "List bank movements with their suggestions",
        description:
          "By operation date. status: pendiente (nothing found), sugerido (candidates scoring 50+), conciliado, " +
          "ignorado. Each open movement carries its suggestions, rescored against what is open now, with the " +
          "reasons of each score; a reconciled one carries its reconciliation. Deep pages: pass `after` (the last " +
          "id of the previous page) instead of a large skip. total is exact up to 10,000 movements (total_is_estimate).",
        querystring: movementListQuery,
        response: { 200: movementPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total, totalIsEstimate } = await movements.listMovements(ctxOf(request), {
        companyId: q.company_id,
        status: q.status,
        bankAccountId: q.bank_account_id,
        dateFrom: q.date_from,
        dateTo: q.date_to,
        minAmount: q.min_amount,
        maxAmount: q.max_amount,
        search: q.search,
        limit: q.limit,
        offset: q.skip,
        after: q.after,
      });
      return {
        data: rows.map(toMovementOut),
        total,
        total_is_estimate: totalIsEstimate,
        skip: q.skip,
        limit: q.limit,
      };
    },
  );

  app.get(
    "/movements/:id",
    {
      config: { permission: "banking:leer" },
      schema: {
        tags,
        operationId: "getBankMovement",
        summary: "A bank movement with its suggestions or reconciliation",
        params: idParams,
        response: { 200: movementOut, ...errorResponses(404) },
      },
    },
    async (request) => toMovementOut(await movements.getMovement(ctxOf(request), request.params.id)),
  );

  app.post(
    "/movements/:id/reconcile",
    {
      config: { permission: "banking:editar" },
      schema: {
        tags,
        operationId: "reconcileBankMovement",
        summary: "Reconcile a movement with a receipt, a supplier payment or a ledger entry",
        description:
          "receipt / payment: records the payment through treasury (its entry: Dr 572 net, Dr 626 fees, Cr 430; " +
          "or Dr 400, Dr 626, Cr 572) dated at the movement's operation date; paying more than is open is a 409. " +
          "entry: links an existing entry whose lines on the bank's subaccount move exactly the movement's amount " +
          "(otherwise 409). Only pendiente and sugerido movements (409 otherwise). Another company's receipt, " +
          "payment or entry: 404.",
        params: idParams,
        body: reconcileBody,
        response: { 200: movementOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toMovementOut(await movements.reconcileMovement(ctxOf(request), request.params.id, request.body)),
  );

  app.post(
    "/movements/:id/unreconcile",
    {
      config: { permission: "banking:editar" },
      schema: {
        tags,
        operationId: "unreconcileBankMovement",
        summary: "Undo a movement's reconciliation (or take an ignored movement back)",
        description:
          "A payment the reconciliation recorded is undone by treasury (its entry reversed); a linked entry is " +
          "let go. The movement is pendiente (sugerido when it has suggestions) again. 409 unless conciliado or ignorado.",
        params: idParams,
        response: { 200: movementOut, ...errorResponses(404, 409) },
      },
    },
    async (request) => toMovementOut(await movements.unreconcileMovement(ctxOf(request), request.params.id)),
  );

  app.post(
    "/movements/:id/ignore",
    {
      config: { permission: "banking:editar" },
      schema: {
        tags,
        operationId: "ignoreBankMovement",
        summary: "Ignore a movement (nothing to reconcile it with)",
        description: "Only pendiente and sugerido movements (409 otherwise); unreconcile takes it back.",
        params: idParams,
        response: { 200: movementOut, ...errorResponses(404, 409) },
      },
    },
    async (request) => toMovementOut(await movements.ignoreMovement(ctxOf(request), request.params.id)),
  );

  app.post(
    "/auto-match",
    {
      config: { permission: "banking:editar" },
      schema: {
        tags,
        operationId: "autoMatchBankMovements",
        summary: "Match every open movement and reconcile the unique 85+ matches",
        description:
          "Scores every pendiente and sugerido movement of the company (or of one bank account) against its open " +
          "receipts and supplier payments, keeps the suggestions (50+), and reconciles a movement only when one " +
          "candidate scores 85 or more and no other movement claims that candidate at 85+. Returns what it " +
          "applied, how many it left for a person and any that failed (e.g. a due paid meanwhile).",
        body: autoMatchBody,
        response: { 200: autoMatchOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toAutoMatchOut(
        await movements.autoMatch(ctxOf(request), {
          companyId: request.body?.company_id,
          bankAccountId: request.body?.bank_account_id,
        }),
      ),
  );
};
