import { BadRequestError } from "../../platform/http/errors.js";
import { Dec } from "../../platform/money.js";

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Parses a decimal string of a request or a stored row; a bad one is a 400 naming its path. */
export function parseDecimal(value: string | undefined, path: string, fallback = "0"): Dec {
  const raw = value === undefined ? fallback : value.trim();
  if (!DECIMAL.test(raw)) {
    throw new BadRequestError(`${path} must be a decimal string such as "12.50"`, [
      { path, message: `"${value}" is not a decimal number` },
    ]);
  }
  return new Dec(raw);
}

/** round2, half away from zero, written with 2 decimals and never as "-0.00". */
export function money(value: Dec): string {
  const rounded = value.toDecimalPlaces(2);
  return rounded.isZero() ? "0.00" : rounded.toFixed(2);
}

export function round2(value: Dec): Dec {
  return value.toDecimalPlaces(2);
}

/** A rate as "21.00", "5.20", "0.00". */
export function percent(value: Dec): string {
  return value.isZero() ? "0.00" : value.toFixed(2);
}
