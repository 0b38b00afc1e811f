import { z } from "zod";
import { iso } from "../../platform/dates.js";
import { apiListQuery, apiPage } from "../../platform/http/pagination.js";
import type { ContactRow } from "./repository.js";
import type { ContactFields, NewContact } from "./service.js";
import { CONTACT_TYPES, TAX_REGIMES } from "./tables.js";

const optionalText = (max: number) => z.string().trim().max(max).optional();

export const contactOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  contact_type: z.enum(CONTACT_TYPES),
  code: z.string(),
  name: z.string(),
  legal_name: z.string(),
  tax_id: z.string().nullable(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  postal_code: z.string(),
  province: z.string(),
  country: z.string(),
  payment_terms_days: z.number().int(),
  tax_regime: z.enum(TAX_REGIMES),
  payment_days: z.array(z.number().int()).describe("Days of the month it pays on, ascending"),
  agent_id: z.uuid().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const contactCreateBody = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  contact_type: z.enum(CONTACT_TYPES),
  code: z
    .string()
    .trim()
    .min(1)
    .max(30)
    .optional()
    .describe("Unique in the company; generated (C00001, C00002...) when omitted"),
  name: z.string().trim().min(1).max(200),
  legal_name: optionalText(200),
  tax_id: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .nullable()
    .optional()
    .describe(
      "Spanish NIF, NIE or CIF (check character validated); for a contact in another EU member state " +
        "also its VAT number. Stored normalized (uppercase, no separators).",
    ),
  email: z.union([z.email({ message: "must be an e-mail address" }).max(254), z.literal("")]).optional(),
  phone: optionalText(50),
  address: optionalText(300),
  city: optionalText(100),
  postal_code: optionalText(20),
  province: optionalText(100),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, { message: "must be an ISO 3166 two-letter country code" })
    .toUpperCase()
    .optional()
    .describe("ISO 3166 alpha-2, default ES"),
  payment_terms_days: z
    .number()
    .int()
    .min(0)
    .max(365)
    .optional()
    .describe("Days to pay, 0..365 (default 30)"),
  tax_regime: z
    .enum(TAX_REGIMES)
    .optional()
    .describe(
      "VAT regime (default general): recargo_equivalencia (retailers: RE is charged on sales to " +
        "them), exento, intracomunitario (EU operator), exportacion (outside the EU)",
    ),
  payment_days: z
    .array(z.number().int().min(1).max(31))
    .max(3, { message: "at most 3 payment days" })
    .refine((days) => new Set(days).size === days.length, { message: "must not repeat a day" })
    .optional()
    .describe("Up to 3 distinct days of the month (1..31) it pays on; due dates move forward to them"),
  agent_id: z.uuid().nullable().optional().describe("A sales agent of the same company"),
  is_active: z.boolean().optional(),
});
export const contactUpdateBody = contactCreateBody
  .omit({ company_id: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export const contactListQuery = apiListQuery.extend({
  contact_type: z
    .enum(CONTACT_TYPES)
    .optional()
    .describe("customer or supplier also match contacts of type both"),
  company_id: z.uuid().optional().describe("Only this company's contacts"),
});
export const contactPage = apiPage(contactOut);

export type ContactCreateBody = z.infer<typeof contactCreateBody>;
export type ContactUpdateBody = z.infer<typeof contactUpdateBody>;

export function toContactOut(c: ContactRow): z.infer<typeof contactOut> {
  return {
    id: c.id,
    company_id: c.companyId,
    contact_type: c.contactType,
    code: c.code,
    name: c.name,
    legal_name: c.legalName,
    tax_id: c.taxId,
    email: c.email,
    phone: c.phone,
    address: c.address,
    city: c.city,
    postal_code: c.postalCode,
    province: c.province,
    country: c.country,
    payment_terms_days: c.paymentTermsDays,
    tax_regime: c.taxRegime,
    payment_days: c.paymentDays,
    agent_id: c.agentId,
    is_active: c.isActive,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

export function fromContactCreateBody(b: ContactCreateBody): NewContact {
  return { ...fromContactBody(b), contactType: b.contact_type, name: b.name, companyId: b.company_id };
}

export function fromContactBody(b: ContactUpdateBody): ContactFields {
  return {
    contactType: b.contact_type,
    code: b.code,
    name: b.name,
    legalName: b.legal_name,
    taxId: b.tax_id,
    email: b.email,
    phone: b.phone,
    address: b.address,
    city: b.city,
    postalCode: b.postal_code,
    province: b.province,
    country: b.country,
    paymentTermsDays: b.payment_terms_days,
    taxRegime: b.tax_regime,
    paymentDays: b.payment_days,
    agentId: b.agent_id,
    isActive: b.is_active,
  };
}
