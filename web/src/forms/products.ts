import { normalizeDecimal } from "./invoice";

type T = (key: string, options?: Record<string, unknown>) => string;

/** The VAT rates a product may carry (the API's enum). */
export const VAT_RATES = ["21", "10", "4", "0"] as const;

/**
 * A price typed as "1.234,5" or "1234.50": never a float, the API's decimal string with two decimals
 * at most; "" means zero; null when it is not a non-negative amount.
 */
export function parsePrice(text: string): string | null {
  const normalized = normalizeDecimal(text, 2);
  if (normalized === null) return null;
  return normalized === "" ? "0" : normalized;
}

export interface ProductValues {
  reference: string;
  description: string;
  family_code: string;
  sale_price: string;
  cost_price: string;
  vat_rate: (typeof VAT_RATES)[number];
  is_active: boolean;
}

const price = (t: T) => (v: string) => (parsePrice(v) !== null ? null : t("records.badPrice"));

export function productRules(t: T) {
  return {
    reference: (v: string) =>
      !v.trim() ? t("auth.required") : v.trim().length > 50 ? t("masters.tooLong", { max: 50 }) : null,
    description: (v: string) =>
      !v.trim() ? t("auth.required") : v.trim().length > 500 ? t("masters.tooLong", { max: 500 }) : null,
    sale_price: price(t),
    cost_price: price(t),
  };
}

/** The API body of a product form: prices as decimal strings, no family as null. */
export function productBody(v: ProductValues) {
  return {
    reference: v.reference.trim(),
    description: v.description.trim(),
    family_code: v.family_code || null,
    sale_price: parsePrice(v.sale_price) ?? "0",
    cost_price: parsePrice(v.cost_price) ?? "0",
    vat_rate: v.vat_rate,
    is_active: v.is_active,
  };
}

/** A decimal string from the API ("1234.50") as a Spanish-typed amount ("1234,50") for editing. */
export function decimalForInput(value: string | null | undefined): string {
  return value ? value.replace(".", ",") : "";
}
