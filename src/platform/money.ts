import { Decimal } from "decimal.js";
import { z } from "zod";

/** Decimal with enough precision for any ledger and half-up rounding (the Spanish/EU invoicing rule). */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof Dec>;

export const dec = (value: Decimal.Value | null | undefined): Dec => new Dec(value ?? 0);

/** A string already as toMoney writes it: 2 decimals, no leading zero, no negative zero. */
const MONEY_FORM = /^-?(0|[1-9]\d*)\.\d\d$/;

/**
 * Money as it travels in JSON and is stored in NUMERIC(18,2): 2 decimals, half-up. A string
 * already in that form (what the database returns) comes back as it is, without a Decimal.
 */
export const toMoney = (value: Decimal.Value): string =>
  typeof value === "string" && MONEY_FORM.test(value) && value !== "-0.00"
    ? value
    : new Dec(value).toFixed(2);
/** Quantities: 3 decimals (BC3 convention). */
export const toQuantity = (value: Decimal.Value): string => new Dec(value).toFixed(3);
/** Unit prices: 4 decimals (BC3 convention). */
export const toUnitPrice = (value: Decimal.Value): string => new Dec(value).toFixed(4);
/** Percentages: 2 decimals. */
export const toPercent = (value: Decimal.Value): string => new Dec(value).toFixed(2);

export const sum = (values: Iterable<Decimal.Value>): Dec => {
  let total = new Dec(0);
  for (const v of values) total = total.plus(v);
  return total;
};

// No trim: the pattern published in OpenAPI forbids surrounding spaces, so validation does too.
const decimalString = (maxDecimals: number, what: string) =>
  z
    .string()
    .regex(new RegExp(`^-?\\d{1,15}(\\.\\d{1,${maxDecimals}})?$`), {
      message: `must be a decimal string with at most ${maxDecimals} decimals, e.g. "1234.5"`,
    })
    .describe(what);

/** Request schemas: amounts are decimal strings, never JSON numbers (floats). */
export const moneyInput = decimalString(2, "Amount as a decimal string, 2 decimals at most");
export const quantityInput = decimalString(3, "Quantity as a decimal string, 3 decimals at most");
export const unitPriceInput = decimalString(4, "Unit price as a decimal string, 4 decimals at most");
export const percentInput = decimalString(2, 'Percentage as a decimal string, e.g. "21" or "13.5"');
export const nonNegative = (schema: z.ZodString) =>
  schema.refine((v) => !v.startsWith("-"), { message: "must not be negative" });

/** Response schemas. */
export const moneyOutput = z.string().describe("Amount, decimal string with 2 decimals");
export const quantityOutput = z.string().describe("Quantity, decimal string with 3 decimals");
export const unitPriceOutput = z.string().describe("Unit price, decimal string with 4 decimals");
export const percentOutput = z.string().describe("Percentage, decimal string with 2 decimals");
