import type { Decimal } from "decimal.js";
import { dec, toMoney } from "../../../../platform/money.js";

/** Spanish number format: 1.234,56 */
export function formatEs(fixed: string): string {
  const negative = fixed.startsWith("-");
  const [integer, fraction] = (negative ? fixed.slice(1) : fixed).split(".");
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${negative ? "-" : ""}${grouped}${fraction === undefined ? "" : `,${fraction}`}`;
}

export const moneyEs = (v: Decimal.Value): string => formatEs(toMoney(v));
export const percentEs = (v: Decimal.Value): string => `${formatEs(dec(v).toFixed(2))} %`;

/** Decimals `value` needs, between `min` and `max`: 18.7500 -> 2, 18.7525 -> 4. */
function decimalsOf(value: Decimal.Value, min: number, max: number): number {
  const fraction = dec(value).toFixed(max).split(".")[1] ?? "";
  return Math.max(min, fraction.replace(/0+$/, "").length);
}

/**
 * How a column of numbers is printed: with the `declared` decimals when the budget declares them
 * (BC3 ~K), else with as many as its most precise value needs, from `min` to `max`, the same for
 * the whole column so the figures line up.
 */
export function decimalsFormatter(
  declared: number | undefined,
  min: number,
  max: number,
  values: readonly Decimal.Value[] = [],
) {
  const decimals = declared ?? values.reduce<number>((d, v) => Math.max(d, decimalsOf(v, min, max)), min);
  return (v: Decimal.Value): string => formatEs(dec(v).toFixed(decimals));
}

/** 2025-04-30 -> 30/04/2025 */
export const dateEs = (iso: string): string => iso.split("-").reverse().join("/");

const MONTHS = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];

/** 2025-04-30 -> 30 de abril de 2025 */
export function longDateEs(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${Number(day)} de ${MONTHS[Number(month) - 1]} de ${year}`;
}
