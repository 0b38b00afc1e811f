import { z } from "zod";
import {
  type Direction,
  documentOut,
  documentSummaryOut,
  getDocument,
  getDocumentByCode,
  listDocuments,
  toDocumentOut,
  toDocumentSummaryOut,
} from "../../modules/documents/index.js";
import { BadRequestError } from "../../platform/http/errors.js";
import type { ToolAccess } from "../principal.js";
import {
  companyIdArg,
  dateArg,
  defineTool,
  limitArg,
  offsetArg,
  pageOf,
  toolArgs,
  uuidArg,
} from "../tool-kit.js";

/**
 * The invoice tools of one direction (sales: list_invoices/get_invoice; purchases:
 * list_purchase_invoices/get_purchase_invoice), over the documents engine's own services and
 * wire mappers, so a tool answers exactly what GET /api/{sales,purchases}/invoices answers.
 */
export interface InvoiceToolTexts {
  direction: Direction;
  access: ToolAccess;
  list: { name: string; title: string; description: string };
  get: { name: string; title: string; description: string };
  /** The invoice states of this direction. */
  states: readonly [string, ...string[]];
  statesHelp: string;
  /** client_id or supplier_id. */
  contactArg: { name: string; help: string };
  documentNumberHelp: string;
}

export function invoiceTools(o: InvoiceToolTexts) {
  const scope = { direction: o.direction, kind: "invoice" } as const;
  const notFoundHint = `Look the invoice up with ${o.list.name} (filter by dates, ${o.contactArg.name} or status).`;
  const list = defineTool({
    ...o.list,
    access: o.access,
    notFoundHint,
    input: toolArgs({
      status: z
        .enum(o.states, { message: `status must be one of ${o.states.join(", ")}` })
        .optional()
        .describe(o.statesHelp),
      date_from: dateArg("date_from: invoices dated on or after").optional(),
      date_to: dateArg("date_to: invoices dated on or before").optional(),
      [o.contactArg.name]: uuidArg(o.contactArg.name, o.contactArg.help).optional(),
      paid: z
        .boolean({ message: "paid must be true or false" })
        .optional()
        .describe("true: fully paid invoices only; false: those with something still to pay; omitted: all"),
      company_id: companyIdArg,
      limit: limitArg,
      offset: offsetArg,
    }),
    output: pageOf(documentSummaryOut(o.direction)),
    async run(ctx, args) {
      const a = args as Record<string, unknown> & { limit: number; offset: number };
      if (a.date_from && a.date_to && (a.date_from as string) > (a.date_to as string))
        throw new BadRequestError("date_from is after date_to", [
          { path: "date_from", message: "must not be after date_to" },
        ]);
      const { rows, total } = await listDocuments(ctx, scope, {
        companyId: a.company_id as string | undefined,
        estado: a.status as never,
        paid: a.paid as boolean | undefined,
        dateFrom: a.date_from as string | undefined,
        dateTo: a.date_to as string | undefined,
        contactId: a[o.contactArg.name] as string | undefined,
        limit: a.limit,
        offset: a.offset,
      });
      return {
        items: rows.map((d) => toDocumentSummaryOut(o.direction, d)),
        total,
        limit: a.limit,
        offset: a.offset,
      };
    },
  });
  const get = defineTool({
    ...o.get,
    access: o.access,
    notFoundHint,
    input: toolArgs({
      invoice_id: uuidArg("invoice_id", o.list.name).optional(),
      document_number: z
        .string()
        .trim()
        .min(1, { message: "document_number must not be empty" })
        .max(60, { message: "document_number is at most 60 characters" })
        .optional()
        .describe(o.documentNumberHelp),
      company_id: companyIdArg,
    }),
    output: documentOut(o.direction),
    async run(ctx, args) {
      if ((args.invoice_id === undefined) === (args.document_number === undefined))
        throw new BadRequestError("Give exactly one of invoice_id and document_number", [
          { path: "invoice_id", message: "or document_number is required, not both" },
        ]);
      const view = args.invoice_id
        ? await getDocument(ctx, scope, args.invoice_id)
        : await getDocumentByCode(ctx, scope, args.document_number as string, args.company_id);
      return toDocumentOut(o.direction, view);
    },
  });
  return { list, get };
}

const sales = invoiceTools({
  direction: "sale",
  access: { scope: "mcp:invoices", permission: "sales:leer" },
  list: {
    name: "list_invoices",
    title: "Sales invoices",
    description:
      "Lists the sales invoices (facturas emitidas, rectifying ones included) of the companies this token " +
      "can see, newest date first, one page at a time: code (e.g. FV2026-000123; null for drafts), customer " +
      "as frozen on the invoice, totals (net, vat, re, irpf, total), paid amount and payment_status " +
      "(pendiente, parcial, pagada, vencida, reversed). Filter by status, a date range, client_id and paid. " +
      "Returns {items, total, limit, offset}; call again with offset + limit for the next page. Use " +
      "get_invoice for the lines, tax breakdown and receipts of one invoice. Amounts are decimal strings.",
  },
  get: {
    name: "get_invoice",
    title: "Sales invoice detail",
    description:
      "One sales invoice by invoice_id or by document_number, its code (e.g. FV2026-000123; give exactly " +
      "one): header, customer, lines, tax breakdown per rate (base, VAT, RE, IRPF), receipts with due dates " +
      "and what is paid of each, payment_status, the ledger entry id and the rectifying invoices. Codes " +
      "repeat across companies: add company_id when the token sees several.",
  },
  states: ["borrador", "emitida"],
  statesHelp: "borrador (draft, no number yet) or emitida (issued)",
  contactArg: { name: "client_id", help: "list_contacts" },
  documentNumberHelp: "The invoice's code as printed on it, e.g. FV2026-000123 or FVR2026-000004",
});

export const listInvoices = sales.list;
export const getInvoice = sales.get;
