import { z } from "zod";
import { addOneYear } from "../../../platform/dates.js";
import { apiListQuery, apiPage, queryDate } from "../../../platform/http/pagination.js";
import type { FiscalYearRow, JournalRow } from "../fiscal-years/repository.js";
import { FISCAL_YEAR_STATES, JOURNAL_TYPES } from "../tables.js";
import type { AccountRow, SubaccountRow } from "./repository.js";

const iso = (d: Date) => d.toISOString();

export const companyIdParam = z
  .uuid({ message: "must be a UUID" })
  .optional()
  .describe("Company; optional for callers restricted to one company or tenants with a single company");
export const fiscalYearCode = z.string().trim().min(1).max(20).describe('Fiscal year code, e.g. "2026"');
export const accountCodeParam = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, { message: "must be 1 to 15 digits" })
  .describe("Account code or code prefix: group (1 digit), subgroup (2), account (3+), subaccount");

export const fiscalYearOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  estado: z.enum(FISCAL_YEAR_STATES),
  last_entry_number: z.number().int().describe("Number of the last entry posted in the year"),
  created_at: z.string(),
  updated_at: z.string(),
});
export const fiscalYearCreateBody = z
  .object({
    company_id: companyIdParam,
    code: fiscalYearCode,
    start_date: queryDate,
    end_date: queryDate,
  })
  .superRefine((b, ctx) => {
    if (b.end_date < b.start_date)
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "must not be before start_date" });
    else if (b.end_date >= addOneYear(b.start_date))
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "a fiscal year lasts 12 months at most" });
  });
export const fiscalYearStateBody = z.object({ estado: z.enum(FISCAL_YEAR_STATES) });
export const fiscalYearListQuery = apiListQuery.extend({
  company_id: companyIdParam,
  estado: z.enum(FISCAL_YEAR_STATES).optional(),
});

export function toFiscalYearOut(y: FiscalYearRow): z.infer<typeof fiscalYearOut> {
  return {
    id: y.id,
    company_id: y.companyId,
    code: y.code,
    start_date: y.startDate,
    end_date: y.endDate,
    estado: y.estado,
    last_entry_number: y.lastEntryNumber,
    created_at: iso(y.createdAt),
    updated_at: iso(y.updatedAt),
  };
}

export const journalOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  type: z.enum(JOURNAL_TYPES),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const journalCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9_-]{1,20}$/, { message: "must be 1 to 20 letters, digits, - or _" });
export const journalCreateBody = z.object({
  company_id: companyIdParam,
  code: journalCode,
  name: z.string().trim().min(1).max(200),
  type: z.enum(JOURNAL_TYPES),
});
export const journalListQuery = apiListQuery.extend({
  company_id: companyIdParam,
  type: z.enum(JOURNAL_TYPES).optional(),
});

export function toJournalOut(j: JournalRow): z.infer<typeof journalOut> {
  return {
    id: j.id,
    company_id: j.companyId,
    code: j.code,
    name: j.name,
    type: j.type,
    is_active: j.isActive,
    created_at: iso(j.createdAt),
    updated_at: iso(j.updatedAt),
  };
}

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

export const fiscalYearPage = apiPage(fiscalYearOut);
export const journalPage = apiPage(journalOut);
export const accountPage = apiPage(accountOut);
export const subaccountPage = apiPage(subaccountOut);
