import { Dec } from "../../../platform/money.js";

/** Spanish grouping and decimal comma: "-1234567.5" with 2 decimals -> "-1.234.567,50". */
function spanish(value: Dec, minDecimals: number, maxDecimals: number): string {
  let fixed = value.toDecimalPlaces(maxDecimals).toFixed(maxDecimals);
  if (maxDecimals > minDecimals) {
    const trimmed = fixed.replace(/0+$/, "");
    const decimals = trimmed.length - trimmed.indexOf(".") - 1;
    fixed = decimals >= minDecimals ? trimmed : fixed.slice(0, fixed.indexOf(".") + 1 + minDecimals);
  }
  fixed = fixed.replace(/\.$/, "");
  if (/^-0(\.0*)?$/.test(fixed)) fixed = fixed.slice(1);
  const negative = fixed.startsWith("-");
  const [integer, fraction] = (negative ? fixed.slice(1) : fixed).split(".");
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${negative ? "-" : ""}${grouped}${fraction === undefined ? "" : `,${fraction}`}`;
}

/** An amount with 2 decimals, no currency: "1.234,56". */
export function formatAmount(value: string): string {
  return spanish(new Dec(value), 2, 2);
}

/** An amount in euros as Spanish invoices write it: "1.234,56 €". */
export function formatEuro(value: string): string {
  return `${formatAmount(value)} €`;
}

/** Quantities without useless zeros: "2", "1,5", "1.250,125". */
export function formatQuantity(value: string): string {
  return spanish(new Dec(value), 0, 4);
}

/** Unit prices with at least 2 decimals and up to 6: "10,00", "0,1235". */
export function formatUnitPrice(value: string): string {
  return spanish(new Dec(value), 2, 6);
}

/** Rates without useless zeros: "21", "5,2", "0". */
export function formatRate(value: string): string {
  return spanish(new Dec(value), 0, 2);
}

/** YYYY-MM-DD -> dd/mm/yyyy; empty for no date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) throw new Error(`Not a YYYY-MM-DD date: ${value}`);
  return `${m[3]}/${m[2]}/${m[1]}`;
}
