import { sql } from "drizzle-orm";
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, idColumn, moneyColumn, updatedAt } from "../../platform/db/columns.js";
import { entries } from "../accounting/tables.js";
import { companyRef } from "../companies/tables.js";
import { documentDues } from "../documents/tables.js";
import { bankAccounts, treasuryPayments } from "../treasury/tables.js";

/**
 * Bank reconciliation (../shared/design/documents.md, Norma 43 and matching): the statement files
 * imported for a bank account, their movements, the suggestions the matcher keeps for each one and
 * the reconciliations that tie a movement to a receipt, a supplier payment or a ledger entry.
 */

export const STATEMENT_FORMATS = ["norma43", "camt053"] as const;
export type StatementFormatName = (typeof STATEMENT_FORMATS)[number];

/** One imported file (its SHA-256 recognises the same file again). */
export const bankImports = pgTable(
  "bank_imports",
  {
    id: idColumn(),
    companyId: companyRef(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id),
    format: text("format", { enum: STATEMENT_FORMATS }).notNull(),
    fileName: text("file_name").notNull().default(""),
    sha256: text("sha256").notNull(),
    /** Statements of the file imported (the ones of this bank account). */
    statementCount: integer("statement_count").notNull(),
    dateFrom: date("date_from", { mode: "string" }).notNull(),
    dateTo: date("date_to", { mode: "string" }).notNull(),
    openingBalance: moneyColumn("opening_balance").notNull(),
    closingBalance: moneyColumn("closing_balance").notNull(),
    /** Movements in those statements, how many were new and how many were already imported. */
    movementCount: integer("movement_count").notNull(),
    importedCount: integer("imported_count").notNull(),
    skippedCount: integer("skipped_count").notNull(),
    importedBy: uuid("imported_by"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("bank_imports_account_sha_key").on(t.bankAccountId, t.sha256),
    index("bank_imports_company_idx").on(t.companyId, t.createdAt, t.id),
    check("bank_imports_format_known", sql`${t.format} in ('norma43', 'camt053')`),
  ],
);

export const MOVEMENT_STATES = ["pendiente", "sugerido", "conciliado", "ignorado"] as const;
export type MovementState = (typeof MOVEMENT_STATES)[number];

export const bankMovements = pgTable(
  "bank_movements",
  {
    id: idColumn(),
    companyId: companyRef(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id),
    importId: uuid("import_id")
      .notNull()
      .references(() => bankImports.id),
    /** Where it was in its file: "line 12" or "Stmt 1, Ntry 3". */
    position: text("position").notNull(),
    operationDate: date("operation_date", { mode: "string" }).notNull(),
    valueDate: date("value_date", { mode: "string" }).notNull(),
    /** Signed: credits (money in) positive. */
    amount: moneyColumn("amount").notNull(),
    commonConcept: text("common_concept").notNull().default(""),
    ownConcept: text("own_concept").notNull().default(""),
    document: text("document").notNull().default(""),
    reference1: text("reference_1").notNull().default(""),
    reference2: text("reference_2").notNull().default(""),
    concepts: jsonb("concepts").$type<string[]>().notNull().default([]),
    foreignCurrency: text("foreign_currency"),
    foreignAmount: moneyColumn("foreign_amount"),
    /**
     * SHA-256 of the bank account, dates, amount, concepts, references and the occurrence number
     * among identical records of its file: the same movement imported again has the same key.
     */
    dedupeKey: text("dedupe_key").notNull(),
    estado: text("estado", { enum: MOVEMENT_STATES }).notNull().default("pendiente"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("bank_movements_dedupe_key").on(t.bankAccountId, t.dedupeKey),
    index("bank_movements_list_idx").on(t.companyId, t.operationDate, t.id),
    index("bank_movements_state_idx").on(t.companyId, t.estado, t.operationDate),
    index("bank_movements_import_idx").on(t.importId),
    check(
      "bank_movements_estado_known",
      sql`${t.estado} in ('pendiente', 'sugerido', 'conciliado', 'ignorado')`,
    ),
  ],
);

export const SUGGESTION_TARGETS = ["receipt", "payment"] as const;
export type SuggestionTarget = (typeof SUGGESTION_TARGETS)[number];

/** The matcher's candidates (score >= 50) for a movement, kept from its last run; rescored when shown. */
export const bankMovementSuggestions = pgTable(
  "bank_movement_suggestions",
  {
    movementId: uuid("movement_id")
      .notNull()
      .references(() => bankMovements.id, { onDelete: "cascade" }),
    dueId: uuid("due_id")
      .notNull()
      .references(() => documentDues.id),
    target: text("target", { enum: SUGGESTION_TARGETS }).notNull(),
    score: integer("score").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.movementId, t.dueId] }),
    index("bank_movement_suggestions_due_idx").on(t.dueId),
    check("bank_movement_suggestions_score_range", sql`${t.score} between 0 and 100`),
  ],
);

export const RECONCILIATION_TARGETS = ["receipt", "payment", "entry"] as const;
export type ReconciliationTarget = (typeof RECONCILIATION_TARGETS)[number];
export const RECONCILIATION_ORIGINS = ["manual", "auto"] as const;

/**
 * A movement tied to what explains it: a receipt or supplier payment (the treasury payment it
 * recorded and that payment's entry) or an existing ledger entry. Unreconciling keeps the row
 * (undone_at) as history; a movement has at most one live reconciliation, an entry explains at
 * most one movement. A receipt's or payment's reconciliation points at its payment with the
 * company, due and entry it repeats, one key for the four (ADR 035): none can be another's.
 */
export const bankReconciliations = pgTable(
  "bank_reconciliations",
  {
    id: idColumn(),
    companyId: companyRef(),
    movementId: uuid("movement_id")
      .notNull()
      .references(() => bankMovements.id),
    target: text("target", { enum: RECONCILIATION_TARGETS }).notNull(),
    dueId: uuid("due_id"),
    paymentId: uuid("payment_id"),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => entries.id),
    amount: moneyColumn("amount").notNull(),
    fees: moneyColumn("fees").notNull().default("0"),
    /** auto when auto-match made it. */
    origin: text("origin", { enum: RECONCILIATION_ORIGINS }).notNull().default("manual"),
    createdBy: uuid("created_by"),
    createdAt: createdAt(),
    undoneAt: timestamp("undone_at", { withTimezone: true, mode: "date" }),
    undoneBy: uuid("undone_by"),
  },
  (t) => [
    foreignKey({
      name: "bank_reconciliations_payment_fk",
      columns: [t.companyId, t.paymentId, t.dueId, t.entryId],
      foreignColumns: [
        treasuryPayments.companyId,
        treasuryPayments.id,
        treasuryPayments.dueId,
        treasuryPayments.entryId,
      ],
    }),
    uniqueIndex("bank_reconciliations_live_movement_key").on(t.movementId).where(sql`${t.undoneAt} is null`),
    uniqueIndex("bank_reconciliations_live_entry_key")
      .on(t.entryId)
      .where(sql`${t.undoneAt} is null and ${t.target} = 'entry'`),
    index("bank_reconciliations_company_idx").on(t.companyId, t.createdAt),
    check("bank_reconciliations_target_known", sql`${t.target} in ('receipt', 'payment', 'entry')`),
    check("bank_reconciliations_origin_known", sql`${t.origin} in ('manual', 'auto')`),
    check(
      "bank_reconciliations_target_refs",
      sql`(${t.target} = 'entry' and ${t.paymentId} is null and ${t.dueId} is null) or (${t.target} <> 'entry' and ${t.paymentId} is not null and ${t.dueId} is not null)`,
    ),
  ],
);
