import { BadRequestError } from "../../platform/http/errors.js";
import { Dec } from "../../platform/money.js";
import { money, parseDecimal, round2 } from "./decimal.js";

/**
 * One line of a payment term (Odoo-like): a percent of the total, a fixed amount, or the balance
 * (what the other lines leave). Due `days` after the issue date, or with `endOfMonth` at the end of
 * the month those days fall in ("30 días fecha factura fin de mes").
 */
export interface TermLine {
  kind: "percent" | "fixed" | "balance";
  /** Percent (0-100] or fixed amount > 0; ignored for balance lines. */
  value?: string;
  days: number;
  endOfMonth?: boolean;
}

export interface Instalment {
  dueDate: string;
  amount: string;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HUNDRED = new Dec(100);

function fail(path: string, message: string): never {
  throw new BadRequestError(`${path}: ${message}`, [{ path, message }]);
}

/** Parses a YYYY-MM-DD calendar date as a UTC midnight Date; refuses 2025-02-30. */
export function parseIsoDate(value: string, path: string): Date {
  const m = ISO_DATE.exec(value);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== value) fail(path, `"${value}" is not a YYYY-MM-DD date`);
  return date;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

function addDays(d: Date, days: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days));
}

function endOfMonth(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
}

/**
 * Moves a due date forward to the customer's next payment day (e.g. the 5th or the 20th). A payment
 * day the month lacks (31 in April, 30 in February) means that month's last day.
 */
export function nextPaymentDay(due: Date, paymentDays: readonly number[]): Date {
  if (paymentDays.length === 0) return due;
  const days = [...new Set(paymentDays)].sort((a, b) => a - b);
  let year = due.getUTCFullYear();
  let month = due.getUTCMonth();
  let fromDay = due.getUTCDate();
  for (;;) {
    const last = lastDayOfMonth(year, month);
    const day = days.map((d) => Math.min(d, last)).find((d) => d >= fromDay);
    if (day !== undefined) return new Date(Date.UTC(year, month, day));
    month += 1;
    if (month === 12) {
      month = 0;
      year += 1;
    }
    fromDay = 1;
  }
}

function validateLines(lines: TermLine[]): void {
  if (lines.length === 0) fail("lines", "a payment term needs at least one line");
  lines.forEach((line, i) => {
    if (!["percent", "fixed", "balance"].includes(line.kind)) {
      fail(`lines.${i}.kind`, "must be percent, fixed or balance");
    }
    if (line.kind === "balance" && i !== lines.length - 1) {
      fail(`lines.${i}.kind`, "the balance line must be the last line");
    }
    if (!Number.isInteger(line.days) || line.days < 0 || line.days > 3660) {
      fail(`lines.${i}.days`, "must be a whole number of days between 0 and 3660");
    }
  });
}

/**
 * Splits a document total into dated instalments. Percent lines take that share of the total
 * (rounded to the cent), fixed lines that amount (with the total's sign, so a credit note gets
 * negative instalments), and the balance line, or else the last line, takes what remains, so the
 * instalments always add up to the total exactly.
 */
export function instalments(
  total: string,
  issueDate: string,
  lines: TermLine[],
  opts: { paymentDays?: number[] } = {},
): Instalment[] {
  const amount = parseDecimal(total, "total");
  if (amount.decimalPlaces() > 2) fail("total", "an amount has at most 2 decimals");
  const issue = parseIsoDate(issueDate, "issueDate");
  const paymentDays = opts.paymentDays ?? [];
  paymentDays.forEach((d, i) => {
    if (!Number.isInteger(d) || d < 1 || d > 31)
      fail(`paymentDays.${i}`, "must be a day of the month, 1 to 31");
  });
  validateLines(lines);

  const sign = amount.isNegative() ? -1 : 1;
  const magnitude = amount.abs();
  const shares: Dec[] = [];
  let exact = new Dec(0);
  let rounded = new Dec(0);
  let percentSum = new Dec(0);
  lines.forEach((line, i) => {
    const path = `lines.${i}.value`;
    if (line.kind === "balance") return;
    const value = parseDecimal(line.value ?? "", path);
    let part: Dec;
    if (line.kind === "percent") {
      if (value.lte(0) || value.gt(100)) fail(path, "a percentage must be greater than 0 and at most 100");
      percentSum = percentSum.plus(value);
      if (percentSum.gt(100)) fail(path, `the percentages add up to ${percentSum.toString()} %, over 100 %`);
      part = magnitude.times(value).div(HUNDRED);
    } else {
      if (value.lte(0)) fail(path, "a fixed amount must be greater than 0");
      part = magnitude.isZero() ? new Dec(0) : value;
    }
    exact = exact.plus(part);
    if (exact.gt(magnitude)) {
      fail(path, `the lines so far take ${money(exact)}, more than the total ${money(magnitude)}`);
    }
    // Rounding up several shares may not overshoot the total: a share takes at most what is left.
    const share = Dec.min(round2(part), magnitude.minus(rounded));
    rounded = rounded.plus(share);
    shares.push(share);
  });

  const last = lines.length - 1;
  if (lines[last].kind !== "balance") {
    const uncovered = magnitude.minus(exact);
    if (!uncovered.isZero()) {
      fail(
        `lines.${last}.kind`,
        `the lines leave ${money(uncovered)} uncovered: end the term with a balance line`,
      );
    }
    shares.pop();
  }
  // The balance line, or the last line, takes the remainder: the instalments add up to the total.
  shares.push(magnitude.minus(shares.reduce((acc, s) => acc.plus(s), new Dec(0))));

  return lines.map((line, i) => {
    const base = addDays(issue, line.days);
    const due = nextPaymentDay(line.endOfMonth ? endOfMonth(base) : base, paymentDays);
    return { dueDate: iso(due), amount: money(shares[i].times(sign)) };
  });
}
