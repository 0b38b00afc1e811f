import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { queryOne, queryRows } from "../../platform/db/sql.js";
import type { BalanceRangePlan } from "./date-ranges.js";

/**
 * Rows (subaccount_id, debit, credit) of the balance tables covering a date range of one year:
 * whole months from the monthly table, loose days from the daily one. Never the journal lines.
 */
function balanceParts(fiscalYearId: string, plan: BalanceRangePlan, extra: SQL = sql``): SQL[] {
  const parts: SQL[] = [];
  if (plan.months) {
    parts.push(sql`select subaccount_id, debit, credit ${extra} from ledger_monthly_balances
                    where fiscal_year_id = ${fiscalYearId}
                      and month between ${plan.months.from} and ${plan.months.to}`);
  }
  for (const days of plan.days) {
    parts.push(sql`select subaccount_id, debit, credit ${extra} from ledger_daily_balances
                    where fiscal_year_id = ${fiscalYearId}
                      and date between ${days.from} and ${days.to}`);
  }
  return parts;
}

const codePrefixCondition = (prefix?: string) => (prefix ? sql`where s.code like ${`${prefix}%`}` : sql``);

export interface SubaccountTotalsRow {
  code: string;
  name: string;
  account_code: string;
  debit: string;
  credit: string;
}

export async function subaccountTotals(
  db: Db,
  f: { fiscalYearId: string; plan: BalanceRangePlan; codePrefix?: string },
): Promise<SubaccountTotalsRow[]> {
  const parts = balanceParts(f.fiscalYearId, f.plan);
  if (!parts.length) return [];
  return queryRows<SubaccountTotalsRow>(
    db,
    sql`select s.code, s.name, s.account_code, sum(b.debit) as debit, sum(b.credit) as credit
          from (${sql.join(parts, sql` union all `)}) b
          join subaccounts s on s.id = b.subaccount_id
          ${codePrefixCondition(f.codePrefix)}
         group by s.id
         order by s.code collate "C"`,
  );
}

export async function prefixTotals(
  db: Db,
  f: { fiscalYearId: string; plan: BalanceRangePlan; codePrefix: string },
): Promise<{ debit: string; credit: string }> {
  const parts = balanceParts(f.fiscalYearId, f.plan);
  if (!parts.length) return { debit: "0", credit: "0" };
  const row = await queryOne<{ debit: string; credit: string }>(
    db,
    sql`select coalesce(sum(b.debit), 0) as debit, coalesce(sum(b.credit), 0) as credit
          from (${sql.join(parts, sql` union all `)}) b
          join subaccounts s on s.id = b.subaccount_id
          ${codePrefixCondition(f.codePrefix)}`,
  );
  return row ?? { debit: "0", credit: "0" };
}

export interface TrialBalanceRow {
  code: string;
  name: string;
  account_code: string;
  opening_debit: string;
  opening_credit: string;
  period_debit: string;
  period_credit: string;
}

/** Per subaccount: sums before the period (opening) and within it, in one pass over the balance tables. */
export async function trialBalanceRows(
  db: Db,
  f: { fiscalYearId: string; opening: BalanceRangePlan; period: BalanceRangePlan; codePrefix?: string },
): Promise<TrialBalanceRow[]> {
  const parts = [
    ...balanceParts(f.fiscalYearId, f.opening, sql`, false as in_period`),
    ...balanceParts(f.fiscalYearId, f.period, sql`, true as in_period`),
  ];
  if (!parts.length) return [];
  return queryRows<TrialBalanceRow>(
    db,
    sql`select s.code, s.name, s.account_code,
               coalesce(sum(b.debit) filter (where not b.in_period), 0) as opening_debit,
               coalesce(sum(b.credit) filter (where not b.in_period), 0) as opening_credit,
               coalesce(sum(b.debit) filter (where b.in_period), 0) as period_debit,
               coalesce(sum(b.credit) filter (where b.in_period), 0) as period_credit
          from (${sql.join(parts, sql` union all `)}) b
          join subaccounts s on s.id = b.subaccount_id
          ${codePrefixCondition(f.codePrefix)}
         group by s.id
         order by s.code collate "C"`,
  );
}
