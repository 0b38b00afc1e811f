import { eq, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { assertCompanyVisible, companyFilter, companyScopeId } from "../../../platform/auth/company-scope.js";
import { today } from "../../../platform/dates.js";
import type { Db } from "../../../platform/db/client.js";
import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { contactSubaccountsOfYear, insertAccounts, insertSubaccounts } from "../chart/repository.js";
import { PGC_2007 } from "../pgc2007.js";
import { type FiscalYearState, fiscalYears } from "../tables.js";
import type { FiscalYearRow } from "./repository.js";
import * as repo from "./repository.js";

export interface FiscalYearListFilters {
  companyId?: string;
  estado?: FiscalYearState;
  search?: string;
  limit: number;
  offset: number;
}

/**
 * Company condition of a ledger list: with a fiscal-year code the company must be known (the
 * caller's, the one given, or the tenant's only one); otherwise every company the caller sees.
 */
export async function ledgerListScope(
  ctx: AuthedCtx,
  column: PgColumn,
  f: { companyId?: string; fiscalYearCode?: string },
): Promise<SQL | undefined> {
  const id = await ledgerListCompany(ctx, f);
  return id === undefined ? undefined : eq(column, id);
}

/** The company of ledgerListScope's condition, or undefined for every company the caller sees. */
export async function ledgerListCompany(
  ctx: AuthedCtx,
  f: { companyId?: string; fiscalYearCode?: string },
): Promise<string | undefined> {
  if (f.fiscalYearCode) return resolveCompanyForWrite(ctx, f.companyId);
  return companyScopeId(ctx.actor, f.companyId);
}

export function listFiscalYears(ctx: AuthedCtx, f: FiscalYearListFilters) {
  return repo.listFiscalYears(ctx.db, {
    scope: companyFilter(ctx.actor, fiscalYears.companyId, f.companyId),
    estado: f.estado,
    search: f.search,
    limit: f.limit,
    offset: f.offset,
  });
}

export async function getFiscalYear(ctx: AuthedCtx, id: string) {
  return assertCompanyVisible(ctx.actor, await repo.findFiscalYear(ctx.db, id), "Fiscal year");
}

/** The company's year with this code (reports and filters); 404 when it has none. */
export async function getFiscalYearByCode(ctx: AuthedCtx, f: { companyId?: string; code: string }) {
  const companyId = await resolveCompanyForWrite(ctx, f.companyId);
  const year = await repo.findFiscalYearByCode(ctx.db, companyId, f.code);
  if (!year) throw new NotFoundError(`Fiscal year ${f.code}`);
  return year;
}

/** A report's year: the one named, else the latest one started by `date` (default today). */
export async function fiscalYearForReport(
  ctx: AuthedCtx,
  f: { companyId?: string; code?: string; date?: string },
) {
  if (f.code) return getFiscalYearByCode(ctx, { companyId: f.companyId, code: f.code });
  const companyId = await resolveCompanyForWrite(ctx, f.companyId);
  const year = await repo.findFiscalYearForReport(ctx.db, companyId, f.date ?? today());
  if (!year) throw new NotFoundError("Fiscal year");
  return year;
}

/** The year an entry goes to: the one named (the date must fall in it), else the one containing the date. */
export async function fiscalYearForEntry(
  db: Db,
  companyId: string,
  f: { code?: string; date: string },
): Promise<FiscalYearRow> {
  const year = f.code
    ? await repo.findFiscalYearByCode(db, companyId, f.code)
    : await repo.findOverlappingFiscalYear(db, companyId, f.date, f.date);
  if (!year) {
    throw f.code
      ? new BadRequestError(`Unknown fiscal year ${f.code}`, [
          { path: "fiscal_year_code", message: "no fiscal year of the company has this code" },
        ])
      : new BadRequestError(`No fiscal year of the company contains ${f.date}`, [
          { path: "date", message: "is outside every fiscal year" },
        ]);
  }
  if (year.estado === "cerrado") throw new ConflictError(`Fiscal year ${year.code} is closed`);
  if (f.date < year.startDate || f.date > year.endDate) {
    throw new BadRequestError(
      `The date ${f.date} is outside fiscal year ${year.code} (${year.startDate} to ${year.endDate})`,
      [{ path: "date", message: "is outside the fiscal year" }],
    );
  }
  return year;
}

/**
 * Creates the year with its PGC 2007 chart of accounts, and carries over the customer and supplier
 * subaccounts of the previous year, in one transaction.
 */
export async function createFiscalYear(
  ctx: AuthedCtx,
  input: { companyId?: string; code: string; startDate: string; endDate: string },
) {
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  return inTransaction(ctx.db, async (tx) => {
    await repo.lockCompany(tx, "fiscal_years", companyId);
    if (await repo.findFiscalYearByCode(tx, companyId, input.code))
      throw new ConflictError(`The company already has a fiscal year ${input.code}`);
    const overlapping = await repo.findOverlappingFiscalYear(tx, companyId, input.startDate, input.endDate);
    if (overlapping) {
      throw new ConflictError(
        `The dates overlap fiscal year ${overlapping.code} (${overlapping.startDate} to ${overlapping.endDate})`,
      );
    }
    const year = await repo.insertFiscalYear(tx, {
      companyId,
      code: input.code,
      startDate: input.startDate,
      endDate: input.endDate,
    });
    await insertAccounts(
      tx,
      PGC_2007.map((a) => ({
        id: uuidv7(),
        companyId,
        fiscalYearId: year.id,
        code: a.code,
        name: a.name,
        parentCode: a.parentCode,
      })),
    );
    await carryOverContactSubaccounts(tx, year);
    return year;
  });
}

const PGC_CODES = new Set(PGC_2007.map((a) => a.code));

function pgcParentOf(code: string): string | undefined {
  for (let n = code.length - 1; n >= 3; n--) if (PGC_CODES.has(code.slice(0, n))) return code.slice(0, n);
  return undefined;
}

async function carryOverContactSubaccounts(tx: Db, year: FiscalYearRow) {
  const previous = await repo.findPreviousFiscalYear(tx, year.companyId, year.startDate);
  if (!previous) return;
  const rows = (await contactSubaccountsOfYear(tx, previous.id)).flatMap((s) => {
    const accountCode = pgcParentOf(s.code);
    return accountCode
      ? [
          {
            id: uuidv7(),
            companyId: year.companyId,
            fiscalYearId: year.id,
            accountCode,
            code: s.code,
            name: s.name,
            contactId: s.contactId,
            isActive: s.isActive,
          },
        ]
      : [];
  });
  await insertSubaccounts(tx, rows);
}

export async function setFiscalYearState(ctx: AuthedCtx, id: string, estado: FiscalYearState) {
  await getFiscalYear(ctx, id);
  return repo.updateFiscalYearState(ctx.db, id, estado);
}
