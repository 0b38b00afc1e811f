import { and, asc, count, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { preparedRead } from "../../../platform/db/prepared.js";
import { likePattern } from "../../../platform/http/pagination.js";
import type { BudgetRow } from "../budget-access.js";
import { type BudgetState, budgetItems, budgetStatusHistory, budgets } from "../tables.js";

export type NewBudgetRow = typeof budgets.$inferInsert;

export interface BudgetFilter {
  search?: string;
  estado?: BudgetState;
  companyId?: string;
  /** The caller's company scope (budget-access.ts). */
  scope?: SQL;
  limit: number;
  offset: number;
}

export function listBudgets(db: Db, filter: BudgetFilter) {
  const where = and(
    filter.search
      ? or(
          ilike(budgets.code, likePattern(filter.search)),
          ilike(budgets.name, likePattern(filter.search)),
          ilike(budgets.clientName, likePattern(filter.search)),
        )
      : undefined,
    filter.estado ? eq(budgets.estado, filter.estado) : undefined,
    filter.scope,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(budgets)
        .where(where)
        .orderBy(asc(budgets.createdAt), asc(budgets.id))
        .limit(filter.limit)
        .offset(filter.offset),
    () => db.select({ total: count() }).from(budgets).where(where),
  );
}

const pemOf = preparedRead("cuadra_budget_pem", (db) =>
  db
    .select({ budgetId: budgetItems.budgetId, pem: sql<string>`coalesce(sum(${budgetItems.amount}), 0)` })
    .from(budgetItems)
    .where(
      and(
        sql`${budgetItems.budgetId} = any(${sql.placeholder("budgetIds")}::uuid[])`,
        eq(budgetItems.kind, "item"),
      ),
    )
    .groupBy(budgetItems.budgetId),
);

/** PEM (sum of item amounts; chapters store 0) of several budgets in one prepared query. */
export async function pemOfBudgets(db: Db, budgetIds: string[]): Promise<Map<string, string>> {
  if (budgetIds.length === 0) return new Map();
  const rows = await pemOf(db, { budgetIds });
  return new Map(rows.map((r) => [r.budgetId, String(r.pem)]));
}

export async function findBudgetByCode(db: Db, code: string): Promise<BudgetRow | undefined> {
  const [row] = await db.select().from(budgets).where(eq(budgets.code, code)).limit(1);
  return row;
}

/** Codes already taken among `prefix` and `prefix-n`. */
export async function codesStartingWith(db: Db, prefix: string): Promise<Set<string>> {
  const rows = await db
    .select({ code: budgets.code })
    .from(budgets)
    .where(
      or(eq(budgets.code, prefix), sql`${budgets.code} like ${`${prefix.replace(/[\\%_]/g, "\\$&")}-%`}`),
    );
  return new Set(rows.map((r) => r.code));
}

export async function insertBudget(db: Db, values: NewBudgetRow): Promise<BudgetRow> {
  const [row] = await db.insert(budgets).values(values).returning();
  return row;
}

export async function updateBudgetRow(db: Db, id: string, values: Partial<NewBudgetRow>): Promise<BudgetRow> {
  const [row] = await db.update(budgets).set(values).where(eq(budgets.id, id)).returning();
  return row;
}

export async function deleteBudgetRow(db: Db, id: string): Promise<void> {
  await db.delete(budgets).where(eq(budgets.id, id));
}

/** The budget locked for the rest of the transaction, whatever its state. */
export async function lockBudget(db: Db, id: string): Promise<BudgetRow | undefined> {
  const [row] = await db.select().from(budgets).where(eq(budgets.id, id)).limit(1).for("update");
  return row;
}

export async function insertHistory(
  db: Db,
  entry: { budgetId: string; fromEstado: BudgetState; toEstado: BudgetState; userId: string },
): Promise<void> {
  await db.insert(budgetStatusHistory).values(entry);
}

export function listHistory(db: Db, budgetId: string, page: { limit: number; offset: number }) {
  const where = eq(budgetStatusHistory.budgetId, budgetId);
  return paginate(
    db,
    () =>
      db
        .select({
          id: budgetStatusHistory.id,
          fromEstado: budgetStatusHistory.fromEstado,
          toEstado: budgetStatusHistory.toEstado,
          userId: budgetStatusHistory.userId,
          createdAt: budgetStatusHistory.createdAt,
        })
        .from(budgetStatusHistory)
        .where(where)
        .orderBy(asc(budgetStatusHistory.createdAt), asc(budgetStatusHistory.id))
        .limit(page.limit)
        .offset(page.offset),
    () => db.select({ total: count() }).from(budgetStatusHistory).where(where),
  );
}
