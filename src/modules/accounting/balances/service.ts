import { addDays } from "../../../platform/dates.js";
import { allQueries } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, NotFoundError } from "../../../platform/http/errors.js";
import { findAccountByCode, findSubaccountByCode } from "../chart/repository.js";
import type { FiscalYearRow } from "../fiscal-years/repository.js";
import { fiscalYearForReport } from "../fiscal-years/service.js";
import { planBalanceRange } from "./date-ranges.js";
import * as repo from "./repository.js";

const minDate = (a: string, b: string) => (a < b ? a : b);
const maxDate = (a: string, b: string) => (a > b ? a : b);

const ZERO = { debit: "0.00", credit: "0.00", balance: "0.00" };

/** Money as decimal strings with 2 decimals. balance = debit - credit (positive: a debit balance). */
export interface Amounts {
  debit: string;
  credit: string;
  balance: string;
}

export interface Rollup extends Amounts {
  code: string;
  name: string;
}

export interface Balances {
  companyId: string;
  fiscalYearId: string;
  fiscalYearCode: string;
  accountCode: string | null;
  dateTo: string;
  totals: Amounts;
  /** 1-digit groups, 2-digit subgroups, 3-digit accounts, then the subaccounts. */
  groups: Rollup[];
  subgroups: Rollup[];
  accounts: Rollup[];
  subaccounts: (Rollup & { accountCode: string })[];
}

export interface AccountBalance extends Amounts {
  companyId: string;
  fiscalYearCode: string;
  accountCode: string;
  name: string;
  dateTo: string;
}

export interface TrialAmounts {
  openingBalance: string;
  periodDebit: string;
  periodCredit: string;
  closingBalance: string;
}

export interface TrialBalance {
  companyId: string;
  fiscalYearId: string;
  fiscalYearCode: string;
  dateFrom: string;
  dateTo: string;
  totals: TrialAmounts;
  rows: (TrialAmounts & { code: string; name: string; accountCode: string })[];
}

/**
 * Debit, credit and balance per subaccount up to date_to, rolled up to 3-digit accounts, 2-digit
 * subgroups and 1-digit groups, read from the balance tables only.
 */
export async function getBalances(
  ctx: AuthedCtx,
  f: { companyId?: string; fiscalYearCode?: string; accountCode?: string; dateTo?: string },
): Promise<Balances> {
  const year = await fiscalYearForReport(ctx, {
    companyId: f.companyId,
    code: f.fiscalYearCode,
    date: f.dateTo,
  });
  const dateTo = minDate(f.dateTo ?? year.endDate, year.endDate);
  const rows = await repo.balanceRows(ctx.db, {
    fiscalYearId: year.id,
    plan: planBalanceRange(year.startDate, dateTo),
    codePrefix: f.accountCode,
  });
  const out: Balances = {
    companyId: year.companyId,
    fiscalYearId: year.id,
    fiscalYearCode: year.code,
    accountCode: f.accountCode ?? null,
    dateTo,
    totals: ZERO,
    groups: [],
    subgroups: [],
    accounts: [],
    subaccounts: [],
  };
  const byLevel = [undefined, out.groups, out.subgroups, out.accounts] as const;
  for (const { level, code, name, account_code, debit, credit, balance } of rows) {
    const amounts = { debit, credit, balance };
    if (level === 0) out.totals = amounts;
    else if (level === 4) out.subaccounts.push({ code, name, accountCode: account_code ?? "", ...amounts });
    else byLevel[level]?.push({ code, name, ...amounts });
  }
  return out;
}

/** Balance of one group, subgroup, account or subaccount of a year (REST and MCP). */
export async function getAccountBalance(
  ctx: AuthedCtx,
  f: { accountCode: string; fiscalYearCode?: string; companyId?: string; dateTo?: string },
): Promise<AccountBalance> {
  const year = await fiscalYearForReport(ctx, {
    companyId: f.companyId,
    code: f.fiscalYearCode,
    date: f.dateTo,
  });
  const dateTo = minDate(f.dateTo ?? year.endDate, year.endDate);
  const [account, subaccount, sums] = await allQueries(ctx.db, [
    () => findAccountByCode(ctx.db, year.id, f.accountCode),
    () => findSubaccountByCode(ctx.db, year.id, f.accountCode),
    () =>
      repo.prefixTotals(ctx.db, {
        fiscalYearId: year.id,
        plan: planBalanceRange(year.startDate, dateTo),
        codePrefix: f.accountCode,
      }),
  ]);
  const named = account ?? subaccount;
  if (!named) throw new NotFoundError(`Account ${f.accountCode} in fiscal year ${year.code}`);
  return {
    companyId: year.companyId,
    fiscalYearCode: year.code,
    accountCode: f.accountCode,
    name: named.name,
    dateTo,
    ...sums,
  };
}

function trialPeriod(year: FiscalYearRow, dateFrom?: string, dateTo?: string) {
  if (dateFrom && dateTo && dateFrom > dateTo) {
    throw new BadRequestError("date_from is after date_to", [
      { path: "date_from", message: "must not be after date_to" },
    ]);
  }
  return {
    from: maxDate(dateFrom ?? year.startDate, year.startDate),
    to: minDate(dateTo ?? year.endDate, year.endDate),
  };
}

/** Sumas y saldos: per subaccount, the balance before the period, its debits and credits, and the closing balance. */
export async function getTrialBalance(
  ctx: AuthedCtx,
  f: {
    companyId?: string;
    fiscalYearCode?: string;
    accountCode?: string;
    dateFrom?: string;
    dateTo?: string;
  },
): Promise<TrialBalance> {
  const year = await fiscalYearForReport(ctx, {
    companyId: f.companyId,
    code: f.fiscalYearCode,
    date: f.dateTo ?? f.dateFrom,
  });
  const period = trialPeriod(year, f.dateFrom, f.dateTo);
  const rows = await repo.trialBalanceRows(ctx.db, {
    fiscalYearId: year.id,
    opening: planBalanceRange(year.startDate, addDays(period.from, -1)),
    period: planBalanceRange(period.from, period.to),
    codePrefix: f.accountCode,
  });
  const total = rows.find((r) => r.is_total);
  const amounts = (r: repo.TrialBalanceRow): TrialAmounts => ({
    openingBalance: r.opening_balance,
    periodDebit: r.period_debit,
    periodCredit: r.period_credit,
    closingBalance: r.closing_balance,
  });
  return {
    companyId: year.companyId,
    fiscalYearId: year.id,
    fiscalYearCode: year.code,
    dateFrom: period.from,
    dateTo: period.to,
    totals: total
      ? amounts(total)
      : { openingBalance: "0.00", periodDebit: "0.00", periodCredit: "0.00", closingBalance: "0.00" },
    rows: rows
      .filter((r) => !r.is_total)
      .map((r) => ({ code: r.code, name: r.name, accountCode: r.account_code, ...amounts(r) })),
  };
}
