import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses } from "../../platform/http/errors.js";
import { idParams } from "../../platform/ids.js";
import {
  conversionOptions,
  convertDocuments,
  type DocumentRoutesOptions,
  documentOut,
  generateInvoiceEntry,
  issueSalesInvoice,
  modelo347AeatFile,
  modelo347Report,
  rectifyInvoice,
  registerDocumentRoutes,
  registerEstimateAndOrderRoutes,
  registerStateRoute,
  toDocumentOut,
} from "../documents/index.js";
import { invoiceIssueBody, modelo347Out, modelo347Query, rectifyBody, toModelo347Out } from "./schemas.js";

const base = { direction: "sale", module: "sales" } as const;
const ESTIMATES: DocumentRoutesOptions = {
  ...base,
  kind: "estimate",
  tag: "sales estimates",
  noun: "estimate",
  editableWhen: "borrador or abierto",
};
const ORDERS: DocumentRoutesOptions = {
  ...base,
  kind: "order",
  tag: "sales orders",
  noun: "order",
  editableWhen: "borrador or abierto",
};
const DELIVERY_NOTES: DocumentRoutesOptions = {
  ...base,
  kind: "delivery_note",
  tag: "sales delivery notes",
  noun: "delivery note",
  editableWhen: "borrador or abierto",
};
const INVOICES: DocumentRoutesOptions = {
  ...base,
  kind: "invoice",
  tag: "sales invoices",
  noun: "sales invoice",
  editableWhen: "drafts only",
};
const invoiceScope = { direction: "sale", kind: "invoice" } as const;
const out = documentOut("sale");

/** /api/sales: the documents engine in the sales direction, plus issuing, rectifying and modelo 347. */
export const salesRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerEstimateAndOrderRoutes(app, { estimates: ESTIMATES, orders: ORDERS, invoiceNoun: "invoice" });

  await app.register(
    async (plugin) => {
      const r = plugin.withTypeProvider<ZodTypeProvider>();
      registerDocumentRoutes(r, DELIVERY_NOTES);
      registerStateRoute(r, DELIVERY_NOTES);
      r.post(
        "/convert-to-invoice",
        {
          config: { permission: "sales:crear" },
          schema: {
            tags: [DELIVERY_NOTES.tag],
            operationId: "invoiceSalesDeliveryNotes",
            summary: "Invoice several delivery notes of one customer (merged into one draft invoice)",
            description:
              "All that remains of each note, or the quantities given per line. The notes must share customer, " +
              "company, currency and global discounts.",
            body: z.object({
              delivery_note_ids: z.array(z.uuid()).min(1).max(500),
              ...conversionOptions,
            }),
            response: { 201: out, ...errorResponses(404, 409) },
          },
        },
        async (request, reply) => {
          const b = request.body;
          const invoice = await convertDocuments(ctxOf(request), {
            direction: "sale",
            fromKind: "delivery_note",
            toKind: "invoice",
            sourceIds: b.delivery_note_ids,
            lines: b.lines?.map((l) => ({ lineId: l.line_id, quantity: l.quantity })),
            date: b.date,
            seriesCode: b.series,
          });
          return reply.code(201).send(toDocumentOut("sale", invoice));
        },
      );
    },
    { prefix: "/delivery-notes" },
  );

  await app.register(
    async (plugin) => {
      const r = plugin.withTypeProvider<ZodTypeProvider>();
      registerDocumentRoutes(r, INVOICES);
      r.post(
        "/:id/issue",
        {
          config: { permission: "sales:crear" },
          schema: {
            tags: [INVOICES.tag],
            operationId: "issueSalesInvoice",
            summary: "Issue a draft invoice: its number, the ledger entry and the receipts",
            description:
              "Takes the next number of the series in the invoice's year (a date earlier than the series' last one " +
              "is a 409), freezes the customer's data, posts the entry in the sales journal (unless the company " +
              "posts by hand) and creates the receipts from the payment term, in one transaction. An issued " +
              "invoice never changes again: correct it with POST /{id}/rectify.",
            params: idParams,
            body: invoiceIssueBody,
            response: { 200: out, ...errorResponses(404, 409) },
          },
        },
        async (request) =>
          toDocumentOut(
            "sale",
            await issueSalesInvoice(ctxOf(request), request.params.id, request.body ?? {}),
          ),
      );
      r.post(
        "/:id/generate-accounting-entry",
        {
          config: { permission: "accounting:crear" },
          schema: {
            tags: [INVOICES.tag],
            operationId: "postSalesInvoiceEntry",
            summary: "Post the ledger entry of an issued invoice that has none",
            description:
              "For companies that post by hand (automatic posting off). A second call is a 409 naming the entry.",
            params: idParams,
            response: { 200: out, ...errorResponses(404, 409) },
          },
        },
        async (request) =>
          toDocumentOut("sale", await generateInvoiceEntry(ctxOf(request), invoiceScope, request.params.id)),
      );
      r.post(
        "/:id/rectify",
        {
          config: { permission: "sales:crear" },
          schema: {
            tags: [INVOICES.tag],
            operationId: "rectifySalesInvoice",
            summary: "Create the rectifying invoice of an issued invoice (a draft in series R)",
            description:
              "type I (by differences, the default): negative lines taking back the whole invoice or the given line " +
              "quantities; S (substitution): takes back every line and adds a copy of each to correct. Issue it " +
              "with POST /{id}/issue.",
            params: idParams,
            body: rectifyBody,
            response: { 201: out, ...errorResponses(404, 409) },
          },
        },
        async (request, reply) => {
          const b = request.body;
          const draft = await rectifyInvoice(ctxOf(request), "sale", request.params.id, {
            type: b.type,
            reason: b.reason,
            lines: b.lines?.map((l) => ({ lineId: l.line_id, quantity: l.quantity })),
            seriesCode: b.series,
            date: b.date,
          });
          return reply.code(201).send(toDocumentOut("sale", draft));
        },
      );
    },
    { prefix: "/invoices" },
  );

  app.get(
    "/reports/modelo-347",
    {
      config: { permission: "sales:leer" },
      schema: {
        tags: ["sales reports"],
        operationId: "getModelo347Report",
        summary: "Modelo 347: annual operations with third parties over 3,005.06 EUR",
        description:
          "Per contact: key B (sales) and A (purchases), annual amount (base + VAT + RE; rectifying invoices " +
          "subtract) and quarters. ?format=aeat returns the 500-character-record file (ISO-8859-1) to upload to " +
          "the tax agency's form.",
        querystring: modelo347Query,
        produces: ["application/json", "text/plain"],
        response: { 200: modelo347Out.or(z.any().describe("The AEAT file (format=aeat)")) },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const report = await modelo347Report(ctx, {
        companyId: request.query.company_id,
        year: request.query.year,
      });
      if (request.query.format !== "aeat") return toModelo347Out(report);
      const file = await modelo347AeatFile(ctx, report);
      return reply
        .type("text/plain; charset=iso-8859-1")
        .header("content-disposition", `attachment; filename="modelo347-${report.year}.txt"`)
        .send(file);
    },
  );
};
