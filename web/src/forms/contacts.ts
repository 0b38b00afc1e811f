import { validateSpanishTaxId } from "../../../src/platform/tax-id";

type T = (key: string, options?: Record<string, unknown>) => string;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const CONTACT_TYPES = ["customer", "supplier", "both"] as const;
export const TAX_REGIMES = [
  "general",
  "recargo_equivalencia",
  "exento",
  "intracomunitario",
  "exportacion",
] as const;

const required = (t: T, max: number) => (v: string) =>
  !v.trim() ? t("auth.required") : v.trim().length > max ? t("masters.tooLong", { max }) : null;
const optional = (t: T, max: number) => (v: string) =>
  v.trim().length > max ? t("masters.tooLong", { max }) : null;

/**
 * A Spanish NIF, NIE or CIF checked down to its control character with the server's own validator
 * (src/platform/tax-id.ts), so the form refuses what the API would. Other countries' numbers are
 * left to the server, which knows each EU VAT format; its reason shows under the field.
 */
export function spanishTaxIdError(t: T, value: string): string | null {
  const result = validateSpanishTaxId(value);
  return result.valid ? null : t("records.badTaxId", { reason: result.reason });
}

/** Up to three distinct days of the month typed as "5, 20"; null when the text is not that. */
export function parsePaymentDays(text: string): number[] | null {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length > 3 || parts.some((p) => !/^\d{1,2}$/.test(p))) return null;
  const days = parts.map(Number);
  if (days.some((d) => d < 1 || d > 31) || new Set(days).size !== days.length) return null;
  return days.sort((a, b) => a - b);
}

/** A whole number of days 0..365 typed in a text box; null otherwise. */
export function parseTermDays(text: string): number | null {
  const s = text.trim();
  if (!/^\d{1,3}$/.test(s)) return null;
  const n = Number(s);
  return n <= 365 ? n : null;
}

/** The postal address a contact and a company both have. */
export interface AddressValues {
  address: string;
  city: string;
  postal_code: string;
  province: string;
  country: string;
}

/** The address fields of a form over `record` (null: a new one, in Spain). */
export function addressValues(record: AddressValues | null): AddressValues {
  return {
    address: record?.address ?? "",
    city: record?.city ?? "",
    postal_code: record?.postal_code ?? "",
    province: record?.province ?? "",
    country: record?.country ?? "ES",
  };
}

function addressRules(t: T) {
  return {
    address: optional(t, 300),
    city: optional(t, 100),
    postal_code: optional(t, 20),
    province: optional(t, 100),
    country: (v: string) => (/^[A-Za-z]{2}$/.test(v.trim()) ? null : t("records.badCountry")),
  };
}

function addressBody(v: AddressValues) {
  return {
    address: v.address.trim(),
    city: v.city.trim(),
    postal_code: v.postal_code.trim(),
    province: v.province.trim(),
    country: v.country.trim().toUpperCase(),
  };
}

export interface ContactValues extends AddressValues {
  contact_type: (typeof CONTACT_TYPES)[number];
  code: string;
  name: string;
  legal_name: string;
  tax_id: string;
  email: string;
  phone: string;
  payment_terms_days: string;
  payment_days: string;
  tax_regime: (typeof TAX_REGIMES)[number];
  /** The sales agent's id; "" for none. Kept as loaded when the user may not list agents. */
  agent_id: string;
  is_active: boolean;
}

export function contactRules(t: T) {
  return {
    code: optional(t, 30),
    name: required(t, 200),
    legal_name: optional(t, 200),
    tax_id: (v: string, values: ContactValues) =>
      !v.trim()
        ? null
        : values.country.trim().toUpperCase() === "ES"
          ? spanishTaxIdError(t, v)
          : optional(t, 40)(v),
    email: (v: string) => (!v.trim() || EMAIL.test(v.trim()) ? null : t("auth.invalidEmail")),
    phone: optional(t, 50),
    ...addressRules(t),
    payment_terms_days: (v: string) => (parseTermDays(v) !== null ? null : t("records.badTermDays")),
    payment_days: (v: string) => (parsePaymentDays(v) !== null ? null : t("records.badPaymentDays")),
  };
}

/** The API body of a contact form (create and full update): trimmed, an empty tax id as null. */
export function contactBody(v: ContactValues) {
  return {
    contact_type: v.contact_type,
    ...(v.code.trim() ? { code: v.code.trim() } : {}),
    name: v.name.trim(),
    legal_name: v.legal_name.trim(),
    tax_id: v.tax_id.trim() || null,
    email: v.email.trim(),
    phone: v.phone.trim(),
    ...addressBody(v),
    payment_terms_days: parseTermDays(v.payment_terms_days) ?? 30,
    payment_days: parsePaymentDays(v.payment_days) ?? [],
    tax_regime: v.tax_regime,
    agent_id: v.agent_id || null,
    is_active: v.is_active,
  };
}

export interface CompanyValues extends AddressValues {
  name: string;
  legal_name: string;
  tax_id: string;
  currency: string;
  is_active: boolean;
}

export function companyRules(t: T) {
  return {
    name: required(t, 200),
    legal_name: optional(t, 200),
    tax_id: (v: string) => (!v.trim() ? t("auth.required") : spanishTaxIdError(t, v)),
    ...addressRules(t),
    currency: (v: string) => (/^[A-Za-z]{3}$/.test(v.trim()) ? null : t("records.badCurrency")),
  };
}

/** The API body of a company form. */
export function companyBody(v: CompanyValues) {
  return {
    name: v.name.trim(),
    legal_name: v.legal_name.trim(),
    tax_id: v.tax_id.trim(),
    ...addressBody(v),
    currency: v.currency.trim().toUpperCase(),
    is_active: v.is_active,
  };
}
