import type { AuthedCtx } from "../../platform/http/context.js";
import { BadRequestError, NotFoundError } from "../../platform/http/errors.js";
import { Dec, dec, toMoney } from "../../platform/money.js";
import * as repo from "./balances.repository.js";
import type { AccountBalanceOut, BalancesOut, TrialBalanceOut } from "./balances.schemas.js";
import { accountNames, findAccountByCode, findSubaccountByCode } from "./chart.repository.js";
import { addDays, planBalanceRange } from "./date-ranges.js";
import { fiscalYearForReport } from "./fiscal-years.service.js";
import type { FiscalYearRow } from "./repository.js";

const minDate = (a: string, b: string) => (a < b ? a : b);
const maxDate = (a: string, b: string) => (a > b ? a : b);

function amountsOut(debit: Dec, credit: Dec) {
  return { debit: toMoney(debit), credit: toMoney(credit), balance: toMoney(debit.minus(credit)) };
}

class Totals {
  debit = new Dec(0);
  credit = new Dec(0);
  add(debit: string | Dec, credit: string | Dec) {
    this.debit = this.debit.plus(debit);
    this.credit = this.credit.plus(credit);
  }
}

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
  const rows = await repo.subaccountTotals(ctx.db, {
    fiscalYearId: year.id,
    plan: planBalanceRange(year.startDate, dateTo),
    codePrefix: f.accountCode,
  });
  const levels = [1, 2, 3].map(() => new Map<string, Totals>());
  const totals = new Totals();
  for (const row of rows) {
    totals.add(row.debit, row.credit);
    levels.forEach((level, i) => {
      const code = row.code.slice(0, i + 1);
      const t = level.get(code) ?? new Totals();
      t.add(row.debit, row.credit);
      level.set(code, t);
    });
  }
  const names = await accountNames(
    ctx.db,
    year.id,
    levels.flatMap((level) => [...level.keys()]),
  );
  const rollup = (level: Map<string, Totals>) =>
    [...level.entries()].map(([code, t]) => ({
      code,
      name: names.get(code) ?? "",
      ...amountsOut(t.debit, t.credit),
    }));
  return {
    company_id: year.companyId,
    fiscal_year_id: year.id,
    fiscal_year_code: year.code,
    account_code: f.accountCode ?? null,
    date_to: dateTo,
    totals: amountsOut(totals.debit, totals.credit),
    groups: rollup(levels[0]),
    subgroups: rollup(levels[1]),
    accounts: rollup(levels[2]),
    subaccounts: rows.map((r) => ({
      code: r.code,
      name: r.name,
      account_code: r.account_code,
      ...amountsOut(dec(r.debit), dec(r.credit)),
    })),
  };
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
  const [account, subaccount] = await Promise.all([
    findAccountByCode(ctx.db, year.id, f.accountCode),
    findSubaccountByCode(ctx.db, year.id, f.accountCode),
  ]);
  const named = account ?? subaccount;
  if (!named) throw new NotFoundError(`Account ${f.accountCode} in fiscal year ${year.code}`);
  const dateTo = minDate(f.dateTo ?? year.endDate, year.endDate);
  const sums = await repo.prefixTotals(ctx.db, {
    fiscalYearId: year.id,
    plan: planBalanceRange(year.startDate, dateTo),
    codePrefix: f.accountCode,
  });
  return {
    company_id: year.companyId,
    fiscal_year_code: year.code,
    account_code: f.accountCode,
    name: named.name,
    date_to: dateTo,
    ...amountsOut(dec(sums.debit), dec(sums.credit)),
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
  const opening = new Totals();
  const inPeriod = new Totals();
  const out = rows.map((r) => {
    opening.add(r.opening_debit, r.opening_credit);
    inPeriod.add(r.period_debit, r.period_credit);
    const openingBalance = dec(r.opening_debit).minus(r.opening_credit);
    return {
      code: r.code,
      name: r.name,
      account_code: r.account_code,
      opening_balance: toMoney(openingBalance),
      period_debit: toMoney(r.period_debit),
      period_credit: toMoney(r.period_credit),
      closing_balance: toMoney(openingBalance.plus(r.period_debit).minus(r.period_credit)),
    };
  });
  const openingBalance = opening.debit.minus(opening.credit);
  return {
    company_id: year.companyId,
    fiscal_year_id: year.id,
    fiscal_year_code: year.code,
    date_from: period.from,
    date_to: period.to,
    totals: {
      opening_balance: toMoney(openingBalance),
      period_debit: toMoney(inPeriod.debit),
      period_credit: toMoney(inPeriod.credit),
      closing_balance: toMoney(openingBalance.plus(inPeriod.debit).minus(inPeriod.credit)),
    },
    rows: out,
  };
}
