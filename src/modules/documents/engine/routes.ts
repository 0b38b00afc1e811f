import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import type { Direction, DocumentKind } from "../tables.js";
import { type ConversionInput, convertDocuments } from "./conversion.js";
import { pdfQrOf } from "./hooks.js";
import { pdfFileName, renderDocumentPdf } from "./pdf.js";
import {
  documentBody,
  documentListQuery,
  documentOut,
  documentPage,
  documentPreviewBody,
  documentStateBody,
  fromDocumentBody,
  fromListQuery,
  lineInputOf,
  previewOut,
  toDocumentOut,
  toDocumentSummaryOut,
  toPreviewOut,
} from "./schemas.js";
import {
  createDocument,
  type DocumentInput,
  deleteDocument,
  getDocument,
  listDocuments,
  previewDocument,
  setDocumentState,
  updateDocument,
} from "./service.js";

/**
 * The routes every kind of document has, in both directions (sales and purchases register them for
 * each kind under their own prefix and permission module): list, create, detail, update, delete,
 * PDF. Kind-specific actions (issue, approve, convert...) are declared by the modules themselves.
 */
export interface DocumentRoutesOptions {
  direction: Direction;
  kind: DocumentKind;
  /** Permission module: "sales" or "purchases". */
  module: "sales" | "purchases";
  tag: string;
  /** e.g. "estimate", "sales invoice": used in summaries. */
  noun: string;
  /** What an update or delete may touch, for the summaries. */
  editableWhen: string;
}

const pascal = (words: string) => words.replace(/(?:^|[_ ])(\w)/g, (_m, c: string) => c.toUpperCase());

/** The noun of a kind in operationIds: SalesInvoice, PurchaseDeliveryNote... */
export const operationNoun = (o: Pick<DocumentRoutesOptions, "direction" | "kind">) =>
  `${o.direction === "sale" ? "Sales" : "Purchase"}${pascal(o.kind)}`;

export function registerDocumentRoutes(app: FastifyInstance, o: DocumentRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const scope = { direction: o.direction, kind: o.kind };
  const tags = [o.tag];
  const invoices = o.kind === "invoice";
  const body = documentBody(o.direction, {
    purchaseInvoice: invoices && o.direction === "purchase",
    estimate: o.kind === "estimate",
  });
  const out = documentOut(o.direction);
  const toOut = (d: Parameters<typeof toDocumentOut>[1]) => toDocumentOut(o.direction, d);

  r.get(
    "/",
    {
      config: { permission: `${o.module}:leer` },
      schema: {
        tags,
        operationId: `list${operationNoun(o)}s`,
        summary: `List ${o.noun}s`,
        description:
          "Newest date first. search: part of the code, the contact's name or tax id. Deep pages: pass `after` " +
          "(the last id of the previous page) instead of a large skip. total is exact up to 10,000 documents " +
          "(total_is_estimate).",
        querystring: documentListQuery(o.direction, { invoices }),
        response: { 200: documentPage(o.direction) },
      },
    },
    async (request) => {
      const q = request.query as Record<string, unknown>;
      const { rows, total, totalIsEstimate } = await listDocuments(
        ctxOf(request),
        scope,
        fromListQuery(o.direction, q),
      );
      return {
        data: rows.map((d) => toDocumentSummaryOut(o.direction, d)),
        total,
        total_is_estimate: totalIsEstimate,
        skip: q.skip as number,
        limit: q.limit as number,
      };
    },
  );

  r.post(
    "/",
    {
      config: { permission: `${o.module}:crear` },
      schema: {
        tags,
        operationId: `create${operationNoun(o)}`,
        summary: `Create a ${o.noun}`,
        description:
          "Totals are computed by the server (rounding per tax group). Tax codes come from GET /api/taxes; " +
          "the contact is frozen on the document.",
        body,
        response: { 201: out },
      },
    },
    async (request, reply) => {
      const input = fromDocumentBody(o.direction, request.body as Record<string, unknown>) as DocumentInput;
      return reply.code(201).send(toOut(await createDocument(ctxOf(request), scope, input)));
    },
  );

  r.post(
    "/preview",
    {
      config: { permission: `${o.module}:leer` },
      schema: {
        tags,
        operationId: `preview${operationNoun(o)}`,
        summary: `Compute the totals of a ${o.noun} without saving it`,
        description:
          "The figures a create would store (product defaults, tax codes, rounding per tax group), for an " +
          "editor's live totals. Nothing is written; bad lines are a 400 naming lines.N.field.",
        body: documentPreviewBody(o.direction),
        response: { 200: previewOut },
      },
    },
    async (request) => {
      const b = request.body as Record<string, unknown> & { lines: Parameters<typeof lineInputOf>[0][] };
      return toPreviewOut(
        await previewDocument(ctxOf(request), scope, {
          companyId: b.company_id as string | undefined,
          contactId: b[o.direction === "sale" ? "client_id" : "supplier_id"] as string,
          discount1: b.discount1 as string | undefined,
          discount2: b.discount2 as string | undefined,
          lines: b.lines.map(lineInputOf),
        }),
      );
    },
  );

  r.get(
    "/:id",
    {
      config: { permission: `${o.module}:leer` },
      schema: {
        tags,
        operationId: `get${operationNoun(o)}`,
        summary: `${o.noun[0].toUpperCase()}${o.noun.slice(1)} with its lines, taxes and dues`,
        params: idParams,
        response: { 200: out, ...errorResponses(404) },
      },
    },
    async (request) => toOut(await getDocument(ctxOf(request), scope, request.params.id)),
  );

  r.patch(
    "/:id",
    {
      config: { permission: `${o.module}:editar` },
      schema: {
        tags,
        operationId: `update${operationNoun(o)}`,
        summary: `Update a ${o.noun} (${o.editableWhen})`,
        description:
          "Fields left out stay as they are; lines, when given, replace the lines (keep one by its id).",
        params: idParams,
        body: body.partial(),
        response: { 200: out, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toOut(
        await updateDocument(
          ctxOf(request),
          scope,
          request.params.id,
          fromDocumentBody(o.direction, request.body as Record<string, unknown>),
        ),
      ),
  );

  r.delete(
    "/:id",
    {
      config: { permission: `${o.module}:eliminar` },
      schema: {
        tags,
        operationId: `delete${operationNoun(o)}`,
        summary: `Delete a ${o.noun} (${o.editableWhen}, without later documents)`,
        params: idParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await deleteDocument(ctxOf(request), scope, request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    "/:id/pdf",
    {
      config: { permission: `${o.module}:leer` },
      schema: {
        tags,
        operationId: `get${operationNoun(o)}Pdf`,
        summary: `The ${o.noun} as a PDF`,
        params: idParams,
        produces: ["application/pdf"],
        response: { 200: z.any().describe("application/pdf document"), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const view = await getDocument(ctx, scope, request.params.id);
      const pdf = await renderDocumentPdf(ctx, view, await pdfQrOf(ctx, view));
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="${pdfFileName(view)}"`)
        .send(pdf);
    },
  );
}

/** PUT /{id}/estado for estimates, orders and delivery notes (the hand transitions only). */
export function registerStateRoute(app: FastifyInstance, o: DocumentRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().put(
    "/:id/estado",
    {
      config: { permission: `${o.module}:editar` },
      schema: {
        tags: [o.tag],
        operationId: `set${operationNoun(o)}State`,
        summary: `Change the state of a ${o.noun}`,
        description:
          "borrador <-> abierto, rechazado, cancelado (and reopening). parcial and convertido follow conversions; " +
          "a refused transition is a 409 listing the allowed ones.",
        params: idParams,
        body: documentStateBody,
        response: { 200: documentOut(o.direction), ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toDocumentOut(
        o.direction,
        await setDocumentState(
          ctxOf(request),
          { direction: o.direction, kind: o.kind },
          request.params.id,
          request.body.estado,
        ),
      ),
  );
}

export const conversionLinesBody = z
  .array(
    z.object({
      line_id: z.uuid(),
      quantity: z
        .string()
        .regex(/^\d{1,12}(\.\d{1,4})?$/, { message: "must be a positive decimal string, up to 4 decimals" })
        .refine((v) => !/^0+(\.0+)?$/.test(v), { message: "must be more than 0" }),
    }),
  )
  .min(1)
  .max(2000)
  .optional()
  .describe("Quantities to take per line; all that remains of every line when absent");

export const conversionOptions = {
  lines: conversionLinesBody,
  date: z.iso
    .date({ message: "must be a date YYYY-MM-DD" })
    .optional()
    .describe("Date of the new document; today"),
  series: z
    .string()
    .regex(/^[A-Z0-9]{1,4}$/)
    .optional(),
};

/** POST /{id}/convert-to-{kind}: one source document, whole or given line quantities. */
export function registerConversionRoute(
  app: FastifyInstance,
  o: DocumentRoutesOptions & { to: DocumentKind; path: string; toNoun: string },
) {
  const purchaseInvoice = o.direction === "purchase" && o.to === "invoice";
  app.withTypeProvider<ZodTypeProvider>().post(
    `/:id/${o.path}`,
    {
      config: { permission: `${o.module}:crear` },
      schema: {
        tags: [o.tag],
        operationId: `convert${operationNoun(o)}To${pascal(o.to)}`,
        summary: `Convert a ${o.noun} into a ${o.toNoun}`,
        description:
          "Whole, or the quantities given per line (at most what remains of each: more is a 409). The source " +
          "becomes parcial or convertido.",
        params: idParams,
        body: z
          .object({
            ...conversionOptions,
            ...(purchaseInvoice ? { supplier_number: z.string().trim().min(1).max(60) } : {}),
          })
          .nullish(),
        response: { 201: documentOut(o.direction), ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const b = (request.body ?? {}) as Record<string, unknown>;
      const input: ConversionInput = {
        direction: o.direction,
        fromKind: o.kind,
        toKind: o.to,
        sourceIds: [request.params.id],
        lines: (b.lines as Array<{ line_id: string; quantity: string }> | undefined)?.map((l) => ({
          lineId: l.line_id,
          quantity: l.quantity,
        })),
        date: b.date as string | undefined,
        seriesCode: b.series as string | undefined,
        supplierNumber: b.supplier_number as string | undefined,
      };
      return reply.code(201).send(toDocumentOut(o.direction, await convertDocuments(ctxOf(request), input)));
    },
  );
}

/**
 * The estimate and order routes of one direction: CRUD, state, and their conversions (estimate ->
 * order, order -> delivery note or invoice). Sales and purchases differ only in names.
 */
export async function registerEstimateAndOrderRoutes(
  app: FastifyInstance,
  o: { estimates: DocumentRoutesOptions; orders: DocumentRoutesOptions; invoiceNoun: string },
) {
  await app.register(
    async (r) => {
      registerDocumentRoutes(r, o.estimates);
      registerStateRoute(r, o.estimates);
      registerConversionRoute(r, { ...o.estimates, to: "order", path: "convert-to-order", toNoun: "order" });
    },
    { prefix: "/estimates" },
  );
  await app.register(
    async (r) => {
      registerDocumentRoutes(r, o.orders);
      registerStateRoute(r, o.orders);
      registerConversionRoute(r, {
        ...o.orders,
        to: "delivery_note",
        path: "convert-to-delivery-note",
        toNoun: "delivery note",
      });
      registerConversionRoute(r, {
        ...o.orders,
        to: "invoice",
        path: "convert-to-invoice",
        toNoun: o.invoiceNoun,
      });
    },
    { prefix: "/orders" },
  );
}
