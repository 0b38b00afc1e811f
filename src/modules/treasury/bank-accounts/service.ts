import { assertCompanyVisible, canSeeCompany, companyFilter } from "../../../platform/auth/company-scope.js";
import { allQueries, sqlState, violatedConstraint } from "../../../platform/db/sql.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError } from "../../../platform/http/errors.js";
import { validateIban } from "../../../platform/iban.js";
import { createSubaccount, listFiscalYears, listSubaccounts } from "../../accounting/index.js";
import { getCompany, resolveCompanyForWrite } from "../../companies/index.js";
import { bankAccounts } from "../tables.js";
import type { BankAccountRow } from "./repository.js";
import * as repo from "./repository.js";

export type { BankAccountRow } from "./repository.js";

/** PGC 2007: 572 Bancos e instituciones de crédito c/c vista, euros. */
const BANK_ACCOUNT = "572";

export interface BankAccountListFilters {
  companyId?: string;
  search?: string;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export interface BankAccountFields {
  name?: string;
  iban?: string;
  bic?: string | null;
  isActive?: boolean;
}

export type NewBankAccount = BankAccountFields & {
  companyId?: string;
  name: string;
  iban: string;
  /** A subaccount under 572 of the company's length; by default the next free one. */
  subaccountCode?: string;
};

export function checkIban(raw: string, path = "iban"): string {
  const result = validateIban(raw);
  if (!result.valid)
    throw new BadRequestError(`${path}: ${result.reason}`, [{ path, message: result.reason }]);
  return result.iban;
}

/** A bank account the caller may see (404 otherwise). */
export async function getBankAccount(ctx: AuthedCtx, id: string): Promise<BankAccountRow> {
  return assertCompanyVisible(ctx.actor, await repo.findBankAccount(ctx.db, id), "Bank account");
}

/** Several bank accounts the caller may see (the others left out). */
export async function getBankAccounts(ctx: AuthedCtx, ids: string[]): Promise<BankAccountRow[]> {
  return (await repo.findBankAccounts(ctx.db, ids)).filter((b) => canSeeCompany(ctx.actor, b.companyId));
}

export function listBankAccounts(ctx: AuthedCtx, f: BankAccountListFilters) {
  return repo.listBankAccounts(ctx.db, {
    scope: companyFilter(ctx.actor, bankAccounts.companyId, f.companyId),
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

/** Every bank account of a company the caller may see, active or not. */
export async function bankAccountsOfCompany(ctx: AuthedCtx, companyId: string) {
  await getCompany(ctx, companyId);
  return repo.bankAccountsOfCompany(ctx.db, companyId);
}

/** The next 572 subaccount code no bank account and no ledger subaccount of the company uses. */
async function nextBankSubaccount(ctx: AuthedCtx, companyId: string, length: number): Promise<string> {
  const [ours, ledger] = await allQueries(ctx.db, [
    () => repo.highestBankSubaccount(ctx.db, companyId),
    () =>
      listSubaccounts(ctx, {
        companyId,
        accountCode: BANK_ACCOUNT,
        includeInactive: true,
        limit: 10000,
        offset: 0,
      }),
  ]);
  let highest = 0n;
  for (const code of [ours, ...ledger.rows.map((s) => s.code)]) {
    if (code && code.length === length && /^\d+$/.test(code)) {
      const n = BigInt(code.slice(BANK_ACCOUNT.length));
      if (n > highest) highest = n;
    }
  }
  const code = BANK_ACCOUNT + (highest + 1n).toString().padStart(length - BANK_ACCOUNT.length, "0");
  if (code.length > length)
    throw new ConflictError(`No free subaccount number is left under ${BANK_ACCOUNT}`);
  return code;
}

function checkSubaccountCode(code: string, length: number) {
  if (!/^\d+$/.test(code) || !code.startsWith(BANK_ACCOUNT) || code.length !== length) {
    const message = `must be a code of ${length} digits starting with ${BANK_ACCOUNT}`;
    throw new BadRequestError(`subaccount_code ${message}`, [{ path: "subaccount_code", message }]);
  }
}

/** Gives the bank its subaccount in every open fiscal year of the company that lacks it. */
async function ensureBankSubaccounts(ctx: AuthedCtx, account: BankAccountRow) {
  const [years, existing] = await allQueries(ctx.db, [
    () => listFiscalYears(ctx, { companyId: account.companyId, estado: "abierto", limit: 10000, offset: 0 }),
    () =>
      listSubaccounts(ctx, {
        companyId: account.companyId,
        accountCode: account.subaccountCode,
        includeInactive: true,
        limit: 10000,
        offset: 0,
      }),
  ]);
  const has = new Set(
    existing.rows.filter((s) => s.code === account.subaccountCode).map((s) => s.fiscalYearCode),
  );
  for (const year of years.rows) {
    if (has.has(year.code)) continue;
    await createSubaccount(ctx, {
      companyId: account.companyId,
      fiscalYearCode: year.code,
      code: account.subaccountCode,
      name: account.name,
    });
  }
}

function conflictOf(err: unknown): never {
  const constraint = violatedConstraint(err);
  if (constraint === "bank_accounts_company_iban_key")
    throw new ConflictError("The company already has a bank account with this IBAN");
  if (constraint === "bank_accounts_company_subaccount_key")
    throw new ConflictError("Another bank account of the company uses this subaccount");
  throw err;
}

/**
 * Creates a bank account with its IBAN checked, and its 572 subaccount (the next free one unless
 * given) in every open fiscal year of the company, in one transaction.
 */
export async function createBankAccount(ctx: AuthedCtx, input: NewBankAccount): Promise<BankAccountRow> {
  const iban = checkIban(input.iban);
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  const { subaccountLength } = await getCompany(ctx, companyId);
  if (input.subaccountCode) checkSubaccountCode(input.subaccountCode, subaccountLength);
  try {
    return await inCtxTransaction(ctx, async (tx) => {
      await repo.lockCompanyBankAccounts(tx.db, companyId);
      const subaccountCode =
        input.subaccountCode ?? (await nextBankSubaccount(tx, companyId, subaccountLength));
      const row = await repo.insertBankAccount(tx.db, {
        companyId,
        name: input.name,
        iban,
        bic: input.bic ?? null,
        subaccountCode,
        isActive: input.isActive ?? true,
      });
      await ensureBankSubaccounts(tx, row);
      return row;
    });
  } catch (err) {
    conflictOf(err);
  }
}

export async function updateBankAccount(
  ctx: AuthedCtx,
  id: string,
  changes: BankAccountFields,
): Promise<BankAccountRow> {
  await getBankAccount(ctx, id);
  const iban = changes.iban === undefined ? undefined : checkIban(changes.iban);
  try {
    return await repo.updateBankAccount(ctx.db, id, { ...changes, iban, updatedAt: new Date() });
  } catch (err) {
    conflictOf(err);
  }
}

/** Deletes a bank account nothing refers to (payments, budget lines, statements): else 409. */
export async function deleteBankAccount(ctx: AuthedCtx, id: string): Promise<void> {
  const account = await getBankAccount(ctx, id);
  try {
    await inCtxTransaction(ctx, (tx) => repo.deleteBankAccount(tx.db, id));
  } catch (err) {
    if (sqlState(err) === "23503")
      throw new ConflictError(
        `Bank account ${account.name} has payments, budget lines or statements: deactivate it (is_active false) instead`,
      );
    throw err;
  }
}
