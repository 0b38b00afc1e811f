import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  boxInvoicesOut,
  checkOut,
  eventOut,
  presentBody,
  reopenBody,
  returnCreateBody,
  returnListQuery,
  returnOut,
  returnPage,
  returnPatchBody,
  toBoxInvoiceOut,
  toCheckRowOut,
  toReturnOut,
} from "./schemas.js";
import * as returns from "./service.js";

const tags = ["tax"];

/** /api/tax/returns: 303, 390, 111, 115 and 349 computed from the books, confirmed, settled, filed. */
export const returnRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { permission: "tax:leer" },
      schema: {
        tags,
        operationId: "listTaxReturns",
        summary: "List tax returns",
        querystring: returnListQuery,
        response: { 200: returnPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await returns.listReturns(ctxOf(request), {
        companyId: q.company_id,
        model: q.model,
        year: q.year,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toReturnOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.post(
    "/",
    {
      config: { permission: "tax:crear" },
      schema: {
        tags,
        operationId: "computeTaxReturn",
        summary: "Compute a draft return",
        description:
          "From the issued sales and approved purchase invoices whose operation date (else issue date) is in " +
          "the period, through the box map. 303 box 110 starts with what the previous period left to " +
          "compensate. One ordinary return per company, model and period (409 with its id); a complementaria " +
          "or sustitutiva refers to a presented one. A correcting 303 needs admin:editar: while it is a draft " +
          "its period is open again (recorded as a `correct` event of the corrected return).",
        body: returnCreateBody,
        response: { 201: returnOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const row = await returns.createReturn(ctxOf(request), {
        companyId: b.company_id,
        model: b.model,
        year: b.year,
        period: b.period,
        declarationKind: b.declaration_kind,
        previousReturnId: b.previous_return_id,
        previousReceipt: b.previous_receipt,
      });
      return reply.code(201).send(toReturnOut(row));
    },
  );

  app.get(
    "/:id",
    {
      config: { permission: "tax:leer" },
      schema: {
        tags,
        operationId: "getTaxReturn",
        summary: "Tax return detail",
        params: idParams,
        response: { 200: returnOut, ...errorResponses(404) },
      },
    },
    async (request) => toReturnOut(await returns.getReturn(ctxOf(request), request.params.id)),
  );

  app.patch(
    "/:id",
    {
      config: { permission: "tax:editar" },
      schema: {
        tags,
        operationId: "updateTaxReturn",
        summary: "Fill the accountant's boxes of a draft",
        description:
          "Manual boxes (110 compensation pending, 78 applied, 77, 65, 68...), the declaration type and the IBAN; " +
          "the draft is recomputed. A confirmed return is 409.",
        params: idParams,
        body: returnPatchBody,
        response: { 200: returnOut, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const b = request.body;
      return toReturnOut(
        await returns.updateReturn(ctxOf(request), request.params.id, {
          manualBoxes: b.manual_boxes,
          declarationType: b.declaration_type,
          iban: b.iban,
          previousReceipt: b.previous_receipt,
        }),
      );
    },
  );

  const action = (
    path: string,
    operationId: string,
    summary: string,
    description: string,
    run: (ctx: ReturnType<typeof ctxOf>, id: string) => ReturnType<typeof returns.getReturn>,
  ) =>
    app.post(
      `/:id/${path}`,
      {
        config: { permission: "tax:editar" },
        schema: {
          tags,
          operationId,
          summary,
          description,
          params: idParams,
          response: { 200: returnOut, ...errorResponses(404, 409) },
        },
      },
      async (request) => toReturnOut(await run(ctxOf(request), request.params.id)),
    );

  action(
    "recompute",
    "recomputeTaxReturn",
    "Recompute a draft from the books",
    "Manual boxes are kept. A confirmed return is 409.",
    (ctx, id) => returns.recomputeReturn(ctx, id),
  );
  action(
    "confirm",
    "confirmTaxReturn",
    "Confirm a return",
    "Recomputes and freezes the boxes. A confirmed 303 locks its period: issuing, approving, rectifying or " +
      "posting anything dated in it is a 409 naming the return until an admin reopens it.",
    (ctx, id) => returns.confirmReturn(ctx, id),
  );
  action(
    "settle",
    "settleTaxReturn",
    "Post the settlement entry of a confirmed 303",
    "Dated on the period's last day: every 477 and 472 subaccount's balance of the period reversed, the net to " +
      "4750 (types I, G, U) or 4700 (C, D, V, X, N). Once (409 the second time).",
    (ctx, id) => returns.settleReturn(ctx, id),
  );

  app.post(
    "/:id/present",
    {
      config: { permission: "tax:editar" },
      schema: {
        tags,
        operationId: "markTaxReturnFiled",
        summary: "Mark a confirmed return as filed with the AEAT",
        params: idParams,
        body: presentBody,
        response: { 200: returnOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toReturnOut(await returns.presentReturn(ctxOf(request), request.params.id, request.body.receipt)),
  );

  app.post(
    "/:id/reopen",
    {
      config: { permission: "admin:editar" },
      schema: {
        tags,
        operationId: "reopenTaxReturn",
        summary: "Reopen a confirmed return (admin, audited)",
        description:
          "Back to borrador, unlocking its period. A presented return is corrected by a rectifying one instead.",
        params: idParams,
        body: reopenBody,
        response: { 200: returnOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toReturnOut(await returns.reopenReturn(ctxOf(request), request.params.id, request.body.reason)),
  );

  app.get(
    "/:id/events",
    {
      config: { permission: "tax:leer" },
      schema: {
        tags,
        operationId: "listTaxReturnEvents",
        summary: "What happened to a return: confirm, settle, present, reopen, who and why",
        params: idParams,
        response: { 200: z.array(eventOut), ...errorResponses(404) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      await returns.getReturn(ctx, request.params.id);
      return (await returns.returnEvents(ctx, request.params.id)).map((e) => ({
        action: e.action,
        reason: e.reason,
        user_id: e.userId,
        created_at: iso(e.createdAt),
      }));
    },
  );

  app.get(
    "/:id/file",
    {
      config: { permission: "tax:leer" },
      schema: {
        tags,
        operationId: "getTaxReturnFile",
        summary: "The AEAT upload file of a confirmed return",
        description:
          "ISO-8859-1, fixed width: DR303e26 v1.01 (pages 01, 03 and DID), DR390 of exercise 2025 (pages 01-04, " +
          "06, 07), dr111e16v18, DR115e15v11, or the 349's 500-character records. Import it in the AEAT's form " +
          "(Sede electrónica, 'Importar'), check, sign and file. 409: a draft; a 390 with issues or without the " +
          "company's activity (PUT /api/tax/settings/{company_id}).",
        params: idParams,
        produces: ["text/plain"],
        response: { 200: z.any().describe("The file"), ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const file = await returns.returnFile(ctxOf(request), request.params.id);
      return reply
        .type("text/plain; charset=iso-8859-1")
        .header("content-disposition", `attachment; filename="${file.filename}"`)
        .send(file.body);
    },
  );

  app.get(
    "/:id/check",
    {
      config: { permission: "tax:leer" },
      schema: {
        tags,
        operationId: "checkTaxReturn",
        summary: "Compare a return with the ledger of its period",
        description:
          "303: boxes 27 and 45 against the period's 477 and 472 movements; 111/115: box 28 / 03 against 4751. " +
          "Every entry or invoice behind a difference is listed: a manual entry no invoice explains (no " +
          "document), an invoice not posted (no entry), or one posted with other amounts.",
        params: idParams,
        response: { 200: checkOut, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const result = await returns.checkReturn(ctxOf(request), request.params.id);
      return { ...result, differences: result.differences.map(toCheckRowOut) };
    },
  );

  app.get(
    "/:id/boxes/:box",
    {
      config: { permission: "tax:leer" },
      schema: {
        tags,
        operationId: "listTaxReturnBoxInvoices",
        summary: "The invoices behind one box",
        params: idParams.extend({
          box: z
            .string()
            .regex(/^(\d{2,3}|[A-Z])$/, { message: "must be a box number (a 349: its key letter)" })
            .describe(
              "A box of the return; of a 349, a key (E, A, S, I, T...); of a 390, a box adding up 303 boxes",
            ),
        }),
        response: { 200: boxInvoicesOut, ...errorResponses(404) },
      },
    },
    async (request) => {
      const rows = await returns.invoicesBehindBox(ctxOf(request), request.params.id, request.params.box);
      return { box: request.params.box, invoices: rows.map(toBoxInvoiceOut) };
    },
  );
};
