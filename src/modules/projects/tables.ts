import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
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
import {
  createdAt,
  idColumn,
  moneyColumn,
  percentColumn,
  quantityColumn,
  unitPriceColumn,
  updatedAt,
} from "../../platform/db/columns.js";
import { companies } from "../companies/tables.js";
import { users } from "../identity/tables.js";

/** Project cost management (/api/v1): one budget per project, its item tree, activities, certifications, costs. */

export const BUDGET_STATES = ["borrador", "aprobado", "en_ejecucion", "finalizado", "cancelado"] as const;
export const ACTIVITY_STATES = ["pendiente", "en_curso", "completada"] as const;
export const CERTIFICATION_STATES = ["borrador", "emitida", "validada", "rechazada"] as const;
export const ITEM_KINDS = ["chapter", "item"] as const;
export const DECOMPOSITION_TYPES = ["labour", "machinery", "material", "other"] as const;
export const COST_CATEGORIES = ["labour", "machinery", "material", "subcontract", "other"] as const;

export type BudgetState = (typeof BUDGET_STATES)[number];
export type ActivityState = (typeof ACTIVITY_STATES)[number];
export type CertificationState = (typeof CERTIFICATION_STATES)[number];
export type ItemKind = (typeof ITEM_KINDS)[number];
export type DecompositionType = (typeof DECOMPOSITION_TYPES)[number];
export type CostCategory = (typeof COST_CATEGORIES)[number];

/** Decimals a BC3 file declared in its ~K record; a missing key means the FIEBDC-3 default. */
export interface BudgetDecimals {
  /** DS: total measurement of a placement. */
  quantity?: number;
  /** DR / DRS: yields and factors in a decomposition. */
  yield?: number;
  /** DI: each yield x price line and the sums percentages apply to. */
  line?: number;
  /** DC / DUO: the unit price of an item (direct cost + CI). */
  price?: number;
  /** DM / DC (2007+): quantity x price of a placement and the chapter totals. */
  amount?: number;
}

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

export const budgets = pgTable(
  "budgets",
  {
    id: idColumn(),
    /** The company the budget belongs to; null (no company in the tenant yet) = unrestricted callers only. */
    companyId: uuid("company_id").references(() => companies.id),
    code: text("code").notNull(),
    name: text("name").notNull(),
    clientName: text("client_name").notNull().default(""),
    clientTaxId: text("client_tax_id"),
    description: text("description").notNull().default(""),
    startDate: date("start_date", { mode: "string" }),
    endDate: date("end_date", { mode: "string" }),
    estado: text("estado", { enum: BUDGET_STATES }).notNull().default("borrador"),
    overheadsPct: percentColumn("overheads_pct").notNull().default("13"),
    profitPct: percentColumn("profit_pct").notNull().default("6"),
    discountPct: percentColumn("discount_pct").notNull().default("0"),
    vatPct: percentColumn("vat_pct").notNull().default("21"),
    retentionPct: percentColumn("retention_pct").notNull().default("5"),
    /** FIEBDC-3 CI: indirect costs applied to the unit prices of the items (unidades de obra). */
    indirectCostsPct: percentColumn("indirect_costs_pct").notNull().default("0"),
    /** Rounding decimals from a BC3 ~K record (quantity, unit price, amount...); {} = the defaults. */
    decimals: jsonb("decimals").$type<BudgetDecimals>().notNull().default({}),
    /** Contract data printed on its certifications (the owner is client_name / client_tax_id). */
    ownerAddress: text("owner_address").notNull().default(""),
    siteAddress: text("site_address").notNull().default(""),
    contractAmount: moneyColumn("contract_amount"),
    fileNumber: text("file_number").notNull().default(""),
    /** Who signs a certification: dirección facultativa, the contractor's and the owner's representatives. */
    siteManagerName: text("site_manager_name").notNull().default(""),
    contractorSignatory: text("contractor_signatory").notNull().default(""),
    ownerSignatory: text("owner_signatory").notNull().default(""),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("budgets_code_key").on(t.code),
    index("budgets_company_id_idx").on(t.companyId),
    check("budgets_estado_check", inList("estado", BUDGET_STATES)),
  ],
);

export const budgetStatusHistory = pgTable(
  "budget_status_history",
  {
    id: idColumn(),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    fromEstado: text("from_estado", { enum: BUDGET_STATES }).notNull(),
    toEstado: text("to_estado", { enum: BUDGET_STATES }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("budget_status_history_budget_idx").on(t.budgetId, t.createdAt)],
);

/**
 * What a budget's tree places: one row per code (FIEBDC-3 ~C). Its unit, texts, price and
 * decomposition are shared by every placement (budget_items) of the code.
 */
export const budgetConcepts = pgTable(
  "budget_concepts",
  {
    id: idColumn(),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ITEM_KINDS }).notNull(),
    code: text("code").notNull(),
    unit: text("unit").notNull().default(""),
    summary: text("summary").notNull().default(""),
    longText: text("long_text").notNull().default(""),
    unitPrice: unitPriceColumn("unit_price").notNull().default("0"),
    type: text("type", { enum: DECOMPOSITION_TYPES }).notNull().default("other"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("budget_concepts_budget_code_key").on(t.budgetId, t.code),
    check("budget_concepts_kind_check", inList("kind", ITEM_KINDS)),
    check("budget_concepts_type_check", inList("type", DECOMPOSITION_TYPES)),
  ],
);

/**
 * The budget tree: placements of concepts. Chapters (kind=chapter) hold chapters and items; an item's
 * amount = quantity x unit_price. code, unit, summary, long_text and unit_price are copies of the
 * concept's, rewritten on every placement whenever the concept changes (see ADR 015).
 */
export const budgetItems = pgTable(
  "budget_items",
  {
    id: idColumn(),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    parentId: uuid("parent_id").references((): AnyPgColumn => budgetItems.id, { onDelete: "cascade" }),
    conceptId: uuid("concept_id")
      .notNull()
      .references(() => budgetConcepts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ITEM_KINDS }).notNull(),
    code: text("code").notNull(),
    position: integer("position").notNull().default(0),
    unit: text("unit").notNull().default(""),
    summary: text("summary").notNull().default(""),
    longText: text("long_text").notNull().default(""),
    quantity: quantityColumn("quantity").notNull().default("0"),
    unitPrice: unitPriceColumn("unit_price").notNull().default("0"),
    /** Items: quantity x unit_price rounded to cents. Chapters: 0 (their amount is the sum of their children). */
    amount: moneyColumn("amount").notNull().default("0"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("budget_items_concept_idx").on(t.conceptId),
    index("budget_items_parent_idx").on(t.budgetId, t.parentId, t.position),
    check("budget_items_kind_check", inList("kind", ITEM_KINDS)),
  ],
);

export const budgetItemMeasurements = pgTable(
  "budget_item_measurements",
  {
    id: idColumn(),
    itemId: uuid("item_id")
      .notNull()
      .references(() => budgetItems.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    label: text("label").notNull().default(""),
    units: quantityColumn("units"),
    length: quantityColumn("length"),
    width: quantityColumn("width"),
    height: quantityColumn("height"),
  },
  (t) => [index("budget_item_measurements_item_idx").on(t.itemId, t.position)],
);

/** A concept's components; a code with "%" is a percentage of the preceding lines (yield per one). */
export const budgetItemDecomposition = pgTable(
  "budget_item_decomposition",
  {
    id: idColumn(),
    conceptId: uuid("concept_id")
      .notNull()
      .references(() => budgetConcepts.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    type: text("type", { enum: DECOMPOSITION_TYPES }).notNull(),
    code: text("code").notNull(),
    unit: text("unit").notNull().default(""),
    summary: text("summary").notNull().default(""),
    yield: numeric("yield", { precision: 18, scale: 6 }).notNull().default("1"),
    price: unitPriceColumn("price").notNull().default("0"),
  },
  (t) => [
    index("budget_item_decomposition_concept_idx").on(t.conceptId, t.position),
    check("budget_item_decomposition_type_check", inList("type", DECOMPOSITION_TYPES)),
  ],
);

export const activities = pgTable(
  "activities",
  {
    id: idColumn(),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    plannedStart: date("planned_start", { mode: "string" }),
    plannedEnd: date("planned_end", { mode: "string" }),
    actualStart: date("actual_start", { mode: "string" }),
    actualEnd: date("actual_end", { mode: "string" }),
    progressPct: percentColumn("progress_pct").notNull().default("0"),
    responsibleUserId: uuid("responsible_user_id").references(() => users.id, { onDelete: "set null" }),
    estado: text("estado", { enum: ACTIVITY_STATES }).notNull().default("pendiente"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("activities_budget_code_key").on(t.budgetId, t.code),
    check("activities_estado_check", inList("estado", ACTIVITY_STATES)),
  ],
);

export const activityItems = pgTable(
  "activity_items",
  {
    activityId: uuid("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
    budgetItemId: uuid("budget_item_id")
      .notNull()
      .references(() => budgetItems.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.activityId, t.budgetItemId] }),
    index("activity_items_item_idx").on(t.budgetItemId),
  ],
);

export const certifications = pgTable(
  "certifications",
  {
    id: idColumn(),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    periodStart: date("period_start", { mode: "string" }).notNull(),
    periodEnd: date("period_end", { mode: "string" }).notNull(),
    estado: text("estado", { enum: CERTIFICATION_STATES }).notNull().default("borrador"),
    notes: text("notes").notNull().default(""),
    issuePlace: text("issue_place").notNull().default(""),
    issueDate: date("issue_date", { mode: "string" }),
    /** Retención de garantía of this certification; null = the budget's retention_pct. */
    retentionPct: percentColumn("retention_pct"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    validatedBy: uuid("validated_by").references(() => users.id, { onDelete: "set null" }),
    validatedAt: timestamp("validated_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("certifications_budget_number_key").on(t.budgetId, t.number),
    check("certifications_estado_check", inList("estado", CERTIFICATION_STATES)),
  ],
);

/** Quantity certified to origin (cumulative) per budget item. */
export const certificationLines = pgTable(
  "certification_lines",
  {
    id: idColumn(),
    certificationId: uuid("certification_id")
      .notNull()
      .references(() => certifications.id, { onDelete: "cascade" }),
    budgetItemId: uuid("budget_item_id")
      .notNull()
      .references(() => budgetItems.id, { onDelete: "restrict" }),
    quantityToOrigin: quantityColumn("quantity_to_origin").notNull(),
  },
  (t) => [
    uniqueIndex("certification_lines_cert_item_key").on(t.certificationId, t.budgetItemId),
    index("certification_lines_item_idx").on(t.budgetItemId),
  ],
);

/** Actual costs of a project. */
export const costEntries = pgTable(
  "cost_entries",
  {
    id: idColumn(),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    budgetItemId: uuid("budget_item_id").references(() => budgetItems.id, { onDelete: "set null" }),
    activityId: uuid("activity_id").references(() => activities.id, { onDelete: "set null" }),
    date: date("date", { mode: "string" }).notNull(),
    category: text("category", { enum: COST_CATEGORIES }).notNull(),
    supplierName: text("supplier_name").notNull().default(""),
    supplierTaxId: text("supplier_tax_id"),
    documentNumber: text("document_number").notNull().default(""),
    concept: text("concept").notNull().default(""),
    netAmount: moneyColumn("net_amount").notNull(),
    vatAmount: moneyColumn("vat_amount").notNull().default("0"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("cost_entries_budget_idx").on(t.budgetId, t.date),
    index("cost_entries_item_idx").on(t.budgetItemId),
    check("cost_entries_category_check", inList("category", COST_CATEGORIES)),
  ],
);

export const costAttachments = pgTable(
  "cost_attachments",
  {
    id: idColumn(),
    costEntryId: uuid("cost_entry_id")
      .notNull()
      .references(() => costEntries.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    /** Path relative to STORAGE_DIR. */
    storageKey: text("storage_key").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("cost_attachments_entry_idx").on(t.costEntryId)],
);
