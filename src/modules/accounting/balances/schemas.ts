import { z } from "zod";
import { queryDate } from "../../../platform/http/pagination.js";
import { moneyOutput } from "../../../platform/money.js";
import { accountCodeParam, companyIdParam, fiscalYearCode } from "../params.js";
import type { AccountBalance, Balances, Rollup, TrialAmounts, TrialBalance } from "./service.js";

const amounts = {
  debit: moneyOutput,
  credit: moneyOutput,
  balance: moneyOutput.describe("debit - credit: positive is a debit balance, negative a credit one"),
};

export const balancesQuery = z.object({
  company_id: companyIdParam,
  fiscal_year_code: fiscalYearCode
    .optional()
    .describe("Fiscal year; when absent, the latest one started by date_to (or today)"),
  account_code: accountCodeParam.optional().describe("Only subaccounts whose code starts with this"),
  date_to: queryDate.optional().describe("Movements up to this date, inclusive; the whole year when absent"),
});

const rollupOut = z.object({ code: z.string(), name: z.string(), ...amounts });

export const balancesOut = z.object({
  company_id: z.uuid(),
  fiscal_year_id: z.uuid(),
  fiscal_year_code: z.string(),
  account_code: z.string().nullable(),
  date_to: z.string(),
  totals: z.object(amounts),
  groups: z.array(rollupOut).describe("1-digit groups"),
  subgroups: z.array(rollupOut).describe("2-digit subgroups"),
  accounts: z.array(rollupOut).describe("3-digit accounts"),
  subaccounts: z.array(rollupOut.extend({ account_code: z.string() })),
});

export const trialBalanceQuery = z.object({
  company_id: companyIdParam,
  fiscal_year_code: fiscalYearCode
    .optional()
    .describe("Fiscal year; when absent, the latest one started by date_to (or today)"),
  account_code: accountCodeParam.optional().describe("Only subaccounts whose code starts with this"),
  date_from: queryDate.optional().describe("Start of the period; the year's first day when absent"),
  date_to: queryDate.optional().describe("End of the period, inclusive; the year's last day when absent"),
});

const trialAmounts = {
  opening_balance: moneyOutput.describe("Balance (debit - credit) before date_from"),
  period_debit: moneyOutput,
  period_credit: moneyOutput,
  closing_balance: moneyOutput.describe("Balance at date_to"),
};

export const trialBalanceOut = z.object({
  company_id: z.uuid(),
  fiscal_year_id: z.uuid(),
  fiscal_year_code: z.string(),
  date_from: z.string(),
  date_to: z.string(),
  totals: z.object(trialAmounts),
  rows: z.array(z.object({ code: z.string(), name: z.string(), account_code: z.string(), ...trialAmounts })),
});

export const accountBalanceOut = z.object({
  company_id: z.uuid(),
  fiscal_year_code: z.string(),
  account_code: z.string(),
  name: z.string(),
  date_to: z.string(),
  ...amounts,
});

const toRollupOut = (r: Rollup) => ({
  code: r.code,
  name: r.name,
  debit: r.debit,
  credit: r.credit,
  balance: r.balance,
});

export function toBalancesOut(b: Balances): z.infer<typeof balancesOut> {
  return {
    company_id: b.companyId,
    fiscal_year_id: b.fiscalYearId,
    fiscal_year_code: b.fiscalYearCode,
    account_code: b.accountCode,
    date_to: b.dateTo,
    totals: { debit: b.totals.debit, credit: b.totals.credit, balance: b.totals.balance },
    groups: b.groups.map(toRollupOut),
    subgroups: b.subgroups.map(toRollupOut),
    accounts: b.accounts.map(toRollupOut),
    subaccounts: b.subaccounts.map((s) => ({ ...toRollupOut(s), account_code: s.accountCode })),
  };
}

export function toAccountBalanceOut(a: AccountBalance): z.infer<typeof accountBalanceOut> {
  return {
    company_id: a.companyId,
    fiscal_year_code: a.fiscalYearCode,
    account_code: a.accountCode,
    name: a.name,
    date_to: a.dateTo,
    debit: a.debit,
    credit: a.credit,
    balance: a.balance,
  };
}

const toTrialAmountsOut = (t: TrialAmounts) => ({
  opening_balance: t.openingBalance,
  period_debit: t.periodDebit,
  period_credit: t.periodCredit,
  closing_balance: t.closingBalance,
});

export function toTrialBalanceOut(t: TrialBalance): z.infer<typeof trialBalanceOut> {
  return {
    company_id: t.companyId,
    fiscal_year_id: t.fiscalYearId,
    fiscal_year_code: t.fiscalYearCode,
    date_from: t.dateFrom,
    date_to: t.dateTo,
    totals: toTrialAmountsOut(t.totals),
    rows: t.rows.map((r) => ({
      code: r.code,
      name: r.name,
      account_code: r.accountCode,
      ...toTrialAmountsOut(r),
    })),
  };
}
