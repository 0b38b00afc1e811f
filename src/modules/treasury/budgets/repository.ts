import { and, asc, count, eq, gte, ilike, isNull, lte, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { treasuryBudgets } from "../tables.js";

export type BudgetRow = typeof treasuryBudgets.$inferSelect;
export type BudgetInsert = typeof treasuryBudgets.$inferInsert;

export interface BudgetListFilter {
  scope?: SQL;
  category?: string;
  contactId?: string;
  bankAccountId?: string;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
  limit: number;
  offset: number;
}

export async function findBudget(db: Db, id: string): Promise<BudgetRow | undefined> {
  const [row] = await db.select().from(treasuryBudgets).where(eq(treasuryBudgets.id, id)).limit(1);
  return row;
}

export function listBudgets(db: Db, f: BudgetListFilter) {
  const where = and(
    f.scope,
    f.category ? eq(treasuryBudgets.category, f.category) : undefined,
    f.contactId ? eq(treasuryBudgets.contactId, f.contactId) : undefined,
    f.bankAccountId ? eq(treasuryBudgets.bankAccountId, f.bankAccountId) : undefined,
    f.dateFrom ? gte(treasuryBudgets.date, f.dateFrom) : undefined,
    f.dateTo ? lte(treasuryBudgets.date, f.dateTo) : undefined,
    f.search
      ? or(
          ilike(treasuryBudgets.category, likePattern(f.search)),
          ilike(treasuryBudgets.description, likePattern(f.search)),
        )
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(treasuryBudgets)
        .where(where)
        .orderBy(asc(treasuryBudgets.date), asc(treasuryBudgets.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(treasuryBudgets).where(where),
  );
}

/**
 * The lines of a company that may fall within [from, to]: dated by `to`, and either dated from
 * `from` on or recurring with no end before `from`; optionally only those of one bank account.
 */
export function budgetsInWindow(
  db: Db,
  f: { companyId: string; from: string; to: string; bankAccountId?: string },
) {
  return db
    .select()
    .from(treasuryBudgets)
    .where(
      and(
        eq(treasuryBudgets.companyId, f.companyId),
        lte(treasuryBudgets.date, f.to),
        or(
          gte(treasuryBudgets.date, f.from),
          and(
            ne(treasuryBudgets.recurrence, "none"),
            or(isNull(treasuryBudgets.until), gte(treasuryBudgets.until, f.from)),
          ),
        ),
        f.bankAccountId ? eq(treasuryBudgets.bankAccountId, f.bankAccountId) : undefined,
      ),
    )
    .orderBy(asc(treasuryBudgets.date), asc(treasuryBudgets.id));
}

export async function insertBudget(tx: Db, values: BudgetInsert) {
  const [row] = await tx.insert(treasuryBudgets).values(values).returning();
  return row;
}

export async function updateBudget(tx: Db, id: string, values: Partial<BudgetInsert>) {
  const [row] = await tx.update(treasuryBudgets).set(values).where(eq(treasuryBudgets.id, id)).returning();
  return row;
}

export async function deleteBudget(tx: Db, id: string) {
  await tx.delete(treasuryBudgets).where(eq(treasuryBudgets.id, id));
}
