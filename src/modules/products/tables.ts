import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, moneyColumn, updatedAt } from "../../platform/db/columns.js";
import { companyRef } from "../companies/tables.js";

/** Product families of a company, referred to by their code. */
export const productFamilies = pgTable(
  "product_families",
  {
    id: idColumn(),
    companyId: companyRef(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    /** Ledger accounts for its products' sales and purchases (e.g. 705, 621); else the company default. */
    salesAccount: text("sales_account"),
    purchasesAccount: text("purchases_account"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("product_families_company_code_key").on(t.companyId, t.code),
    index("product_families_company_created_idx").on(t.companyId, t.createdAt, t.id),
  ],
);

export const VAT_RATES = ["21", "10", "4", "0"] as const;

export const products = pgTable(
  "products",
  {
    id: idColumn(),
    companyId: companyRef(),
    reference: text("reference").notNull(),
    description: text("description").notNull(),
    /** Stored by id so that renaming a family's code carries over to its products. */
    familyId: uuid("family_id").references(() => productFamilies.id),
    salePrice: moneyColumn("sale_price").notNull().default("0"),
    costPrice: moneyColumn("cost_price").notNull().default("0"),
    /** Spanish VAT rate in percent: general 21, reduced 10, super-reduced 4, exempt 0. */
    vatRate: text("vat_rate", { enum: VAT_RATES }).notNull().default("21"),
    /** Ledger accounts overriding the family's and the company's defaults. */
    salesAccount: text("sales_account"),
    purchasesAccount: text("purchases_account"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("products_company_reference_key").on(t.companyId, t.reference),
    index("products_company_created_idx").on(t.companyId, t.createdAt, t.id),
    index("products_family_idx").on(t.familyId),
    check("products_prices_not_negative", sql`${t.salePrice} >= 0 and ${t.costPrice} >= 0`),
    check("products_vat_rate_known", sql`${t.vatRate} in ('21', '10', '4', '0')`),
  ],
);
