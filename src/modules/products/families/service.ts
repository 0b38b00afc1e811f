import { assertCompanyVisible, companyFilter } from "../../../platform/auth/company-scope.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { ConflictError } from "../../../platform/http/errors.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { assertLedgerAccounts } from "../ledger-accounts.js";
import { productFamilies } from "../tables.js";
import * as repo from "./repository.js";

export interface FamilyValues {
  code?: string;
  name?: string;
  /** PGC accounts of its products' sales (group 7) and purchases (group 6); null: the company's. */
  salesAccount?: string | null;
  purchasesAccount?: string | null;
  isActive?: boolean;
}

export async function getFamily(ctx: AuthedCtx, id: string) {
  return assertCompanyVisible(ctx.actor, await repo.findFamily(ctx.db, id), "Product family");
}

export function listFamilies(
  ctx: AuthedCtx,
  f: { companyId?: string; search?: string; includeInactive?: boolean; limit: number; offset: number },
) {
  return repo.listFamilies(ctx.db, {
    scope: companyFilter(ctx.actor, productFamilies.companyId, f.companyId),
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

async function assertCodeFree(ctx: AuthedCtx, companyId: string, code: string) {
  if (await repo.findFamilyByCode(ctx.db, companyId, code))
    throw new ConflictError(`A product family with code ${code} already exists in this company`);
}

export async function createFamily(
  ctx: AuthedCtx,
  input: FamilyValues & { code: string; name: string; companyId?: string },
) {
  const { companyId: requested, ...values } = input;
  assertLedgerAccounts(values);
  const companyId = await resolveCompanyForWrite(ctx, requested);
  await assertCodeFree(ctx, companyId, values.code);
  return repo.insertFamily(ctx.db, { ...values, companyId });
}

export async function updateFamily(ctx: AuthedCtx, id: string, values: FamilyValues) {
  const current = await getFamily(ctx, id);
  assertLedgerAccounts(values);
  if (values.code !== undefined && values.code !== current.code)
    await assertCodeFree(ctx, current.companyId, values.code);
  return repo.updateFamily(ctx.db, id, values);
}
