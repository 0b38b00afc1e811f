import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { Dec, nonNegative, percentInput, percentOutput, toPercent } from "../../../platform/money.js";
import { EXEMPTION_REASONS, IRPF_KINDS, TAX_KINDS, VAT_OPERATIONS } from "../tables.js";
import type { TaxCodeRow } from "./repository.js";

const isDecimal = (v: string) => /^-?\d+(\.\d+)?$/.test(v);
// Zod runs a refinement even when the format check failed: only range-check real decimals.
const rate = nonNegative(percentInput).refine((v) => !isDecimal(v) || new Dec(v).lte(100), {
  message: "must be between 0 and 100",
});

export const taxCodeOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(TAX_KINDS),
  rate: percentOutput.describe("VAT or IRPF rate in percent"),
  re_rate: percentOutput.describe("Recargo de equivalencia charged with this VAT rate to customers under it"),
  operation: z.enum(VAT_OPERATIONS).nullable().describe("VAT codes: what kind of operation it taxes"),
  exemption_reason: z.enum(EXEMPTION_REASONS).nullable().describe("Exempt operations: VeriFactu E1-E6"),
  irpf_kind: z
    .enum(IRPF_KINDS)
    .nullable()
    .describe("IRPF codes: activities or work (modelo 111), rent (115)"),
  capital_goods: z.boolean(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const taxCodeCreateBody = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9_-]{0,19}$/, { message: "must be up to 20 letters, digits, - or _, e.g. IVA21" })
    .describe("Unique in the company, e.g. IVA21; lower case is turned to upper case"),
  name: z.string().trim().min(1).max(200),
  kind: z.enum(TAX_KINDS).describe("vat or irpf"),
  rate: rate.describe('Rate in percent, 0..100, e.g. "21"'),
  re_rate: rate.optional().describe('Recargo de equivalencia in percent, e.g. "5.2" (default 0; IRPF: 0)'),
  operation: z
    .enum(VAT_OPERATIONS)
    .nullable()
    .optional()
    .describe("Required for VAT codes, absent for IRPF ones"),
  exemption_reason: z
    .enum(EXEMPTION_REASONS)
    .nullable()
    .optional()
    .describe("Required for exempt, export and exempt_intra_eu operations, absent otherwise"),
  irpf_kind: z
    .enum(IRPF_KINDS)
    .nullable()
    .optional()
    .describe("Required for IRPF codes, absent for VAT ones"),
  capital_goods: z
    .boolean()
    .optional()
    .describe("VAT on purchases of capital goods (303 boxes 30/31, 38/39)"),
  is_active: z.boolean().optional(),
});
export const taxCodeUpdateBody = taxCodeCreateBody
  .omit({ company_id: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export const taxCodeListQuery = apiListQuery.extend({
  company_id: z.uuid().optional().describe("Only this company's tax codes"),
  kind: z.enum(TAX_KINDS).optional().describe("vat or irpf"),
});
export const taxCodePage = apiPage(taxCodeOut);

export type TaxCodeUpdateBody = z.infer<typeof taxCodeUpdateBody>;

export function toTaxCodeOut(t: TaxCodeRow): z.infer<typeof taxCodeOut> {
  return {
    id: t.id,
    company_id: t.companyId,
    code: t.code,
    name: t.name,
    kind: t.kind,
    rate: toPercent(t.rate),
    re_rate: toPercent(t.reRate),
    operation: t.operation,
    exemption_reason: t.exemptionReason,
    irpf_kind: t.irpfKind,
    capital_goods: t.capitalGoods,
    is_active: t.isActive,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  };
}

export function fromTaxCodeBody(b: TaxCodeUpdateBody) {
  return {
    code: b.code,
    name: b.name,
    kind: b.kind,
    rate: b.rate,
    reRate: b.re_rate,
    operation: b.operation,
    exemptionReason: b.exemption_reason,
    irpfKind: b.irpf_kind,
    capitalGoods: b.capital_goods,
    isActive: b.is_active,
  };
}
