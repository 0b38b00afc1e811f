import { parseAmount } from "./validation";

type T = (key: string, options?: Record<string, unknown>) => string;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const required = (t: T, max: number) => (v: string) =>
  !v.trim() ? t("auth.required") : v.trim().length > max ? t("masters.tooLong", { max }) : null;

/** A percentage typed as "5,5" or "5.5": 0..100, two decimals at most; the API's decimal string. */
export function parsePercent(text: string): string | null {
  const d = parseAmount(text);
  if (d.isNaN() || d.isNegative() || d.gt(100)) return null;
  return d.toFixed(2);
}

export interface AgentValues {
  code: string;
  name: string;
  tax_id: string;
  email: string;
  commission_pct: string;
  is_active: boolean;
}

export function agentRules(t: T) {
  return {
    code: required(t, 30),
    name: required(t, 200),
    email: (v: string) => (!v.trim() || EMAIL.test(v.trim()) ? null : t("auth.invalidEmail")),
    commission_pct: (v: string) => (parsePercent(v) !== null ? null : t("masters.badPercent")),
  };
}

/** The API body of an agent form: trimmed, empty tax id as null, the commission as a decimal string. */
export function agentBody(v: AgentValues) {
  return {
    code: v.code.trim(),
    name: v.name.trim(),
    tax_id: v.tax_id.trim().toUpperCase() || null,
    email: v.email.trim(),
    commission_pct: parsePercent(v.commission_pct) ?? "0.00",
    is_active: v.is_active,
  };
}

export interface FamilyValues {
  code: string;
  name: string;
  sales_account: string;
  purchases_account: string;
  is_active: boolean;
}

const account = (t: T, group: 6 | 7) => (v: string) =>
  !v.trim() || new RegExp(`^${group}\\d{2,3}$`).test(v.trim()) ? null : t("masters.badAccount", { group });

export function familyRules(t: T) {
  return {
    code: required(t, 30),
    name: required(t, 200),
    sales_account: account(t, 7),
    purchases_account: account(t, 6),
  };
}

/** The API body of a family form: an empty account means the company's default (null). */
export function familyBody(v: FamilyValues) {
  return {
    code: v.code.trim(),
    name: v.name.trim(),
    sales_account: v.sales_account.trim() || null,
    purchases_account: v.purchases_account.trim() || null,
    is_active: v.is_active,
  };
}

/**
 * The field errors of a refused request (problem+json `errors[].path`, e.g. "body.tax_id"), keyed by
 * the form's field names, so the server's reason shows under the field it names.
 */
export function problemFieldErrors(
  errors: { path: string; message: string }[] | undefined,
  fields: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors ?? []) {
    const field = e.path.replace(/^body\./, "").split(".")[0] ?? "";
    if (fields.includes(field) && !out[field]) out[field] = e.message;
  }
  return out;
}
