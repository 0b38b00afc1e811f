import { and, asc, count, eq, ilike, inArray, isNotNull, like, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { pgArray } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { accounts, fiscalYears, subaccounts } from "../tables.js";

export type AccountRow = typeof accounts.$inferSelect;
export type SubaccountRow = typeof subaccounts.$inferSelect;
export type SubaccountInsert = typeof subaccounts.$inferInsert;

const byCode = (column: typeof accounts.code | typeof subaccounts.code) => sql`${column} collate "C"`;
const startsWith = (column: typeof subaccounts.code, prefix: string) =>
  like(column, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);

/** Lists filter by the year's code, so rows carry it. */
const accountColumns = { account: accounts, fiscalYearCode: fiscalYears.code };
const subaccountColumns = { subaccount: subaccounts, fiscalYearCode: fiscalYears.code };

export async function insertAccounts(tx: Db, rows: (typeof accounts.$inferInsert)[]) {
  if (rows.length) await tx.insert(accounts).values(rows);
}

export async function listAccounts(
  db: Db,
  f: {
    scope?: SQL;
    fiscalYearCode?: string;
    isActive?: boolean;
    search?: string;
    limit: number;
    offset: number;
  },
) {
  const where = and(
    f.scope,
    f.fiscalYearCode ? eq(fiscalYears.code, f.fiscalYearCode) : undefined,
    f.isActive === undefined ? undefined : eq(accounts.isActive, f.isActive),
    f.search
      ? /^\d+$/.test(f.search)
        ? like(accounts.code, `${f.search}%`)
        : ilike(accounts.name, likePattern(f.search))
      : undefined,
  );
  const { rows, total } = await paginate(
    db,
    () =>
      db
        .select(accountColumns)
        .from(accounts)
        .innerJoin(fiscalYears, eq(fiscalYears.id, accounts.fiscalYearId))
        .where(where)
        .orderBy(asc(fiscalYears.startDate), asc(accounts.fiscalYearId), byCode(accounts.code))
        .limit(f.limit)
        .offset(f.offset),
    () =>
      db
        .select({ total: count() })
        .from(accounts)
        .innerJoin(fiscalYears, eq(fiscalYears.id, accounts.fiscalYearId))
        .where(where),
  );
  return { rows: rows.map((r) => ({ ...r.account, fiscalYearCode: r.fiscalYearCode })), total };
}

/**
 * For each (year, code): the most specific account of that year, 3 digits or more, whose code
 * starts the code (4300 for 4300000001). One query for any number of codes.
 */
export async function findParentAccounts(db: Db, wanted: { fiscalYearId: string; code: string }[]) {
  const prefixes = new Set<string>();
  for (const w of wanted) for (let n = 3; n < w.code.length; n++) prefixes.add(w.code.slice(0, n));
  const found = new Set<string>();
  if (prefixes.size) {
    const rows = await db
      .select({ fiscalYearId: accounts.fiscalYearId, code: accounts.code })
      .from(accounts)
      .where(
        and(
          inArray(accounts.fiscalYearId, [...new Set(wanted.map((w) => w.fiscalYearId))]),
          inArray(accounts.code, [...prefixes]),
        ),
      );
    for (const r of rows) found.add(`${r.fiscalYearId}:${r.code}`);
  }
  return (fiscalYearId: string, code: string): string | undefined => {
    for (let n = code.length - 1; n >= 3; n--) {
      if (found.has(`${fiscalYearId}:${code.slice(0, n)}`)) return code.slice(0, n);
    }
    return undefined;
  };
}

export async function findAccountByCode(db: Db, fiscalYearId: string, code: string) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.fiscalYearId, fiscalYearId), eq(accounts.code, code)))
    .limit(1);
  return row;
}

/** Bulk insert, in chunks that stay under the driver's 65,535 bind parameters. */
export async function insertSubaccounts(tx: Db, rows: SubaccountInsert[]) {
  const inserted: SubaccountRow[] = [];
  for (let i = 0; i < rows.length; i += 2000) {
    inserted.push(
      ...(await tx
        .insert(subaccounts)
        .values(rows.slice(i, i + 2000))
        .returning()),
    );
  }
  return inserted;
}

export async function contactSubaccountsOfYear(db: Db, fiscalYearId: string) {
  return db
    .select()
    .from(subaccounts)
    .where(and(eq(subaccounts.fiscalYearId, fiscalYearId), isNotNull(subaccounts.contactId)))
    .orderBy(byCode(subaccounts.code));
}

export async function findSubaccount(db: Db, id: string) {
  const [row] = await db
    .select(subaccountColumns)
    .from(subaccounts)
    .innerJoin(fiscalYears, eq(fiscalYears.id, subaccounts.fiscalYearId))
    .where(eq(subaccounts.id, id))
    .limit(1);
  return row && { ...row.subaccount, fiscalYearCode: row.fiscalYearCode };
}

export async function findSubaccountByCode(db: Db, fiscalYearId: string, code: string) {
  const [row] = await db
    .select()
    .from(subaccounts)
    .where(and(eq(subaccounts.fiscalYearId, fiscalYearId), eq(subaccounts.code, code)))
    .limit(1);
  return row;
}

export async function findSubaccountsByCodes(db: Db, fiscalYearId: string, codes: string[]) {
  if (!codes.length) return [];
  return db
    .select()
    .from(subaccounts)
    .where(and(eq(subaccounts.fiscalYearId, fiscalYearId), inArray(subaccounts.code, codes)));
}

export interface SubaccountFilter {
  scope?: SQL;
  fiscalYearCode?: string;
  accountCode?: string;
  contactId?: string;
  search?: string;
  includeInactive: boolean;
  limit: number;
  offset: number;
}

export async function listSubaccounts(db: Db, f: SubaccountFilter) {
  const where = and(
    f.scope,
    f.fiscalYearCode ? eq(fiscalYears.code, f.fiscalYearCode) : undefined,
    f.accountCode ? startsWith(subaccounts.code, f.accountCode) : undefined,
    f.contactId ? eq(subaccounts.contactId, f.contactId) : undefined,
    f.includeInactive ? undefined : eq(subaccounts.isActive, true),
    f.search
      ? or(ilike(subaccounts.code, likePattern(f.search)), ilike(subaccounts.name, likePattern(f.search)))
      : undefined,
  );
  const { rows, total } = await paginate(
    db,
    () =>
      db
        .select(subaccountColumns)
        .from(subaccounts)
        .innerJoin(fiscalYears, eq(fiscalYears.id, subaccounts.fiscalYearId))
        .where(where)
        .orderBy(asc(fiscalYears.startDate), asc(subaccounts.fiscalYearId), byCode(subaccounts.code))
        .limit(f.limit)
        .offset(f.offset),
    () =>
      db
        .select({ total: count() })
        .from(subaccounts)
        .innerJoin(fiscalYears, eq(fiscalYears.id, subaccounts.fiscalYearId))
        .where(where),
  );
  return { rows: rows.map((r) => ({ ...r.subaccount, fiscalYearCode: r.fiscalYearCode })), total };
}

/**
 * For each (year, account) pair: whether the contact already has a subaccount under the account,
 * and the highest number in use under it among codes of the company's length.
 */
export async function contactSubaccountSlots(
  db: Db,
  f: { fiscalYearIds: string[]; accountCodes: string[]; contactId: string; length: number },
) {
  const rows = await db
    .select({
      fiscalYearId: subaccounts.fiscalYearId,
      accountCode: sql<string>`left(${subaccounts.code}, 3)`,
      hasContact: sql<boolean>`bool_or(${subaccounts.contactId} = ${f.contactId})`,
      highest: sql<
        string | null
      >`max(${subaccounts.code} collate "C") filter (where length(${subaccounts.code}) = ${f.length})`,
    })
    .from(subaccounts)
    .where(
      and(
        inArray(subaccounts.fiscalYearId, f.fiscalYearIds),
        inArray(sql`left(${subaccounts.code}, 3)`, f.accountCodes),
      ),
    )
    .groupBy(subaccounts.fiscalYearId, sql`left(${subaccounts.code}, 3)`);
  return rows;
}

/** The codes of a contact's subaccounts in a fiscal year (its 430 and/or 400 ones). */
export async function subaccountCodesOfContact(db: Db, fiscalYearId: string, contactId: string) {
  const rows = await db
    .select({ code: subaccounts.code })
    .from(subaccounts)
    .where(and(eq(subaccounts.fiscalYearId, fiscalYearId), eq(subaccounts.contactId, contactId)))
    .orderBy(byCode(subaccounts.code));
  return rows.map((r) => r.code);
}

/** The subaccounts some contacts have in a fiscal year, by code. */
export function subaccountCodesOfContacts(db: Db, fiscalYearId: string, contactIds: string[]) {
  if (!contactIds.length) return Promise.resolve([]);
  return db
    .select({ contactId: subaccounts.contactId, code: subaccounts.code })
    .from(subaccounts)
    .where(
      and(
        eq(subaccounts.fiscalYearId, fiscalYearId),
        sql`${subaccounts.contactId} = any(${pgArray(contactIds)}::uuid[])`,
      ),
    )
    .orderBy(byCode(subaccounts.code)) as Promise<Array<{ contactId: string; code: string }>>;
}

/** Names of some accounts of a fiscal year, by code. */
export async function accountNamesByCode(db: Db, fiscalYearId: string, codes: string[]) {
  if (!codes.length) return new Map<string, string>();
  const rows = await db
    .select({ code: accounts.code, name: accounts.name })
    .from(accounts)
    .where(and(eq(accounts.fiscalYearId, fiscalYearId), inArray(accounts.code, [...new Set(codes)])));
  return new Map(rows.map((r) => [r.code, r.name]));
}

/**
 * The company of a contact, or undefined when there is none with that id. The contacts table
 * belongs to the clients module, which depends on this one; it is read by name so the modules do
 * not import each other.
 */
export async function companyOfContact(db: Db, contactId: string): Promise<string | undefined> {
  const result = (await db.execute(
    sql`select company_id from contacts where id = ${contactId}`,
  )) as unknown as {
    rows: { company_id: string }[];
  };
  return result.rows[0]?.company_id;
}
