import type { Decimal } from "decimal.js";
import { dec, sum, toMoney, toQuantity, toUnitPrice } from "../../../platform/money.js";
import { measurementProduct } from "../bc3/numbers.js";
import type { DecompositionType } from "../tables.js";

/** Values are decimal strings; null = blank. */
export interface MeasurementLine {
  label: string;
  units: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
}

export interface DecompositionLine {
  type: DecompositionType;
  code: string;
  unit: string;
  summary: string;
  yield: string;
  price: string;
}

/**
 * One line's product: its non-blank values multiplied, blanks counting as 1. A line with every value blank
 * is a heading or comment and counts 0 (the FIEBDC-3 reading, shared with the BC3 parser).
 */
export const lineQuantity = (line: MeasurementLine): string => toQuantity(measurementProduct(line));

/** Sum of the line products, rounded to 3 decimals. */
export const quantityFromMeasurements = (lines: MeasurementLine[]): string =>
  toQuantity(sum(lines.map((l) => measurementProduct(l))));

/** A FIEBDC-3 percentage component: its code carries "%" (e.g. "%MA", "MO%"). */
export const isPercentCode = (code: string): boolean => code.includes("%");

type CostLine = Pick<DecompositionLine, "code" | "yield" | "price">;

/**
 * The cost of each line of a decomposition, in order. A plain line costs yield x price. A percentage
 * line (code with "%") costs its yield, read per one (0.03 = 3 %), times the sum of the costs of the
 * lines before it whose code starts with the characters before its "%" (none: every line before it).
 * `lineDecimals` rounds each cost as it is computed (FIEBDC-3 ~K DI); undefined keeps it exact.
 */
export function decompositionCosts(lines: CostLine[], lineDecimals?: number): Decimal[] {
  const costs: Decimal[] = [];
  const round = (d: Decimal) => (lineDecimals === undefined ? d : d.toDecimalPlaces(lineDecimals));
  lines.forEach((line, i) => {
    if (!isPercentCode(line.code)) {
      costs.push(round(dec(line.yield).times(line.price)));
      return;
    }
    const mask = line.code.slice(0, line.code.indexOf("%"));
    let base = dec(0);
    for (let j = 0; j < i; j++) if (lines[j].code.startsWith(mask)) base = base.plus(costs[j]);
    costs.push(round(base.times(line.yield)));
  });
  return costs;
}

/** Each line's cost (see decompositionCosts), 4 decimals. */
export const componentCosts = (lines: CostLine[]): string[] =>
  decompositionCosts(lines).map((c) => toUnitPrice(c));

/**
 * A unit price from its components: their direct cost plus the budget's indirect costs (CI %),
 * rounded to `priceDecimals` (4 when not told).
 */
export function unitPriceFromDecomposition(
  lines: CostLine[],
  opts: { indirectPct?: Decimal.Value; lineDecimals?: number; priceDecimals?: number } = {},
): string {
  const direct = sum(decompositionCosts(lines, opts.lineDecimals));
  const total = direct.times(dec(100).plus(opts.indirectPct ?? 0)).div(100);
  return toUnitPrice(total.toDecimalPlaces(opts.priceDecimals ?? 4));
}

/** quantity x unit price, rounded to cents (half-up). */
export const itemAmount = (quantity: string, unitPrice: string): string =>
  toMoney(dec(quantity).times(unitPrice));
