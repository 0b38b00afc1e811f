import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { documentSettings } from "../tables.js";
import type { DocumentSettingsRow } from "./repository.js";

const TAX_REGIMES = documentSettings.taxRegime.enumValues;

/** A PGC 2007 account of 3 or 4 digits, optionally of one group (6 purchases, 7 sales...). */
const pgcAccount = (group?: number) =>
  z
    .string()
    .trim()
    .regex(group === undefined ? /^\d{3,4}$/ : new RegExp(`^${group}\\d{2,3}$`), {
      message:
        group === undefined
          ? "must be a PGC account code of 3 or 4 digits"
          : `must be a PGC account code of 3 or 4 digits of group ${group}`,
    });

export const companyIdParams = z.object({ company_id: z.uuid() });

export const documentSettingsOut = z.object({
  company_id: z.uuid(),
  tax_regime: z.enum(TAX_REGIMES).describe("The company's own VAT regime"),
  auto_posting: z.boolean().describe("Post the ledger entry when an invoice is issued or approved"),
  sales_account: z.string(),
  purchases_account: z.string(),
  sales_returns_account: z.string().nullable(),
  supplied_account: z.string(),
  updated_at: z.string(),
});

export const documentSettingsBody = z
  .object({
    tax_regime: z
      .enum(TAX_REGIMES)
      .optional()
      .describe("recargo_equivalencia: suppliers charge RE, and VAT + RE on purchases are cost"),
    auto_posting: z
      .boolean()
      .optional()
      .describe("false: entries are posted on demand (generate-accounting-entry)"),
    sales_account: pgcAccount(7).optional().describe("Default sales account, e.g. 700 or 705"),
    purchases_account: pgcAccount(6).optional().describe("Default purchases account, e.g. 600 or 621"),
    sales_returns_account: pgcAccount(7)
      .nullable()
      .optional()
      .describe("Sales of rectifying invoices, e.g. 708; null: the sales account"),
    supplied_account: pgcAccount().optional().describe("Suplidos (paid on the customer's behalf), e.g. 555"),
  })
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });

export type DocumentSettingsBody = z.infer<typeof documentSettingsBody>;

export function toDocumentSettingsOut(s: DocumentSettingsRow): z.infer<typeof documentSettingsOut> {
  return {
    company_id: s.companyId,
    tax_regime: s.taxRegime,
    auto_posting: s.autoPosting,
    sales_account: s.salesAccount,
    purchases_account: s.purchasesAccount,
    sales_returns_account: s.salesReturnsAccount,
    supplied_account: s.suppliedAccount,
    updated_at: iso(s.updatedAt),
  };
}

export function fromDocumentSettingsBody(b: DocumentSettingsBody) {
  return {
    taxRegime: b.tax_regime,
    autoPosting: b.auto_posting,
    salesAccount: b.sales_account,
    purchasesAccount: b.purchases_account,
    salesReturnsAccount: b.sales_returns_account,
    suppliedAccount: b.supplied_account,
  };
}
