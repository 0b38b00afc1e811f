import { z } from "zod";
import { queryDate } from "../../../platform/http/pagination.js";
import { moneyOutput } from "../../../platform/money.js";
import { accountCodeParam, companyIdParam, fiscalYearCode } from "../chart/schemas.js";

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

export type BalancesOut = z.infer<typeof balancesOut>;
export type TrialBalanceOut = z.infer<typeof trialBalanceOut>;
export type AccountBalanceOut = z.infer<typeof accountBalanceOut>;
