import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { queryDate, v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import { uuidParam } from "../../../platform/ids.js";
import { dec, moneyInput, moneyOutput, toMoney } from "../../../platform/money.js";
import { taxIdSchema } from "../../../platform/tax-id.js";
import { COST_CATEGORIES } from "../tables.js";
import type { CostEntryRow } from "./repository.js";
import type { CostEntryInput } from "./service.js";
import type { CostSummary, Figures, SummaryNode } from "./summary.js";

const uuid = z.uuid({ message: "must be a UUID" });
export const costCategory = z.enum(COST_CATEGORIES);

const entryFields = {
  budget_item_id: uuid.nullable().optional().describe("Budget item (or chapter) the cost is charged to"),
  activity_id: uuid.nullable().optional(),
  date: queryDate,
  category: costCategory,
  supplier_name: z.string().trim().max(200).optional(),
  supplier_tax_id: taxIdSchema({ allowEuVat: true }).nullable().optional(),
  document_number: z.string().trim().max(100).optional(),
  concept: z.string().trim().max(2000).optional(),
  net_amount: moneyInput.describe("Net amount (before VAT); negative for a supplier's credit note"),
  vat_amount: moneyInput.optional().describe("VAT amount, 0 when omitted"),
};

export const costEntryCreateBody = z.object({ budget_id: uuid, ...entryFields });
export const costEntryUpdateBody = z
  .object(entryFields)
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "at least one field is required",
  });

export const costEntryListQuery = v1ListQuery.extend({
  budget_id: uuidParam.optional(),
  category: costCategory.optional(),
  date_from: queryDate.optional(),
  date_to: queryDate.optional(),
  search: z.string().trim().max(200).optional().describe("Supplier name, concept or document number"),
});

export const costEntryOut = z.object({
  id: z.uuid(),
  budget_id: z.uuid(),
  budget_item_id: z.uuid().nullable(),
  activity_id: z.uuid().nullable(),
  date: z.string(),
  category: costCategory,
  supplier_name: z.string(),
  supplier_tax_id: z.string().nullable(),
  document_number: z.string(),
  concept: z.string(),
  net_amount: moneyOutput,
  vat_amount: moneyOutput,
  total_amount: moneyOutput.describe("net_amount + vat_amount"),
  created_by: z.uuid().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const costEntryPage = v1Page(costEntryOut);

export function toCostEntryOut(e: CostEntryRow): z.infer<typeof costEntryOut> {
  return {
    id: e.id,
    budget_id: e.budgetId,
    budget_item_id: e.budgetItemId,
    activity_id: e.activityId,
    date: e.date,
    category: e.category,
    supplier_name: e.supplierName,
    supplier_tax_id: e.supplierTaxId,
    document_number: e.documentNumber,
    concept: e.concept,
    net_amount: toMoney(e.netAmount),
    vat_amount: toMoney(e.vatAmount),
    total_amount: toMoney(dec(e.netAmount).plus(e.vatAmount)),
    created_by: e.createdBy,
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
  };
}

type EntryBody = Partial<z.infer<typeof costEntryCreateBody>>;

export function fromCostEntryCreateBody(
  b: z.infer<typeof costEntryCreateBody>,
): CostEntryInput & { budgetId: string } {
  return {
    ...fromCostEntryBody(b),
    budgetId: b.budget_id,
    date: b.date,
    category: b.category,
    netAmount: b.net_amount,
  };
}

/** API names to service names; fields left out stay undefined (unchanged on update). */
export function fromCostEntryBody(b: EntryBody): Partial<CostEntryInput> {
  return {
    budgetItemId: b.budget_item_id,
    activityId: b.activity_id,
    date: b.date,
    category: b.category,
    supplierName: b.supplier_name,
    supplierTaxId: b.supplier_tax_id,
    documentNumber: b.document_number,
    concept: b.concept,
    netAmount: b.net_amount,
    vatAmount: b.vat_amount,
  };
}

export const summaryQuery = z.object({ budget_id: uuidParam });

const figuresOut = {
  budgeted: moneyOutput,
  certified: moneyOutput.describe("To-origin amount of the latest validated certification"),
  actual_cost: moneyOutput.describe("Sum of the net amount of the cost entries"),
  margin: moneyOutput.describe("certified - actual_cost"),
  deviation: moneyOutput.describe("actual_cost - budgeted"),
  deviation_pct: z
    .string()
    .nullable()
    .describe("deviation / budgeted x 100, 2 decimals; null when budgeted is 0"),
};

export interface SummaryNodeOut extends z.infer<z.ZodObject<typeof figuresOut>> {
  id: string;
  code: string;
  kind: string;
  summary: string;
  unit: string;
  children: SummaryNodeOut[];
}

export const summaryNodeOut: z.ZodType<SummaryNodeOut> = z
  .object({
    id: z.uuid(),
    code: z.string(),
    kind: z.string().describe("chapter or item"),
    summary: z.string(),
    unit: z.string(),
    ...figuresOut,
    get children() {
      return z.array(summaryNodeOut);
    },
  })
  .meta({ id: "CostSummaryNode" });

export const costSummaryOut = z.object({
  budget_id: z.uuid(),
  budget_code: z.string(),
  budget_name: z.string(),
  estado: z.string(),
  certification_number: z.number().int().nullable().describe("Latest validated certification, if any"),
  chapters: z.array(summaryNodeOut).describe("The budget tree: chapters (nested) and items"),
  unassigned_cost: moneyOutput.describe("Cost entries charged to no budget item"),
  totals: z.object(figuresOut),
});

function toFiguresOut(f: Figures) {
  const deviation = f.actualCost.minus(f.budgeted);
  return {
    budgeted: toMoney(f.budgeted),
    certified: toMoney(f.certified),
    actual_cost: toMoney(f.actualCost),
    margin: toMoney(f.certified.minus(f.actualCost)),
    deviation: toMoney(deviation),
    deviation_pct: f.budgeted.isZero() ? null : deviation.dividedBy(f.budgeted).times(100).toFixed(2),
  };
}

function toSummaryNodeOut(n: SummaryNode): SummaryNodeOut {
  return {
    id: n.id,
    code: n.code,
    kind: n.kind,
    summary: n.summary,
    unit: n.unit,
    ...toFiguresOut(n),
    children: n.children.map(toSummaryNodeOut),
  };
}

export function toCostSummaryOut(s: CostSummary): z.infer<typeof costSummaryOut> {
  return {
    budget_id: s.budget.id,
    budget_code: s.budget.code,
    budget_name: s.budget.name,
    estado: s.budget.estado,
    certification_number: s.certificationNumber,
    chapters: s.chapters.map(toSummaryNodeOut),
    unassigned_cost: toMoney(s.unassignedCost),
    totals: toFiguresOut(s.totals),
  };
}
