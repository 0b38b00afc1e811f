import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { queryDate, v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import { uuidParam } from "../../../platform/ids.js";
import {
  dec,
  moneyInput,
  moneyOutput,
  nonNegative,
  percentInput,
  percentOutput,
  toMoney,
  toPercent,
} from "../../../platform/money.js";
import { taxIdSchema } from "../../../platform/tax-id.js";
import type { BudgetRow } from "../budget-access.js";
import { BUDGET_STATES } from "../tables.js";
import type { BudgetHistoryEntry, BudgetInput } from "./service.js";
import type { BudgetTotals } from "./totals.js";

const percent = nonNegative(percentInput).refine((v) => dec(v).lte(100), {
  message: "must be between 0 and 100",
});
export const budgetCode = z.string().trim().min(1).max(50).describe("Budget code, unique");
const budgetName = z.string().trim().min(1).max(200);

const printedText = (max: number, what: string) => z.string().trim().max(max).optional().describe(what);

/** Contract data printed on the budget's certifications (the owner is client_name / client_tax_id). */
const contractFields = {
  owner_address: printedText(300, "Address of the owner (promotor)"),
  site_address: printedText(300, "Address of the works (emplazamiento)"),
  contract_amount: nonNegative(moneyInput)
    .nullable()
    .optional()
    .describe("Contract amount (importe de adjudicación), VAT excluded; null when not set"),
  file_number: printedText(50, "File number of the contract (nº de expediente)"),
  site_manager_name: printedText(200, "Who signs for the site management (dirección facultativa)"),
  contractor_signatory: printedText(200, "Who signs for the contractor"),
  owner_signatory: printedText(200, "Who approves for the owner (promotor)"),
};

const budgetFields = {
  code: budgetCode,
  name: budgetName,
  client_name: z.string().trim().max(200).optional(),
  client_tax_id: taxIdSchema().nullable().optional().describe("NIF/CIF/NIE or EU VAT number"),
  description: z.string().trim().max(5000).optional(),
  start_date: queryDate.nullable().optional(),
  end_date: queryDate.nullable().optional(),
  overheads_pct: percent.optional().describe("Gastos generales, % (default 13)"),
  profit_pct: percent.optional().describe("Beneficio industrial, % (default 6)"),
  discount_pct: percent.optional().describe("Baja, % (default 0)"),
  vat_pct: percent.optional().describe("VAT, % (default 21)"),
  retention_pct: percent.optional().describe("Retention on certifications, % (default 5)"),
  ...contractFields,
};

const datesInOrder = (b: { start_date?: string | null; end_date?: string | null }) =>
  !b.start_date || !b.end_date || b.start_date <= b.end_date;
const datesMessage = { message: "end_date must not be before start_date", path: ["end_date"] };

const companyId = z
  .uuid()
  .optional()
  .describe(
    "The company the budget belongs to: the caller's own when restricted to one, else the tenant's only " +
      "company when it has one (required when it has several)",
  );
export const budgetCreateBody = z
  .object({ ...budgetFields, company_id: companyId })
  .refine(datesInOrder, datesMessage);
export const budgetUpdateBody = z
  .object(budgetFields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" })
  .refine(datesInOrder, datesMessage);
export type BudgetCreateBody = z.infer<typeof budgetCreateBody>;
export type BudgetUpdateBody = z.infer<typeof budgetUpdateBody>;

export const budgetListQuery = v1ListQuery.extend({
  search: z.string().trim().max(200).optional().describe("Matches code, name or client name"),
  estado: z.enum(BUDGET_STATES).optional(),
  company_id: z.uuid().optional().describe("Only this company's budgets"),
});
export const budgetParams = z.object({ budget_id: uuidParam });
export const budgetEstadoBody = z.object({ estado: z.enum(BUDGET_STATES) });
export const duplicateBody = z
  .object({
    code: budgetCode.optional().describe("Code of the copy; default {code}-COPIA, then {code}-COPIA-2..."),
    name: budgetName.optional().describe('Name of the copy; default "{name} (copia)"'),
  })
  .nullish();

export const budgetOut = z.object({
  id: z.uuid(),
  company_id: z.uuid().nullable().describe("The company it belongs to; null when the tenant had none"),
  code: z.string(),
  name: z.string(),
  client_name: z.string(),
  client_tax_id: z.string().nullable(),
  description: z.string(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  estado: z.enum(BUDGET_STATES),
  overheads_pct: percentOutput,
  profit_pct: percentOutput,
  discount_pct: percentOutput,
  vat_pct: percentOutput,
  retention_pct: percentOutput,
  indirect_costs_pct: percentOutput.describe("FIEBDC-3 CI: already included in the items' unit prices"),
  decimals: z
    .object({
      quantity: z.number().int().optional(),
      yield: z.number().int().optional(),
      line: z.number().int().optional(),
      price: z.number().int().optional(),
      amount: z.number().int().optional(),
    })
    .describe("Rounding decimals a BC3 file declared (~K); empty when none"),
  owner_address: z.string(),
  site_address: z.string(),
  contract_amount: moneyOutput.nullable(),
  file_number: z.string(),
  site_manager_name: z.string(),
  contractor_signatory: z.string(),
  owner_signatory: z.string(),
  pem: moneyOutput.describe("Presupuesto de ejecución material: sum of the item amounts"),
  pec: moneyOutput.describe("PEM x (1 + (overheads_pct + profit_pct) / 100)"),
  discounted: moneyOutput.describe("PEC less discount_pct"),
  vat: moneyOutput.describe("discounted x vat_pct / 100"),
  total: moneyOutput.describe("discounted + vat"),
  created_by: z.uuid().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const budgetPage = v1Page(budgetOut);

export const historyOut = z.object({
  id: z.uuid(),
  from_estado: z.enum(BUDGET_STATES),
  to_estado: z.enum(BUDGET_STATES),
  user_id: z.uuid().nullable(),
  user_email: z.string().nullable(),
  created_at: z.string(),
});
export const historyPage = v1Page(historyOut);

export function toBudgetOut(b: BudgetRow, totals: BudgetTotals): z.infer<typeof budgetOut> {
  return {
    id: b.id,
    company_id: b.companyId,
    code: b.code,
    name: b.name,
    client_name: b.clientName,
    client_tax_id: b.clientTaxId,
    description: b.description,
    start_date: b.startDate,
    end_date: b.endDate,
    estado: b.estado,
    overheads_pct: toPercent(b.overheadsPct),
    profit_pct: toPercent(b.profitPct),
    discount_pct: toPercent(b.discountPct),
    vat_pct: toPercent(b.vatPct),
    retention_pct: toPercent(b.retentionPct),
    indirect_costs_pct: toPercent(b.indirectCostsPct),
    decimals: b.decimals ?? {},
    owner_address: b.ownerAddress,
    site_address: b.siteAddress,
    contract_amount: b.contractAmount === null ? null : toMoney(b.contractAmount),
    file_number: b.fileNumber,
    site_manager_name: b.siteManagerName,
    contractor_signatory: b.contractorSignatory,
    owner_signatory: b.ownerSignatory,
    ...totals,
    created_by: b.createdBy,
    created_at: iso(b.createdAt),
    updated_at: iso(b.updatedAt),
  };
}

export function toHistoryOut(h: BudgetHistoryEntry): z.infer<typeof historyOut> {
  return {
    id: h.id,
    from_estado: h.fromEstado,
    to_estado: h.toEstado,
    user_id: h.userId,
    user_email: h.userEmail,
    created_at: iso(h.createdAt),
  };
}

/** Request fields -> service input; fields left out stay undefined (not changed). */
export function fromBudgetBody(b: BudgetUpdateBody): BudgetInput {
  return {
    code: b.code,
    name: b.name,
    clientName: b.client_name,
    clientTaxId: b.client_tax_id,
    description: b.description,
    startDate: b.start_date,
    endDate: b.end_date,
    overheadsPct: b.overheads_pct,
    profitPct: b.profit_pct,
    discountPct: b.discount_pct,
    vatPct: b.vat_pct,
    retentionPct: b.retention_pct,
    ownerAddress: b.owner_address,
    siteAddress: b.site_address,
    contractAmount: b.contract_amount,
    fileNumber: b.file_number,
    siteManagerName: b.site_manager_name,
    contractorSignatory: b.contractor_signatory,
    ownerSignatory: b.owner_signatory,
  };
}

export function fromBudgetCreateBody(
  b: BudgetCreateBody,
): BudgetInput & { code: string; name: string; companyId?: string } {
  return { ...fromBudgetBody(b), code: b.code, name: b.name, companyId: b.company_id };
}
