import { and, asc, desc, eq, gte, ilike, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../platform/db/client.js";
import { type Page, paginateBounded } from "../../../platform/db/paginate.js";
import { preparedRead } from "../../../platform/db/prepared.js";
import { allQueries, equalsAnyOf, insertUnnest } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { entries, entryCounts, entryLines, fiscalYears, journals, subaccounts } from "../tables.js";
import { answersFromLines, subaccountLedgerPage } from "./subaccount-ledger.js";

export type EntryInsert = typeof entries.$inferInsert;
export type EntryLineInsert = typeof entryLines.$inferInsert;

export interface EntryView {
  id: string;
  companyId: string;
  fiscalYearId: string;
  fiscalYearCode: string;
  journalId: string;
  journalCode: string;
  number: number;
  date: string;
  concept: string;
  total: string;
  reversalOf: string | null;
  reversedBy: string | null;
  createdAt: Date;
}

export interface EntryLineView {
  id: string;
  entryId: string;
  lineNo: number;
  subaccountId: string;
  subaccountCode: string;
  subaccountName: string;
  debit: string;
  credit: string;
  description: string;
}

const reversal = alias(entries, "reversal");

const entryViewColumns = {
  id: entries.id,
  companyId: entries.companyId,
  fiscalYearId: entries.fiscalYearId,
  fiscalYearCode: fiscalYears.code,
  journalId: entries.journalId,
  journalCode: journals.code,
  number: entries.number,
  date: entries.date,
  concept: entries.concept,
  total: entries.total,
  reversalOf: entries.reversalOf,
  reversedBy: reversal.id,
  createdAt: entries.createdAt,
};

const selectEntryViews = (db: Db) =>
  db
    .select(entryViewColumns)
    .from(entries)
    .innerJoin(fiscalYears, eq(fiscalYears.id, entries.fiscalYearId))
    .innerJoin(journals, eq(journals.id, entries.journalId))
    .leftJoin(reversal, eq(reversal.reversalOf, entries.id));

export async function insertEntry(tx: Db, values: EntryInsert) {
  const [row] = await tx.insert(entries).values(values).returning();
  return row;
}

/**
 * Many entries, then all their lines, as INSERT ... SELECT FROM unnest in chunks of 10,000 rows:
 * the statement-level balance trigger then upserts each day's balance once per chunk instead of
 * once per entry, and no per-row SQL is built.
 */
export async function insertEntriesWithLines(tx: Db, rows: EntryInsert[], lines: EntryLineInsert[]) {
  const col = <T>(
    list: T[],
    name: string,
    type: string,
    pick: (r: T) => string | number | null | undefined,
  ) => ({
    name,
    type,
    values: list.map((r) => {
      const v = pick(r);
      return v === null || v === undefined ? null : String(v);
    }),
  });
  await insertUnnest(tx, "entries", [
    col(rows, "id", "uuid", (r) => r.id),
    col(rows, "company_id", "uuid", (r) => r.companyId),
    col(rows, "fiscal_year_id", "uuid", (r) => r.fiscalYearId),
    col(rows, "journal_id", "uuid", (r) => r.journalId),
    col(rows, "number", "int", (r) => r.number),
    col(rows, "date", "date", (r) => r.date),
    col(rows, "concept", "text", (r) => r.concept),
    col(rows, "total", "numeric", (r) => r.total),
    col(rows, "reversal_of", "uuid", (r) => r.reversalOf),
    col(rows, "source_type", "text", (r) => r.sourceType),
    col(rows, "source_id", "uuid", (r) => r.sourceId),
    col(rows, "created_by", "uuid", (r) => r.createdBy),
  ]);
  await insertUnnest(tx, "entry_lines", [
    col(lines, "id", "uuid", (l) => l.id),
    col(lines, "company_id", "uuid", (l) => l.companyId),
    col(lines, "fiscal_year_id", "uuid", (l) => l.fiscalYearId),
    col(lines, "entry_id", "uuid", (l) => l.entryId),
    col(lines, "entry_date", "date", (l) => l.entryDate),
    col(lines, "entry_number", "int", (l) => l.entryNumber),
    col(lines, "line_no", "int", (l) => l.lineNo),
    col(lines, "subaccount_id", "uuid", (l) => l.subaccountId),
    col(lines, "debit", "numeric", (l) => l.debit),
    col(lines, "credit", "numeric", (l) => l.credit),
    col(lines, "description", "text", (l) => l.description),
  ]);
}

/** All lines in ONE statement: the balance trigger then runs once per entry. */
export async function insertEntryLines(tx: Db, rows: EntryLineInsert[]) {
  return tx.insert(entryLines).values(rows).returning();
}

const entryById = preparedRead("cuadra_entry_by_id", (db) =>
  selectEntryViews(db)
    .where(eq(entries.id, sql.placeholder("id")))
    .limit(1),
);

export async function findEntry(db: Db, id: string): Promise<EntryView | undefined> {
  const [row] = await entryById(db, { id });
  return row;
}

const lineViewColumns = {
  id: entryLines.id,
  entryId: entryLines.entryId,
  lineNo: entryLines.lineNo,
  subaccountId: entryLines.subaccountId,
  subaccountCode: subaccounts.code,
  subaccountName: subaccounts.name,
  debit: entryLines.debit,
  credit: entryLines.credit,
  description: entryLines.description,
};

const selectLineViews = (db: Db) =>
  db
    .select(lineViewColumns)
    .from(entryLines)
    .innerJoin(subaccounts, eq(subaccounts.id, entryLines.subaccountId));

const linesOfEntry = preparedRead("cuadra_entry_lines", (db) =>
  selectLineViews(db)
    .where(eq(entryLines.entryId, sql.placeholder("entryId")))
    .orderBy(asc(entryLines.lineNo)),
);

export function findEntryLines(db: Db, entryId: string): Promise<EntryLineView[]> {
  return linesOfEntry(db, { entryId });
}

/** The lines of several entries in one query, in entry then line order. */
export async function findLinesOfEntries(db: Db, entryIds: string[]): Promise<EntryLineView[]> {
  if (!entryIds.length) return [];
  return selectLineViews(db)
    .where(inArray(entryLines.entryId, entryIds))
    .orderBy(asc(entryLines.entryId), asc(entryLines.lineNo));
}

export interface EntryFilter {
  /** The one company listed; undefined: every company of the tenant. */
  companyId?: string;
  fiscalYearCode?: string;
  journalCode?: string;
  dateFrom?: string;
  dateTo?: string;
  subaccountCode?: string;
  search?: string;
  sort: "newest" | "number";
  limit: number;
  offset: number;
  /** Keyset cursor: the id of the last entry of the previous page (an entry matching the filters). */
  after?: string;
}

/** Conditions on `entries` alone (subqueries, no joins), so the count stays a single-table scan. */
function entryConditions(db: Db, f: EntryFilter) {
  const number = f.search && /^\d{1,9}$/.test(f.search) ? Number(f.search) : undefined;
  return and(
    f.companyId ? eq(entries.companyId, f.companyId) : undefined,
    f.fiscalYearCode
      ? equalsAnyOf(
          entries.fiscalYearId,
          db.select({ id: fiscalYears.id }).from(fiscalYears).where(eq(fiscalYears.code, f.fiscalYearCode)),
        )
      : undefined,
    f.journalCode
      ? equalsAnyOf(
          entries.journalId,
          db.select({ id: journals.id }).from(journals).where(eq(journals.code, f.journalCode)),
        )
      : undefined,
    f.dateFrom ? gte(entries.date, f.dateFrom) : undefined,
    f.dateTo ? lte(entries.date, f.dateTo) : undefined,
    f.subaccountCode
      ? inArray(
          entries.id,
          db
            .select({ id: entryLines.entryId })
            .from(entryLines)
            .innerJoin(subaccounts, eq(subaccounts.id, entryLines.subaccountId))
            .where(eq(subaccounts.code, f.subaccountCode)),
        )
      : undefined,
    f.search
      ? or(
          ilike(entries.concept, likePattern(f.search)),
          number === undefined ? undefined : eq(entries.number, number),
        )
      : undefined,
  );
}

/**
 * The page continues after the cursor entry in the chosen order: a row comparison on the order's
 * columns, so page 100 reads what page 1 reads from the index. undefined when the cursor entry
 * does not match the filters (another company's, or no such entry).
 */
async function afterCursor(db: Db, f: EntryFilter, where: SQL | undefined): Promise<SQL | undefined | null> {
  if (!f.after) return undefined;
  const [c] = await db
    .select({
      date: entries.date,
      number: entries.number,
      id: entries.id,
      companyId: entries.companyId,
      start: fiscalYears.startDate,
    })
    .from(entries)
    .innerJoin(fiscalYears, eq(fiscalYears.id, entries.fiscalYearId))
    .where(and(eq(entries.id, f.after), where));
  if (!c) return null;
  return f.sort === "number"
    ? sql`(${fiscalYears.startDate}, ${entries.companyId}, ${entries.number}) > (${c.start}::date, ${c.companyId}::uuid, ${c.number}::int)`
    : sql`(${entries.date}, ${entries.number}, ${entries.id}) < (${c.date}::date, ${c.number}::int, ${c.id}::uuid)`;
}

/** A page of entries, or null when `after` names no entry matching the filters. */
export async function listEntries(db: Db, f: EntryFilter): Promise<Page<EntryView> | null> {
  if (answersFromLines(f)) return listSubaccountLedger(db, f);
  const where = entryConditions(db, f);
  const cursor = await afterCursor(db, f, where);
  if (cursor === null) return null;
  const order =
    f.sort === "number"
      ? [asc(fiscalYears.startDate), asc(entries.companyId), asc(entries.number)]
      : [desc(entries.date), desc(entries.number), desc(entries.id)];
  const rows = selectEntryViews(db)
    .where(and(where, cursor))
    .orderBy(...order)
    .limit(f.limit)
    .offset(f.offset);
  if (f.dateFrom || f.dateTo || f.subaccountCode || f.search) {
    const page = await paginateBounded(db, () => rows, entries, where);
    return { ...page, rows: page.rows as EntryView[] };
  }
  const [page, total] = await allQueries(db, [() => rows, () => countedEntries(db, f)]);
  return { rows: page as EntryView[], total, totalIsEstimate: false };
}

/** listEntries for a subaccount's ledger, through the lines' index (subaccount-ledger.ts). */
async function listSubaccountLedger(db: Db, f: EntryFilter): Promise<Page<EntryView> | null> {
  const found = await subaccountLedgerPage(db, { ...f, subaccountCode: f.subaccountCode! });
  if (!found) return null;
  const rows = found.ids
    ? selectEntryViews(db)
        .where(sql`${entries.id} in (${found.ids})`)
        .orderBy(desc(entries.date), desc(entries.number), desc(entries.id))
        .limit(f.limit)
        .offset(f.offset)
    : [];
  const [page, { total, totalIsEstimate }] = await allQueries(db, [async () => rows, found.counting]);
  return { rows: page as EntryView[], total, totalIsEstimate };
}

/**
 * How many entries match a filter of company, fiscal year and journal only, exact, from the
 * counts the entries trigger keeps (ledger_entry_counts): a few rows whatever the ledger's size.
 */
async function countedEntries(db: Db, f: EntryFilter): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${entryCounts.entries}), 0)` })
    .from(entryCounts)
    .where(
      and(
        f.companyId ? eq(entryCounts.companyId, f.companyId) : undefined,
        f.fiscalYearCode
          ? inArray(
              entryCounts.fiscalYearId,
              db
                .select({ id: fiscalYears.id })
                .from(fiscalYears)
                .where(eq(fiscalYears.code, f.fiscalYearCode)),
            )
          : undefined,
        f.journalCode
          ? inArray(
              entryCounts.journalId,
              db.select({ id: journals.id }).from(journals).where(eq(journals.code, f.journalCode)),
            )
          : undefined,
      ),
    );
  return Number(row?.total ?? 0);
}
