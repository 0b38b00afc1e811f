import { parsePercent } from "./masters";
import { parsePrice } from "./products";

type T = (key: string, options?: Record<string, unknown>) => string;

const optional = (t: T, max: number) => (v: string) =>
  v.trim().length > max ? t("masters.tooLong", { max }) : null;

/** The contract data of a budget (ADR 021), printed on each of its certifications. */
export interface ContractValues {
  owner_address: string;
  site_address: string;
  contract_amount: string;
  file_number: string;
  site_manager_name: string;
  contractor_signatory: string;
  owner_signatory: string;
}

export function contractRules(t: T) {
  return {
    owner_address: optional(t, 300),
    site_address: optional(t, 300),
    contract_amount: (v: string) => (parsePrice(v) !== null ? null : t("records.badPrice")),
    file_number: optional(t, 50),
    site_manager_name: optional(t, 200),
    contractor_signatory: optional(t, 200),
    owner_signatory: optional(t, 200),
  };
}

/** The PUT /api/v1/budgets/{id} body: an empty contract amount means "not set" (null), never 0. */
export function contractBody(v: ContractValues) {
  return {
    owner_address: v.owner_address.trim(),
    site_address: v.site_address.trim(),
    contract_amount: v.contract_amount.trim() ? parsePrice(v.contract_amount) : null,
    file_number: v.file_number.trim(),
    site_manager_name: v.site_manager_name.trim(),
    contractor_signatory: v.contractor_signatory.trim(),
    owner_signatory: v.owner_signatory.trim(),
  };
}

/** The issue data of one certification (PATCH /api/v1/certifications/{id}). */
export interface IssueValues {
  issue_place: string;
  issue_date: string;
  retention_pct: string;
}

export function issueRules(t: T, periodStart: string) {
  return {
    issue_place: optional(t, 100),
    issue_date: (v: string) =>
      !v
        ? null
        : !/^\d{4}-\d{2}-\d{2}$/.test(v)
          ? t("records.badDate")
          : v < periodStart
            ? t("records.beforePeriod")
            : null,
    retention_pct: (v: string) => (!v.trim() || parsePercent(v) !== null ? null : t("masters.badPercent")),
  };
}

/**
 * The PATCH body. The retention is sent only while the certification may still change figures
 * (borrador): an empty one means the budget's percentage (null).
 */
export function issueBody(v: IssueValues, withRetention: boolean) {
  return {
    issue_place: v.issue_place.trim(),
    issue_date: v.issue_date || null,
    ...(withRetention
      ? { retention_pct: v.retention_pct.trim() ? parsePercent(v.retention_pct) : null }
      : {}),
  };
}
