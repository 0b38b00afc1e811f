import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { companyIdInput } from "../params.js";
import { ledgerAccount } from "../products/schemas.js";
import type { FamilyRow } from "./repository.js";

export const familyOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  sales_account: z.string().nullable(),
  purchases_account: z.string().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const familyCreateBody = z.object({
  company_id: companyIdInput,
  code: z.string().trim().min(1).max(30),
  name: z.string().trim().min(1).max(200),
  sales_account: ledgerAccount(7, "Sales account of its products (e.g. 705); null: the company's"),
  purchases_account: ledgerAccount(6, "Purchases account of its products (e.g. 601); null: the company's"),
  is_active: z.boolean().optional(),
});
export const familyUpdateBody = familyCreateBody
  .omit({ company_id: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export const familyListQuery = apiListQuery.extend({
  company_id: z.uuid().optional().describe("Only this company's families"),
});
export const familyPage = apiPage(familyOut);

export function toFamilyOut(f: FamilyRow): z.infer<typeof familyOut> {
  return {
    id: f.id,
    company_id: f.companyId,
    code: f.code,
    name: f.name,
    sales_account: f.salesAccount,
    purchases_account: f.purchasesAccount,
    is_active: f.isActive,
    created_at: iso(f.createdAt),
    updated_at: iso(f.updatedAt),
  };
}

export function fromFamilyCreateBody(b: z.infer<typeof familyCreateBody>) {
  return {
    companyId: b.company_id,
    code: b.code,
    name: b.name,
    salesAccount: b.sales_account,
    purchasesAccount: b.purchases_account,
    isActive: b.is_active,
  };
}

export function fromFamilyUpdateBody(b: z.infer<typeof familyUpdateBody>) {
  return {
    code: b.code,
    name: b.name,
    salesAccount: b.sales_account,
    purchasesAccount: b.purchases_account,
    isActive: b.is_active,
  };
}
