import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, idColumn, moneyColumn, updatedAt } from "../../platform/db/columns.js";
import { companyRef } from "../companies/tables.js";

export const FISCAL_YEAR_STATES = ["abierto", "cerrado"] as const;
export type FiscalYearState = (typeof FISCAL_YEAR_STATES)[number];

export const JOURNAL_TYPES = ["general", "sales", "purchases", "bank"] as const;
export type JournalType = (typeof JOURNAL_TYPES)[number];

const money = (name: string) => moneyColumn(name).notNull().default("0");

export const fiscalYears = pgTable(
  "fiscal_years",
  {
    id: idColumn(),
    companyId: companyRef(),
    code: text("code").notNull(),
    startDate: date("start_date", { mode: "string" }).notNull(),
    endDate: date("end_date", { mode: "string" }).notNull(),
    estado: text("estado", { enum: FISCAL_YEAR_STATES }).notNull().default("abierto"),
    /** Entry numbering counter: taken with UPDATE ... RETURNING, so gapless under concurrency. */
    lastEntryNumber: integer("last_entry_number").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("fiscal_years_company_code_key").on(t.companyId, t.code),
    index("fiscal_years_company_start_idx").on(t.companyId, t.startDate),
    check("fiscal_years_estado_known", sql`${t.estado} in ('abierto', 'cerrado')`),
    check("fiscal_years_dates_ordered", sql`${t.endDate} >= ${t.startDate}`),
    check("fiscal_years_last_entry_number_positive", sql`${t.lastEntryNumber} >= 0`),
  ],
);

export const journals = pgTable(
  "journals",
  {
    id: idColumn(),
    companyId: companyRef(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: JOURNAL_TYPES }).notNull(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("journals_company_code_key").on(t.companyId, t.code),
    index("journals_company_created_idx").on(t.companyId, t.createdAt, t.id),
    check("journals_type_known", sql`${t.type} in ('general', 'sales', 'purchases', 'bank')`),
  ],
);

/** The chart of accounts of one fiscal year: groups (1 digit), subgroups (2), accounts (3+). */
export const accounts = pgTable(
  "accounts",
  {
    id: idColumn(),
    companyId: companyRef(),
    fiscalYearId: uuid("fiscal_year_id")
      .notNull()
      .references(() => fiscalYears.id),
    code: text("code").notNull(),
    name: text("name").notNull(),
    parentCode: text("parent_code"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    unique("accounts_fiscal_year_code_key").on(t.fiscalYearId, t.code),
    index("accounts_company_idx").on(t.companyId),
    check("accounts_code_digits", sql`${t.code} ~ '^[0-9]{1,15}$'`),
  ],
);

/** Posting-level accounts (e.g. 4300000001), under the most specific account their code starts with. */
export const subaccounts = pgTable(
  "subaccounts",
  {
    id: idColumn(),
    companyId: companyRef(),
    fiscalYearId: uuid("fiscal_year_id")
      .notNull()
      .references(() => fiscalYears.id),
    /** The most specific account of the year whose code starts this code (e.g. 4300 for 4300000001). */
    accountCode: text("account_code").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    /** The customer or supplier this subaccount belongs to (contacts module). */
    contactId: uuid("contact_id"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("subaccounts_fiscal_year_code_key").on(t.fiscalYearId, t.code),
    unique("subaccounts_fiscal_year_id_key").on(t.fiscalYearId, t.id),
    foreignKey({
      name: "subaccounts_account_fk",
      columns: [t.fiscalYearId, t.accountCode],
      foreignColumns: [accounts.fiscalYearId, accounts.code],
    }),
    index("subaccounts_fiscal_year_contact_idx")
      .on(t.fiscalYearId, t.contactId)
      .where(sql`${t.contactId} is not null`),
    index("subaccounts_company_idx").on(t.companyId),
    check("subaccounts_code_digits", sql`${t.code} ~ '^[0-9]{4,15}$'`),
    check("subaccounts_code_under_account", sql`starts_with(${t.code}, ${t.accountCode})`),
  ],
);

/** Posted journal entries: immutable once committed (triggers refuse UPDATE and DELETE). */
export const entries = pgTable(
  "entries",
  {
    id: idColumn(),
    companyId: companyRef(),
    fiscalYearId: uuid("fiscal_year_id")
      .notNull()
      .references(() => fiscalYears.id),
    journalId: uuid("journal_id")
      .notNull()
      .references(() => journals.id),
    number: integer("number").notNull(),
    date: date("date", { mode: "string" }).notNull(),
    concept: text("concept").notNull(),
    /** Sum of the debits (= sum of the credits); the deferred trigger checks it against the lines. */
    total: moneyColumn("total").notNull(),
    reversalOf: uuid("reversal_of").references((): AnyPgColumn => entries.id),
    /** What the entry posts, when a document posted it: e.g. sales_invoice and the invoice's id. */
    sourceType: text("source_type"),
    sourceId: uuid("source_id"),
    createdBy: uuid("created_by"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("entries_fiscal_year_number_key").on(t.fiscalYearId, t.number),
    unique("entries_fiscal_year_id_key").on(t.fiscalYearId, t.id),
    uniqueIndex("entries_reversal_of_key").on(t.reversalOf),
    index("entries_company_date_idx").on(t.companyId, t.date, t.number, t.id),
    index("entries_fiscal_year_date_idx").on(t.fiscalYearId, t.date, t.number, t.id),
    index("entries_date_idx").on(t.date, t.number, t.id),
    index("entries_journal_idx").on(t.journalId),
    index("entries_source_idx").on(t.sourceId).where(sql`${t.sourceId} is not null`),
    check("entries_number_positive", sql`${t.number} > 0`),
    check("entries_total_positive", sql`${t.total} > 0`),
  ],
);

export const entryLines = pgTable(
  "entry_lines",
  {
    id: idColumn(),
    companyId: companyRef(),
    fiscalYearId: uuid("fiscal_year_id").notNull(),
    entryId: uuid("entry_id").notNull(),
    lineNo: integer("line_no").notNull(),
    subaccountId: uuid("subaccount_id").notNull(),
    debit: money("debit"),
    credit: money("credit"),
    description: text("description").notNull().default(""),
    /**
     * The entry's date and number, copied onto its lines (ADR 030) so a subaccount's ledger pages
     * through one index in the entries list's order. Filled from the entry by a trigger when
     * left out; checked against the entry at COMMIT when given.
     */
    entryDate: date("entry_date", { mode: "string" }).notNull(),
    entryNumber: integer("entry_number").notNull(),
  },
  (t) => [
    // Composite keys: a line's entry and subaccount belong to the same fiscal year.
    foreignKey({
      name: "entry_lines_entry_fk",
      columns: [t.fiscalYearId, t.entryId],
      foreignColumns: [entries.fiscalYearId, entries.id],
    }),
    foreignKey({
      name: "entry_lines_subaccount_fk",
      columns: [t.fiscalYearId, t.subaccountId],
      foreignColumns: [subaccounts.fiscalYearId, subaccounts.id],
    }),
    uniqueIndex("entry_lines_entry_line_key").on(t.entryId, t.lineNo),
    index("entry_lines_subaccount_order_idx").on(t.subaccountId, t.entryDate, t.entryNumber, t.entryId),
    check(
      "entry_lines_one_side_positive",
      sql`${t.debit} >= 0 and ${t.credit} >= 0 and (${t.debit} > 0) <> (${t.credit} > 0)`,
    ),
  ],
);

/**
 * Debit and credit per subaccount and day, maintained by a statement trigger on entry_lines in the
 * entry's own transaction: balances never scan the journal.
 */
export const dailyBalances = pgTable(
  "ledger_daily_balances",
  {
    subaccountId: uuid("subaccount_id")
      .notNull()
      .references(() => subaccounts.id),
    date: date("date", { mode: "string" }).notNull(),
    companyId: uuid("company_id").notNull(),
    fiscalYearId: uuid("fiscal_year_id").notNull(),
    debit: money("debit"),
    credit: money("credit"),
  },
  (t) => [
    primaryKey({ columns: [t.subaccountId, t.date] }),
    index("ledger_daily_balances_year_date_idx").on(
      t.fiscalYearId,
      t.date,
      t.subaccountId,
      t.debit,
      t.credit,
    ),
  ],
);

/** The same sums per month (day 1 of the month): whole months are read here, partial ones from the days. */
export const monthlyBalances = pgTable(
  "ledger_monthly_balances",
  {
    subaccountId: uuid("subaccount_id")
      .notNull()
      .references(() => subaccounts.id),
    month: date("month", { mode: "string" }).notNull(),
    companyId: uuid("company_id").notNull(),
    fiscalYearId: uuid("fiscal_year_id").notNull(),
    debit: money("debit"),
    credit: money("credit"),
  },
  (t) => [
    primaryKey({ columns: [t.subaccountId, t.month] }),
    index("ledger_monthly_balances_year_month_idx").on(
      t.fiscalYearId,
      t.month,
      t.subaccountId,
      t.debit,
      t.credit,
    ),
  ],
);

/**
 * How many entries each journal of each fiscal year holds, kept by a statement trigger on entries
 * in the posting's transaction (ADR 030): the entries list's total without counting entries, O(1)
 * whatever the ledger's size. Posted entries are never updated nor deleted (entries_immutable).
 */
export const entryCounts = pgTable(
  "ledger_entry_counts",
  {
    fiscalYearId: uuid("fiscal_year_id")
      .notNull()
      .references(() => fiscalYears.id),
    journalId: uuid("journal_id")
      .notNull()
      .references(() => journals.id),
    companyId: uuid("company_id").notNull(),
    entries: bigint("entries", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.fiscalYearId, t.journalId] }),
    index("ledger_entry_counts_company_idx").on(t.companyId),
  ],
);

/** PostgreSQL's 64-bit transaction id (pg_current_xact_id()). */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * The entries a transaction posted or added lines to, one row per INSERT statement (a statement
 * trigger on entries and entry_lines appends the ids of its transition table): the deferred
 * balance check reads them once at COMMIT and deletes them, so the table is empty between
 * transactions (ADR 026).
 */
export const balanceChecks = pgTable(
  "ledger_balance_checks",
  {
    xactId: xid8("xact_id").notNull().default(sql`pg_current_xact_id()`),
    entryIds: uuid("entry_ids").array().notNull(),
  },
  (t) => [index("ledger_balance_checks_xact_idx").on(t.xactId)],
);

/**
 * One row per transaction that queued balance checks: its insertion (ON CONFLICT DO NOTHING after
 * the first) queues the deferred constraint trigger that checks every queued entry in one query.
 */
export const balanceCheckRuns = pgTable("ledger_balance_check_runs", {
  xactId: xid8("xact_id").primaryKey(),
});
