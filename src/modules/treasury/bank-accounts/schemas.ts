import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { formatIban, validateIban } from "../../../platform/iban.js";
import type { BankAccountRow } from "./repository.js";

export const bankAccountOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  name: z.string(),
  iban: z.string().describe("Normalized: upper case, no spaces"),
  iban_formatted: z.string().describe("In groups of four, for display"),
  bic: z.string().nullable(),
  subaccount_code: z.string().describe("The bank's ledger subaccount under 572"),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const ibanInput = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .superRefine((value, ctx) => {
    const result = validateIban(value);
    if (!result.valid) ctx.addIssue({ code: "custom", message: result.reason });
  })
  .describe("IBAN with or without spaces; its check digits (and a Spanish account's DC) are verified");

const bicInput = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, { message: "must be a BIC of 8 or 11 characters" });

export const bankAccountCreateBody = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  name: z.string().trim().min(1).max(200),
  iban: ibanInput,
  bic: bicInput.nullable().optional(),
  subaccount_code: z
    .string()
    .trim()
    .regex(/^572\d+$/, { message: "must start with 572 and have digits only" })
    .optional()
    .describe("The 572 subaccount to use (of the company's length); by default the next free one"),
  is_active: z.boolean().optional(),
});

export const bankAccountUpdateBody = bankAccountCreateBody
  .omit({ company_id: true, subaccount_code: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });

export const bankAccountListQuery = apiListQuery.extend({
  company_id: z.uuid().optional().describe("Only this company's bank accounts"),
});
export const bankAccountPage = apiPage(bankAccountOut);

export function toBankAccountOut(b: BankAccountRow): z.infer<typeof bankAccountOut> {
  return {
    id: b.id,
    company_id: b.companyId,
    name: b.name,
    iban: b.iban,
    iban_formatted: formatIban(b.iban),
    bic: b.bic,
    subaccount_code: b.subaccountCode,
    is_active: b.isActive,
    created_at: iso(b.createdAt),
    updated_at: iso(b.updatedAt),
  };
}

export function fromBankAccountBody(b: z.infer<typeof bankAccountUpdateBody>) {
  return { name: b.name, iban: b.iban, bic: b.bic, isActive: b.is_active };
}
