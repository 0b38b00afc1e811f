import { Dec, dec, toMoney } from "../../../platform/money.js";

export interface BudgetPercentages {
  overheadsPct: string;
  profitPct: string;
  discountPct: string;
  vatPct: string;
}

export interface BudgetTotals {
  pem: string;
  pec: string;
  discounted: string;
  vat: string;
  total: string;
}

const cents = (value: Dec): Dec => value.toDecimalPlaces(2, Dec.ROUND_HALF_UP);
const percentOf = (value: Dec, pct: Dec | string): Dec => value.times(pct).dividedBy(100);

/**
 * The budget's summary figures. Each step starts from the previous step's rounded amount, as a printed
 * budget does: PEM (ejecución material) -> PEC (+ gastos generales + beneficio industrial) -> less the
 * discount (baja) -> VAT -> total.
 */
export function budgetTotals(pemValue: string, pct: BudgetPercentages): BudgetTotals {
  const pem = cents(dec(pemValue));
  const pec = cents(pem.plus(percentOf(pem, dec(pct.overheadsPct).plus(pct.profitPct))));
  const discounted = cents(pec.minus(percentOf(pec, pct.discountPct)));
  const vat = cents(percentOf(discounted, pct.vatPct));
  return {
    pem: toMoney(pem),
    pec: toMoney(pec),
    discounted: toMoney(discounted),
    vat: toMoney(vat),
    total: toMoney(discounted.plus(vat)),
  };
}
