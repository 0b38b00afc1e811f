import { z } from "zod";
import { moneyOutput } from "../../platform/money.js";
import type { Modelo347Report } from "../documents/index.js";

export const invoiceIssueBody = z
  .object({
    date: z.iso
      .date({ message: "must be a date YYYY-MM-DD" })
      .optional()
      .describe("Issue date; today when absent"),
  })
  .nullish()
  .describe("Optional: the body may be left out");

export const rectifyBody = z.object({
  type: z.enum(["I", "S"]).default("I").describe("I: by differences (default); S: by substitution"),
  reason: z.string().trim().min(1).max(500).describe("Why the invoice is corrected (shown on the invoice)"),
  lines: z
    .array(
      z.object({
        line_id: z.uuid(),
        quantity: z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, {
          message: "must be a positive decimal string, up to 4 decimals",
        }),
      }),
    )
    .min(1)
    .max(2000)
    .optional()
    .describe(
      "Type I: the quantities to take back per line of the corrected invoice; every line whole when absent",
    ),
  series: z
    .string()
    .regex(/^[A-Z0-9]{1,4}$/)
    .optional()
    .describe("A rectifying series; R when absent"),
  date: z.iso.date().optional(),
  supplier_number: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .optional()
    .describe("Purchases: the supplier's credit note number"),
});

export const modelo347Query = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
  company_id: z.uuid().optional(),
  format: z.enum(["json", "aeat"]).default("json"),
});

const party = z.object({
  contact_id: z.uuid(),
  key: z.enum(["A", "B"]).describe("A purchases, B sales"),
  tax_id: z.string().nullable(),
  name: z.string(),
  province: z.string(),
  country: z.string(),
  annual_amount: moneyOutput,
  q1: moneyOutput,
  q2: moneyOutput,
  q3: moneyOutput,
  q4: moneyOutput,
  cash_amount: moneyOutput.describe("Cash received over 6,000 EUR, reported apart"),
});

export const modelo347Out = z.object({
  company_id: z.uuid(),
  year: z.number().int(),
  threshold: moneyOutput,
  parties: z.array(party),
  missing_tax_id: z
    .array(z.uuid())
    .describe("Contacts over the threshold without a tax id (left out of the file)"),
});

export function toModelo347Out(r: Modelo347Report): z.infer<typeof modelo347Out> {
  return {
    company_id: r.companyId,
    year: r.year,
    threshold: "3005.06",
    parties: r.parties.map((p) => ({
      contact_id: p.contactId,
      key: p.key,
      tax_id: p.taxId,
      name: p.name,
      province: p.province,
      country: p.country,
      annual_amount: p.annual,
      q1: p.q1,
      q2: p.q2,
      q3: p.q3,
      q4: p.q4,
      cash_amount: p.cash,
    })),
    missing_tax_id: r.missingTaxId.map((p) => p.contactId),
  };
}
