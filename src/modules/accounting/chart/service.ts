import { assertCompanyVisible } from "../../../platform/auth/company-scope.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError } from "../../../platform/http/errors.js";
import { getCompany } from "../../companies/index.js";
import { getFiscalYearByCode, ledgerListScope } from "../fiscal-years/service.js";
import { accounts, subaccounts } from "../tables.js";
import * as repo from "./repository.js";

export interface AccountListFilters {
  companyId?: string;
  fiscalYearCode?: string;
  /** undefined = active and inactive. */
  isActive?: boolean;
  search?: string;
  limit: number;
  offset: number;
}

/** The chart of accounts (REST and MCP). */
export async function listAccounts(ctx: AuthedCtx, f: AccountListFilters) {
  return repo.listAccounts(ctx.db, {
    scope: await ledgerListScope(ctx, accounts.companyId, f),
    fiscalYearCode: f.fiscalYearCode,
    isActive: f.isActive,
    search: f.search,
    limit: f.limit,
    offset: f.offset,
  });
}

export interface SubaccountListFilters {
  companyId?: string;
  fiscalYearCode?: string;
  accountCode?: string;
  contactId?: string;
  search?: string;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export async function listSubaccounts(ctx: AuthedCtx, f: SubaccountListFilters) {
  return repo.listSubaccounts(ctx.db, {
    scope: await ledgerListScope(ctx, subaccounts.companyId, f),
    fiscalYearCode: f.fiscalYearCode,
    accountCode: f.accountCode,
    contactId: f.contactId,
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

export async function getSubaccount(ctx: AuthedCtx, id: string) {
  return assertCompanyVisible(ctx.actor, await repo.findSubaccount(ctx.db, id), "Subaccount");
}

export async function createSubaccount(
  ctx: AuthedCtx,
  input: { companyId?: string; fiscalYearCode: string; code: string; name: string; contactId?: string },
) {
  const year = await getFiscalYearByCode(ctx, { companyId: input.companyId, code: input.fiscalYearCode });
  if (year.estado === "cerrado") throw new ConflictError(`Fiscal year ${year.code} is closed`);
  const company = await getCompany(ctx, year.companyId);
  if (input.code.length !== company.subaccountLength) {
    throw new BadRequestError(`A subaccount code of this company has ${company.subaccountLength} digits`, [
      { path: "code", message: `must have ${company.subaccountLength} digits` },
    ]);
  }
  const parentOf = await repo.findParentAccounts(ctx.db, [{ fiscalYearId: year.id, code: input.code }]);
  const accountCode = parentOf(year.id, input.code);
  if (!accountCode) {
    throw new BadRequestError(`No account of fiscal year ${year.code} starts the code ${input.code}`, [
      { path: "code", message: "must start with the code of an account (3 digits or more) of the year" },
    ]);
  }
  if (input.contactId && (await repo.companyOfContact(ctx.db, input.contactId)) !== year.companyId) {
    // another company's contact answers like a missing one: its existence is not disclosed
    throw new BadRequestError(`Contact ${input.contactId} is not a contact of this company`, [
      { path: "contact_id", message: "must be a contact of the subaccount's company" },
    ]);
  }
  if (await repo.findSubaccountByCode(ctx.db, year.id, input.code))
    throw new ConflictError(`Fiscal year ${year.code} already has a subaccount ${input.code}`);
  const [row] = await repo.insertSubaccounts(ctx.db, [
    {
      companyId: year.companyId,
      fiscalYearId: year.id,
      accountCode,
      code: input.code,
      name: input.name,
      contactId: input.contactId ?? null,
    },
  ]);
  return { ...row, fiscalYearCode: year.code };
}
