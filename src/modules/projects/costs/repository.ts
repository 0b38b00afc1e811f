import { and, asc, count, eq, gte, ilike, lte, or, type SQL } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { activities, budgetItems, type CostCategory, costAttachments, costEntries } from "../tables.js";

export type CostEntryRow = typeof costEntries.$inferSelect;
export type CostEntryInsert = typeof costEntries.$inferInsert;

export interface CostEntryFilter {
  budgetId?: string;
  category?: CostCategory;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
  /** The caller's company scope (budget-access.ts). */
  scope?: SQL;
  limit: number;
  offset: number;
}

export function listCostEntries(db: Db, filter: CostEntryFilter) {
  const pattern = filter.search ? likePattern(filter.search) : undefined;
  const where = and(
    filter.budgetId ? eq(costEntries.budgetId, filter.budgetId) : undefined,
    filter.scope,
    filter.category ? eq(costEntries.category, filter.category) : undefined,
    filter.dateFrom ? gte(costEntries.date, filter.dateFrom) : undefined,
    filter.dateTo ? lte(costEntries.date, filter.dateTo) : undefined,
    pattern
      ? or(
          ilike(costEntries.supplierName, pattern),
          ilike(costEntries.concept, pattern),
          ilike(costEntries.documentNumber, pattern),
        )
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(costEntries)
        .where(where)
        .orderBy(asc(costEntries.date), asc(costEntries.createdAt), asc(costEntries.id))
        .limit(filter.limit)
        .offset(filter.offset),
    () => db.select({ total: count() }).from(costEntries).where(where),
  );
}

export async function findCostEntry(db: Db, id: string) {
  const [row] = await db.select().from(costEntries).where(eq(costEntries.id, id)).limit(1);
  return row;
}

export async function insertCostEntry(tx: Db, values: CostEntryInsert) {
  const [row] = await tx.insert(costEntries).values(values).returning();
  return row;
}

export async function updateCostEntry(tx: Db, id: string, values: Partial<CostEntryInsert>) {
  const [row] = await tx.update(costEntries).set(values).where(eq(costEntries.id, id)).returning();
  return row;
}

export async function deleteCostEntry(tx: Db, id: string) {
  await tx.delete(costEntries).where(eq(costEntries.id, id));
}

export async function findBudgetOfItem(db: Db, itemId: string) {
  const [row] = await db
    .select({ budgetId: budgetItems.budgetId })
    .from(budgetItems)
    .where(eq(budgetItems.id, itemId))
    .limit(1);
  return row?.budgetId;
}

export async function findBudgetOfActivity(db: Db, activityId: string) {
  const [row] = await db
    .select({ budgetId: activities.budgetId })
    .from(activities)
    .where(eq(activities.id, activityId))
    .limit(1);
  return row?.budgetId;
}

export async function storageKeysOfEntry(db: Db, costEntryId: string): Promise<string[]> {
  const rows = await db
    .select({ storageKey: costAttachments.storageKey })
    .from(costAttachments)
    .where(eq(costAttachments.costEntryId, costEntryId));
  return rows.map((r) => r.storageKey);
}
