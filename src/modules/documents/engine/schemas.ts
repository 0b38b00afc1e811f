import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import {
  afterCursorQuery,
  apiBoundedPage,
  apiListQuery,
  queryBoolean,
  queryDate,
} from "../../../platform/http/pagination.js";
import { moneyOutput, percentInput, toMoney } from "../../../platform/money.js";
import { TAX_REGIMES } from "../../clients/index.js";
import { type Direction, DOCUMENT_KINDS, DOCUMENT_STATES, type DocumentState } from "../tables.js";
import type { PaymentStatus } from "../transitions.js";
import type { DocumentHeader } from "./repository.js";
import type { DocumentInput, DocumentPreview } from "./service.js";
import type { DocumentView } from "./view.js";

/**
 * Wire schemas of the documents engine, for both directions: sales name the contact `client_id`,
 * purchases `supplier_id` (as the seed's MCP tools do).
 */

const decimalText = (decimals: number, what: string) =>
  z
    .string()
    .regex(new RegExp(`^-?\\d{1,12}(\\.\\d{1,${decimals}})?$`), {
      message: `must be a decimal string with at most ${decimals} decimals, e.g. "12.5"`,
    })
    .describe(what);

const percent = percentInput.refine((v) => !v.startsWith("-") && Number.parseFloat(v) <= 100, {
  message: "must be a percentage from 0 to 100",
});

export const PAYMENT_STATUSES = ["pendiente", "parcial", "pagada", "vencida"] as const;

export const lineBody = z.object({
  id: z.uuid().optional().describe("Updates: an existing line of the document, kept by id"),
  product_id: z.uuid().nullish().describe("Its reference, description, price and VAT rate are the defaults"),
  reference: z.string().trim().max(60).optional(),
  description: z.string().trim().max(2000).optional().describe("Required when the line has no product"),
  quantity: decimalText(4, "Quantity, up to 4 decimals; negative only in rectifying invoices"),
  unit_price: decimalText(
    6,
    "Unit price without VAT, up to 6 decimals; the product's when absent",
  ).optional(),
  discount1: percent.optional(),
  discount2: percent.optional(),
  tax_code: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .nullish()
    .describe(
      "VAT code (IVA21, IVA10, EXENTO, IC21...: GET /api/taxes); from the product or contact when absent",
    ),
  irpf_code: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .nullish()
    .describe("IRPF withholding code (IRPF15...), none when absent"),
  supplied: z
    .boolean()
    .optional()
    .describe("Suplido: an expense paid on the customer's behalf, passed on untaxed"),
  account_code: z
    .string()
    .regex(/^\d{3,4}$/, { message: "must be a PGC account code of 3 or 4 digits" })
    .nullish()
    .describe(
      "Ledger account of the line's net (e.g. 705, 621); the product's, family's or company default otherwise",
    ),
});

const contactField = (direction: Direction) => (direction === "sale" ? "client_id" : "supplier_id");

export function documentBody(
  direction: Direction,
  opts: { purchaseInvoice?: boolean; estimate?: boolean } = {},
) {
  const contact = contactField(direction);
  return z.object({
    company_id: z.uuid().optional().describe("The caller's company, or the tenant's only one, when absent"),
    [contact]: z
      .uuid()
      .describe(direction === "sale" ? "The customer (a contact)" : "The supplier (a contact)"),
    series: z
      .string()
      .regex(/^[A-Z0-9]{1,4}$/, { message: "must be a series code (A, R, S...)" })
      .optional()
      .describe("Series code; the general series A (R for rectifying invoices) when absent"),
    date: queryDate.optional().describe("Document date; today when absent (issuing sets the final date)"),
    operation_date: queryDate.nullish().describe("Accrual date when it differs from the document date"),
    ...(opts.estimate ? { valid_until: queryDate.nullish().describe("Last day the estimate is valid") } : {}),
    payment_term_id: z.uuid().nullish().describe("Payment term; the contact's payment days when absent"),
    ...(direction === "sale" ? { agent_id: z.uuid().nullish().describe("Sales agent; the customer's") } : {}),
    discount1: percent.optional().describe("Global discount 1, %"),
    discount2: percent.optional().describe("Global discount 2, %"),
    notes: z.string().max(5000).optional(),
    ...(opts.purchaseInvoice
      ? {
          supplier_number: z
            .string()
            .trim()
            .min(1)
            .max(60)
            .describe("The supplier's own invoice number (unique per supplier and year)"),
        }
      : {}),
    lines: z.array(lineBody).max(2000).describe("Lines, in order"),
  });
}

export function lineInputOf(l: z.infer<typeof lineBody>) {
  return {
    id: l.id,
    productId: l.product_id ?? null,
    reference: l.reference,
    description: l.description,
    quantity: l.quantity,
    unitPrice: l.unit_price,
    discount1: l.discount1,
    discount2: l.discount2,
    taxCode: l.tax_code ?? undefined,
    irpfCode: l.irpf_code ?? undefined,
    supplied: l.supplied,
    accountCode: l.account_code ?? null,
  };
}

/** Body -> service input; undefined fields stay undefined (PATCH leaves them as they are). */
export function fromDocumentBody(
  direction: Direction,
  b: Partial<Record<string, unknown>>,
): Partial<DocumentInput> {
  const body = b;
  return {
    companyId: body.company_id as string | undefined,
    contactId: body[contactField(direction)] as string | undefined,
    seriesCode: body.series as string | undefined,
    date: body.date as string | undefined,
    operationDate: body.operation_date as string | null | undefined,
    validUntil: body.valid_until as string | null | undefined,
    paymentTermId: body.payment_term_id as string | null | undefined,
    agentId: body.agent_id as string | null | undefined,
    discount1: body.discount1 as string | undefined,
    discount2: body.discount2 as string | undefined,
    notes: body.notes as string | undefined,
    supplierNumber: body.supplier_number as string | undefined,
    lines: (body.lines as z.infer<typeof lineBody>[] | undefined)?.map(lineInputOf),
  };
}

const contactOut = z.object({
  name: z.string(),
  tax_id: z.string().nullable(),
  address: z.string(),
  postal_code: z.string(),
  city: z.string(),
  province: z.string(),
  country: z.string(),
  tax_regime: z.enum(TAX_REGIMES),
});

const totalsOut = z.object({
  gross_net: moneyOutput.describe("Line nets before the global discounts"),
  net: moneyOutput.describe("Taxable bases after discounts"),
  vat: moneyOutput.describe("VAT charged (self-assessed VAT is declared, not invoiced)"),
  re: moneyOutput.describe("Recargo de equivalencia"),
  irpf: moneyOutput.describe("IRPF withheld"),
  supplied: moneyOutput.describe("Suplidos"),
  total: moneyOutput.describe("net + vat + re - irpf + supplied: what the contact pays"),
  importe_total: moneyOutput.describe("net + vat + re (VeriFactu's ImporteTotal)"),
});

type Totals = Pick<
  DocumentHeader,
  "grossNet" | "net" | "vat" | "re" | "irpf" | "supplied" | "total" | "importeTotal"
>;

/** A document's totals, stored (header) or computed (preview), on the wire. */
const toTotalsOut = (d: Totals): z.infer<typeof totalsOut> => ({
  gross_net: d.grossNet,
  net: d.net,
  vat: d.vat,
  re: d.re,
  irpf: d.irpf,
  supplied: d.supplied,
  total: d.total,
  importe_total: d.importeTotal,
});

export const lineOut = z.object({
  id: z.uuid(),
  line_no: z.number().int(),
  product_id: z.uuid().nullable(),
  reference: z.string(),
  description: z.string(),
  quantity: z.string(),
  unit_price: z.string(),
  discount1: z.string(),
  discount2: z.string(),
  tax_code_id: z.uuid().nullable(),
  vat_rate: z.string(),
  re_rate: z.string(),
  irpf_code_id: z.uuid().nullable(),
  irpf_rate: z.string(),
  supplied: z.boolean(),
  account_code: z.string().nullable(),
  net: moneyOutput.describe("Line net after its discounts, before the global ones"),
  served_quantity: z.string().describe("Quantity already converted into later documents"),
  corrects_line_id: z.uuid().nullable(),
});

export const taxOut = z.object({
  kind: z.enum(["vat", "irpf"]),
  tax_code_id: z.uuid().nullable(),
  rate: z.string(),
  re_rate: z.string(),
  base: moneyOutput,
  amount: moneyOutput.describe("VAT of the group, or IRPF withheld"),
  re_amount: moneyOutput,
  self_assessed: z.boolean().describe("Intra-EU or reverse charge: declared on both sides, not invoiced"),
});

export const dueOut = z.object({
  id: z.uuid(),
  sequence: z.number().int(),
  code: z.string(),
  due_date: z.string(),
  amount: moneyOutput,
  paid_amount: moneyOutput,
  estado: z.enum(["pendiente", "parcial", "pagado"]),
});

const relatedOut = z.object({
  id: z.uuid(),
  kind: z.enum(DOCUMENT_KINDS),
  code: z.string().nullable(),
  estado: z.string(),
});

/** Typed loosely (the contact field is named by direction); the schema still allowlists at runtime. */
export function documentSummaryOut(direction: Direction): z.ZodObject<z.ZodRawShape> {
  return z.object({
    id: z.uuid(),
    company_id: z.uuid(),
    kind: z.enum(DOCUMENT_KINDS),
    series: z.string(),
    year: z.number().int().nullable(),
    number: z.number().int().nullable(),
    code: z.string().nullable().describe("e.g. FV2026-000123; null until numbered"),
    estado: z.enum(DOCUMENT_STATES),
    [contactField(direction)]: z.uuid(),
    contact: contactOut.describe("The contact as frozen on the document"),
    agent_id: z.uuid().nullable(),
    date: z.string(),
    operation_date: z.string().nullable(),
    valid_until: z.string().nullable(),
    payment_term_id: z.uuid().nullable(),
    currency: z.string(),
    discount1: z.string(),
    discount2: z.string(),
    notes: z.string(),
    supplier_number: z.string().nullable(),
    corrects_invoice_id: z.uuid().nullable(),
    rectification_type: z.enum(["I", "S"]).nullable(),
    rectification_reason: z.string().nullable(),
    rejection_reason: z.string().nullable(),
    entry_id: z.uuid().nullable().describe("The ledger entry posted for the invoice"),
    totals: totalsOut,
    paid_amount: moneyOutput,
    payment_status: z
      .enum([...PAYMENT_STATUSES, "reversed"])
      .nullable()
      .describe("Finalized invoices: derived from payments and due dates"),
    finalized_at: z.string().nullable().describe("When it was issued (sales) or approved (purchases)"),
    created_at: z.string(),
    updated_at: z.string(),
  });
}

export function documentOut(direction: Direction): z.ZodObject<z.ZodRawShape> {
  return documentSummaryOut(direction).extend({
    lines: z.array(lineOut),
    taxes: z.array(taxOut),
    dues: z.array(dueOut).describe("Instalments (receipts or payments due) of a finalized invoice"),
    sources: z.array(relatedOut).describe("Documents this one was converted from"),
    targets: z.array(relatedOut).describe("Documents converted from this one"),
    rectifications: z.array(relatedOut).describe("Rectifying invoices of this invoice"),
  });
}

export function toDocumentSummaryOut(
  direction: Direction,
  d: DocumentHeader & { paymentStatus: PaymentStatus | null },
) {
  return {
    id: d.id,
    company_id: d.companyId,
    kind: d.kind,
    series: d.seriesCode,
    year: d.year,
    number: d.number,
    code: d.code,
    estado: d.estado,
    [contactField(direction)]: d.contactId,
    contact: {
      name: d.contactName,
      tax_id: d.contactTaxId,
      address: d.contactAddress,
      postal_code: d.contactPostalCode,
      city: d.contactCity,
      province: d.contactProvince,
      country: d.contactCountry,
      tax_regime: d.contactTaxRegime,
    },
    agent_id: d.agentId,
    date: d.issueDate,
    operation_date: d.operationDate,
    valid_until: d.validUntil,
    payment_term_id: d.paymentTermId,
    currency: d.currency,
    discount1: d.discount1,
    discount2: d.discount2,
    notes: d.notes,
    supplier_number: d.supplierNumber,
    corrects_invoice_id: d.correctsDocumentId,
    rectification_type: d.rectificationType,
    rectification_reason: d.rectificationReason,
    rejection_reason: d.rejectionReason,
    entry_id: d.entryId,
    totals: toTotalsOut(d),
    paid_amount: d.paidAmount,
    payment_status: d.paymentStatus,
    finalized_at: d.finalizedAt ? iso(d.finalizedAt) : null,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}

export function toDocumentOut(direction: Direction, d: DocumentView) {
  return {
    ...toDocumentSummaryOut(direction, d),
    lines: d.lines.map((l) => ({
      id: l.id,
      line_no: l.lineNo,
      product_id: l.productId,
      reference: l.reference,
      description: l.description,
      quantity: l.quantity,
      unit_price: l.unitPrice,
      discount1: l.discount1,
      discount2: l.discount2,
      tax_code_id: l.taxCodeId,
      vat_rate: l.vatRate,
      re_rate: l.reRate,
      irpf_code_id: l.irpfCodeId,
      irpf_rate: l.irpfRate,
      supplied: l.supplied,
      account_code: l.accountCode,
      net: toMoney(l.net),
      served_quantity: l.servedQuantity,
      corrects_line_id: l.correctsLineId,
    })),
    taxes: d.taxes.map((t) => ({
      kind: t.kind,
      tax_code_id: t.taxCodeId,
      rate: t.rate,
      re_rate: t.reRate,
      base: t.base,
      amount: t.amount,
      re_amount: t.reAmount,
      self_assessed: t.selfAssessed,
    })),
    dues: d.dues.map((u) => ({
      id: u.id,
      sequence: u.sequence,
      code: u.code,
      due_date: u.dueDate,
      amount: u.amount,
      paid_amount: u.paidAmount,
      estado: u.estado,
    })),
    sources: d.sources,
    targets: d.targets,
    rectifications: d.rectifications,
  };
}

export function documentListQuery(
  direction: Direction,
  opts: { invoices?: boolean } = {},
): z.ZodObject<z.ZodRawShape> {
  return apiListQuery.omit({ include_inactive: true }).extend({
    company_id: z.uuid().optional(),
    estado: z.enum(DOCUMENT_STATES).optional().describe("State of the documents"),
    ...(opts.invoices
      ? {
          payment_status: z
            .enum(PAYMENT_STATUSES)
            .optional()
            .describe("Derived payment status (finalized invoices)"),
          paid: queryBoolean.optional().describe("true: fully paid; false: not fully paid"),
        }
      : {}),
    date_from: queryDate.optional(),
    date_to: queryDate.optional(),
    [contactField(direction)]: z.uuid().optional(),
    series: z
      .string()
      .regex(/^[A-Z0-9]{1,4}$/)
      .optional(),
    search: z.string().trim().max(200).optional().describe("Part of the code, the contact's name or tax id"),
    after: afterCursorQuery,
  });
}

export const documentStateBody = z.object({ estado: z.enum(DOCUMENT_STATES) });

export function fromListQuery(direction: Direction, q: Record<string, unknown>) {
  return {
    companyId: q.company_id as string | undefined,
    estado: q.estado as DocumentState | undefined,
    paymentStatus: q.payment_status as (typeof PAYMENT_STATUSES)[number] | undefined,
    paid: q.paid as boolean | undefined,
    dateFrom: q.date_from as string | undefined,
    dateTo: q.date_to as string | undefined,
    contactId: q[contactField(direction)] as string | undefined,
    seriesCode: q.series as string | undefined,
    search: q.search as string | undefined,
    limit: q.limit as number,
    offset: q.skip as number,
    after: q.after as string | undefined,
  };
}

export const documentPage = (direction: Direction) => apiBoundedPage(documentSummaryOut(direction));

/** The fields a preview reads: the company, the contact (its regime), the discounts and the lines. */
export function documentPreviewBody(direction: Direction) {
  const { shape } = documentBody(direction);
  const contact = contactField(direction);
  return z.object({
    company_id: shape.company_id,
    // The computed key is not in the static type; the schema is the same one create uses.
    [contact]: (shape as Record<string, z.ZodType>)[contact],
    discount1: shape.discount1,
    discount2: shape.discount2,
    lines: shape.lines.describe("Lines, in order (ids are ignored)"),
  });
}

export const previewOut = z.object({
  totals: totalsOut,
  taxes: z.array(taxOut.omit({ tax_code_id: true }).extend({ code: z.string().nullable() })),
  lines: z
    .array(
      z.object({
        reference: z.string(),
        description: z.string(),
        unit_price: z.string().describe("The given price, or the product's"),
        tax_code: z.string().nullable(),
        vat_rate: z.string(),
        re_rate: z.string(),
        irpf_code: z.string().nullable(),
        irpf_rate: z.string(),
        net: moneyOutput.describe("Line net after its discounts, before the global ones"),
      }),
    )
    .describe("The lines as they would be stored (product defaults applied)"),
});

export function toPreviewOut({ figures, lines }: DocumentPreview): z.infer<typeof previewOut> {
  const codeOf = (taxCodeId: string | null) =>
    lines.find((l) => l.taxCodeId === taxCodeId)?.taxCode ??
    lines.find((l) => l.irpfCodeId === taxCodeId)?.irpfCode ??
    null;
  return {
    totals: toTotalsOut(figures),
    taxes: [
      ...figures.groups.map((g) => ({
        kind: "vat" as const,
        code: codeOf(g.taxCodeId),
        rate: g.vatRate,
        re_rate: g.reRate,
        base: toMoney(g.base),
        amount: toMoney(g.vat),
        re_amount: toMoney(g.re),
        self_assessed: g.selfAssessed,
      })),
      ...figures.irpfByCode.map((g) => ({
        kind: "irpf" as const,
        code: codeOf(g.irpfCodeId),
        rate: g.rate,
        re_rate: "0",
        base: g.base,
        amount: g.amount,
        re_amount: "0.00",
        self_assessed: false,
      })),
    ],
    lines: lines.map((l, i) => ({
      reference: l.reference,
      description: l.description,
      unit_price: l.unitPrice,
      tax_code: l.taxCode,
      vat_rate: l.vatRate,
      re_rate: l.reRate,
      irpf_code: l.irpfCode,
      irpf_rate: l.irpfRate,
      net: toMoney(figures.lineNets[i]),
    })),
  };
}
