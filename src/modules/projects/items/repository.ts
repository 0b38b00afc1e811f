import { and, asc, count, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { queryOne, queryRows } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { budgetConcepts, budgetItemDecomposition, budgetItemMeasurements, budgetItems } from "../tables.js";
import type { DecompositionLine, MeasurementLine } from "./arithmetic.js";
import type { ConceptRow } from "./concepts.js";

export type ItemRow = typeof budgetItems.$inferSelect;
export type NewItemRow = typeof budgetItems.$inferInsert;
export type StoredMeasurement = typeof budgetItemMeasurements.$inferSelect;
export type StoredDecomposition = typeof budgetItemDecomposition.$inferSelect;

export interface ItemView extends ItemRow {
  /** Items: their amount; chapters: the sum of the items under them. */
  displayAmount: string;
  measurements: StoredMeasurement[];
  decomposition: StoredDecomposition[];
  concept: ConceptRow;
  otherPlacements: {
    id: string;
    parentId: string | null;
    parentCode: string | null;
    quantity: string;
    amount: string;
  }[];
}

const idList = (ids: string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

export async function findItem(db: Db, id: string): Promise<ItemRow | undefined> {
  const [row] = await db.select().from(budgetItems).where(eq(budgetItems.id, id)).limit(1);
  return row;
}

export function itemsByIds(db: Db, ids: string[]): Promise<ItemRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(budgetItems).where(inArray(budgetItems.id, ids));
}

/** Every item of a budget, siblings in position order. */
export function itemsOfBudget(db: Db, budgetId: string): Promise<ItemRow[]> {
  return db
    .select()
    .from(budgetItems)
    .where(eq(budgetItems.budgetId, budgetId))
    .orderBy(asc(budgetItems.position), asc(budgetItems.id));
}

export function measurementsOf(db: Db, itemId: string): Promise<StoredMeasurement[]> {
  return db
    .select()
    .from(budgetItemMeasurements)
    .where(eq(budgetItemMeasurements.itemId, itemId))
    .orderBy(asc(budgetItemMeasurements.position));
}

export function decompositionOf(db: Db, conceptId: string): Promise<StoredDecomposition[]> {
  return db
    .select()
    .from(budgetItemDecomposition)
    .where(eq(budgetItemDecomposition.conceptId, conceptId))
    .orderBy(asc(budgetItemDecomposition.position));
}

export async function replaceMeasurements(tx: Db, itemId: string, lines: MeasurementLine[]): Promise<void> {
  await tx.delete(budgetItemMeasurements).where(eq(budgetItemMeasurements.itemId, itemId));
  if (lines.length === 0) return;
  await tx.insert(budgetItemMeasurements).values(lines.map((l, position) => ({ ...l, itemId, position })));
}

export async function replaceDecomposition(
  tx: Db,
  conceptId: string,
  lines: DecompositionLine[],
): Promise<void> {
  await tx.delete(budgetItemDecomposition).where(eq(budgetItemDecomposition.conceptId, conceptId));
  if (lines.length === 0) return;
  await tx
    .insert(budgetItemDecomposition)
    .values(lines.map((l, position) => ({ ...l, conceptId, position })));
}

/** Displayed amount of each given item: its own for items, the sum of the items below for chapters. */
export async function displayAmounts(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  return subtreeSums(db, sql`select id, id, kind, amount from budget_items where id in (${idList(ids)})`);
}

/** Displayed amount of every item and chapter of a budget. */
export function displayAmountsOfBudget(db: Db, budgetId: string): Promise<Map<string, string>> {
  return subtreeSums(db, sql`select id, id, kind, amount from budget_items where budget_id = ${budgetId}`);
}

async function subtreeSums(db: Db, roots: SQL): Promise<Map<string, string>> {
  const rows = await queryRows<{ id: string; amount: string }>(
    db,
    sql`with recursive sub(root, id, kind, amount) as (
          ${roots}
          union all
          select s.root, c.id, c.kind, c.amount from budget_items c join sub s on c.parent_id = s.id
        )
        select root as id, coalesce(sum(amount) filter (where kind = 'item'), 0)::text as amount
          from sub group by root`,
  );
  return new Map(rows.map((r) => [r.id, String(r.amount)]));
}

export interface ItemFilter {
  budgetId: string;
  parentId?: string;
  kind?: string;
  search?: string;
  limit: number;
  offset: number;
}

/** One page of ids in tree order (depth first, siblings by position) and the filtered count. */
export async function pageItemIds(db: Db, f: ItemFilter): Promise<{ ids: string[]; total: number }> {
  const conditions = [
    f.parentId ? sql`parent_id = ${f.parentId}` : undefined,
    f.kind ? sql`kind = ${f.kind}` : undefined,
    f.search
      ? sql`(code ilike ${likePattern(f.search)} or summary ilike ${likePattern(f.search)})`
      : undefined,
  ].filter((c): c is SQL => c !== undefined);
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const tree = sql`with recursive tree(id, parent_id, kind, code, summary, path) as (
      select id, parent_id, kind, code, summary, array[position]
        from budget_items where budget_id = ${f.budgetId} and parent_id is null
      union all
      select c.id, c.parent_id, c.kind, c.code, c.summary, t.path || c.position
        from budget_items c join tree t on c.parent_id = t.id
    )`;
  const { rows, total } = await paginate(
    db,
    () =>
      queryRows<{ id: string }>(
        db,
        sql`${tree} select id from tree ${where} order by path, id limit ${f.limit} offset ${f.offset}`,
      ),
    () => queryRows<{ total: number }>(db, sql`${tree} select count(*)::int as total from tree ${where}`),
  );
  return { ids: rows.map((r) => r.id), total };
}

/** 1 for a top-level node, 2 for its children... */
export async function depthOf(db: Db, id: string): Promise<number> {
  const row = await queryOne<{ depth: number }>(
    db,
    sql`with recursive up(id, parent_id, depth) as (
          select id, parent_id, 1 from budget_items where id = ${id}
          union all
          select p.id, p.parent_id, u.depth + 1 from budget_items p join up u on p.id = u.parent_id
        )
        select max(depth)::int as depth from up`,
  );
  return Number(row?.depth ?? 0);
}

/** The node and everything under it, with each one's depth relative to the node (the node is 1). */
export function subtreeOf(db: Db, id: string): Promise<{ id: string; depth: number }[]> {
  return queryRows<{ id: string; depth: number }>(
    db,
    sql`with recursive down(id, depth) as (
          select id, 1 from budget_items where id = ${id}
          union all
          select c.id, d.depth + 1 from budget_items c join down d on c.parent_id = d.id
        )
        select id, depth::int as depth from down`,
  );
}

const siblingsOf = (budgetId: string, parentId: string | null) =>
  and(
    eq(budgetItems.budgetId, budgetId),
    parentId === null ? isNull(budgetItems.parentId) : eq(budgetItems.parentId, parentId),
  );

export async function countChildren(db: Db, budgetId: string, parentId: string | null): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(budgetItems).where(siblingsOf(budgetId, parentId));
  return Number(n);
}

/** Makes room at `position`: siblings at or after it move one place down. */
export async function openGap(tx: Db, budgetId: string, parentId: string | null, position: number) {
  await tx
    .update(budgetItems)
    .set({ position: sql`${budgetItems.position} + 1` })
    .where(and(siblingsOf(budgetId, parentId), sql`${budgetItems.position} >= ${position}`));
}

/** Renumbers the children of `parentId` 0..n-1 in their current order, leaving out `exceptId`. */
export async function compactSiblings(tx: Db, budgetId: string, parentId: string | null, exceptId?: string) {
  await tx.execute(sql`
    update budget_items b set position = r.rn
      from (select id, (row_number() over (order by position, id) - 1)::int as rn
              from budget_items
             where budget_id = ${budgetId} and parent_id is not distinct from ${parentId}::uuid
               and id is distinct from ${exceptId ?? null}::uuid) r
     where b.id = r.id and b.position <> r.rn`);
}

export async function insertItem(tx: Db, values: NewItemRow): Promise<ItemRow> {
  const [row] = await tx.insert(budgetItems).values(values).returning();
  return row;
}

export async function updateItemRow(tx: Db, id: string, values: Partial<NewItemRow>): Promise<ItemRow> {
  const [row] = await tx.update(budgetItems).set(values).where(eq(budgetItems.id, id)).returning();
  return row;
}

export async function deleteItemRow(tx: Db, id: string): Promise<void> {
  await tx.delete(budgetItems).where(eq(budgetItems.id, id));
}

/** Removes a budget's whole tree and its concepts (lines and activity links go with them by cascade). */
export async function deleteItemsOfBudget(tx: Db, budgetId: string): Promise<void> {
  await tx.delete(budgetItems).where(eq(budgetItems.budgetId, budgetId));
  await tx.delete(budgetConcepts).where(eq(budgetConcepts.budgetId, budgetId));
}
