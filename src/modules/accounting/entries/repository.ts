import { and, asc, count, desc, eq, gte, ilike, inArray, lte, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { entries, entryLines, fiscalYears, journals, subaccounts } from "../tables.js";

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

/** All lines in ONE statement: the balance trigger then runs once per entry. */
export async function insertEntryLines(tx: Db, rows: EntryLineInsert[]) {
  return tx.insert(entryLines).values(rows).returning();
}

export async function findEntry(db: Db, id: string): Promise<EntryView | undefined> {
  const [row] = await selectEntryViews(db).where(eq(entries.id, id)).limit(1);
  return row;
}

export function findEntryLines(db: Db, entryId: string): Promise<EntryLineView[]> {
  return findLinesOfEntries(db, [entryId]);
}

/** The lines of several entries in one query, in entry then line order. */
export async function findLinesOfEntries(db: Db, entryIds: string[]): Promise<EntryLineView[]> {
  if (!entryIds.length) return [];
  return db
    .select({
      id: entryLines.id,
      entryId: entryLines.entryId,
      lineNo: entryLines.lineNo,
      subaccountId: entryLines.subaccountId,
      subaccountCode: subaccounts.code,
      subaccountName: subaccounts.name,
      debit: entryLines.debit,
      credit: entryLines.credit,
      description: entryLines.description,
    })
    .from(entryLines)
    .innerJoin(subaccounts, eq(subaccounts.id, entryLines.subaccountId))
    .where(inArray(entryLines.entryId, entryIds))
    .orderBy(asc(entryLines.entryId), asc(entryLines.lineNo));
}

export interface EntryFilter {
  scope?: SQL;
  fiscalYearCode?: string;
  journalCode?: string;
  dateFrom?: string;
  dateTo?: string;
  subaccountCode?: string;
  search?: string;
  sort: "newest" | "number";
  limit: number;
  offset: number;
}

/** Conditions on `entries` alone (subqueries, no joins), so the count stays a single-table scan. */
function entryConditions(db: Db, f: EntryFilter) {
  const number = f.search && /^\d{1,9}$/.test(f.search) ? Number(f.search) : undefined;
  return and(
    f.scope,
    f.fiscalYearCode
      ? inArray(
          entries.fiscalYearId,
          db.select({ id: fiscalYears.id }).from(fiscalYears).where(eq(fiscalYears.code, f.fiscalYearCode)),
        )
      : undefined,
    f.journalCode
      ? inArray(
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

export async function listEntries(db: Db, f: EntryFilter) {
  const where = entryConditions(db, f);
  const order =
    f.sort === "number"
      ? [asc(fiscalYears.startDate), asc(entries.companyId), asc(entries.number)]
      : [desc(entries.date), desc(entries.number), desc(entries.id)];
  const page = await paginate(
    selectEntryViews(db)
      .where(where)
      .orderBy(...order)
      .limit(f.limit)
      .offset(f.offset),
    db.select({ total: count() }).from(entries).where(where),
  );
  return { rows: page.rows as EntryView[], total: page.total };
}
