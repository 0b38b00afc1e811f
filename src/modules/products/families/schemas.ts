import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { companyIdInput } from "../params.js";
import type { FamilyRow } from "./repository.js";

export const familyOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const familyCreateBody = z.object({
  company_id: companyIdInput,
  code: z.string().trim().min(1).max(30),
  name: z.string().trim().min(1).max(200),
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
    is_active: f.isActive,
    created_at: iso(f.createdAt),
    updated_at: iso(f.updatedAt),
  };
}

export function fromFamilyCreateBody(b: z.infer<typeof familyCreateBody>) {
  return { companyId: b.company_id, code: b.code, name: b.name, isActive: b.is_active };
}

export function fromFamilyUpdateBody(b: z.infer<typeof familyUpdateBody>) {
  return { code: b.code, name: b.name, isActive: b.is_active };
}
