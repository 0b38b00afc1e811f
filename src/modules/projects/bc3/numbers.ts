import { Dec } from "../../../platform/money.js";
import type { Bc3Measurement } from "./types.js";

// FIEBDC-3 numbers use "." as decimal separator; no thousands separator, no exponent.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export const isDecimalText = (text: string): boolean => DECIMAL.test(text);

/**
 * Canonical decimal string, the same as decimal.js toFixed() without arguments: no exponent, no "+", no
 * leading or trailing zeros ("1.50" -> "1.5", "2.000" -> "2", "-0" -> "0"). Strings that pass
 * isDecimalText are normalized as text (a hot path of the parser); anything else goes through decimal.js.
 */
export function normalizeDecimal(value: Dec | string): string {
  if (typeof value !== "string" || !isDecimalText(value)) return new Dec(value).toFixed();
  const negative = value.startsWith("-");
  const body = value.replace(/^[+-]/, "");
  const dot = body.indexOf(".");
  const int = (dot < 0 ? body : body.slice(0, dot)).replace(/^0+/, "") || "0";
  const frac = dot < 0 ? "" : body.slice(dot + 1).replace(/0+$/, "");
  const abs = frac === "" ? int : `${int}.${frac}`;
  return negative && abs !== "0" ? `-${abs}` : abs;
}

/** factor x yield of a ~D line, blanks counting as 1. */
export function product(factor: string | null, yieldText: string | null): Dec {
  const y = new Dec(yieldText ?? 1);
  return factor === null ? y : y.times(factor);
}

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
