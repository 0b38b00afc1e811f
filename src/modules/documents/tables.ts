import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, idColumn, moneyColumn, percentColumn, updatedAt } from "../../platform/db/columns.js";
import { contacts, TAX_REGIMES } from "../clients/tables.js";
import { companies, companyRef } from "../companies/tables.js";

/**
 * The commercial-documents engine (../shared/design/documents.md): one model for sales and
 * purchases — estimates, orders, delivery notes and invoices, their lines, the conversion links
 * between lines, series and their counters, tax codes, payment terms and the instalments due.
 */

export const DIRECTIONS = ["sale", "purchase"] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const DOCUMENT_KINDS = ["estimate", "order", "delivery_note", "invoice"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Every state of every kind; transitions.ts says which belong to which kind. */
export const DOCUMENT_STATES = [
  "borrador",
  "abierto",
  "parcial",
  "convertido",
  "rechazado",
  "cancelado",
  "caducado",
  "emitida",
  "pendiente",
  "aprobada",
  "rechazada",
] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

export const SERIES_KINDS = ["general", "rectifying", "simplified"] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];

export const TAX_KINDS = ["vat", "irpf"] as const;
export type TaxKind = (typeof TAX_KINDS)[number];

/**
 * What a VAT code's operation is, which decides how it is taxed, posted and declared: domestic
 * (charged), exempt (with its reason E1-E6), self-assessed acquisitions (intra-EU goods or
 * services, reverse charge, imports: VAT both accrued and deductible, not in the invoice total),
 * exports and exempt intra-EU deliveries, and operations not subject to Spanish VAT.
 */
export const VAT_OPERATIONS = [
  "domestic",
  "exempt",
  "intra_eu_goods",
  "intra_eu_services",
  "reverse_charge",
  "import",
  "export",
  "exempt_intra_eu",
  "not_subject",
] as const;
export type VatOperation = (typeof VAT_OPERATIONS)[number];

/** IRPF withholdings by what they pay for: modelo 111 (work, activities) or 115 (rent). */
export const IRPF_KINDS = ["activities", "rent", "work"] as const;
export type IrpfKind = (typeof IRPF_KINDS)[number];

export const EXEMPTION_REASONS = ["E1", "E2", "E3", "E4", "E5", "E6"] as const;

export const RECTIFICATION_TYPES = ["I", "S"] as const;

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

export const taxCodes = pgTable(
  "tax_codes",
  {
    id: idColumn(),
    companyId: companyRef(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: TAX_KINDS }).notNull(),
    /** VAT or IRPF rate in percent. */
    rate: percentColumn("rate").notNull(),
    /** VAT codes: the recargo de equivalencia that goes with the rate (5.2 with 21 %...). */
    reRate: percentColumn("re_rate").notNull().default("0"),
    operation: text("operation", { enum: VAT_OPERATIONS }),
    exemptionReason: text("exemption_reason", { enum: EXEMPTION_REASONS }),
    irpfKind: text("irpf_kind", { enum: IRPF_KINDS }),
    /** Purchases of capital goods (303 boxes 30/31, 38/39). */
    capitalGoods: boolean("capital_goods").notNull().default(false),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("tax_codes_company_code_key").on(t.companyId, t.code),
    check("tax_codes_kind_known", inList("kind", TAX_KINDS)),
    check("tax_codes_rate_range", sql`${t.rate} >= 0 and ${t.rate} <= 100 and ${t.reRate} >= 0`),
    check(
      "tax_codes_kind_fields",
      sql`(${t.kind} = 'vat' and ${t.operation} is not null and ${t.irpfKind} is null)
        or (${t.kind} = 'irpf' and ${t.operation} is null and ${t.irpfKind} is not null and ${t.reRate} = 0)`,
    ),
  ],
);

/** A payment term's instalments: percent or fixed amount, or the balance, due after some days. */
export interface PaymentTermLine {
  kind: "percent" | "fixed" | "balance";
  value?: string;
  days: number;
  endOfMonth?: boolean;
}

export const paymentTerms = pgTable(
  "payment_terms",
  {
    id: idColumn(),
    companyId: companyRef(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    lines: jsonb("lines").$type<PaymentTermLine[]>().notNull(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("payment_terms_company_code_key").on(t.companyId, t.code)],
);

export const documentSeries = pgTable(
  "document_series",
  {
    id: idColumn(),
    companyId: companyRef(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: SERIES_KINDS }).notNull(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("document_series_company_code_key").on(t.companyId, t.code),
    check("document_series_code_format", sql`${t.code} ~ '^[A-Z0-9]{1,4}$'`),
    check("document_series_kind_known", inList("kind", SERIES_KINDS)),
  ],
);

/**
 * The last number handed out per (company, direction, kind, series, year), taken with
 * UPDATE ... RETURNING inside the transaction that numbers the document: gapless and never reused.
 * last_date keeps issue dates from going backwards within the series.
 */
export const documentCounters = pgTable(
  "document_counters",
  {
    companyId: companyRef(),
    direction: text("direction", { enum: DIRECTIONS }).notNull(),
    kind: text("kind", { enum: DOCUMENT_KINDS }).notNull(),
    seriesId: uuid("series_id")
      .notNull()
      .references(() => documentSeries.id),
    year: integer("year").notNull(),
    lastNumber: integer("last_number").notNull().default(0),
    lastDate: date("last_date", { mode: "string" }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.direction, t.kind, t.seriesId, t.year] })],
);

export const documents = pgTable(
  "documents",
  {
    id: idColumn(),
    companyId: companyRef(),
    direction: text("direction", { enum: DIRECTIONS }).notNull(),
    kind: text("kind", { enum: DOCUMENT_KINDS }).notNull(),
    seriesId: uuid("series_id")
      .notNull()
      .references(() => documentSeries.id),
    /** Year of the numbering counter; null until numbered. */
    year: integer("year"),
    number: integer("number"),
    /** e.g. FV2026-000123; null until numbered. */
    code: text("code"),
    estado: text("estado", { enum: DOCUMENT_STATES }).notNull(),
    contactId: uuid("contact_id")
      .notNull()
      .references(() => contacts.id),
    /** The contact as it was when the document was created (names and addresses change later). */
    contactName: text("contact_name").notNull(),
    contactTaxId: text("contact_tax_id"),
    contactAddress: text("contact_address").notNull().default(""),
    contactPostalCode: text("contact_postal_code").notNull().default(""),
    contactCity: text("contact_city").notNull().default(""),
    contactProvince: text("contact_province").notNull().default(""),
    contactCountry: text("contact_country").notNull().default("ES"),
    contactTaxRegime: text("contact_tax_regime", { enum: TAX_REGIMES }).notNull().default("general"),
    agentId: uuid("agent_id"),
    issueDate: date("issue_date", { mode: "string" }).notNull(),
    /** Accrual date when it differs from the issue date (posting and tax periods use it). */
    operationDate: date("operation_date", { mode: "string" }),
    validUntil: date("valid_until", { mode: "string" }),
    paymentTermId: uuid("payment_term_id").references(() => paymentTerms.id),
    currency: text("currency").notNull().default("EUR"),
    discount1: percentColumn("discount1").notNull().default("0"),
    discount2: percentColumn("discount2").notNull().default("0"),
    notes: text("notes").notNull().default(""),
    /** Purchases: the supplier's own invoice number. */
    supplierNumber: text("supplier_number"),
    correctsDocumentId: uuid("corrects_document_id").references((): AnyPgColumn => documents.id),
    rectificationType: text("rectification_type", { enum: RECTIFICATION_TYPES }),
    rectificationReason: text("rectification_reason"),
    rejectionReason: text("rejection_reason"),
    /** The ledger entry posted for the invoice. */
    entryId: uuid("entry_id"),
    grossNet: moneyColumn("gross_net").notNull().default("0"),
    net: moneyColumn("net").notNull().default("0"),
    vat: moneyColumn("vat").notNull().default("0"),
    re: moneyColumn("re").notNull().default("0"),
    irpf: moneyColumn("irpf").notNull().default("0"),
    supplied: moneyColumn("supplied").notNull().default("0"),
    total: moneyColumn("total").notNull().default("0"),
    /** bases + VAT + RE (VeriFactu's ImporteTotal: IRPF not subtracted). */
    importeTotal: moneyColumn("importe_total").notNull().default("0"),
    /** Sum of the payments allocated to its instalments (kept by treasury in the payment's transaction). */
    paidAmount: moneyColumn("paid_amount").notNull().default("0"),
    createdBy: uuid("created_by"),
    /** When it was issued (sales invoices) or approved (purchase invoices). */
    finalizedAt: timestamp("finalized_at", { withTimezone: true, mode: "date" }),
    finalizedBy: uuid("finalized_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("documents_number_key")
      .on(t.companyId, t.direction, t.kind, t.seriesId, t.year, t.number)
      .where(sql`${t.number} is not null`),
    uniqueIndex("documents_code_key")
      .on(t.companyId, t.direction, t.kind, t.code)
      .where(sql`${t.code} is not null`),
    uniqueIndex("documents_supplier_number_key")
      .on(t.companyId, t.contactId, t.supplierNumber, sql`extract(year from ${t.issueDate})`)
      .where(sql`${t.direction} = 'purchase' and ${t.kind} = 'invoice' and ${t.supplierNumber} is not null`),
    index("documents_list_idx").on(t.companyId, t.direction, t.kind, t.issueDate, t.id),
    index("documents_kind_date_idx").on(t.direction, t.kind, t.issueDate, t.id),
    index("documents_contact_idx").on(t.contactId, t.issueDate),
    index("documents_corrects_idx").on(t.correctsDocumentId).where(sql`${t.correctsDocumentId} is not null`),
    check("documents_direction_known", inList("direction", DIRECTIONS)),
    check("documents_kind_known", inList("kind", DOCUMENT_KINDS)),
    check("documents_estado_known", inList("estado", DOCUMENT_STATES)),
    check(
      "documents_numbered_together",
      sql`(${t.number} is null) = (${t.code} is null) and (${t.number} is null) = (${t.year} is null)`,
    ),
    check(
      "documents_discounts_range",
      sql`${t.discount1} between 0 and 100 and ${t.discount2} between 0 and 100`,
    ),
  ],
);

export const documentLines = pgTable(
  "document_lines",
  {
    id: idColumn(),
    companyId: companyRef(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    lineNo: integer("line_no").notNull(),
    productId: uuid("product_id"),
    reference: text("reference").notNull().default(""),
    description: text("description").notNull(),
    quantity: numeric("quantity", { precision: 18, scale: 4 }).notNull(),
    unitPrice: numeric("unit_price", { precision: 18, scale: 6 }).notNull(),
    discount1: percentColumn("discount1").notNull().default("0"),
    discount2: percentColumn("discount2").notNull().default("0"),
    taxCodeId: uuid("tax_code_id").references(() => taxCodes.id),
    vatRate: percentColumn("vat_rate").notNull().default("0"),
    reRate: percentColumn("re_rate").notNull().default("0"),
    irpfCodeId: uuid("irpf_code_id").references(() => taxCodes.id),
    irpfRate: percentColumn("irpf_rate").notNull().default("0"),
    /** Suplidos: paid on the customer's behalf, passed on untaxed. */
    supplied: boolean("supplied").notNull().default(false),
    /** Ledger account override for the line's net (e.g. 705, 621); else product, family, company default. */
    accountCode: text("account_code"),
    /** Line net after line discounts, before the document discount. */
    net: numeric("net", { precision: 18, scale: 6 }).notNull().default("0"),
    /** How much of the quantity later documents already took (conversion). */
    servedQuantity: numeric("served_quantity", { precision: 18, scale: 4 }).notNull().default("0"),
    /** Rectifying invoices: the line of the corrected invoice this one corrects. */
    correctsLineId: uuid("corrects_line_id").references((): AnyPgColumn => documentLines.id),
  },
  (t) => [
    uniqueIndex("document_lines_document_line_key").on(t.documentId, t.lineNo),
    index("document_lines_product_idx").on(t.productId).where(sql`${t.productId} is not null`),
    index("document_lines_corrects_idx").on(t.correctsLineId).where(sql`${t.correctsLineId} is not null`),
    check(
      "document_lines_discounts_range",
      sql`${t.discount1} between 0 and 100 and ${t.discount2} between 0 and 100`,
    ),
  ],
);

/** Conversion: how much of a line (estimate, order, delivery note) went into a later document's line. */
export const documentLineLinks = pgTable(
  "document_line_links",
  {
    id: idColumn(),
    companyId: companyRef(),
    fromDocumentId: uuid("from_document_id")
      .notNull()
      .references(() => documents.id),
    fromLineId: uuid("from_line_id")
      .notNull()
      .references(() => documentLines.id),
    toDocumentId: uuid("to_document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    toLineId: uuid("to_line_id")
      .notNull()
      .references(() => documentLines.id, { onDelete: "cascade" }),
    quantity: numeric("quantity", { precision: 18, scale: 4 }).notNull(),
  },
  (t) => [
    index("document_line_links_from_idx").on(t.fromDocumentId),
    index("document_line_links_to_idx").on(t.toDocumentId),
    index("document_line_links_from_line_idx").on(t.fromLineId),
  ],
);

/** The tax breakdown of a document, one row per VAT group and per IRPF rate (tax books, 303, 347). */
export const documentTaxes = pgTable(
  "document_taxes",
  {
    id: idColumn(),
    companyId: companyRef(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: TAX_KINDS }).notNull(),
    taxCodeId: uuid("tax_code_id").references(() => taxCodes.id),
    rate: percentColumn("rate").notNull(),
    reRate: percentColumn("re_rate").notNull().default("0"),
    base: moneyColumn("base").notNull(),
    /** VAT of the group, or the IRPF withheld. */
    amount: moneyColumn("amount").notNull(),
    reAmount: moneyColumn("re_amount").notNull().default("0"),
    /** Self-assessed VAT (intra-EU, reverse charge, imports): declared on both sides, not invoiced. */
    selfAssessed: boolean("self_assessed").notNull().default(false),
  },
  (t) => [index("document_taxes_document_idx").on(t.documentId)],
);

export const DUE_STATES = ["pendiente", "parcial", "pagado"] as const;

/**
 * The instalments of an issued sales invoice (customer receipts) or an approved purchase invoice
 * (supplier payments due), from its payment term. Treasury records payments against them.
 */
export const documentDues = pgTable(
  "document_dues",
  {
    id: idColumn(),
    companyId: companyRef(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id),
    direction: text("direction", { enum: DIRECTIONS }).notNull(),
    contactId: uuid("contact_id")
      .notNull()
      .references(() => contacts.id),
    /** 1, 2, 3... within the document. */
    sequence: integer("sequence").notNull(),
    /** The document's code and the sequence, e.g. FV2026-000123/1. */
    code: text("code").notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    amount: moneyColumn("amount").notNull(),
    paidAmount: moneyColumn("paid_amount").notNull().default("0"),
    estado: text("estado", { enum: DUE_STATES }).notNull().default("pendiente"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("document_dues_document_sequence_key").on(t.documentId, t.sequence),
    index("document_dues_open_idx").on(t.companyId, t.direction, t.estado, t.dueDate),
    // The treasury lists' order, so a page (and an after= cursor) reads the index, not a sort.
    index("document_dues_list_idx").on(t.companyId, t.direction, t.dueDate, t.code, t.id),
    index("document_dues_contact_idx").on(t.contactId),
    check("document_dues_estado_known", inList("estado", DUE_STATES)),
  ],
);

/** Company settings the engine reads: tax regime, automatic posting and default ledger accounts. */
export const documentSettings = pgTable("document_settings", {
  companyId: uuid("company_id")
    .primaryKey()
    .references(() => companies.id),
  /** The company's own VAT regime (recargo_equivalencia: VAT + RE on purchases are cost). */
  taxRegime: text("tax_regime", { enum: TAX_REGIMES }).notNull().default("general"),
  /** Post the ledger entry when an invoice is issued or approved (off: generate-accounting-entry). */
  autoPosting: boolean("auto_posting").notNull().default(true),
  salesAccount: text("sales_account").notNull().default("700"),
  purchasesAccount: text("purchases_account").notNull().default("600"),
  /** Sales rectifying invoices (devoluciones de ventas) when set, e.g. 708. */
  salesReturnsAccount: text("sales_returns_account"),
  suppliedAccount: text("supplied_account").notNull().default("555"),
  updatedAt: updatedAt(),
});

/**
 * Files attached to a document: the supplier's own invoice (PDF, Facturae XML) on a purchase
 * invoice. The content lives in the file storage (STORAGE_DIR) under `storage_key`; its SHA-256 is
 * kept to prove the file was not altered.
 */
export const documentAttachments = pgTable(
  "document_attachments",
  {
    id: idColumn(),
    companyId: companyRef(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    /** Path relative to STORAGE_DIR. */
    storageKey: text("storage_key").notNull(),
    createdBy: uuid("created_by"),
    createdAt: createdAt(),
  },
  (t) => [index("document_attachments_document_idx").on(t.documentId)],
);
