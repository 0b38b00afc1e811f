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

/** yield x price of one component, 4 decimals. */
export const componentCost = (line: Pick<DecompositionLine, "yield" | "price">): string =>
  toUnitPrice(dec(line.yield).times(line.price));

/** Sum of yield x price, rounded to 4 decimals. */
export const unitPriceFromDecomposition = (lines: DecompositionLine[]): string =>
  toUnitPrice(sum(lines.map((l) => dec(l.yield).times(l.price))));

/** quantity x unit price, rounded to cents (half-up). */
export const itemAmount = (quantity: string, unitPrice: string): string =>
  toMoney(dec(quantity).times(unitPrice));
