import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { moneyInput, moneyOutput, nonNegative, toMoney } from "../../../platform/money.js";
import { companyIdInput } from "../params.js";
import { VAT_RATES } from "../tables.js";
import type { ProductView } from "./repository.js";
import type { ProductValues } from "./service.js";

const price = nonNegative(moneyInput);

/** A PGC 2007 account of the group (6 purchases, 7 sales), 3 or 4 digits; null: the next default. */
export const ledgerAccount = (group: 6 | 7, use: string) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^${group}\\d{2,3}$`), {
      message: `must be a PGC account code of 3 or 4 digits of group ${group}`,
    })
    .nullable()
    .optional()
    .describe(use);

export const productOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  reference: z.string(),
  description: z.string(),
  family_code: z.string().nullable(),
  sale_price: moneyOutput,
  cost_price: moneyOutput,
  vat_rate: z.enum(VAT_RATES),
  sales_account: z.string().nullable(),
  purchases_account: z.string().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const productCreateBody = z.object({
  company_id: companyIdInput,
  reference: z.string().trim().min(1).max(50),
  description: z.string().trim().min(1).max(500),
  family_code: z
    .string()
    .trim()
    .min(1)
    .max(30)
    .nullable()
    .optional()
    .describe("Code of a family of the company"),
  sale_price: price.optional().describe('Sale price without VAT, e.g. "1234.50"'),
  cost_price: price.optional().describe('Cost price, e.g. "980.00"'),
  vat_rate: z.enum(VAT_RATES).optional().describe("Spanish VAT rate in percent (default 21)"),
  sales_account: ledgerAccount(
    7,
    "Sales account of its sales (e.g. 705); null: its family's, else the company's",
  ),
  purchases_account: ledgerAccount(
    6,
    "Purchases account of its purchases (e.g. 601); null: its family's, else the company's",
  ),
  is_active: z.boolean().optional(),
});
export const productUpdateBody = productCreateBody
  .omit({ company_id: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export const productListQuery = apiListQuery.extend({
  company_id: z.uuid().optional().describe("Only this company's products"),
  family_code: z.string().trim().min(1).max(30).optional().describe("Only products of this family"),
});
export const productPage = apiPage(productOut);

export type ProductCreateBody = z.infer<typeof productCreateBody>;
export type ProductUpdateBody = z.infer<typeof productUpdateBody>;

export function toProductOut(p: ProductView): z.infer<typeof productOut> {
  return {
    id: p.id,
    company_id: p.companyId,
    reference: p.reference,
    description: p.description,
    family_code: p.familyCode,
    sale_price: toMoney(p.salePrice),
    cost_price: toMoney(p.costPrice),
    vat_rate: p.vatRate,
    sales_account: p.salesAccount,
    purchases_account: p.purchasesAccount,
    is_active: p.isActive,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

export function fromProductCreateBody(b: ProductCreateBody) {
  return {
    ...fromProductBody(b),
    reference: b.reference,
    description: b.description,
    companyId: b.company_id,
  };
}

export function fromProductBody(b: ProductUpdateBody): ProductValues {
  return {
    reference: b.reference,
    description: b.description,
    familyCode: b.family_code,
    salePrice: b.sale_price,
    costPrice: b.cost_price,
    vatRate: b.vat_rate,
    salesAccount: b.sales_account,
    purchasesAccount: b.purchases_account,
    isActive: b.is_active,
  };
}
