import { addDays, today } from "../../../platform/dates.js";
import { allQueries } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, NotFoundError } from "../../../platform/http/errors.js";
import { Dec, dec, toMoney } from "../../../platform/money.js";
import { getBalances } from "../../accounting/index.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { agingByContact, openDueSumsByDate } from "../../documents/index.js";
import { bankAccountsOfCompany } from "../bank-accounts/service.js";
import { occurrences } from "../budgets/recurrence.js";
import { budgetsInWindow } from "../budgets/service.js";
import { type Bucket, bucketCount, bucketIndex, buckets, type Granularity } from "./buckets.js";

/** More buckets than this is a 400 (a wider window takes a coarser granularity). */
export const MAX_BUCKETS = 400;
/** The default window: today and the next 90 days. */
export const DEFAULT_DAYS = 90;

export interface CashFlowInput {
  companyId?: string;
  from?: string;
  to?: string;
  granularity?: Granularity;
  bankAccountId?: string;
}

export interface CashFlowBucket extends Bucket {
  inflows: { receipts: string; forecast: string; total: string };
  outflows: { payments: string; forecast: string; total: string };
  net: string;
  closing: string;
}

export interface CashFlow {
  companyId: string;
  from: string;
  to: string;
  granularity: Granularity;
  today: string;
  bankAccountId: string | null;
  /** The ledger's balance of the bank subaccounts on `balanceDate` (today, or `from` when earlier). */
  ledgerBalance: string;
  balanceDate: string;
  /** When `from` is after today: open receipts and payments and forecast lines from today to the day before. */
  expectedBeforeFrom: string;
  opening: string;
  buckets: CashFlowBucket[];
  closing: string;
  overdue: {
    receivables: string;
    receivablesCount: number;
    payables: string;
    payablesCount: number;
  };
  /** closing + overdue receivables - overdue payables: if every overdue item were settled. */
  closingWithOverdue: string;
  bankBalances: Array<{
    bankAccountId: string;
    name: string;
    iban: string;
    subaccountCode: string;
    balance: string;
  }>;
  /** Other 57x subaccounts (cash, subaccounts with no bank account): in the opening without a bank filter. */
  otherCash: string;
}

const ZERO = new Dec(0);
const minDate = (a: string, b: string) => (a < b ? a : b);

function checkWindow(from: string, to: string, granularity: Granularity) {
  if (from > to)
    throw new BadRequestError("from is after to", [{ path: "from", message: "must not be after to" }]);
  const n = bucketCount(from, to, granularity);
  if (n > MAX_BUCKETS)
    throw new BadRequestError(
      `${n} buckets of a ${granularity}: at most ${MAX_BUCKETS}, take a coarser granularity`,
      [{ path: "granularity", message: `makes ${n} buckets (at most ${MAX_BUCKETS})` }],
    );
}

/** Balances of the company's 57x subaccounts on `date`; none before its first fiscal year. */
async function cashSubaccountBalances(ctx: AuthedCtx, companyId: string, date: string) {
  try {
    const balances = await getBalances(ctx, { companyId, accountCode: "57", dateTo: date });
    return new Map(balances.subaccounts.map((s) => [s.code, dec(s.balance)]));
  } catch (err) {
    if (err instanceof NotFoundError) return new Map<string, Dec>();
    throw err;
  }
}

/**
 * The cash-flow forecast of a company: the opening balance (the ledger's balance of its bank
 * subaccounts, plus what is expected between today and `from`), then per bucket the inflows (open
 * customer receipts by due date, positive forecast lines) and outflows (open supplier payments,
 * negative forecast lines), the net and the running closing balance. Receipts and payments already
 * past due are not in the buckets: they are reported apart as overdue. Each source is read by one
 * set-based query.
 */
export async function getCashFlow(ctx: AuthedCtx, input: CashFlowInput): Promise<CashFlow> {
  const now = today();
  const from = input.from ?? now;
  const to = input.to ?? addDays(from, DEFAULT_DAYS);
  const granularity = input.granularity ?? "week";
  checkWindow(from, to, granularity);
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  const banks = await bankAccountsOfCompany(ctx, companyId);
  const bank = input.bankAccountId ? banks.find((b) => b.id === input.bankAccountId) : undefined;
  if (input.bankAccountId && !bank)
    throw new BadRequestError("bank_account_id is not a bank account of the company", [
      { path: "bank_account_id", message: "must be a bank account of the company" },
    ]);

  const balanceDate = minDate(from, now);
  const windowStart = minDate(from, now);
  const [balances, dueSums, budgetLines] = await allQueries(ctx.db, [
    () => cashSubaccountBalances(ctx, companyId, balanceDate),
    () => openDueSumsByDate(ctx, { companyId, to }),
    () => budgetsInWindow(ctx, { companyId, from: windowStart, to, bankAccountId: bank?.id }),
  ]);

  const bankBalances = banks.map((b) => ({
    bankAccountId: b.id,
    name: b.name,
    iban: b.iban,
    subaccountCode: b.subaccountCode,
    balance: balances.get(b.subaccountCode) ?? ZERO,
  }));
  const bankCodes = new Set(banks.map((b) => b.subaccountCode));
  let otherCash = ZERO;
  for (const [code, balance] of balances) if (!bankCodes.has(code)) otherCash = otherCash.plus(balance);
  const ledgerBalance = bank
    ? (balances.get(bank.subaccountCode) ?? ZERO)
    : bankBalances.reduce((acc, b) => acc.plus(b.balance), otherCash);

  const list = buckets(from, to, granularity);
  const acc = list.map(() => ({ receipts: ZERO, payments: ZERO, forecastIn: ZERO, forecastOut: ZERO }));
  let expectedBeforeFrom = ZERO;
  const overdue = { receivables: ZERO, receivablesCount: 0, payables: ZERO, payablesCount: 0 };

  for (const row of dueSums) {
    const open = dec(row.open);
    if (row.due_date < now) {
      if (row.direction === "sale") {
        overdue.receivables = overdue.receivables.plus(open);
        overdue.receivablesCount += row.dues;
      } else {
        overdue.payables = overdue.payables.plus(open);
        overdue.payablesCount += row.dues;
      }
      continue;
    }
    const signed = row.direction === "sale" ? open : open.negated();
    if (row.due_date < from) {
      expectedBeforeFrom = expectedBeforeFrom.plus(signed);
      continue;
    }
    const i = bucketIndex(list, row.due_date);
    if (i < 0) continue;
    if (row.direction === "sale") acc[i].receipts = acc[i].receipts.plus(open);
    else acc[i].payments = acc[i].payments.plus(open);
  }

  for (const line of budgetLines) {
    const amount = dec(line.amount);
    for (const date of occurrences(line, windowStart, to)) {
      if (date < from) {
        if (date >= now) expectedBeforeFrom = expectedBeforeFrom.plus(amount);
        continue;
      }
      const i = bucketIndex(list, date);
      if (i < 0) continue;
      if (amount.isPositive()) acc[i].forecastIn = acc[i].forecastIn.plus(amount);
      else acc[i].forecastOut = acc[i].forecastOut.plus(amount.negated());
    }
  }

  const opening = ledgerBalance.plus(expectedBeforeFrom);
  let running = opening;
  const out = list.map((b, i) => {
    const a = acc[i];
    const inflows = a.receipts.plus(a.forecastIn);
    const outflows = a.payments.plus(a.forecastOut);
    const net = inflows.minus(outflows);
    running = running.plus(net);
    return {
      ...b,
      inflows: { receipts: toMoney(a.receipts), forecast: toMoney(a.forecastIn), total: toMoney(inflows) },
      outflows: { payments: toMoney(a.payments), forecast: toMoney(a.forecastOut), total: toMoney(outflows) },
      net: toMoney(net),
      closing: toMoney(running),
    };
  });

  return {
    companyId,
    from,
    to,
    granularity,
    today: now,
    bankAccountId: bank?.id ?? null,
    ledgerBalance: toMoney(ledgerBalance),
    balanceDate,
    expectedBeforeFrom: toMoney(expectedBeforeFrom),
    opening: toMoney(opening),
    buckets: out,
    closing: toMoney(running),
    overdue: {
      receivables: toMoney(overdue.receivables),
      receivablesCount: overdue.receivablesCount,
      payables: toMoney(overdue.payables),
      payablesCount: overdue.payablesCount,
    },
    closingWithOverdue: toMoney(running.plus(overdue.receivables).minus(overdue.payables)),
    bankBalances: bankBalances
      .filter((b) => !bank || b.bankAccountId === bank.id)
      .map((b) => ({ ...b, balance: toMoney(b.balance) })),
    otherCash: toMoney(bank ? ZERO : otherCash),
  };
}

export interface AgingBuckets {
  notDue: string;
  days0To30: string;
  days31To60: string;
  days61To90: string;
  over90: string;
  total: string;
}

export interface AgingReport {
  companyId: string;
  asOf: string;
  receivables: {
    contacts: Array<AgingBuckets & { contactId: string; contactName: string; contactTaxId: string | null }>;
    totals: AgingBuckets;
  };
  payables: AgingReport["receivables"];
}

const BUCKET_KEYS = ["notDue", "days0To30", "days31To60", "days61To90", "over90", "total"] as const;

/**
 * Receivables and payables per contact at `asOf` (default today): the open amounts of the invoices
 * issued by then, by days past due — 0-30 (due that day up to 30 days ago), 31-60, 61-90, more than
 * 90 — and what is not due yet apart. One grouped query.
 */
export async function getAging(
  ctx: AuthedCtx,
  input: { companyId?: string; asOf?: string },
): Promise<AgingReport> {
  const asOf = input.asOf ?? today();
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  const rows = await agingByContact(ctx, { companyId, asOf });
  const side = (direction: "sale" | "purchase") => {
    const totals = Object.fromEntries(BUCKET_KEYS.map((k) => [k, ZERO])) as Record<
      (typeof BUCKET_KEYS)[number],
      Dec
    >;
    const contacts = rows
      .filter((r) => r.direction === direction)
      .map((r) => {
        const b = {
          notDue: r.not_due,
          days0To30: r.d0_30,
          days31To60: r.d31_60,
          days61To90: r.d61_90,
          over90: r.over_90,
          total: r.total,
        };
        for (const k of BUCKET_KEYS) totals[k] = totals[k].plus(b[k]);
        return { contactId: r.contact_id, contactName: r.contact_name, contactTaxId: r.contact_tax_id, ...b };
      });
    return {
      contacts,
      totals: Object.fromEntries(BUCKET_KEYS.map((k) => [k, toMoney(totals[k])])) as unknown as AgingBuckets,
    };
  };
  return { companyId, asOf, receivables: side("sale"), payables: side("purchase") };
}
