import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { accountCodeParam, companyIdParam, fiscalYearCode } from "../params.js";
import type { AccountRow, SubaccountRow } from "./repository.js";

export const accountOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  fiscal_year_id: z.uuid(),
  fiscal_year_code: z.string(),
  code: z.string(),
  name: z.string(),
  parent_code: z.string().nullable(),
  level: z.number().int().describe("Digits of the code: 1 group, 2 subgroup, 3+ account"),
  is_active: z.boolean(),
});
export const accountListQuery = apiListQuery.extend({
  company_id: companyIdParam,
  fiscal_year_code: fiscalYearCode.optional(),
});

export function toAccountOut(a: AccountRow & { fiscalYearCode: string }): z.infer<typeof accountOut> {
  return {
    id: a.id,
    company_id: a.companyId,
    fiscal_year_id: a.fiscalYearId,
    fiscal_year_code: a.fiscalYearCode,
    code: a.code,
    name: a.name,
    parent_code: a.parentCode,
    level: a.code.length,
    is_active: a.isActive,
  };
}

export const subaccountOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  fiscal_year_id: z.uuid(),
  fiscal_year_code: z.string(),
  account_code: z.string().describe("The most specific account the code starts with"),
  code: z.string(),
  name: z.string(),
  contact_id: z.uuid().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const subaccountCreateBody = z.object({
  company_id: companyIdParam,
  fiscal_year_code: fiscalYearCode,
  code: z
    .string()
    .trim()
    .regex(/^\d{4,15}$/, { message: "must be digits, as many as the company's subaccount_length" }),
  name: z.string().trim().min(1).max(200),
  contact_id: z.uuid().optional(),
});
export const subaccountListQuery = apiListQuery.extend({
  company_id: companyIdParam,
  fiscal_year_code: fiscalYearCode.optional(),
  account_code: accountCodeParam.optional(),
  contact_id: z.uuid().optional(),
});

export function toSubaccountOut(
  s: SubaccountRow & { fiscalYearCode: string },
): z.infer<typeof subaccountOut> {
  return {
    id: s.id,
    company_id: s.companyId,
    fiscal_year_id: s.fiscalYearId,
    fiscal_year_code: s.fiscalYearCode,
    account_code: s.accountCode,
    code: s.code,
    name: s.name,
    contact_id: s.contactId,
    is_active: s.isActive,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}

export const accountPage = apiPage(accountOut);
export const subaccountPage = apiPage(subaccountOut);

export function fromSubaccountCreateBody(b: z.infer<typeof subaccountCreateBody>) {
  return {
    companyId: b.company_id,
    fiscalYearCode: b.fiscal_year_code,
    code: b.code,
    name: b.name,
    contactId: b.contact_id,
  };
}
