import { and, asc, count, desc, eq, gte, ilike, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { preparedRead } from "../../../platform/db/prepared.js";
import { queryOne } from "../../../platform/db/sql.js";
import { forgetLookups, remembersLookups, txLookup, updateLookups } from "../../../platform/db/tx-lookups.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { type FiscalYearState, fiscalYears } from "../tables.js";

export type FiscalYearRow = typeof fiscalYears.$inferSelect;

/**
 * Serializes the writes of one company that must see each other (fiscal-year overlap, generated
 * subaccount numbers) until the transaction ends. The fiscal-year trigger takes the same key.
 */
export async function lockCompany(tx: Db, purpose: "fiscal_years" | "subaccounts", companyId: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`cuadra:${purpose}:${companyId}`}, 0))`,
  );
  // The years this transaction read before the lock may miss one another has committed since.
  if (purpose === "fiscal_years") forgetLookups(tx, "fiscal_years");
}

/** Inside a transaction: all the company's years, read once (a company has one per year, ADR 047). */
function yearsOfCompany(tx: Db, companyId: string): Promise<readonly FiscalYearRow[]> {
  return txLookup(tx, "fiscal_years", companyId, async () =>
    (await tx.select().from(fiscalYears).where(eq(fiscalYears.companyId, companyId))).map((y) =>
      Object.freeze(y),
    ),
  );
}

export async function findFiscalYear(db: Db, id: string) {
  const [row] = await db.select().from(fiscalYears).where(eq(fiscalYears.id, id)).limit(1);
  return row;
}

const fiscalYearByCode = preparedRead("cuadra_fiscal_year_by_code", (db) =>
  db
    .select()
    .from(fiscalYears)
    .where(
      and(
        eq(fiscalYears.companyId, sql.placeholder("companyId")),
        eq(fiscalYears.code, sql.placeholder("code")),
      ),
    )
    .limit(1),
);

export async function findFiscalYearByCode(db: Db, companyId: string, code: string) {
  if (remembersLookups(db)) return (await yearsOfCompany(db, companyId)).find((y) => y.code === code);
  const [row] = await fiscalYearByCode(db, { companyId, code });
  return row;
}

const fiscalYearForReport = preparedRead("cuadra_fiscal_year_for_report", (db) =>
  db
    .select()
    .from(fiscalYears)
    .where(eq(fiscalYears.companyId, sql.placeholder("companyId")))
    .orderBy(
      sql`${fiscalYears.startDate} <= ${sql.placeholder("date")}::date desc`,
      desc(fiscalYears.startDate),
    )
    .limit(1),
);

/** The latest year starting on or before `date`, else the latest one (reports without a year code). */
export async function findFiscalYearForReport(db: Db, companyId: string, date: string) {
  const [row] = await fiscalYearForReport(db, { companyId, date });
  return row;
}

/** A year of the company sharing a day with [start, end] (start = end: the year containing that day). */
export async function findOverlappingFiscalYear(db: Db, companyId: string, start: string, end: string) {
  if (remembersLookups(db))
    return (await yearsOfCompany(db, companyId)).find((y) => y.startDate <= end && y.endDate >= start);
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
  f: { scope?: SQL; estado?: FiscalYearState; search?: string; limit: number; offset: number },
) {
  const where = and(
    f.scope,
    f.estado ? eq(fiscalYears.estado, f.estado) : undefined,
    f.search ? ilike(fiscalYears.code, likePattern(f.search)) : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(fiscalYears)
        .where(where)
        .orderBy(desc(fiscalYears.startDate), asc(fiscalYears.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(fiscalYears).where(where),
  );
}

export async function insertFiscalYear(tx: Db, values: typeof fiscalYears.$inferInsert) {
  const [row] = await tx.insert(fiscalYears).values(values).returning();
  forgetLookups(tx, "fiscal_years");
  return row;
}

export async function updateFiscalYearState(db: Db, id: string, estado: FiscalYearState) {
  const [row] = await db.update(fiscalYears).set({ estado }).where(eq(fiscalYears.id, id)).returning();
  forgetLookups(db, "fiscal_years");
  return row;
}

/**
 * Hands out the next entry number of an open year. The UPDATE row-locks the year until the
 * entry's transaction ends, so numbers are gapless (a rollback returns the number) and unique.
 * Undefined when the year is closed.
 */
/** `count` consecutive entry numbers of an open year in one UPDATE: returns the first (undefined when closed). */
export async function takeEntryNumbers(
  tx: Db,
  fiscalYearId: string,
  count: number,
): Promise<number | undefined> {
  const row = await queryOne<{ last_entry_number: number }>(
    tx,
    sql`update fiscal_years set last_entry_number = last_entry_number + ${count}
         where id = ${fiscalYearId} and estado = 'abierto'
         returning last_entry_number`,
  );
  if (row) rememberLastEntryNumber(tx, fiscalYearId, Number(row.last_entry_number));
  return row ? Number(row.last_entry_number) - count + 1 : undefined;
}

export async function takeNextEntryNumber(tx: Db, fiscalYearId: string): Promise<number | undefined> {
  const row = await queryOne<{ last_entry_number: number }>(
    tx,
    sql`update fiscal_years set last_entry_number = last_entry_number + 1
         where id = ${fiscalYearId} and estado = 'abierto'
         returning last_entry_number`,
  );
  if (row) rememberLastEntryNumber(tx, fiscalYearId, Number(row.last_entry_number));
  return row ? Number(row.last_entry_number) : undefined;
}

/** The year's counter as it now is, in the years this transaction remembers. */
function rememberLastEntryNumber(tx: Db, fiscalYearId: string, lastEntryNumber: number) {
  updateLookups(tx, "fiscal_years", (years) =>
    (years as readonly FiscalYearRow[]).map((y) =>
      y.id === fiscalYearId ? Object.freeze({ ...y, lastEntryNumber }) : y,
    ),
  );
}
