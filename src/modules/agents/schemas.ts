import { z } from "zod";
import { iso } from "../../platform/dates.js";
import { apiListQuery, apiPage } from "../../platform/http/pagination.js";
import { Dec, percentInput, percentOutput, toPercent } from "../../platform/money.js";
import { taxIdSchema } from "../../platform/tax-id.js";
import type { AgentRow } from "./repository.js";

export const agentOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  tax_id: z.string().nullable(),
  email: z.string(),
  commission_pct: percentOutput,
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const isDecimal = (v: string) => /^-?\d+(\.\d+)?$/.test(v);
// Zod runs this refinement even when the format check failed: only range-check real decimals.
const commissionPct = percentInput.refine(
  (v) => !isDecimal(v) || (new Dec(v).gte(0) && new Dec(v).lte(100)),
  {
    message: "must be between 0 and 100",
  },
);

export const agentCreateBody = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  code: z.string().trim().min(1).max(30),
  name: z.string().trim().min(1).max(200),
  tax_id: taxIdSchema({ allowEuVat: true })
    .nullable()
    .optional()
    .describe("Spanish NIF, NIE or CIF (check character validated) or an EU VAT number"),
  email: z.union([z.email({ message: "must be an e-mail address" }).max(254), z.literal("")]).optional(),
  commission_pct: commissionPct.optional().describe('Commission percentage 0..100, e.g. "5.5"'),
  is_active: z.boolean().optional(),
});
export const agentUpdateBody = agentCreateBody
  .omit({ company_id: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export const agentListQuery = apiListQuery.extend({
  company_id: z.uuid().optional().describe("Only this company's agents"),
});
export const agentPage = apiPage(agentOut);

export type AgentCreateBody = z.infer<typeof agentCreateBody>;
export type AgentUpdateBody = z.infer<typeof agentUpdateBody>;

export function toAgentOut(a: AgentRow): z.infer<typeof agentOut> {
  return {
    id: a.id,
    company_id: a.companyId,
    code: a.code,
    name: a.name,
    tax_id: a.taxId,
    email: a.email,
    commission_pct: toPercent(a.commissionPct),
    is_active: a.isActive,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

export function fromAgentCreateBody(b: AgentCreateBody) {
  return { ...fromAgentBody(b), code: b.code, name: b.name, companyId: b.company_id };
}

export function fromAgentBody(b: AgentUpdateBody) {
  return {
    code: b.code,
    name: b.name,
    taxId: b.tax_id,
    email: b.email,
    commissionPct: b.commission_pct,
    isActive: b.is_active,
  };
}
