import { and, asc, count, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { queryRows } from "../../../platform/db/sql.js";
import { forgetLookups, txLookup } from "../../../platform/db/tx-lookups.js";
import { type TaxModel, taxReturnEvents, taxReturns } from "../tables.js";
import { FINALIZED, inPeriod } from "./books-query.js";

export type ReturnRow = typeof taxReturns.$inferSelect;

export async function findReturn(db: Db, id: string, opts: { lock?: boolean } = {}) {
  const q = db.select().from(taxReturns).where(eq(taxReturns.id, id));
  const [row] = opts.lock ? await q.for("update") : await q;
  return row;
}

export async function findOrdinaryReturn(
  db: Db,
  companyId: string,
  model: TaxModel,
  year: number,
  period: string,
) {
  const [row] = await db
    .select()
    .from(taxReturns)
    .where(
      and(
        eq(taxReturns.companyId, companyId),
        eq(taxReturns.model, model),
        eq(taxReturns.year, year),
        eq(taxReturns.period, period),
        sql`${taxReturns.previousReturnId} is null`,
      ),
    );
  return row;
}

/** The latest return of a period (a rectifying one supersedes the one it corrects). */
export async function findLatestReturn(
  db: Db,
  companyId: string,
  model: TaxModel,
  year: number,
  period: string,
) {
  const [row] = await db
    .select()
    .from(taxReturns)
    .where(
      and(
        eq(taxReturns.companyId, companyId),
        eq(taxReturns.model, model),
        eq(taxReturns.year, year),
        eq(taxReturns.period, period),
      ),
    )
    .orderBy(desc(taxReturns.createdAt), desc(taxReturns.id))
    .limit(1);
  return row;
}

/** Every return of a model and period, oldest first (the ordinary one, then its corrections). */
export function returnsOfPeriod(db: Db, companyId: string, model: TaxModel, year: number, period: string) {
  return db
    .select({ id: taxReturns.id })
    .from(taxReturns)
    .where(
      and(
        eq(taxReturns.companyId, companyId),
        eq(taxReturns.model, model),
        eq(taxReturns.year, year),
        eq(taxReturns.period, period),
      ),
    )
    .orderBy(asc(taxReturns.createdAt), asc(taxReturns.id));
}

/** The year's 303s that are confirmed or presented, latest per period. */
export async function confirmed303sOfYear(db: Db, companyId: string, year: number) {
  return db
    .selectDistinctOn([taxReturns.period])
    .from(taxReturns)
    .where(
      and(
        eq(taxReturns.companyId, companyId),
        eq(taxReturns.model, "303"),
        eq(taxReturns.year, year),
        ne(taxReturns.estado, "borrador"),
      ),
    )
    .orderBy(asc(taxReturns.period), desc(taxReturns.createdAt));
}

export async function insertReturn(db: Db, row: typeof taxReturns.$inferInsert) {
  const [created] = await db.insert(taxReturns).values(row).returning();
  forgetLookups(db, "tax_returns");
  return created;
}

export async function updateReturn(db: Db, id: string, changes: Partial<typeof taxReturns.$inferInsert>) {
  await db
    .update(taxReturns)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(taxReturns.id, id));
  forgetLookups(db, "tax_returns");
}

export async function insertEvent(db: Db, row: typeof taxReturnEvents.$inferInsert) {
  await db.insert(taxReturnEvents).values(row);
}

export async function eventsOf(db: Db, returnId: string) {
  return db
    .select()
    .from(taxReturnEvents)
    .where(eq(taxReturnEvents.returnId, returnId))
    .orderBy(asc(taxReturnEvents.createdAt), asc(taxReturnEvents.id));
}

export function listReturns(db: Db, where: SQL | undefined, page: { limit: number; offset: number }) {
  return paginate(
    db,
    () =>
      db
        .select()
        .from(taxReturns)
        .where(where)
        .orderBy(desc(taxReturns.year), desc(taxReturns.dateFrom), asc(taxReturns.model), asc(taxReturns.id))
        .limit(page.limit)
        .offset(page.offset),
    () => db.select({ total: count() }).from(taxReturns).where(where),
  );
}

/**
 * The 303 whose period contains `date` and locks it (the period lock): the latest return of the
 * period when it is confirmed or presented. A correcting return still in draft (complementaria or
 * sustitutiva of a presented one) opens the period again until it is confirmed.
 */
export async function findLockingReturn(db: Db, companyId: string, date: string) {
  return lockingReturnAmong(await returns303Of(db, companyId), date);
}

/**
 * The company's 303s, each period's latest first, read once per transaction (ADR 047): a company
 * files four a year, so one list serves every date a transaction checks.
 */
function returns303Of(tx: Db, companyId: string) {
  return txLookup(tx, "tax_returns", companyId, async () =>
    (
      await tx
        .select({
          id: taxReturns.id,
          year: taxReturns.year,
          period: taxReturns.period,
          estado: taxReturns.estado,
          dateFrom: taxReturns.dateFrom,
          dateTo: taxReturns.dateTo,
        })
        .from(taxReturns)
        .where(and(eq(taxReturns.companyId, companyId), eq(taxReturns.model, "303")))
        .orderBy(taxReturns.year, taxReturns.period, desc(taxReturns.createdAt), desc(taxReturns.id))
    ).map((r) => Object.freeze(r)),
  );
}

/** The latest return of each period containing `date`, when it is confirmed or presented. */
function lockingReturnAmong(returns: Awaited<ReturnType<typeof returns303Of>>, date: string) {
  const periods = new Set<string>();
  for (const r of returns) {
    if (r.dateFrom > date || r.dateTo < date) continue;
    const period = `${r.year}:${r.period}`;
    if (periods.has(period)) continue;
    periods.add(period);
    if (r.estado === "confirmada" || r.estado === "presentada") return r;
  }
  return undefined;
}

/**
 * Balance (debit − credit) per subaccount of the VAT accounts in the period. Settlements are
 * excluded (what the books say before settling), or included when settling a correcting return:
 * what the earlier settlement of the period already reversed is not reversed twice.
 */
export function vatBalances(
  db: Db,
  companyId: string,
  dateFrom: string,
  dateTo: string,
  prefixes: string[],
  opts: { withSettlements?: boolean } = {},
) {
  const like = sql.join(
    prefixes.map((p) => sql`s.code like ${`${p}%`}`),
    sql` or `,
  );
  return queryRows<{ code: string; name: string; balance: string }>(
    db,
    sql`select s.code, min(s.name) as name, sum(l.debit - l.credit)::text as balance
          from entry_lines l
          join entries e on e.id = l.entry_id
          join subaccounts s on s.id = l.subaccount_id
         where e.company_id = ${companyId} and e.date between ${dateFrom} and ${dateTo}
           and (${like}) and (${opts.withSettlements ?? false} or coalesce(e.source_type, '') <> 'tax_return')
         group by s.code
        having sum(l.debit - l.credit) <> 0
         order by s.code`,
  );
}

export interface CheckRow {
  account: string;
  entryId: string | null;
  entryNumber: number | null;
  entryDate: string | null;
  concept: string | null;
  documentId: string | null;
  documentCode: string | null;
  /** What the invoice says should be on the account (credit positive for 477 and 4751). */
  expected: string;
  /** What the ledger has on the account for that entry (same sign convention). */
  posted: string;
}

/**
 * Per invoice of the period and per ledger entry touching 477, 472 or 4751 in the period, what the
 * invoice's taxes say and what the ledger holds; rows that agree are dropped. One statement.
 */
export function ledgerDifferences(db: Db, companyId: string, dateFrom: string, dateTo: string) {
  return queryRows<CheckRow>(
    db,
    sql`with expected as (
          select d.id as document_id, d.code, d.entry_id, a.account, sum(a.amount) as amount
            from documents d
            join document_taxes t on t.document_id = d.id
            left join tax_codes c on c.id = t.tax_code_id
           cross join lateral (values
             ('477', case when t.kind = 'vat' and (d.direction = 'sale' or t.self_assessed)
                          then t.amount + case when d.direction = 'sale' then t.re_amount else 0 end end),
             ('472', case when t.kind = 'vat' and d.direction = 'purchase' and not exists (
                            select 1 from document_settings s
                             where s.company_id = d.company_id and s.tax_regime = 'recargo_equivalencia')
                          then t.amount end),
             (case when c.irpf_kind = 'rent' then '4751R' else '4751' end,
              case when t.kind = 'irpf' and d.direction = 'purchase' then t.amount end)
           ) as a(account, amount)
           where d.company_id = ${companyId} and ${FINALIZED}
             and ${inPeriod(dateFrom, dateTo)} and a.amount is not null
           group by d.id, d.code, d.entry_id, a.account
        ), posted as (
          select e.id as entry_id, e.number, e.date, e.concept, e.source_id,
                 case when s.code like '4751%' and substr(s.code, length(s.code) - 4, 1) = '2' then '4751R'
                      when s.code like '4751%' then '4751' when s.code like '477%' then '477' else '472' end as account,
                 sum(case when s.code like '472%' then l.debit - l.credit else l.credit - l.debit end) as amount
            from entries e
            join entry_lines l on l.entry_id = e.id
            join subaccounts s on s.id = l.subaccount_id
           where e.company_id = ${companyId} and e.date between ${dateFrom} and ${dateTo}
             and (s.code like '477%' or s.code like '472%' or s.code like '4751%')
             and coalesce(e.source_type, '') <> 'tax_return'
           group by 1, 2, 3, 4, 5, 6
        )
        select coalesce(x.account, p.account) as account,
               p.entry_id as "entryId", p.number as "entryNumber", p.date::text as "entryDate", p.concept,
               x.document_id as "documentId", x.code as "documentCode",
               coalesce(x.amount, 0)::text as expected, coalesce(p.amount, 0)::text as posted
          from expected x
          full join posted p on p.entry_id = x.entry_id and p.account = x.account
         where coalesce(x.amount, 0) <> coalesce(p.amount, 0)
         order by 1, p.date nulls first, x.code, p.number`,
  );
}
