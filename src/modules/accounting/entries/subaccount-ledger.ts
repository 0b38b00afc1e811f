import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { EXACT_TOTAL_LIMIT, plannedRows } from "../../../platform/db/paginate.js";
import { queryOne } from "../../../platform/db/sql.js";
import { entries, fiscalYears, subaccounts } from "../tables.js";

/**
 * A subaccount's ledger (the entries list filtered by `subaccount_code`, newest first) read from
 * the lines' (subaccount_id, entry_date, entry_number, entry_id) index (ADR 030): a page reads
 * `skip + limit` index entries per subaccount with that code (one per fiscal year and company)
 * and then only the page's entries, whatever the ledger's size; the count stops at 10,001
 * entries like paginateBounded's. Filtering the entries and sorting them instead cost seconds for a
 * subaccount on half of 333,334 entries.
 */
export interface SubaccountLedgerFilter {
  companyId?: string;
  fiscalYearCode?: string;
  subaccountCode: string;
  dateFrom?: string;
  dateTo?: string;
  limit: number;
  offset: number;
  after?: string;
}

/**
 * The page's entry ids in the list's order (a subquery), and the matching total being counted on
 * another connection meanwhile; null for an `after` that is no entry of this ledger.
 */
export async function subaccountLedgerPage(
  db: Db,
  f: SubaccountLedgerFilter,
): Promise<{
  ids: SQL | null;
  counting: () => Promise<{ total: number; totalIsEstimate: boolean }>;
} | null> {
  const ids = await subaccountIds(db, f);
  let cursor: SQL | undefined;
  if (f.after) {
    const c = ids.length ? await cursorEntry(db, ids, f) : undefined;
    if (!c) return null;
    cursor = sql`(l.entry_date, l.entry_number, l.entry_id) < (${c.date}::date, ${c.number}::int, ${c.id}::uuid)`;
  }
  if (!ids.length) return { ids: null, counting: async () => ({ total: 0, totalIsEstimate: false }) };
  return {
    ids: orderedEntryIds(ids, f, cursor, f.offset + f.limit),
    counting: () => countEntries(db, ids, f),
  };
}

/** Exact up to EXACT_TOTAL_LIMIT entries, the planner's estimate of the lines beyond. */
async function countEntries(db: Db, ids: string[], f: SubaccountLedgerFilter) {
  const counted = await queryOne<{ n: number }>(
    db,
    sql`select count(*)::int as n from (${orderedEntryIds(ids, f, undefined, EXACT_TOTAL_LIMIT + 1)}) m`,
  );
  const total = Number(counted?.n ?? 0);
  if (total <= EXACT_TOTAL_LIMIT) return { total, totalIsEstimate: false };
  const estimate = await plannedRows(db, {
    getSQL: () => sql`select 1 from entry_lines l where l.subaccount_id in ${idList(ids)} ${dateRange(f)}`,
  });
  return { total: Math.max(estimate, EXACT_TOTAL_LIMIT + 1), totalIsEstimate: true };
}

/** The subaccounts with that code the caller lists: of the company, of the fiscal year's code. */
async function subaccountIds(db: Db, f: SubaccountLedgerFilter): Promise<string[]> {
  const rows = await db
    .select({ id: subaccounts.id })
    .from(subaccounts)
    .where(
      and(
        eq(subaccounts.code, f.subaccountCode),
        f.companyId ? eq(subaccounts.companyId, f.companyId) : undefined,
        f.fiscalYearCode
          ? inArray(
              subaccounts.fiscalYearId,
              db
                .select({ id: fiscalYears.id })
                .from(fiscalYears)
                .where(eq(fiscalYears.code, f.fiscalYearCode)),
            )
          : undefined,
      ),
    );
  return rows.map((r) => r.id);
}

const idList = (ids: string[]) =>
  sql`(${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;

const dateRange = (f: SubaccountLedgerFilter) =>
  sql`${f.dateFrom ? sql`and l.entry_date >= ${f.dateFrom}::date` : sql``}
      ${f.dateTo ? sql`and l.entry_date <= ${f.dateTo}::date` : sql``}`;

/**
 * The first `n` entries (one row per entry, however many lines it has on the subaccount) in the
 * list's order: per subaccount a backward walk of its index, merged.
 */
function orderedEntryIds(ids: string[], f: SubaccountLedgerFilter, cursor: SQL | undefined, n: number): SQL {
  const perSubaccount = ids.map(
    (id) => sql`(select l.entry_date, l.entry_number, l.entry_id from entry_lines l
                  where l.subaccount_id = ${id}::uuid ${dateRange(f)} ${cursor ? sql`and ${cursor}` : sql``}
                  group by l.entry_date, l.entry_number, l.entry_id
                  order by l.entry_date desc, l.entry_number desc, l.entry_id desc
                  limit ${n})`,
  );
  return sql`select p.entry_id from (${sql.join(perSubaccount, sql` union all `)}) p
              order by p.entry_date desc, p.entry_number desc, p.entry_id desc limit ${n}`;
}

/** The `after` entry, when it has a line on one of these subaccounts within the date range. */
async function cursorEntry(db: Db, ids: string[], f: SubaccountLedgerFilter) {
  const [c] = await db
    .select({ date: entries.date, number: entries.number, id: entries.id })
    .from(entries)
    .where(
      and(
        eq(entries.id, f.after!),
        sql`exists (select 1 from entry_lines l where l.entry_id = ${entries.id}
                     and l.subaccount_id in ${idList(ids)} ${dateRange(f)})`,
      ),
    );
  return c;
}

/** The lines' index answers the filter alone: no journal, no search, the newest-first order. */
export const answersFromLines = (f: {
  subaccountCode?: string;
  journalCode?: string;
  search?: string;
  sort: string;
}) => Boolean(f.subaccountCode) && !f.journalCode && !f.search && f.sort === "newest";
