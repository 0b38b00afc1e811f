import { z } from "zod";
import { iso, isoOrNull } from "../../../platform/dates.js";
import { queryDate, v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import { uuidParam } from "../../../platform/ids.js";
import {
  dec,
  moneyOutput,
  nonNegative,
  percentInput,
  percentOutput,
  quantityInput,
  quantityOutput,
  toMoney,
  toPercent,
  toQuantity,
  toUnitPrice,
  unitPriceOutput,
} from "../../../platform/money.js";
import { CERTIFICATION_STATES } from "../tables.js";
import type { CertificationRow } from "./repository.js";
import type { CertificationDocumentInput, CertificationInput } from "./service.js";
import type { CertificationLineView, CertificationView } from "./view.js";

export const certificationEstado = z.enum(CERTIFICATION_STATES);

const lineBody = z.object({
  budget_item_id: z.uuid({ message: "must be a UUID" }),
  quantity_to_origin: nonNegative(quantityInput).describe("Quantity certified to origin (cumulative)"),
});

const certificationFields = {
  period_start: queryDate,
  period_end: queryDate,
  notes: z.string().trim().max(5000).optional(),
  lines: z.array(lineBody).min(1).max(10000),
};
const periodInOrder = (b: { period_start: string; period_end: string }) => b.period_end >= b.period_start;
const periodMessage = { message: "must not be before period_start", path: ["period_end"] };

export const certificationCreateBody = z
  .object({ budget_id: z.uuid({ message: "must be a UUID" }), ...certificationFields })
  .refine(periodInOrder, periodMessage);
export const certificationUpdateBody = z.object(certificationFields).refine(periodInOrder, periodMessage);
export const certificationEstadoBody = z.object({ estado: certificationEstado });

const retentionPercent = nonNegative(percentInput).refine((v) => dec(v).lte(100), {
  message: "must be between 0 and 100",
});
export const certificationDocumentBody = z
  .object({
    issue_place: z.string().trim().max(100).optional().describe("Where it is issued (lugar de emisión)"),
    issue_date: queryDate.nullable().optional().describe("Date of issue; not before period_start"),
    retention_pct: retentionPercent
      .nullable()
      .optional()
      .describe("Retención de garantía of this certification, %; null = the budget's. Only in borrador"),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "at least one field is required",
  });

export const certificationListQuery = v1ListQuery.extend({
  budget_id: uuidParam.optional(),
  estado: certificationEstado.optional(),
});

export const certificationSummaryOut = z.object({
  id: z.uuid(),
  budget_id: z.uuid(),
  number: z.number().int(),
  period_start: z.string(),
  period_end: z.string(),
  estado: certificationEstado,
  notes: z.string(),
  issue_place: z.string(),
  issue_date: z.string().nullable(),
  retention_pct: percentOutput.nullable().describe("Own retention %; null = the budget's (see totals)"),
  created_by: z.uuid().nullable(),
  validated_by: z.uuid().nullable(),
  validated_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const certificationLineOut = z.object({
  budget_item_id: z.uuid(),
  code: z.string(),
  summary: z.string(),
  unit: z.string(),
  budgeted_quantity: quantityOutput,
  unit_price: unitPriceOutput,
  quantity_to_origin: quantityOutput,
  amount_to_origin: moneyOutput,
  quantity_previous: quantityOutput,
  amount_previous: moneyOutput,
  quantity_this_period: quantityOutput,
  amount_this_period: moneyOutput,
  exceeds_budget: z.boolean(),
  carried_forward: z.boolean().describe("Not listed on this certification: carried from the previous one"),
});

export const certificationTotalsOut = z.object({
  pem_to_origin: moneyOutput,
  pem_previous: moneyOutput,
  pem_this_period: moneyOutput,
  overheads_pct: percentOutput,
  overheads: moneyOutput,
  profit_pct: percentOutput,
  profit: moneyOutput,
  subtotal: moneyOutput,
  discount_pct: percentOutput,
  discount: moneyOutput,
  taxable_base: moneyOutput,
  vat_pct: percentOutput,
  vat: moneyOutput,
  total: moneyOutput,
  retention_pct: percentOutput,
  retention: moneyOutput.describe("Retención de garantía on this period's taxable base"),
  net_payable: moneyOutput,
});

export const certificationOut = certificationSummaryOut.extend({
  budget_code: z.string(),
  budget_name: z.string(),
  previous_number: z
    .number()
    .int()
    .nullable()
    .describe("Number of the validated certification used as previous"),
  lines: z.array(certificationLineOut),
  totals: certificationTotalsOut,
});

export const certificationPage = v1Page(certificationSummaryOut);

export function toCertificationSummaryOut(c: CertificationRow): z.infer<typeof certificationSummaryOut> {
  return {
    id: c.id,
    budget_id: c.budgetId,
    number: c.number,
    period_start: c.periodStart,
    period_end: c.periodEnd,
    estado: c.estado,
    notes: c.notes,
    issue_place: c.issuePlace,
    issue_date: c.issueDate,
    retention_pct: c.retentionPct === null ? null : toPercent(c.retentionPct),
    created_by: c.createdBy,
    validated_by: c.validatedBy,
    validated_at: isoOrNull(c.validatedAt),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

function toLineOut(l: CertificationLineView): z.infer<typeof certificationLineOut> {
  return {
    budget_item_id: l.budgetItemId,
    code: l.code,
    summary: l.summary,
    unit: l.unit,
    budgeted_quantity: toQuantity(l.budgetedQuantity),
    unit_price: toUnitPrice(l.unitPrice),
    quantity_to_origin: toQuantity(l.quantityToOrigin),
    amount_to_origin: toMoney(l.amountToOrigin),
    quantity_previous: toQuantity(l.quantityPrevious),
    amount_previous: toMoney(l.amountPrevious),
    quantity_this_period: toQuantity(l.quantityThisPeriod),
    amount_this_period: toMoney(l.amountThisPeriod),
    exceeds_budget: l.exceedsBudget,
    carried_forward: l.carriedForward,
  };
}

export function toCertificationOut(v: CertificationView): z.infer<typeof certificationOut> {
  const t = v.totals;
  const b = v.budget;
  return {
    ...toCertificationSummaryOut(v.certification),
    budget_code: b.code,
    budget_name: b.name,
    previous_number: v.previousNumber,
    lines: v.lines.map(toLineOut),
    totals: {
      pem_to_origin: toMoney(t.pemToOrigin),
      pem_previous: toMoney(t.pemPrevious),
      pem_this_period: toMoney(t.pemThisPeriod),
      overheads_pct: toPercent(b.overheadsPct),
      overheads: toMoney(t.overheads),
      profit_pct: toPercent(b.profitPct),
      profit: toMoney(t.profit),
      subtotal: toMoney(t.subtotal),
      discount_pct: toPercent(b.discountPct),
      discount: toMoney(t.discount),
      taxable_base: toMoney(t.taxableBase),
      vat_pct: toPercent(b.vatPct),
      vat: toMoney(t.vat),
      total: toMoney(t.total),
      retention_pct: toPercent(v.retentionPct),
      retention: toMoney(t.retention),
      net_payable: toMoney(t.netPayable),
    },
  };
}

type CreateBody = z.infer<typeof certificationCreateBody>;
type UpdateBody = z.infer<typeof certificationUpdateBody>;

export function fromCertificationCreateBody(b: CreateBody): CertificationInput & { budgetId: string } {
  return { ...fromCertificationBody(b), budgetId: b.budget_id };
}

export function fromCertificationBody(b: UpdateBody | CreateBody): CertificationInput {
  return {
    periodStart: b.period_start,
    periodEnd: b.period_end,
    notes: b.notes,
    lines: b.lines.map((l) => ({ budgetItemId: l.budget_item_id, quantityToOrigin: l.quantity_to_origin })),
  };
}

export function fromCertificationDocumentBody(
  b: z.infer<typeof certificationDocumentBody>,
): CertificationDocumentInput {
  return { issuePlace: b.issue_place, issueDate: b.issue_date, retentionPct: b.retention_pct };
}
