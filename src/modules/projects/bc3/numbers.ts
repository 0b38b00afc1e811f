import { Dec } from "../../../platform/money.js";
import type { Bc3Measurement } from "./types.js";

// FIEBDC-3 numbers use "." as decimal separator; no thousands separator, no exponent.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export const isDecimalText = (text: string): boolean => DECIMAL.test(text);

/** Canonical decimal string: no exponent, no trailing zeros ("1.50" -> "1.5", "2.000" -> "2"). */
export const normalizeDecimal = (value: Dec | string): string => new Dec(value).toFixed();

/**
 * Product of a measurement line: non-blank units/length/width/height multiplied, blanks counting as 1.
 * A line with all four values blank is a comment/heading line and contributes 0.
 */
export function measurementProduct(m: Bc3Measurement): Dec {
  const values = [m.units, m.length, m.width, m.height].filter((v): v is string => v !== null);
  if (values.length === 0) return new Dec(0);
  return values.reduce((acc, v) => acc.times(v), new Dec(1));
}

/** Sum of the measurement line products, or null when no line carries a value. */
export function measurementsTotal(lines: Bc3Measurement[]): Dec | null {
  let total: Dec | null = null;
  for (const m of lines) {
    if (m.units === null && m.length === null && m.width === null && m.height === null) continue;
    total = (total ?? new Dec(0)).plus(measurementProduct(m));
  }
  return total;
}
