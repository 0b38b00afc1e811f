import { boolean, customType, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "../../platform/db/columns.js";

export const companies = pgTable(
  "companies",
  {
    id: idColumn(),
    name: text("name").notNull(),
    legalName: text("legal_name").notNull().default(""),
    taxId: text("tax_id").notNull(),
    address: text("address").notNull().default(""),
    city: text("city").notNull().default(""),
    postalCode: text("postal_code").notNull().default(""),
    province: text("province").notNull().default(""),
    country: text("country").notNull().default("ES"),
    /** Digits of a ledger subaccount code (e.g. 10 -> 4300000001). */
    subaccountLength: integer("subaccount_length").notNull().default(10),
    currency: text("currency").notNull().default("EUR"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("companies_tax_id_key").on(t.taxId)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** A company's logo (PNG or JPEG) for its printed documents; small, so kept in the database. */
export const companyLogos = pgTable("company_logos", {
  companyId: uuid("company_id")
    .primaryKey()
    .references(() => companies.id, { onDelete: "cascade" }),
  contentType: text("content_type").notNull(),
  content: bytea("content").notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  sha256: text("sha256").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  updatedAt: updatedAt(),
});

/** The owning company of a business row (every /api business table carries one). */
export const companyRef = () =>
  uuid("company_id")
    .notNull()
    .references(() => companies.id);
