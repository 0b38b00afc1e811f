import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, idColumn, percentColumn, updatedAt } from "../../platform/db/columns.js";
import { companyRef } from "../companies/tables.js";

/** Sales agents: they bring customers and earn a commission on their sales. */
export const agents = pgTable(
  "agents",
  {
    id: idColumn(),
    companyId: companyRef(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    taxId: text("tax_id"),
    email: text("email").notNull().default(""),
    commissionPct: percentColumn("commission_pct").notNull().default("0"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("agents_company_code_key").on(t.companyId, t.code),
    index("agents_company_created_idx").on(t.companyId, t.createdAt, t.id),
    check("agents_commission_pct_range", sql`${t.commissionPct} between 0 and 100`),
  ],
);
