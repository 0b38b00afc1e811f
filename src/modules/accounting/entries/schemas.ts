import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import {
  afterCursorQuery,
  apiBoundedPage,
  apiListQuery,
  queryDate,
} from "../../../platform/http/pagination.js";
import { moneyInput, moneyOutput, nonNegative } from "../../../platform/money.js";
import { journalCode } from "../journals/schemas.js";
import { accountCodeParam, companyIdParam, fiscalYearCode } from "../params.js";
import type { EntryLineView, EntryView } from "./repository.js";
import type { EntryInput } from "./service.js";

const isPositive = (amount: string | undefined) => amount !== undefined && /[1-9]/.test(amount);

export const entryLineBody = z
  .object({
    subaccount_code: z
      .string()
      .trim()
      .regex(/^\d{4,15}$/, { message: "must be a subaccount code (digits)" }),
    debit: nonNegative(moneyInput).optional(),
    credit: nonNegative(moneyInput).optional(),
    description: z.string().trim().max(500).optional(),
  })
  .refine((l) => isPositive(l.debit) !== isPositive(l.credit), {
    message: "exactly one of debit and credit must be a positive amount",
  });

export const entryCreateBody = z.object({
  company_id: companyIdParam,
  fiscal_year_code: fiscalYearCode
    .optional()
    .describe("Fiscal year; when absent, the company's year containing the date"),
  journal: journalCode.optional().describe("Journal code; the general journal GEN when absent"),
  date: queryDate,
  concept: z.string().trim().min(1).max(500),
  lines: z.array(entryLineBody).min(2, { message: "an entry has at least two lines" }).max(1000),
});

export const entryReverseBody = z
  .object({
    date: queryDate.optional().describe("Date of the counter-entry; the reversed entry's date when absent"),
    concept: z.string().trim().min(1).max(500).optional(),
  })
  .nullish()
  .describe("Optional: the body may be left out");

export const ENTRY_SORTS = ["newest", "number"] as const;

export const entryListQuery = apiListQuery.extend({
  company_id: companyIdParam,
  fiscal_year_code: fiscalYearCode.optional(),
  journal: journalCode.optional(),
  date_from: queryDate.optional(),
  date_to: queryDate.optional(),
  subaccount_code: accountCodeParam.optional().describe("Entries with a line on this subaccount"),
  sort: z
    .enum(ENTRY_SORTS)
    .default("newest")
    .describe("newest: latest date first; number: by fiscal year and entry number"),
  after: afterCursorQuery,
});

export const entryLineOut = z.object({
  id: z.uuid(),
  line_no: z.number().int(),
  subaccount_id: z.uuid(),
  subaccount_code: z.string(),
  subaccount_name: z.string(),
  debit: moneyOutput,
  credit: moneyOutput,
  description: z.string(),
});

export const entrySummaryOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  fiscal_year_id: z.uuid(),
  fiscal_year_code: z.string(),
  journal_id: z.uuid(),
  journal_code: z.string(),
  number: z.number().int().describe("Gapless per fiscal year"),
  date: z.string(),
  concept: z.string(),
  total: moneyOutput.describe("Sum of the debits, equal to the sum of the credits"),
  reversal_of: z.uuid().nullable().describe("The entry this one reverses"),
  reversed_by: z.uuid().nullable().describe("The counter-entry that reverses this one"),
  created_at: z.string(),
});
export const entryOut = entrySummaryOut.extend({ lines: z.array(entryLineOut) });
export const entryPage = apiBoundedPage(entrySummaryOut);

export function toEntrySummaryOut(e: EntryView): z.infer<typeof entrySummaryOut> {
  return {
    id: e.id,
    company_id: e.companyId,
    fiscal_year_id: e.fiscalYearId,
    fiscal_year_code: e.fiscalYearCode,
    journal_id: e.journalId,
    journal_code: e.journalCode,
    number: e.number,
    date: e.date,
    concept: e.concept,
    total: e.total,
    reversal_of: e.reversalOf,
    reversed_by: e.reversedBy,
    created_at: iso(e.createdAt),
  };
}

const toLineOut = (l: EntryLineView): z.infer<typeof entryLineOut> => ({
  id: l.id,
  line_no: l.lineNo,
  subaccount_id: l.subaccountId,
  subaccount_code: l.subaccountCode,
  subaccount_name: l.subaccountName,
  debit: l.debit,
  credit: l.credit,
  description: l.description,
});

export function toEntryOut(e: EntryView & { lines: EntryLineView[] }): z.infer<typeof entryOut> {
  return { ...toEntrySummaryOut(e), lines: e.lines.map(toLineOut) };
}

export function fromEntryCreateBody(b: z.infer<typeof entryCreateBody>): EntryInput {
  return {
    companyId: b.company_id,
    fiscalYearCode: b.fiscal_year_code,
    journal: b.journal,
    date: b.date,
    concept: b.concept,
    lines: b.lines.map((l) => ({
      subaccountCode: l.subaccount_code,
      debit: l.debit,
      credit: l.credit,
      description: l.description,
    })),
  };
}
