import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses } from "../../platform/http/errors.js";
import { idParams } from "../../platform/ids.js";
import { createFileStorage } from "../../platform/storage.js";
import {
  approvePurchaseInvoice,
  conversionOptions,
  convertDocuments,
  type DocumentRoutesOptions,
  documentOut,
  generateInvoiceEntry,
  rectifyInvoice,
  registerAttachmentRoutes,
  registerDocumentRoutes,
  registerEstimateAndOrderRoutes,
  registerStateRoute,
  rejectPurchaseInvoice,
  reopenPurchaseInvoice,
  toDocumentOut,
} from "../documents/index.js";
import { rectifyBody } from "../sales/index.js";

const base = { direction: "purchase", module: "purchases" } as const;
const ESTIMATES: DocumentRoutesOptions = {
  ...base,
  kind: "estimate",
  tag: "purchase estimates",
  noun: "purchase estimate",
  editableWhen: "borrador or abierto",
};
const ORDERS: DocumentRoutesOptions = {
  ...base,
  kind: "order",
  tag: "purchase orders",
  noun: "purchase order",
  editableWhen: "borrador or abierto",
};
const DELIVERY_NOTES: DocumentRoutesOptions = {
  ...base,
  kind: "delivery_note",
  tag: "purchase delivery notes",
  noun: "purchase delivery note",
  editableWhen: "borrador or abierto",
};
const INVOICES: DocumentRoutesOptions = {
  ...base,
  kind: "invoice",
  tag: "purchase invoices",
  noun: "supplier invoice",
  editableWhen: "only while pendiente",
};
const out = documentOut("purchase");
const toOut = (d: Parameters<typeof toDocumentOut>[1]) => toDocumentOut("purchase", d);

export interface PurchaseRoutesOptions {
  /** STORAGE_DIR: where the supplier invoices' attached files are kept. */
  storageDir: string;
}

/** /api/purchases: the documents engine in the purchases direction, with approval of supplier invoices. */
export const purchaseRoutes: FastifyPluginAsyncZod<PurchaseRoutesOptions> = async (app, options) => {
  const storage = createFileStorage(options.storageDir);
  await registerEstimateAndOrderRoutes(app, {
    estimates: ESTIMATES,
    orders: ORDERS,
    invoiceNoun: "supplier invoice",
  });

  await app.register(
    async (plugin) => {
      const r = plugin.withTypeProvider<ZodTypeProvider>();
      registerDocumentRoutes(r, DELIVERY_NOTES);
      registerStateRoute(r, DELIVERY_NOTES);
      r.post(
        "/convert-to-invoice",
        {
          config: { permission: "purchases:crear" },
          schema: {
            tags: [DELIVERY_NOTES.tag],
            operationId: "invoicePurchaseDeliveryNotes",
            summary: "Register one supplier invoice for several delivery notes of one supplier",
            body: z.object({
              delivery_note_ids: z.array(z.uuid()).min(1).max(500),
              supplier_number: z.string().trim().min(1).max(60).describe("The supplier's own invoice number"),
              ...conversionOptions,
            }),
            response: { 201: out, ...errorResponses(404, 409) },
          },
        },
        async (request, reply) => {
          const b = request.body;
          const invoice = await convertDocuments(ctxOf(request), {
            direction: "purchase",
            fromKind: "delivery_note",
            toKind: "invoice",
            sourceIds: b.delivery_note_ids,
            lines: b.lines?.map((l) => ({ lineId: l.line_id, quantity: l.quantity })),
            date: b.date,
            seriesCode: b.series,
            supplierNumber: b.supplier_number,
          });
          return reply.code(201).send(toOut(invoice));
        },
      );
    },
    { prefix: "/delivery-notes" },
  );

  await app.register(
    async (plugin) => {
      const r = plugin.withTypeProvider<ZodTypeProvider>();
      registerDocumentRoutes(r, INVOICES);
      registerAttachmentRoutes(r, { ...INVOICES, storage });
      r.post(
        "/:id/approve",
        {
          config: { permission: "purchases:validar" },
          schema: {
            tags: [INVOICES.tag],
            operationId: "approvePurchaseInvoice",
            summary: "Approve a pending supplier invoice: registration number, ledger entry and payments due",
            description:
              "Our registration number (gapless per series and year), the entry in the purchases journal (unless " +
              "the company posts by hand) and the payments due from the payment term, in one transaction. " +
              "Approving twice is a 409.",
            params: idParams,
            response: { 200: out, ...errorResponses(404, 409) },
          },
        },
        async (request) => toOut(await approvePurchaseInvoice(ctxOf(request), request.params.id)),
      );
      r.post(
        "/:id/reject",
        {
          config: { permission: "purchases:validar" },
          schema: {
            tags: [INVOICES.tag],
            operationId: "rejectPurchaseInvoice",
            summary: "Reject a pending supplier invoice (nothing is posted)",
            params: idParams,
            body: z.object({ reason: z.string().trim().min(1).max(500) }),
            response: { 200: out, ...errorResponses(404, 409) },
          },
        },
        async (request) =>
          toOut(await rejectPurchaseInvoice(ctxOf(request), request.params.id, request.body.reason)),
      );
      r.post(
        "/:id/reopen",
        {
          config: { permission: "purchases:validar" },
          schema: {
            tags: [INVOICES.tag],
            operationId: "reopenPurchaseInvoice",
            summary: "Reopen a rejected supplier invoice (back to pendiente)",
            params: idParams,
            response: { 200: out, ...errorResponses(404, 409) },
          },
        },
        async (request) => toOut(await reopenPurchaseInvoice(ctxOf(request), request.params.id)),
      );
      r.post(
        "/:id/generate-accounting-entry",
        {
          config: { permission: "accounting:crear" },
          schema: {
            tags: [INVOICES.tag],
            operationId: "postPurchaseInvoiceEntry",
            summary: "Post the ledger entry of an approved invoice that has none",
            params: idParams,
            response: { 200: out, ...errorResponses(404, 409) },
          },
        },
        async (request) =>
          toOut(
            await generateInvoiceEntry(
              ctxOf(request),
              { direction: "purchase", kind: "invoice" },
              request.params.id,
            ),
          ),
      );
      r.post(
        "/:id/rectify",
        {
          config: { permission: "purchases:crear" },
          schema: {
            tags: [INVOICES.tag],
            operationId: "rectifyPurchaseInvoice",
            summary:
              "Register the supplier's credit note (rectifying invoice) of an approved invoice, pending",
            params: idParams,
            body: rectifyBody,
            response: { 201: out, ...errorResponses(404, 409) },
          },
        },
        async (request, reply) => {
          const b = request.body;
          const draft = await rectifyInvoice(ctxOf(request), "purchase", request.params.id, {
            type: b.type,
            reason: b.reason,
            lines: b.lines?.map((l) => ({ lineId: l.line_id, quantity: l.quantity })),
            seriesCode: b.series,
            date: b.date,
            supplierNumber: b.supplier_number,
          });
          return reply.code(201).send(toOut(draft));
        },
      );
    },
    { prefix: "/invoices" },
  );
};
