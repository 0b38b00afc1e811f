import Decimal from "decimal.js";
import { normalizeDecimal } from "./invoice";

type T = (key: string, options?: Record<string, unknown>) => string;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD = 8;

export function signInRules(t: T) {
  return {
    email: (v: string) =>
      !v.trim() ? t("auth.required") : EMAIL.test(v.trim()) ? null : t("auth.invalidEmail"),
    password: (v: string) => (v ? null : t("auth.required")),
  };
}

export function passwordChangeRules(t: T) {
  return {
    current_password: (v: string) => (v ? null : t("auth.required")),
    new_password: (v: string) =>
      v.length >= MIN_PASSWORD ? null : t("auth.passwordTooShort", { min: MIN_PASSWORD }),
    confirm: (v: string, values: { new_password: string }) =>
      v === values.new_password ? null : t("auth.passwordMismatch"),
  };
}

export interface EntryLineInput {
  subaccount_code: string;
  debit: string;
  credit: string;
}

/** Debit and credit totals of an entry being typed, and what is left to balance it (in cents, exact). */
export function entryTotals(lines: EntryLineInput[]) {
  let debit = new Decimal(0);
  let credit = new Decimal(0);
  for (const line of lines) {
    debit = debit.plus(parseAmount(line.debit));
    credit = credit.plus(parseAmount(line.credit));
  }
  return { debit, credit, difference: debit.minus(credit), balanced: debit.equals(credit) && debit.gt(0) };
}

/** A typed amount: "1.234,56" (Spanish) or "1234.56"; empty is zero; anything else is NaN. */
export function parseAmount(text: string): Decimal {
  const normalized = normalizeDecimal(text, 2, true);
  return normalized === null ? new Decimal(Number.NaN) : new Decimal(normalized || 0);
}

/** The reasons an entry cannot be posted yet, as message keys; empty when it can. */
export function entryProblems(lines: EntryLineInput[]): string[] {
  const problems: string[] = [];
  const used = lines.filter((l) => l.subaccount_code.trim() || l.debit.trim() || l.credit.trim());
  if (used.length < 2) problems.push("entries.minLines");
  for (const l of used) {
    const d = parseAmount(l.debit);
    const c = parseAmount(l.credit);
    if (
      d.isNaN() ||
      c.isNaN() ||
      (d.gt(0) && c.gt(0)) ||
      (d.isZero() && c.isZero()) ||
      !l.subaccount_code.trim()
    ) {
      problems.push("entries.oneSide");
      break;
    }
  }
  const totals = entryTotals(used);
  if (!totals.debit.isNaN() && !totals.credit.isNaN() && !totals.balanced)
    problems.push("entries.unbalanced");
  return problems;
}
