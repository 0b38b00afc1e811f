import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { preparedByShape, preparedSql } from "../../../platform/db/prepared.js";
import { queryOne, queryRows } from "../../../platform/db/sql.js";
import type { BalanceRangePlan } from "./date-ranges.js";

/** A value for the SQL: the value itself (built per call) or its placeholder (prepared). */
type Param = (key: string) => unknown;

/** What of a plan changes the SQL: whole months or not, and how many spans of loose days. */
const planShape = (plan: BalanceRangePlan) => `${plan.months ? 1 : 0}${plan.days.length}`;

/** A plan's dates by the names balanceParts gives their parameters (`key` tells two plans apart). */
function planValues(plan: BalanceRangePlan, key = ""): Record<string, string> {
  const values: Record<string, string> = {};
  if (plan.months)
    Object.assign(values, { [`${key}monthsFrom`]: plan.months.from, [`${key}monthsTo`]: plan.months.to });
  for (const [i, days] of plan.days.entries()) {
    values[`${key}days${i}From`] = days.from;
    values[`${key}days${i}To`] = days.to;
  }
  return values;
}

/**
 * Rows (subaccount_id, debit, credit) of the balance tables covering a date range of one year:
 * whole months from the monthly table, loose days from the daily one. Never the journal lines.
 * `shape` is planShape's; the dates are `param`s named by planValues (with the same `key`).
 */
function balanceParts(shape: string, param: Param, key = "", extra: SQL = sql``): SQL[] {
  const parts: SQL[] = [];
  if (shape[0] === "1") {
    parts.push(sql`select subaccount_id, debit, credit ${extra} from ledger_monthly_balances
                    where fiscal_year_id = ${param("fiscalYearId")}
                      and month between ${param(`${key}monthsFrom`)} and ${param(`${key}monthsTo`)}`);
  }
  for (let i = 0; i < Number(shape[1]); i++) {
    parts.push(sql`select subaccount_id, debit, credit ${extra} from ledger_daily_balances
                    where fiscal_year_id = ${param("fiscalYearId")}
                      and date between ${param(`${key}days${i}From`)} and ${param(`${key}days${i}To`)}`);
  }
  return parts;
}

const valuesOf =
  (values: Record<string, unknown>): Param =>
  (key) =>
    values[key];

const placeholder: Param = (key) => sql.placeholder(key);

const codePrefixCondition = (hasPrefix: boolean, param: Param) =>
  hasPrefix ? sql`where s.code like ${param("codePattern")}` : sql``;

/** Money as the API writes it: 2 decimals, computed by PostgreSQL's exact NUMERIC. */
const money = (expression: SQL) => sql`(${expression})::numeric(20, 2)::text`;

export interface BalanceRow {
  /** 0: grand total; 1, 2, 3: group, subgroup, account rollups; 4: subaccount. */
  level: number;
  code: string;
  name: string;
  account_code: string | null;
  debit: string;
  credit: string;
  balance: string;
}

/**
 * Per subaccount sums over the range, their rollups to 1-, 2- and 3-digit codes (named from the
 * year's chart) and the grand total, in one query ordered by level then code; prepared per shape
 * of the plan (whole months, loose-day spans) and code prefix.
 */
const balanceRowsOfShape = preparedByShape("cuadra_balance_rows", (db, shape) =>
  preparedSql<BalanceRow>(
    db,
    sql`with totals as (
          select s.code, s.name, s.account_code, sum(b.debit) as debit, sum(b.credit) as credit
            from (${sql.join(balanceParts(shape, placeholder), sql` union all `)}) b
            join subaccounts s on s.id = b.subaccount_id
            ${codePrefixCondition(shape[2] === "1", placeholder)}
           group by s.id
        ),
        rollups as (
          select p.code, sum(t.debit) as debit, sum(t.credit) as credit
            from totals t
            cross join lateral (values (left(t.code, 1)), (left(t.code, 2)), (left(t.code, 3))) p(code)
           group by p.code
        ),
        all_levels as (
          select 4 as level, code, name, account_code, debit, credit from totals
          union all
          select length(r.code), r.code, coalesce(a.name, ''), null, r.debit, r.credit
            from rollups r
            left join accounts a on a.fiscal_year_id = ${placeholder("fiscalYearId")} and a.code = r.code
          union all
          select 0, '', '', null, sum(debit), sum(credit) from totals
        )
        select level, code, name, account_code, ${money(sql`coalesce(debit, 0)`)} as debit,
               ${money(sql`coalesce(credit, 0)`)} as credit,
               ${money(sql`coalesce(debit, 0) - coalesce(credit, 0)`)} as balance
          from all_levels
         order by level, code collate "C"`,
  ),
);

export async function balanceRows(
  db: Db,
  f: { fiscalYearId: string; plan: BalanceRangePlan; codePrefix?: string },
): Promise<BalanceRow[]> {
  const shape = planShape(f.plan);
  if (shape === "00") return [];
  const result = await balanceRowsOfShape(db, `${shape}${f.codePrefix ? 1 : 0}`, {
    fiscalYearId: f.fiscalYearId,
    codePattern: `${f.codePrefix}%`,
    ...planValues(f.plan),
  });
  return result.rows;
}

export async function prefixTotals(
  db: Db,
  f: { fiscalYearId: string; plan: BalanceRangePlan; codePrefix: string },
): Promise<{ debit: string; credit: string; balance: string }> {
  const param = valuesOf({
    fiscalYearId: f.fiscalYearId,
    codePattern: `${f.codePrefix}%`,
    ...planValues(f.plan),
  });
  const parts = balanceParts(planShape(f.plan), param);
  const zero = { debit: "0.00", credit: "0.00", balance: "0.00" };
  if (!parts.length) return zero;
  const row = await queryOne<{ debit: string; credit: string; balance: string }>(
    db,
    sql`select ${money(sql`coalesce(sum(b.debit), 0)`)} as debit, ${money(sql`coalesce(sum(b.credit), 0)`)} as credit,
               ${money(sql`coalesce(sum(b.debit), 0) - coalesce(sum(b.credit), 0)`)} as balance
          from (${sql.join(parts, sql` union all `)}) b
          join subaccounts s on s.id = b.subaccount_id
          ${codePrefixCondition(Boolean(f.codePrefix), param)}`,
  );
  return row ?? zero;
}

export interface TrialBalanceRow {
  /** true for the grand total row (code ''). */
  is_total: boolean;
  code: string;
  name: string;
  account_code: string;
  opening_balance: string;
  period_debit: string;
  period_credit: string;
  closing_balance: string;
}

/**
 * Per subaccount: balance before the period (opening), debits and credits within it, closing
 * balance; plus a grand total row. One pass over the balance tables.
 */
export async function trialBalanceRows(
  db: Db,
  f: { fiscalYearId: string; opening: BalanceRangePlan; period: BalanceRangePlan; codePrefix?: string },
): Promise<TrialBalanceRow[]> {
  const param = valuesOf({
    fiscalYearId: f.fiscalYearId,
    codePattern: `${f.codePrefix}%`,
    ...planValues(f.opening, "opening"),
    ...planValues(f.period, "period"),
  });
  const parts = [
    ...balanceParts(planShape(f.opening), param, "opening", sql`, false as in_period`),
    ...balanceParts(planShape(f.period), param, "period", sql`, true as in_period`),
  ];
  if (!parts.length) return [];
  return queryRows<TrialBalanceRow>(
    db,
    sql`with totals as (
          select s.code, s.name, s.account_code,
                 coalesce(sum(b.debit - b.credit) filter (where not b.in_period), 0) as opening,
                 coalesce(sum(b.debit) filter (where b.in_period), 0) as debit,
                 coalesce(sum(b.credit) filter (where b.in_period), 0) as credit
            from (${sql.join(parts, sql` union all `)}) b
            join subaccounts s on s.id = b.subaccount_id
            ${codePrefixCondition(Boolean(f.codePrefix), param)}
           group by s.id
        ),
        with_total as (
          select false as is_total, * from totals
          union all
          select true, '', '', '', sum(opening), sum(debit), sum(credit) from totals
        )
        select is_total, code, name, account_code, ${money(sql`coalesce(opening, 0)`)} as opening_balance,
               ${money(sql`coalesce(debit, 0)`)} as period_debit, ${money(sql`coalesce(credit, 0)`)} as period_credit,
               ${money(sql`coalesce(opening, 0) + coalesce(debit, 0) - coalesce(credit, 0)`)} as closing_balance
          from with_total
         order by is_total, code collate "C"`,
  );
}
