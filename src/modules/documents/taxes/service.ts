import { assertCompanyVisible, companyFilter } from "../../../platform/auth/company-scope.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, type FieldError } from "../../../platform/http/errors.js";
import { Dec } from "../../../platform/money.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import type { ExemptionReason } from "../defaults.js";
import { type IrpfKind, type TaxKind, taxCodes, type VatOperation } from "../tables.js";
import type { TaxCodeRow } from "./repository.js";
import * as repo from "./repository.js";

export type { TaxCodeRow } from "./repository.js";

export interface TaxCodeListFilters {
  companyId?: string;
  kind?: TaxKind;
  search?: string;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export interface TaxCodeFields {
  code?: string;
  name?: string;
  kind?: TaxKind;
  /** Percent, decimal string ("21", "5.2"). */
  rate?: string;
  reRate?: string;
  operation?: VatOperation | null;
  exemptionReason?: ExemptionReason | null;
  irpfKind?: IrpfKind | null;
  capitalGoods?: boolean;
  isActive?: boolean;
}

export type NewTaxCode = TaxCodeFields & {
  code: string;
  name: string;
  kind: TaxKind;
  rate: string;
  companyId?: string;
};

/** The fields that decide how a document is taxed, posted and declared: fixed once a document uses the code. */
const FISCAL_FIELDS = [
  "code",
  "kind",
  "rate",
  "reRate",
  "operation",
  "exemptionReason",
  "irpfKind",
  "capitalGoods",
] as const;

const API_NAMES: Record<(typeof FISCAL_FIELDS)[number], string> = {
  code: "code",
  kind: "kind",
  rate: "rate",
  reRate: "re_rate",
  operation: "operation",
  exemptionReason: "exemption_reason",
  irpfKind: "irpf_kind",
  capitalGoods: "capital_goods",
};

/** Operations exempt with a reason (VeriFactu E1-E6): domestic exemptions, exports, intra-EU deliveries. */
const EXEMPT_OPERATIONS: ReadonlySet<VatOperation> = new Set(["exempt", "export", "exempt_intra_eu"]);

type TaxCodeState = Required<Omit<TaxCodeFields, "isActive" | "name" | "code">>;

/** What is wrong with a tax code's combination of fields, by API field name (empty when coherent). */
export function taxCodeProblems(v: TaxCodeState): FieldError[] {
  const errors: FieldError[] = [];
  const rate = new Dec(v.rate);
  const reRate = new Dec(v.reRate);
  if (rate.lt(0) || rate.gt(100)) errors.push({ path: "rate", message: "must be between 0 and 100" });
  if (reRate.lt(0) || reRate.gt(100)) errors.push({ path: "re_rate", message: "must be between 0 and 100" });
  if (v.kind === "vat") {
    if (!v.operation) errors.push({ path: "operation", message: "is required for a VAT code" });
    if (v.irpfKind) errors.push({ path: "irpf_kind", message: "only IRPF codes have an IRPF kind" });
    const exempt = v.operation !== null && EXEMPT_OPERATIONS.has(v.operation);
    if (exempt && !v.exemptionReason)
      errors.push({
        path: "exemption_reason",
        message: `is required for a ${v.operation} operation (E1-E6)`,
      });
    if (!exempt && v.exemptionReason)
      errors.push({
        path: "exemption_reason",
        message: "only exempt, export and exempt_intra_eu operations have an exemption reason",
      });
    if (exempt || v.operation === "not_subject") {
      if (!rate.isZero()) errors.push({ path: "rate", message: `must be 0 for a ${v.operation} operation` });
      if (!reRate.isZero())
        errors.push({ path: "re_rate", message: `must be 0 for a ${v.operation} operation` });
    }
  } else {
    if (!v.irpfKind) errors.push({ path: "irpf_kind", message: "is required for an IRPF code" });
    if (v.operation) errors.push({ path: "operation", message: "only VAT codes have an operation" });
    if (!reRate.isZero()) errors.push({ path: "re_rate", message: "must be 0 for an IRPF code" });
    if (v.exemptionReason)
      errors.push({ path: "exemption_reason", message: "only VAT codes have an exemption reason" });
    if (v.capitalGoods)
      errors.push({ path: "capital_goods", message: "only VAT codes are for capital goods" });
  }
  return errors;
}

function assertCoherent(v: TaxCodeState) {
  const errors = taxCodeProblems(v);
  if (errors.length)
    throw new BadRequestError(
      `The tax code is not coherent: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
      errors,
    );
}

export async function getTaxCode(ctx: AuthedCtx, id: string): Promise<TaxCodeRow> {
  return assertCompanyVisible(ctx.actor, await repo.findTaxCode(ctx.db, id), "Tax code");
}

export function listTaxCodes(ctx: AuthedCtx, f: TaxCodeListFilters) {
  return repo.listTaxCodes(ctx.db, {
    scope: companyFilter(ctx.actor, taxCodes.companyId, f.companyId),
    kind: f.kind,
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

/** A company's tax code by id (documents validate their lines' codes with it); undefined otherwise. */
export function findTaxCodeOfCompany(ctx: AuthedCtx, companyId: string, id: string) {
  return repo.findTaxCodeOfCompany(ctx.db, companyId, id);
}

/** A company's tax code by its code (IVA21, IRPF15...); undefined when it has none. */
export function findTaxCodeByCode(ctx: AuthedCtx, companyId: string, code: string) {
  return repo.findTaxCodeByCode(ctx.db, companyId, code);
}

async function assertCodeFree(ctx: AuthedCtx, companyId: string, code: string, exceptId?: string) {
  if (await repo.taxCodeTaken(ctx.db, companyId, code, exceptId))
    throw new ConflictError(`A tax code ${code} already exists in this company`);
}

export async function createTaxCode(ctx: AuthedCtx, input: NewTaxCode): Promise<TaxCodeRow> {
  const { companyId: requested, ...values } = input;
  const state: TaxCodeState = {
    kind: values.kind,
    rate: values.rate,
    reRate: values.reRate ?? "0",
    operation: values.operation ?? null,
    exemptionReason: values.exemptionReason ?? null,
    irpfKind: values.irpfKind ?? null,
    capitalGoods: values.capitalGoods ?? false,
  };
  assertCoherent(state);
  const companyId = await resolveCompanyForWrite(ctx, requested);
  await assertCodeFree(ctx, companyId, values.code);
  return repo.insertTaxCode(ctx.db, { ...values, ...state, companyId });
}

function changed(current: TaxCodeRow, field: (typeof FISCAL_FIELDS)[number], value: unknown): boolean {
  if (value === undefined) return false;
  if (field === "rate" || field === "reRate") return !new Dec(value as string).equals(current[field]);
  return value !== current[field];
}

/**
 * Changes a tax code. The new combination must be coherent (400). Once a document line uses the
 * code, only its name and is_active may change: rates, kind, operation and the rest are what the
 * issued documents were taxed and declared with (409; create a new code instead).
 */
export async function updateTaxCode(ctx: AuthedCtx, id: string, changes: TaxCodeFields): Promise<TaxCodeRow> {
  return inCtxTransaction(ctx, async (tx) => {
    const current = await getTaxCode(tx, id);
    const pick = <K extends keyof TaxCodeState>(k: K): TaxCodeState[K] =>
      (changes[k] === undefined ? current[k] : changes[k]) as TaxCodeState[K];
    assertCoherent({
      kind: pick("kind"),
      rate: pick("rate"),
      reRate: pick("reRate"),
      operation: pick("operation"),
      exemptionReason: pick("exemptionReason"),
      irpfKind: pick("irpfKind"),
      capitalGoods: pick("capitalGoods"),
    });
    const fiscal = FISCAL_FIELDS.filter((f) => changed(current, f, changes[f]));
    if (fiscal.length && (await repo.taxCodeInUse(tx.db, id))) {
      throw new ConflictError(
        `Tax code ${current.code} is used by documents: ${fiscal.map((f) => API_NAMES[f]).join(", ")} ` +
          "cannot change (only name and is_active can; create a new tax code instead)",
      );
    }
    if (changes.code !== undefined && changes.code !== current.code)
      await assertCodeFree(tx, current.companyId, changes.code, id);
    return repo.updateTaxCode(tx.db, id, changes);
  });
}
