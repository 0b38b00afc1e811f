import { and, asc, eq, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../platform/db/client.js";
import { budgetConcepts, budgetItems } from "../tables.js";

export type ConceptRow = typeof budgetConcepts.$inferSelect;
export type NewConceptRow = typeof budgetConcepts.$inferInsert;

/** A concept's fields a placement carries a copy of. */
export type ConceptFields = Partial<
  Pick<NewConceptRow, "code" | "unit" | "summary" | "longText" | "unitPrice">
>;

export async function findConcept(db: Db, id: string): Promise<ConceptRow | undefined> {
  const [row] = await db.select().from(budgetConcepts).where(eq(budgetConcepts.id, id)).limit(1);
  return row;
}

export async function findConceptByCode(
  db: Db,
  budgetId: string,
  code: string,
): Promise<ConceptRow | undefined> {
  const [row] = await db
    .select()
    .from(budgetConcepts)
    .where(and(eq(budgetConcepts.budgetId, budgetId), eq(budgetConcepts.code, code)))
    .limit(1);
  return row;
}

export async function insertConcept(tx: Db, values: NewConceptRow): Promise<ConceptRow> {
  const [row] = await tx.insert(budgetConcepts).values(values).returning();
  return row;
}

/**
 * Changes a concept and rewrites every placement's copy of it: code, texts, unit price and the
 * amount (quantity x price, half-up to cents, as itemAmount rounds), in one statement.
 */
export async function updateConceptEverywhere(
  tx: Db,
  conceptId: string,
  fields: ConceptFields,
): Promise<void> {
  const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length > 0) {
    await tx.update(budgetConcepts).set(set).where(eq(budgetConcepts.id, conceptId));
  }
  await tx.execute(sql`
    update budget_items i
       set code = c.code, unit = c.unit, summary = c.summary, long_text = c.long_text,
           unit_price = case when i.kind = 'item' then c.unit_price else 0 end,
           amount = case when i.kind = 'item' then round(i.quantity * c.unit_price, 2) else 0 end,
           updated_at = now()
      from budget_concepts c
     where c.id = ${conceptId} and i.concept_id = c.id`);
}

/** The other placements of a concept, with their parent chapter's code (null at the top level). */
export function otherPlacements(db: Db, conceptId: string, exceptItemId: string) {
  const parent = alias(budgetItems, "parent");
  return db
    .select({
      id: budgetItems.id,
      parentId: budgetItems.parentId,
      parentCode: parent.code,
      quantity: budgetItems.quantity,
      amount: budgetItems.amount,
    })
    .from(budgetItems)
    .leftJoin(parent, eq(parent.id, budgetItems.parentId))
    .where(and(eq(budgetItems.conceptId, conceptId), ne(budgetItems.id, exceptItemId)))
    .orderBy(asc(budgetItems.id));
}

/** Concepts of a budget no placement uses any more (after deleting placements). */
export async function deleteUnplacedConcepts(tx: Db, budgetId: string): Promise<void> {
  await tx.execute(sql`
    delete from budget_concepts c
     where c.budget_id = ${budgetId}
       and not exists (select 1 from budget_items i where i.concept_id = c.id)`);
}

export async function deleteConceptsOfBudget(tx: Db, budgetId: string): Promise<void> {
  await tx.delete(budgetConcepts).where(eq(budgetConcepts.budgetId, budgetId));
}

export function conceptsOfBudget(db: Db, budgetId: string): Promise<ConceptRow[]> {
  return db
    .select()
    .from(budgetConcepts)
    .where(eq(budgetConcepts.budgetId, budgetId))
    .orderBy(asc(budgetConcepts.code));
}
