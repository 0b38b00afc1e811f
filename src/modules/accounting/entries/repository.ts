import { and, asc, desc, eq, gte, ilike, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../platform/db/client.js";
import { type Page, paginateBoundedByShape } from "../../../platform/db/paginate.js";
import { preparedByShape, preparedRead, shapeOf } from "../../../platform/db/prepared.js";
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

/** The filters that change the entries list's SQL (its shape). */
const ENTRY_FILTER_KEYS = [
  "companyId",
  "fiscalYearCode",
  "journalCode",
  "dateFrom",
  "dateTo",
  "subaccountCode",
  "search",
] as const;

/** A filter's values by name, or their placeholders: the same conditions, run built or prepared. */
type EntryValues = (key: keyof EntryFilter | "pattern" | "searchNumber") => unknown;

const searchNumberOf = (search?: string) => (search && /^\d{1,9}$/.test(search) ? Number(search) : undefined);

const entryValues = (f: EntryFilter): EntryValues => {
  const pattern = f.search ? likePattern(f.search) : undefined;
  const searchNumber = searchNumberOf(f.search);
  return (key) => (key === "pattern" ? pattern : key === "searchNumber" ? searchNumber : f[key]);
};

const placeholders: EntryValues = (key) => sql.placeholder(key);

/**
 * Conditions on `entries` alone (subqueries, no joins), so the count stays a single-table scan.
 * `has` says which filters are given; `value` gives them (or their placeholders).
 */
function entryConditions(
  db: Db,
  has: (key: keyof EntryFilter | "searchNumber") => boolean,
  value: EntryValues,
) {
  return and(
    has("companyId") ? eq(entries.companyId, value("companyId") as string) : undefined,
    has("fiscalYearCode")
      ? equalsAnyOf(
          entries.fiscalYearId,
          db
            .select({ id: fiscalYears.id })
            .from(fiscalYears)
            .where(eq(fiscalYears.code, value("fiscalYearCode") as string)),
        )
      : undefined,
    has("journalCode")
      ? equalsAnyOf(
          entries.journalId,
          db
            .select({ id: journals.id })
            .from(journals)
            .where(eq(journals.code, value("journalCode") as string)),
        )
      : undefined,
    has("dateFrom") ? gte(entries.date, value("dateFrom") as string) : undefined,
    has("dateTo") ? lte(entries.date, value("dateTo") as string) : undefined,
    has("subaccountCode")
      ? inArray(
          entries.id,
          db
            .select({ id: entryLines.entryId })
            .from(entryLines)
            .innerJoin(subaccounts, eq(subaccounts.id, entryLines.subaccountId))
            .where(eq(subaccounts.code, value("subaccountCode") as string)),
        )
      : undefined,
    has("search")
      ? or(
          ilike(entries.concept, value("pattern") as string),
          has("searchNumber") ? eq(entries.number, value("searchNumber") as number) : undefined,
        )
      : undefined,
  );
}

/**
 * The shape of a list request: which filters are given, whether the search is also an entry
 * number, the order, and whether a cursor continues the page (it decides the SQL, not the values).
 */
function entryListShape(f: EntryFilter): string {
  const searchNumber = searchNumberOf(f.search) === undefined ? "0" : "1";
  return `${shapeOf(f as unknown as Record<string, unknown>, ENTRY_FILTER_KEYS)}${searchNumber}:${f.sort}:${f.after ? 1 : 0}`;
}

/** The part of a shape that decides what is counted: the filters, not the sort or the cursor. */
const countShapeOf = (shape: string) => shape.slice(0, shape.indexOf(":"));

/** Reads a shape's filter presence back (entryListShape's inverse) for the prepared statements. */
function shapeHas(shape: string) {
  return (key: keyof EntryFilter | "searchNumber") => {
    if (key === "searchNumber") return shape[ENTRY_FILTER_KEYS.length] === "1";
    const i = ENTRY_FILTER_KEYS.indexOf(key as (typeof ENTRY_FILTER_KEYS)[number]);
    return i >= 0 && shape[i] === "1";
  };
}

const cursorOfShape = preparedByShape("cuadra_entry_cursor", (db, shape) =>
  db
    .select({
      date: entries.date,
      number: entries.number,
      id: entries.id,
      companyId: entries.companyId,
      start: fiscalYears.startDate,
    })
    .from(entries)
    .innerJoin(fiscalYears, eq(fiscalYears.id, entries.fiscalYearId))
    .where(and(eq(entries.id, sql.placeholder("after")), entryConditions(db, shapeHas(shape), placeholders))),
);

/** The row comparison continuing a page after the cursor entry in the list's order. */
function cursorCondition(sort: EntryFilter["sort"], value: (key: string) => unknown): SQL {
  return sort === "number"
    ? sql`(${fiscalYears.startDate}, ${entries.companyId}, ${entries.number}) > (${value("cursorStart")}::date, ${value("cursorCompanyId")}::uuid, ${value("cursorNumber")}::int)`
    : sql`(${entries.date}, ${entries.number}, ${entries.id}) < (${value("cursorDate")}::date, ${value("cursorNumber")}::int, ${value("cursorId")}::uuid)`;
}

const entryPageOfShape = preparedByShape("cuadra_entry_page", (db, shape) => {
  const [, sort, after] = shape.split(":") as [string, EntryFilter["sort"], string];
  const order =
    sort === "number"
      ? [asc(fiscalYears.startDate), asc(entries.companyId), asc(entries.number)]
      : [desc(entries.date), desc(entries.number), desc(entries.id)];
  return selectEntryViews(db)
    .where(
      and(
        entryConditions(db, shapeHas(shape), placeholders),
        after === "1" ? cursorCondition(sort, (key) => sql.placeholder(key)) : undefined,
      ),
    )
    .orderBy(...order)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
});

/** The bounded count of the filters the trigger-kept counts cannot answer, prepared per shape. */
const entryPageCounted = paginateBoundedByShape("cuadra_entry_bounded_count", entries, (db, shape, value) =>
  entryConditions(db, shapeHas(shape), value),
);

/**
 * A page of entries, or null when `after` names no entry matching the filters. The page, the
 * cursor lookup and the trigger-kept count run as statements prepared per filter shape (built once).
 */
export async function listEntries(db: Db, f: EntryFilter): Promise<Page<EntryView> | null> {
  if (answersFromLines(f)) return listSubaccountLedger(db, f);
  const shape = entryListShape(f);
  const value = entryValues(f);
  const values: Record<string, unknown> = { limit: f.limit, offset: f.offset, after: f.after };
  for (const key of [...ENTRY_FILTER_KEYS, "pattern", "searchNumber"] as const) {
    const v = value(key);
    if (v !== undefined) values[key] = v;
  }
  if (f.after) {
    const [c] = await cursorOfShape(db, shape, values);
    if (!c) return null;
    Object.assign(values, {
      cursorDate: c.date,
      cursorNumber: c.number,
      cursorId: c.id,
      cursorCompanyId: c.companyId,
      cursorStart: c.start,
    });
  }
  const rows = () => entryPageOfShape(db, shape, values) as Promise<EntryView[]>;
  if (f.dateFrom || f.dateTo || f.subaccountCode || f.search)
    return entryPageCounted(db, rows, countShapeOf(shape), values);
  const [page, total] = await allQueries(db, [rows, () => countedEntries(db, f)]);
  return { rows: page, total, totalIsEstimate: false };
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

const countedOfShape = preparedByShape("cuadra_entry_count", (db, shape) =>
  db
    .select({ total: sql<string>`coalesce(sum(${entryCounts.entries}), 0)` })
    .from(entryCounts)
    .where(
      and(
        shape[0] === "1" ? eq(entryCounts.companyId, sql.placeholder("companyId")) : undefined,
        shape[1] === "1"
          ? inArray(
              entryCounts.fiscalYearId,
              db
                .select({ id: fiscalYears.id })
                .from(fiscalYears)
                .where(eq(fiscalYears.code, sql.placeholder("fiscalYearCode"))),
            )
          : undefined,
        shape[2] === "1"
          ? inArray(
              entryCounts.journalId,
              db
                .select({ id: journals.id })
                .from(journals)
                .where(eq(journals.code, sql.placeholder("journalCode"))),
            )
          : undefined,
      ),
    ),
);

/**
 * How many entries match a filter of company, fiscal year and journal only, exact, from the
 * counts the entries trigger keeps (ledger_entry_counts): a few rows whatever the ledger's size.
 */
async function countedEntries(db: Db, f: EntryFilter): Promise<number> {
  const shape = shapeOf(f as unknown as Record<string, unknown>, [
    "companyId",
    "fiscalYearCode",
    "journalCode",
  ]);
  const [row] = await countedOfShape(db, shape, {
    companyId: f.companyId,
    fiscalYearCode: f.fiscalYearCode,
    journalCode: f.journalCode,
  });
  return Number(row?.total ?? 0);
}
