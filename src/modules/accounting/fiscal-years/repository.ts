import { and, asc, count, desc, eq, gte, ilike, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { queryOne } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { type FiscalYearState, fiscalYears, type JournalType, journals } from "../tables.js";

export type FiscalYearRow = typeof fiscalYears.$inferSelect;
export type JournalRow = typeof journals.$inferSelect;

/**
 * Serializes the writes of one company that must see each other (fiscal-year overlap, generated
 * subaccount numbers) until the transaction ends. The fiscal-year trigger takes the same key.
 */
export async function lockCompany(tx: Db, purpose: "fiscal_years" | "subaccounts", companyId: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`cuadra:${purpose}:${companyId}`}, 0))`,
  );
}

export async function findFiscalYear(db: Db, id: string) {
  const [row] = await db.select().from(fiscalYears).where(eq(fiscalYears.id, id)).limit(1);
  return row;
}

export async function findFiscalYearByCode(db: Db, companyId: string, code: string) {
  const [row] = await db
    .select()
    .from(fiscalYears)
    .where(and(eq(fiscalYears.companyId, companyId), eq(fiscalYears.code, code)))
    .limit(1);
  return row;
}

/** The latest year starting on or before `date`, else the latest one (reports without a year code). */
export async function findFiscalYearForReport(db: Db, companyId: string, date: string) {
  const [row] = await db
    .select()
    .from(fiscalYears)
    .where(eq(fiscalYears.companyId, companyId))
    .orderBy(sql`${fiscalYears.startDate} <= ${date} desc`, desc(fiscalYears.startDate))
    .limit(1);
  return row;
}

/** A year of the company sharing a day with [start, end] (start = end: the year containing that day). */
export async function findOverlappingFiscalYear(db: Db, companyId: string, start: string, end: string) {
  const [row] = await db
    .select()
    .from(fiscalYears)
    .where(
      and(
        eq(fiscalYears.companyId, companyId),
        lte(fiscalYears.startDate, end),
        gte(fiscalYears.endDate, start),
      ),
    )
    .limit(1);
  return row;
}

/** The year just before `start` (its subaccounts with a contact carry over). */
export async function findPreviousFiscalYear(db: Db, companyId: string, start: string) {
  const [row] = await db
    .select()
    .from(fiscalYears)
    .where(and(eq(fiscalYears.companyId, companyId), sql`${fiscalYears.endDate} < ${start}`))
    .orderBy(desc(fiscalYears.endDate))
    .limit(1);
  return row;
}

export async function openFiscalYears(db: Db, companyId: string) {
  return db
    .select()
    .from(fiscalYears)
    .where(and(eq(fiscalYears.companyId, companyId), eq(fiscalYears.estado, "abierto")))
    .orderBy(asc(fiscalYears.startDate));
}

export async function listFiscalYears(
  db: Db,
  f: { scope?: SQL; estado?: FiscalYearState; search?: string; skip: number; limit: number },
) {
  const where = and(
    f.scope,
    f.estado ? eq(fiscalYears.estado, f.estado) : undefined,
    f.search ? ilike(fiscalYears.code, likePattern(f.search)) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(fiscalYears)
      .where(where)
      .orderBy(desc(fiscalYears.startDate), asc(fiscalYears.id))
      .limit(f.limit)
      .offset(f.skip),
    db.select({ total: count() }).from(fiscalYears).where(where),
  ]);
  return { rows, total: Number(total) };
}

export async function insertFiscalYear(tx: Db, values: typeof fiscalYears.$inferInsert) {
  const [row] = await tx.insert(fiscalYears).values(values).returning();
  return row;
}

export async function updateFiscalYearState(db: Db, id: string, estado: FiscalYearState) {
  const [row] = await db.update(fiscalYears).set({ estado }).where(eq(fiscalYears.id, id)).returning();
  return row;
}

/**
 * Hands out the next entry number of an open year. The UPDATE row-locks the year until the
 * entry's transaction ends, so numbers are gapless (a rollback returns the number) and unique.
 * Undefined when the year is closed.
 */
export async function takeNextEntryNumber(tx: Db, fiscalYearId: string): Promise<number | undefined> {
  const row = await queryOne<{ last_entry_number: number }>(
    tx,
    sql`update fiscal_years set last_entry_number = last_entry_number + 1
         where id = ${fiscalYearId} and estado = 'abierto'
         returning last_entry_number`,
  );
  return row ? Number(row.last_entry_number) : undefined;
}

export async function findJournal(db: Db, id: string) {
  const [row] = await db.select().from(journals).where(eq(journals.id, id)).limit(1);
  return row;
}

export async function findJournalByCode(db: Db, companyId: string, code: string) {
  const [row] = await db
    .select()
    .from(journals)
    .where(and(eq(journals.companyId, companyId), eq(journals.code, code)))
    .limit(1);
  return row;
}

export async function listJournals(
  db: Db,
  f: {
    scope?: SQL;
    type?: JournalType;
    search?: string;
    includeInactive: boolean;
    skip: number;
    limit: number;
  },
) {
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(journals.isActive, true),
    f.type ? eq(journals.type, f.type) : undefined,
    f.search
      ? or(ilike(journals.code, likePattern(f.search)), ilike(journals.name, likePattern(f.search)))
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(journals)
      .where(where)
      .orderBy(asc(journals.createdAt), asc(journals.id))
      .limit(f.limit)
      .offset(f.skip),
    db.select({ total: count() }).from(journals).where(where),
  ]);
  return { rows, total: Number(total) };
}

export async function insertJournal(db: Db, values: typeof journals.$inferInsert) {
  const [row] = await db.insert(journals).values(values).returning();
  return row;
}

/** Inserts the journal unless the company already has one with its code (concurrent callers agree). */
export async function insertJournalIfMissing(tx: Db, values: typeof journals.$inferInsert) {
  await tx
    .insert(journals)
    .values(values)
    .onConflictDoNothing({ target: [journals.companyId, journals.code] });
  return findJournalByCode(tx, values.companyId, values.code);
}
