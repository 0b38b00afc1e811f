import { z } from "zod";
import { queryDate } from "../../../platform/http/pagination.js";
import { moneyOutput } from "../../../platform/money.js";
import { GRANULARITIES } from "./buckets.js";
import type { AgingBuckets, AgingReport, CashFlow } from "./service.js";

export const cashFlowQuery = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  from: queryDate.optional().describe("First day; default today"),
  to: queryDate.optional().describe("Last day; default from + 90 days"),
  granularity: z
    .enum(GRANULARITIES)
    .optional()
    .describe("day, week (ISO, Monday to Sunday) or month; default week"),
  bank_account_id: z
    .uuid()
    .optional()
    .describe(
      "Only this account's balance and forecast lines (open receipts and payments have no account yet: all count)",
    ),
});

const flowIn = z.object({ receipts: moneyOutput, forecast: moneyOutput, total: moneyOutput });
const flowOut = z.object({ payments: moneyOutput, forecast: moneyOutput, total: moneyOutput });

export const cashFlowOut = z.object({
  company_id: z.uuid(),
  from: z.string(),
  to: z.string(),
  granularity: z.enum(GRANULARITIES),
  today: z.string().describe("The day overdue is counted against"),
  bank_account_id: z.uuid().nullable(),
  ledger_balance: moneyOutput.describe("The ledger's balance of the bank (57x) subaccounts on balance_date"),
  balance_date: z.string().describe("today, or from when it is earlier"),
  expected_before_from: moneyOutput.describe(
    "When from is after today: open receipts minus payments and forecast lines between today and from",
  ),
  opening: moneyOutput.describe("ledger_balance + expected_before_from"),
  buckets: z.array(
    z.object({
      start: z.string(),
      end: z.string(),
      label: z.string().describe("2026-11-23, 2026-W48 or 2026-11"),
      inflows: flowIn.describe("Open customer receipts due in the bucket, and positive forecast lines"),
      outflows: flowOut.describe(
        "Open supplier payments due in the bucket, and negative forecast lines (as positive amounts)",
      ),
      net: moneyOutput,
      closing: moneyOutput.describe("Running balance at the end of the bucket"),
    }),
  ),
  closing: moneyOutput,
  overdue: z
    .object({
      receivables: moneyOutput,
      receivables_count: z.number().int(),
      payables: moneyOutput,
      payables_count: z.number().int(),
    })
    .describe("Open receipts and payments due before today: apart, not in the buckets"),
  closing_with_overdue: moneyOutput.describe("closing + overdue receivables - overdue payables"),
  bank_balances: z.array(
    z.object({
      bank_account_id: z.uuid(),
      name: z.string(),
      iban: z.string(),
      subaccount_code: z.string(),
      balance: moneyOutput,
    }),
  ),
  other_cash: moneyOutput.describe(
    "Other 57x subaccounts (cash...), in the opening when no bank account is chosen",
  ),
});

export function toCashFlowOut(c: CashFlow): z.infer<typeof cashFlowOut> {
  return {
    company_id: c.companyId,
    from: c.from,
    to: c.to,
    granularity: c.granularity,
    today: c.today,
    bank_account_id: c.bankAccountId,
    ledger_balance: c.ledgerBalance,
    balance_date: c.balanceDate,
    expected_before_from: c.expectedBeforeFrom,
    opening: c.opening,
    buckets: c.buckets,
    closing: c.closing,
    overdue: {
      receivables: c.overdue.receivables,
      receivables_count: c.overdue.receivablesCount,
      payables: c.overdue.payables,
      payables_count: c.overdue.payablesCount,
    },
    closing_with_overdue: c.closingWithOverdue,
    bank_balances: c.bankBalances.map((b) => ({
      bank_account_id: b.bankAccountId,
      name: b.name,
      iban: b.iban,
      subaccount_code: b.subaccountCode,
      balance: b.balance,
    })),
    other_cash: c.otherCash,
  };
}

export const agingQuery = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  as_of: queryDate.optional().describe("Default today"),
});

const agingBuckets = z.object({
  not_due: moneyOutput.describe("Due after as_of"),
  days_0_30: moneyOutput.describe("Due on as_of or up to 30 days before"),
  days_31_60: moneyOutput,
  days_61_90: moneyOutput,
  over_90: moneyOutput,
  total: moneyOutput,
});

const agingSide = z.object({
  contacts: z.array(
    agingBuckets.extend({
      contact_id: z.uuid(),
      contact_name: z.string(),
      contact_tax_id: z.string().nullable(),
    }),
  ),
  totals: agingBuckets,
});

export const agingOut = z.object({
  company_id: z.uuid(),
  as_of: z.string(),
  receivables: agingSide.describe("Open customer receipts per customer"),
  payables: agingSide.describe("Open supplier payments per supplier"),
});

const toBuckets = (b: AgingBuckets) => ({
  not_due: b.notDue,
  days_0_30: b.days0To30,
  days_31_60: b.days31To60,
  days_61_90: b.days61To90,
  over_90: b.over90,
  total: b.total,
});

export function toAgingOut(a: AgingReport): z.infer<typeof agingOut> {
  const side = (s: AgingReport["receivables"]) => ({
    contacts: s.contacts.map((c) => ({
      contact_id: c.contactId,
      contact_name: c.contactName,
      contact_tax_id: c.contactTaxId,
      ...toBuckets(c),
    })),
    totals: toBuckets(s.totals),
  });
  return {
    company_id: a.companyId,
    as_of: a.asOf,
    receivables: side(a.receivables),
    payables: side(a.payables),
  };
}
