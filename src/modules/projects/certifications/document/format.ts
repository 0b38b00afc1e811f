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

/**
 * A number shown with `declared` decimals when the budget declares them (BC3 ~K), else with at
 * least `min` and at most `max` (trailing zeros beyond `min` dropped): 18,75 / 18,7525.
 */
export function decimalsFormatter(declared: number | undefined, min: number, max: number) {
  return (v: Decimal.Value): string => {
    const value = dec(v);
    if (declared !== undefined) return formatEs(value.toFixed(declared));
    const full = value.toFixed(max);
    const [integer, fraction = ""] = full.split(".");
    const kept = fraction.replace(/0+$/, "").padEnd(min, "0");
    return formatEs(kept ? `${integer}.${kept}` : integer);
  };
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
