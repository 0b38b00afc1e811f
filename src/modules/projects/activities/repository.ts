import { and, asc, count, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { queryRows } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { type ActivityState, activities, activityItems } from "../tables.js";

export type ActivityRow = typeof activities.$inferSelect;
export type NewActivityRow = typeof activities.$inferInsert;

export interface ActivityFilter {
  budgetId?: string;
  estado?: ActivityState;
  search?: string;
  /** The caller's company scope (budget-access.ts). */
  scope?: SQL;
  limit: number;
  offset: number;
}

export function listActivityRows(db: Db, f: ActivityFilter) {
  const where = and(
    f.budgetId ? eq(activities.budgetId, f.budgetId) : undefined,
    f.scope,
    f.estado ? eq(activities.estado, f.estado) : undefined,
    f.search
      ? or(ilike(activities.code, likePattern(f.search)), ilike(activities.name, likePattern(f.search)))
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(activities)
        .where(where)
        .orderBy(asc(activities.createdAt), asc(activities.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(activities).where(where),
  );
}

export async function findActivity(db: Db, id: string): Promise<ActivityRow | undefined> {
  const [row] = await db.select().from(activities).where(eq(activities.id, id)).limit(1);
  return row;
}

export async function findActivityByCode(db: Db, budgetId: string, code: string) {
  const [row] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.budgetId, budgetId), eq(activities.code, code)))
    .limit(1);
  return row;
}

export async function insertActivity(tx: Db, values: NewActivityRow): Promise<ActivityRow> {
  const [row] = await tx.insert(activities).values(values).returning();
  return row;
}

export async function updateActivityRow(tx: Db, id: string, values: Partial<NewActivityRow>) {
  await tx.update(activities).set(values).where(eq(activities.id, id));
}

export async function deleteActivityRow(tx: Db, id: string): Promise<void> {
  await tx.delete(activities).where(eq(activities.id, id));
}

export async function replaceActivityItems(tx: Db, activityId: string, itemIds: string[]): Promise<void> {
  await tx.delete(activityItems).where(eq(activityItems.activityId, activityId));
  if (itemIds.length === 0) return;
  await tx.insert(activityItems).values(itemIds.map((budgetItemId) => ({ activityId, budgetItemId })));
}

/** Linked item ids of several activities in one query. */
export async function itemIdsOfActivities(db: Db, activityIds: string[]): Promise<Map<string, string[]>> {
  const links = new Map<string, string[]>();
  if (activityIds.length === 0) return links;
  const rows = await db
    .select()
    .from(activityItems)
    .where(inArray(activityItems.activityId, activityIds))
    .orderBy(asc(activityItems.activityId), asc(activityItems.budgetItemId));
  for (const r of rows) links.set(r.activityId, [...(links.get(r.activityId) ?? []), r.budgetItemId]);
  return links;
}

/**
 * Planned value of several activities in one query: the amounts of the distinct items covered by their
 * links, a linked chapter covering its whole subtree (an item linked twice counts once).
 */
export async function plannedValues(db: Db, activityIds: string[]): Promise<Map<string, string>> {
  if (activityIds.length === 0) return new Map();
  const ids = sql.join(
    activityIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows<{ activity_id: string; planned: string }>(
    db,
    sql`with recursive covered(activity_id, id) as (
          select activity_id, budget_item_id from activity_items where activity_id in (${ids})
          union
          select c.activity_id, b.id from budget_items b join covered c on b.parent_id = c.id
        )
        select c.activity_id, coalesce(sum(b.amount), 0)::text as planned
          from covered c join budget_items b on b.id = c.id and b.kind = 'item'
         group by c.activity_id`,
  );
  return new Map(rows.map((r) => [r.activity_id, String(r.planned)]));
}
