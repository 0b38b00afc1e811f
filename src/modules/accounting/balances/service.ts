import { addDays } from "../../../platform/dates.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, NotFoundError } from "../../../platform/http/errors.js";
import { findAccountByCode, findSubaccountByCode } from "../chart/repository.js";
import type { FiscalYearRow } from "../fiscal-years/repository.js";
import { fiscalYearForReport } from "../fiscal-years/service.js";
import { planBalanceRange } from "./date-ranges.js";
import * as repo from "./repository.js";
import type { AccountBalanceOut, BalancesOut, TrialBalanceOut } from "./schemas.js";

const minDate = (a: string, b: string) => (a < b ? a : b);
const maxDate = (a: string, b: string) => (a > b ? a : b);

const ZERO = { debit: "0.00", credit: "0.00", balance: "0.00" };

/**
 * Debit, credit and balance per subaccount up to date_to, rolled up to 3-digit accounts, 2-digit
 * subgroups and 1-digit groups, read from the balance tables only.
 */
export async function getBalances(
  ctx: AuthedCtx,
  f: { companyId?: string; fiscalYearCode?: string; accountCode?: string; dateTo?: string },
): Promise<BalancesOut> {
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
  const out: BalancesOut = {
    company_id: year.companyId,
    fiscal_year_id: year.id,
    fiscal_year_code: year.code,
    account_code: f.accountCode ?? null,
    date_to: dateTo,
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
    else if (level === 4) out.subaccounts.push({ code, name, account_code: account_code ?? "", ...amounts });
    else byLevel[level]?.push({ code, name, ...amounts });
  }
  return out;
}

/** Balance of one group, subgroup, account or subaccount of a year (REST and MCP). */
export async function getAccountBalance(
  ctx: AuthedCtx,
  f: { accountCode: string; fiscalYearCode?: string; companyId?: string; dateTo?: string },
): Promise<AccountBalanceOut> {
  const year = await fiscalYearForReport(ctx, {
    companyId: f.companyId,
    code: f.fiscalYearCode,
    date: f.dateTo,
  });
  const dateTo = minDate(f.dateTo ?? year.endDate, year.endDate);
  const [account, subaccount, sums] = await Promise.all([
    findAccountByCode(ctx.db, year.id, f.accountCode),
    findSubaccountByCode(ctx.db, year.id, f.accountCode),
    repo.prefixTotals(ctx.db, {
      fiscalYearId: year.id,
      plan: planBalanceRange(year.startDate, dateTo),
      codePrefix: f.accountCode,
    }),
  ]);
  const named = account ?? subaccount;
  if (!named) throw new NotFoundError(`Account ${f.accountCode} in fiscal year ${year.code}`);
  return {
    company_id: year.companyId,
    fiscal_year_code: year.code,
    account_code: f.accountCode,
    name: named.name,
    date_to: dateTo,
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
): Promise<TrialBalanceOut> {
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
  const amounts = (r: repo.TrialBalanceRow) => ({
    opening_balance: r.opening_balance,
    period_debit: r.period_debit,
    period_credit: r.period_credit,
    closing_balance: r.closing_balance,
  });
  return {
    company_id: year.companyId,
    fiscal_year_id: year.id,
    fiscal_year_code: year.code,
    date_from: period.from,
    date_to: period.to,
    totals: total
      ? amounts(total)
      : { opening_balance: "0.00", period_debit: "0.00", period_credit: "0.00", closing_balance: "0.00" },
    rows: rows
      .filter((r) => !r.is_total)
      .map((r) => ({ code: r.code, name: r.name, account_code: r.account_code, ...amounts(r) })),
  };
}
