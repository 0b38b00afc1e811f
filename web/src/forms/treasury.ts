import Decimal from "decimal.js";
import { normalizeDecimal } from "./invoice";

/**
 * Treasury forms: paying an instalment, splitting it, and the treasury budget's forecast lines.
 * Amounts stay decimal strings (decimal.js for sums); the server decides what may be paid.
 */

type T = (key: string, options?: Record<string, unknown>) => string;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (v: string) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

/** A typed amount ("1.234,56" or "1234.56") as the API's string; null when it is not one or is zero. */
export function moneyText(text: string, negative = false): string | null {
  const s = normalizeDecimal(text, 2, negative);
  if (!s || new Decimal(s).isZero()) return null;
  return s;
}

export interface PayValues {
  date: string;
  amount: string;
  bank_account_id: string | null;
  fees: string;
}

/** `refund`: the instalment is negative (a credit note's), so is what is paid of it. */
export function payRules(t: T, refund = false) {
  const signed = (v: string) => {
    const s = moneyText(v, true);
    return s !== null && new Decimal(s).isNegative() === refund;
  };
  return {
    date: (v: string) => (isDate(v) ? null : t("treasuryPages.badDate")),
    amount: (v: string) =>
      signed(v) ? null : t(refund ? "treasuryPages.badRefund" : "treasuryPages.badAmount"),
    bank_account_id: (v: string | null) => (v ? null : t("auth.required")),
    fees: (v: string) => (normalizeDecimal(v, 2) !== null ? null : t("treasuryPages.badFees")),
  };
}

/**
 * The pay body. More than the open amount is not refused here: the server answers a 409 whose
 * detail the dialog shows (it knows of payments made since the list was read).
 */
export function payBody(v: PayValues) {
  const fees = normalizeDecimal(v.fees, 2);
  return {
    date: v.date,
    amount: moneyText(v.amount, true) ?? "",
    bank_account_id: v.bank_account_id ?? "",
    ...(fees && !new Decimal(fees).isZero() ? { fees } : {}),
  };
}

export interface SplitPart {
  key: string;
  due_date: string;
  amount: string;
}

/**
 * What is wrong with a split into instalments (message keys by field, `parts.0.amount`...) and what
 * is left to distribute: the parts must add up to the instalment's amount exactly.
 */
export function splitProblems(parts: SplitPart[], total: string) {
  const errors: Record<string, string> = {};
  let sum = new Decimal(0);
  const negative = new Decimal(total).isNegative();
  parts.forEach((p, i) => {
    if (!isDate(p.due_date)) errors[`parts.${i}.due_date`] = "treasuryPages.badDate";
    const amount = moneyText(p.amount, negative);
    if (amount === null) errors[`parts.${i}.amount`] = "treasuryPages.badAmount";
    else sum = sum.plus(amount);
  });
  if (parts.length < 2) errors.parts = "treasuryPages.twoParts";
  const remaining = new Decimal(total).minus(sum);
  if (!remaining.isZero() && !errors.parts) errors.parts = "treasuryPages.partsMustAdd";
  return { errors, remaining: remaining.toFixed(2) };
}

/** The PATCH body of a split (call it only when splitProblems found nothing). */
export function splitBody(parts: SplitPart[]) {
  return {
    instalments: parts.map((p) => ({ due_date: p.due_date, amount: moneyText(p.amount, true) ?? "" })),
  };
}

export const RECURRENCES = ["none", "monthly", "quarterly", "yearly"] as const;
export type Recurrence = (typeof RECURRENCES)[number];

export interface BudgetLineValues {
  category: string;
  description: string;
  date: string;
  amount: string;
  recurrence: Recurrence;
  until: string;
  bank_account_id: string | null;
}

export function budgetLineRules(t: T) {
  return {
    category: (v: string) =>
      !v.trim() ? t("auth.required") : v.trim().length > 100 ? t("masters.tooLong", { max: 100 }) : null,
    description: (v: string) => (v.trim().length > 500 ? t("masters.tooLong", { max: 500 }) : null),
    date: (v: string) => (isDate(v) ? null : t("treasuryPages.badDate")),
    amount: (v: string) => (moneyText(v, true) ? null : t("treasuryPages.badSignedAmount")),
    until: (v: string, values: BudgetLineValues) => {
      if (values.recurrence === "none" || !v) return null;
      if (!isDate(v)) return t("treasuryPages.badDate");
      return isDate(values.date) && v < values.date ? t("treasuryPages.untilBeforeDate") : null;
    },
  };
}

/** The POST/PATCH body of a forecast line: until only for recurring lines (the server refuses it otherwise). */
export function budgetLineBody(v: BudgetLineValues) {
  return {
    category: v.category.trim(),
    description: v.description.trim(),
    date: v.date,
    amount: moneyText(v.amount, true) ?? "",
    recurrence: v.recurrence,
    until: v.recurrence === "none" || !v.until ? null : v.until,
    bank_account_id: v.bank_account_id,
  };
}
