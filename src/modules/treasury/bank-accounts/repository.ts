import { and, asc, count, eq, ilike, inArray, like, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { bankAccounts } from "../tables.js";

export type BankAccountRow = typeof bankAccounts.$inferSelect;
export type BankAccountInsert = typeof bankAccounts.$inferInsert;

export interface BankAccountListFilter {
  scope?: SQL;
  search?: string;
  includeInactive: boolean;
  limit: number;
  offset: number;
}

export async function findBankAccount(db: Db, id: string): Promise<BankAccountRow | undefined> {
  const [row] = await db.select().from(bankAccounts).where(eq(bankAccounts.id, id)).limit(1);
  return row;
}

export function findBankAccounts(db: Db, ids: string[]): Promise<BankAccountRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .select()
    .from(bankAccounts)
    .where(inArray(bankAccounts.id, [...new Set(ids)]));
}

export function listBankAccounts(db: Db, f: BankAccountListFilter) {
  const pattern = f.search ? likePattern(f.search) : undefined;
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(bankAccounts.isActive, true),
    pattern
      ? or(
          ilike(bankAccounts.name, pattern),
          ilike(bankAccounts.iban, likePattern(f.search!.toUpperCase().replace(/\s/g, ""))),
          like(bankAccounts.subaccountCode, pattern),
        )
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(bankAccounts)
        .where(where)
        .orderBy(asc(bankAccounts.createdAt), asc(bankAccounts.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(bankAccounts).where(where),
  );
}

/** Every bank account of a company (the cash flow's balances). */
export function bankAccountsOfCompany(db: Db, companyId: string) {
  return db
    .select()
    .from(bankAccounts)
    .where(eq(bankAccounts.companyId, companyId))
    .orderBy(asc(bankAccounts.createdAt), asc(bankAccounts.id));
}

/** The highest subaccount code under 572 the company's bank accounts use. */
export async function highestBankSubaccount(db: Db, companyId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ code: sql<string | null>`max(${bankAccounts.subaccountCode})` })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.companyId, companyId), like(bankAccounts.subaccountCode, "572%")));
  return row?.code ?? undefined;
}

export async function insertBankAccount(tx: Db, values: BankAccountInsert) {
  const [row] = await tx.insert(bankAccounts).values(values).returning();
  return row;
}

export async function updateBankAccount(tx: Db, id: string, values: Partial<BankAccountInsert>) {
  const [row] = await tx.update(bankAccounts).set(values).where(eq(bankAccounts.id, id)).returning();
  return row;
}

export async function deleteBankAccount(tx: Db, id: string) {
  await tx.delete(bankAccounts).where(eq(bankAccounts.id, id));
}

/** Serializes the creation of a company's bank accounts (their subaccount numbers). */
export async function lockCompanyBankAccounts(tx: Db, companyId: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`cuadra:bank_accounts:${companyId}`}, 0))`,
  );
}
