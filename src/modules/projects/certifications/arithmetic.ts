import type { Decimal } from "decimal.js";
import { type Dec, dec, sum } from "../../../platform/money.js";

/** Rounds to cents, half-up (away from zero on the half), as every money step of a certification does. */
export const cents = (value: Dec): Dec => value.toDecimalPlaces(2);

const percentOf = (amount: Dec, pct: Decimal.Value): Dec => cents(amount.times(pct).dividedBy(100));

export interface LineFigures {
  budgetedQuantity: Decimal.Value;
  unitPrice: Decimal.Value;
  quantityToOrigin: Decimal.Value;
  /** To-origin quantity of the item in the last validated certification before this one (0 when none). */
  quantityPrevious: Decimal.Value;
}

export interface LineAmounts {
  amountToOrigin: Dec;
  amountPrevious: Dec;
  quantityThisPeriod: Dec;
  amountThisPeriod: Dec;
  exceedsBudget: boolean;
}

export function lineAmounts(line: LineFigures): LineAmounts {
  const price = dec(line.unitPrice);
  const toOrigin = dec(line.quantityToOrigin);
  const previous = dec(line.quantityPrevious);
  const amountToOrigin = cents(toOrigin.times(price));
  const amountPrevious = cents(previous.times(price));
  return {
    amountToOrigin,
    amountPrevious,
    quantityThisPeriod: toOrigin.minus(previous),
    // The difference of the two rounded amounts, so to-origin = previous + this period to the cent.
    amountThisPeriod: amountToOrigin.minus(amountPrevious),
    exceedsBudget: toOrigin.greaterThan(dec(line.budgetedQuantity)),
  };
}

export interface BudgetPercentages {
  overheadsPct: Decimal.Value;
  profitPct: Decimal.Value;
  discountPct: Decimal.Value;
  vatPct: Decimal.Value;
  retentionPct: Decimal.Value;
}

export interface CertificationTotals {
  pemToOrigin: Dec;
  pemPrevious: Dec;
  pemThisPeriod: Dec;
  overheads: Dec;
  profit: Dec;
  subtotal: Dec;
  discount: Dec;
  taxableBase: Dec;
  vat: Dec;
  total: Dec;
  retention: Dec;
  netPayable: Dec;
}

/** The bill of this period: PEM of the period, plus overheads and profit, less discount, plus VAT, less retention. */
export function certificationTotals(
  lines: readonly LineAmounts[],
  pct: BudgetPercentages,
): CertificationTotals {
  const pemToOrigin = sum(lines.map((l) => l.amountToOrigin));
  const pemPrevious = sum(lines.map((l) => l.amountPrevious));
  const pemThisPeriod = sum(lines.map((l) => l.amountThisPeriod));
  const overheads = percentOf(pemThisPeriod, pct.overheadsPct);
  const profit = percentOf(pemThisPeriod, pct.profitPct);
  const subtotal = pemThisPeriod.plus(overheads).plus(profit);
  const discount = percentOf(subtotal, pct.discountPct);
  const taxableBase = subtotal.minus(discount);
  const vat = percentOf(taxableBase, pct.vatPct);
  const total = taxableBase.plus(vat);
  const retention = percentOf(taxableBase, pct.retentionPct);
  return {
    pemToOrigin,
    pemPrevious,
    pemThisPeriod,
    overheads,
    profit,
    subtotal,
    discount,
    taxableBase,
    vat,
    total,
    retention,
    netPayable: total.minus(retention),
  };
}
