import { assertCompanyVisible, companyFilter } from "../../../platform/auth/company-scope.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError } from "../../../platform/http/errors.js";
import { Dec } from "../../../platform/money.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { instalments } from "../due-dates.js";
import { type PaymentTermLine, paymentTerms } from "../tables.js";
import type { PaymentTermRow } from "./repository.js";
import * as repo from "./repository.js";

export type { PaymentTermRow } from "./repository.js";

export interface PaymentTermListFilters {
  companyId?: string;
  search?: string;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export interface PaymentTermFields {
  code?: string;
  name?: string;
  lines?: PaymentTermLine[];
  isActive?: boolean;
}

export type NewPaymentTerm = PaymentTermFields & {
  code: string;
  name: string;
  lines: PaymentTermLine[];
  companyId?: string;
};

/** The largest amount a document may total (NUMERIC(18,2)): every valid term must split it. */
const PROBE_TOTAL = "9999999999999999.99";
const PROBE_DATE = "2026-01-31";

function lineError(i: number, field: string, message: string): never {
  const path = `lines.${i}.${field}`;
  throw new BadRequestError(`${path}: ${message}`, [{ path, message }]);
}

/**
 * Checks a term the way due-dates.ts will use it, and returns its lines normalized ("50.00" ->
 * "50"). Percent and fixed lines need a value (fixed: 2 decimals at most), balance lines take none;
 * then `instalments` splits a probe total, which refuses a misplaced balance line, percentages over
 * 100 % and lines that leave part of the total uncovered — each a 400 naming lines.N.field.
 */
export function validateTermLines(lines: PaymentTermLine[]): PaymentTermLine[] {
  const normalized = lines.map((line, i): PaymentTermLine => {
    const base = { kind: line.kind, days: line.days, ...(line.endOfMonth ? { endOfMonth: true } : {}) };
    if (line.kind === "balance") {
      if (line.value !== undefined)
        lineError(i, "value", "a balance line takes what is left and has no value");
      return base;
    }
    if (line.value === undefined) lineError(i, "value", `is required for a ${line.kind} line`);
    if (!/^\d+(\.\d+)?$/.test(line.value)) lineError(i, "value", "must be a positive decimal string");
    const value = new Dec(line.value);
    if (line.kind === "fixed" && value.decimalPlaces() > 2)
      lineError(i, "value", "a fixed amount has at most 2 decimals");
    return { ...base, value: value.toFixed() };
  });
  const last = normalized.length - 1;
  if (last >= 0 && normalized.every((l) => l.kind !== "balance")) {
    // Said here in the term's own words: the probe total would otherwise show in the message.
    if (normalized.some((l) => l.kind === "fixed"))
      lineError(last, "kind", "a term with fixed amounts must end with a balance line");
    const percent = normalized.reduce((acc, l) => acc.plus(l.value ?? "0"), new Dec(0));
    if (percent.lt(100))
      lineError(
        last,
        "kind",
        `the percentages add up to ${percent.toFixed()} %: make them 100 % or end with a balance line`,
      );
  }
  instalments(PROBE_TOTAL, PROBE_DATE, normalized);
  return normalized;
}

export async function getPaymentTerm(ctx: AuthedCtx, id: string): Promise<PaymentTermRow> {
  return assertCompanyVisible(ctx.actor, await repo.findPaymentTerm(ctx.db, id), "Payment term");
}

export function listPaymentTerms(ctx: AuthedCtx, f: PaymentTermListFilters) {
  return repo.listPaymentTerms(ctx.db, {
    scope: companyFilter(ctx.actor, paymentTerms.companyId, f.companyId),
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

/** A company's payment term by id (documents validate theirs with it); undefined otherwise. */
export function findPaymentTermOfCompany(ctx: AuthedCtx, companyId: string, id: string) {
  return repo.findPaymentTermOfCompany(ctx.db, companyId, id);
}

async function assertCodeFree(ctx: AuthedCtx, companyId: string, code: string, exceptId?: string) {
  if (await repo.paymentTermCodeTaken(ctx.db, companyId, code, exceptId))
    throw new ConflictError(`A payment term with code ${code} already exists in this company`);
}

export async function createPaymentTerm(ctx: AuthedCtx, input: NewPaymentTerm): Promise<PaymentTermRow> {
  const { companyId: requested, ...values } = input;
  const lines = validateTermLines(values.lines);
  const companyId = await resolveCompanyForWrite(ctx, requested);
  await assertCodeFree(ctx, companyId, values.code);
  return repo.insertPaymentTerm(ctx.db, { ...values, lines, companyId });
}

/**
 * Changes a payment term. Documents keep the instalments they were issued with, so a term in use
 * may still change: the change applies to documents issued from now on.
 */
export async function updatePaymentTerm(
  ctx: AuthedCtx,
  id: string,
  changes: PaymentTermFields,
): Promise<PaymentTermRow> {
  const current = await getPaymentTerm(ctx, id);
  const lines = changes.lines === undefined ? undefined : validateTermLines(changes.lines);
  if (changes.code !== undefined && changes.code !== current.code)
    await assertCodeFree(ctx, current.companyId, changes.code, id);
  return repo.updatePaymentTerm(ctx.db, id, { ...changes, lines });
}
