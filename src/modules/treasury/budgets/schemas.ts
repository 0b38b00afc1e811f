import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage, queryDate } from "../../../platform/http/pagination.js";
import { moneyInput, moneyOutput } from "../../../platform/money.js";
import { BUDGET_RECURRENCES } from "../tables.js";
import type { BudgetRow } from "./repository.js";

export const budgetOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  category: z.string(),
  description: z.string(),
  contact_id: z.uuid().nullable(),
  bank_account_id: z.uuid().nullable(),
  date: z.string().describe("The first (or only) date"),
  amount: moneyOutput.describe("Positive: expected in; negative: expected out"),
  recurrence: z.enum(BUDGET_RECURRENCES),
  until: z.string().nullable().describe("Last date a recurring line may fall on; null: no end"),
  created_at: z.string(),
  updated_at: z.string(),
});

export const budgetCreateBody = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  category: z.string().trim().min(1).max(100).describe("e.g. nominas, alquiler, impuestos"),
  description: z.string().trim().max(500).optional(),
  contact_id: z.uuid().nullable().optional(),
  bank_account_id: z.uuid().nullable().optional(),
  date: z.iso.date(),
  amount: moneyInput.describe("Positive: expected in; negative: expected out; never zero"),
  recurrence: z.enum(BUDGET_RECURRENCES).optional().describe("Default none"),
  until: z.iso.date().nullable().optional().describe("Recurring lines only: the last date it may fall on"),
});

export const budgetUpdateBody = budgetCreateBody
  .omit({ company_id: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });

export const budgetListQuery = apiListQuery.extend({
  company_id: z.uuid().optional(),
  category: z.string().trim().max(100).optional(),
  contact_id: z.uuid().optional(),
  bank_account_id: z.uuid().optional(),
  date_from: queryDate.optional().describe("First date on or after"),
  date_to: queryDate.optional().describe("First date on or before"),
});
export const budgetPage = apiPage(budgetOut);

export function toBudgetOut(b: BudgetRow): z.infer<typeof budgetOut> {
  return {
    id: b.id,
    company_id: b.companyId,
    category: b.category,
    description: b.description,
    contact_id: b.contactId,
    bank_account_id: b.bankAccountId,
    date: b.date,
    amount: b.amount,
    recurrence: b.recurrence,
    until: b.until,
    created_at: iso(b.createdAt),
    updated_at: iso(b.updatedAt),
  };
}

export function fromBudgetBody(b: z.infer<typeof budgetUpdateBody>) {
  return {
    category: b.category,
    description: b.description,
    contactId: b.contact_id,
    bankAccountId: b.bank_account_id,
    date: b.date,
    amount: b.amount,
    recurrence: b.recurrence,
    until: b.until,
  };
}
