import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, idColumn, moneyColumn, updatedAt } from "../../platform/db/columns.js";
import { entries } from "../accounting/tables.js";
import { contacts } from "../clients/tables.js";
import { companyRef } from "../companies/tables.js";
import { documentDues } from "../documents/tables.js";

/**
 * Treasury (../shared/design/documents.md): a company's bank accounts (each with its own 572
 * subaccount), the payments recorded against customer receipts and supplier payments due
 * (document_dues), and the treasury budget (forecast lines for the cash flow).
 */

export const bankAccounts = pgTable(
  "bank_accounts",
  {
    id: idColumn(),
    companyId: companyRef(),
    name: text("name").notNull(),
    /** Normalized: upper case, no spaces; its check digits verified. */
    iban: text("iban").notNull(),
    bic: text("bic"),
    /** The bank's ledger subaccount under 572 (e.g. 5720000001), created with the account. */
    subaccountCode: text("subaccount_code").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("bank_accounts_company_iban_key").on(t.companyId, t.iban),
    uniqueIndex("bank_accounts_company_subaccount_key").on(t.companyId, t.subaccountCode),
    // The target of the payments' (company, bank account) key.
    unique("bank_accounts_company_id_key").on(t.companyId, t.id),
    index("bank_accounts_list_idx").on(t.companyId, t.createdAt, t.id),
  ],
);

export const PAYMENT_DIRECTIONS = ["sale", "purchase"] as const;
export type PaymentDirection = (typeof PAYMENT_DIRECTIONS)[number];

/**
 * A collection of a customer receipt (sale) or a payment of a supplier's due (purchase): its
 * amount is allocated to one due, its entry posted in the BAN journal. Undoing it posts the
 * reversal and keeps the row (undone_at, reversal_entry_id) as history.
 *
 * Its bank account is checked together with its company, one key (a bank account of another
 * company is refused, and the company exists since the bank account's does): each foreign key is
 * a trigger and a lookup per row, and 100,000 payments at a time come from auto-match (ADR 035).
 */
export const treasuryPayments = pgTable(
  "treasury_payments",
  {
    id: idColumn(),
    companyId: uuid("company_id").notNull(),
    dueId: uuid("due_id")
      .notNull()
      .references(() => documentDues.id),
    direction: text("direction", { enum: PAYMENT_DIRECTIONS }).notNull(),
    date: date("date", { mode: "string" }).notNull(),
    /** Allocated to the due (same sign as the due: negative on a credit note's refund). */
    amount: moneyColumn("amount").notNull(),
    /** Bank fees charged on it (Dr 626). */
    fees: moneyColumn("fees").notNull().default("0"),
    bankAccountId: uuid("bank_account_id").notNull(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => entries.id),
    /** The bank statement movement it reconciles (banking), when it came from one. */
    bankMovementId: uuid("bank_movement_id"),
    undoneAt: timestamp("undone_at", { withTimezone: true, mode: "date" }),
    undoneBy: uuid("undone_by"),
    reversalEntryId: uuid("reversal_entry_id").references(() => entries.id),
    createdBy: uuid("created_by"),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({
      name: "treasury_payments_bank_account_fk",
      columns: [t.companyId, t.bankAccountId],
      foreignColumns: [bankAccounts.companyId, bankAccounts.id],
    }),
    // The target of the reconciliations' key: a reconciliation repeats its payment's company, due and entry.
    unique("treasury_payments_reconciliation_key").on(t.companyId, t.id, t.dueId, t.entryId),
    index("treasury_payments_due_idx").on(t.dueId),
    index("treasury_payments_company_date_idx").on(t.companyId, t.date, t.id),
    index("treasury_payments_movement_idx").on(t.bankMovementId).where(sql`${t.bankMovementId} is not null`),
    check("treasury_payments_direction_known", sql`${t.direction} in ('sale', 'purchase')`),
    check("treasury_payments_amount_nonzero", sql`${t.amount} <> 0 and ${t.fees} >= 0`),
    check("treasury_payments_undone_together", sql`(${t.undoneAt} is null) = (${t.reversalEntryId} is null)`),
  ],
);

export const BUDGET_RECURRENCES = ["none", "monthly", "quarterly", "yearly"] as const;
export type BudgetRecurrence = (typeof BUDGET_RECURRENCES)[number];

/**
 * A treasury budget line: an expected inflow (positive amount) or outflow (negative) on `date`,
 * repeated monthly, quarterly or yearly until `until` (inclusive) when it recurs.
 */
export const treasuryBudgets = pgTable(
  "treasury_budgets",
  {
    id: idColumn(),
    companyId: companyRef(),
    category: text("category").notNull(),
    description: text("description").notNull().default(""),
    contactId: uuid("contact_id").references(() => contacts.id),
    bankAccountId: uuid("bank_account_id").references(() => bankAccounts.id),
    date: date("date", { mode: "string" }).notNull(),
    amount: moneyColumn("amount").notNull(),
    recurrence: text("recurrence", { enum: BUDGET_RECURRENCES }).notNull().default("none"),
    until: date("until", { mode: "string" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("treasury_budgets_list_idx").on(t.companyId, t.date, t.id),
    check(
      "treasury_budgets_recurrence_known",
      sql`${t.recurrence} in ('none', 'monthly', 'quarterly', 'yearly')`,
    ),
    check("treasury_budgets_amount_nonzero", sql`${t.amount} <> 0`),
    check(
      "treasury_budgets_until",
      sql`(${t.recurrence} = 'none' and ${t.until} is null) or (${t.recurrence} <> 'none' and (${t.until} is null or ${t.until} >= ${t.date}))`,
    ),
  ],
);
