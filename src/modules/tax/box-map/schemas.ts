import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { BOX_SIDES, MAPPED_MODELS } from "../tables.js";
import type { BoxMapRow } from "./repository.js";
import type { BoxChanges } from "./service.js";

export const boxRowOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  model: z.enum(MAPPED_MODELS),
  tax_code_id: z.uuid(),
  tax_code: z.string(),
  direction: z.enum(["sale", "purchase"]),
  rectifying: z.boolean().describe("Rows for rectifying invoices (credit notes)"),
  side: z.enum(BOX_SIDES).describe("accrued (IVA devengado, IRPF, 349) or deductible (IVA deducible)"),
  base_box: z.string().nullable().describe("Box of the base (349: the operation key)"),
  quota_box: z.string().nullable().describe("Box of the VAT quota or the IRPF withheld"),
  re_base_box: z.string().nullable().describe("Box of the recargo de equivalencia's base"),
  re_quota_box: z.string().nullable().describe("Box of the recargo de equivalencia's quota"),
  created_at: z.string(),
  updated_at: z.string(),
});

export const boxMapQuery = apiListQuery.extend({
  company_id: z.uuid().optional().describe("The company (required when the tenant has several)"),
  model: z.enum(MAPPED_MODELS).optional(),
  tax_code: z.string().trim().max(20).optional().describe("Only this tax code's rows, e.g. IVA21"),
});
export const boxMapPage = apiPage(boxRowOut);

const box = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9]{2,3}$|^[A-Z]$/, { message: "must be a box number (e.g. 07, 168) or a 349 key" })
  .nullable()
  .optional();

export const boxRowBody = z
  .object({ base_box: box, quota_box: box, re_base_box: box, re_quota_box: box })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "at least one box is required" });

export function fromBoxRowBody(b: z.infer<typeof boxRowBody>): BoxChanges {
  return { baseBox: b.base_box, quotaBox: b.quota_box, reBaseBox: b.re_base_box, reQuotaBox: b.re_quota_box };
}

export function toBoxRowOut(r: BoxMapRow): z.infer<typeof boxRowOut> {
  return {
    id: r.id,
    company_id: r.companyId,
    model: r.model,
    tax_code_id: r.taxCodeId,
    tax_code: r.taxCode,
    direction: r.direction,
    rectifying: r.rectifying,
    side: r.side,
    base_box: r.baseBox,
    quota_box: r.quotaBox,
    re_base_box: r.reBaseBox,
    re_quota_box: r.reQuotaBox,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}
