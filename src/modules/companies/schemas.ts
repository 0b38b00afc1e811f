import { z } from "zod";
import { iso } from "../../platform/dates.js";
import { apiListQuery, apiPage } from "../../platform/http/pagination.js";
import { taxIdSchema } from "../../platform/tax-id.js";
import type { companies } from "./tables.js";

type CompanyRow = typeof companies.$inferSelect;

export const companyOut = z.object({
  id: z.uuid(),
  name: z.string(),
  legal_name: z.string(),
  tax_id: z.string(),
  address: z.string(),
  city: z.string(),
  postal_code: z.string(),
  province: z.string(),
  country: z.string(),
  subaccount_length: z.number().int(),
  currency: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const companyCreateBody = z.object({
  name: z.string().trim().min(1).max(200),
  legal_name: z.string().trim().max(200).optional(),
  tax_id: taxIdSchema().describe("Spanish NIF, NIE or CIF, check letter/digit validated"),
  address: z.string().trim().max(300).optional(),
  city: z.string().trim().max(100).optional(),
  postal_code: z.string().trim().max(20).optional(),
  province: z.string().trim().max(100).optional(),
  country: z.string().trim().length(2).toUpperCase().optional(),
  subaccount_length: z.number().int().min(6).max(15).optional(),
  currency: z.string().trim().length(3).toUpperCase().optional(),
  is_active: z.boolean().optional(),
});
export const companyUpdateBody = companyCreateBody
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "at least one field is required",
  });
export const companyListQuery = apiListQuery;
export const companyPage = apiPage(companyOut);

export function toCompanyOut(c: CompanyRow): z.infer<typeof companyOut> {
  return {
    id: c.id,
    name: c.name,
    legal_name: c.legalName,
    tax_id: c.taxId,
    address: c.address,
    city: c.city,
    postal_code: c.postalCode,
    province: c.province,
    country: c.country,
    subaccount_length: c.subaccountLength,
    currency: c.currency,
    is_active: c.isActive,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

export function fromCompanyCreateBody(b: z.infer<typeof companyCreateBody>) {
  return { ...fromCompanyBody(b), name: b.name, taxId: b.tax_id };
}

export function fromCompanyBody(b: Partial<z.infer<typeof companyCreateBody>>) {
  return {
    name: b.name,
    legalName: b.legal_name,
    taxId: b.tax_id,
    address: b.address,
    city: b.city,
    postalCode: b.postal_code,
    province: b.province,
    country: b.country,
    subaccountLength: b.subaccount_length,
    currency: b.currency,
    isActive: b.is_active,
  };
}
