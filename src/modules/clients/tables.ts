import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "../../platform/db/columns.js";
import { agents } from "../agents/tables.js";
import { companies, companyRef } from "../companies/tables.js";

export const CONTACT_TYPES = ["customer", "supplier", "both"] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

/**
 * A contact's VAT regime, which decides how documents tax it: general, recargo de equivalencia
 * (retailers: RE charged on sales to them), exempt, intra-EU operator, or outside the EU (exports).
 */
export const TAX_REGIMES = [
  "general",
  "recargo_equivalencia",
  "exento",
  "intracomunitario",
  "exportacion",
] as const;
export type TaxRegime = (typeof TAX_REGIMES)[number];

/** Customers and suppliers of a company. */
export const contacts = pgTable(
  "contacts",
  {
    id: idColumn(),
    companyId: companyRef(),
    contactType: text("contact_type", { enum: CONTACT_TYPES }).notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    legalName: text("legal_name").notNull().default(""),
    /** Normalized: Spanish ids without the ES prefix, EU VAT numbers with their country prefix. */
    taxId: text("tax_id"),
    email: text("email").notNull().default(""),
    phone: text("phone").notNull().default(""),
    address: text("address").notNull().default(""),
    city: text("city").notNull().default(""),
    postalCode: text("postal_code").notNull().default(""),
    province: text("province").notNull().default(""),
    country: text("country").notNull().default("ES"),
    paymentTermsDays: integer("payment_terms_days").notNull().default(30),
    taxRegime: text("tax_regime", { enum: TAX_REGIMES }).notNull().default("general"),
    /** Fixed days of the month the contact pays on (e.g. 5 and 20): due dates move forward to them. */
    paymentDays: integer("payment_days").array().notNull().default(sql`'{}'::integer[]`),
    agentId: uuid("agent_id").references(() => agents.id),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contacts_company_code_key").on(t.companyId, t.code),
    uniqueIndex("contacts_company_tax_id_key").on(t.companyId, t.taxId).where(sql`${t.taxId} is not null`),
    index("contacts_company_created_idx").on(t.companyId, t.createdAt, t.id),
    index("contacts_agent_idx").on(t.agentId),
    check("contacts_contact_type_known", sql`${t.contactType} in ('customer', 'supplier', 'both')`),
    check("contacts_payment_terms_range", sql`${t.paymentTermsDays} between 0 and 365`),
    check(
      "contacts_tax_regime_known",
      sql`${t.taxRegime} in ('general', 'recargo_equivalencia', 'exento', 'intracomunitario', 'exportacion')`,
    ),
  ],
);

/** Last number handed out for generated contact codes (C00001, C00002...) per company. */
export const contactCodeCounters = pgTable("contact_code_counters", {
  companyId: uuid("company_id")
    .primaryKey()
    .references(() => companies.id),
  lastValue: integer("last_value").notNull(),
});
