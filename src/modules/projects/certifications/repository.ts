import { and, asc, count, desc, eq, inArray, lt, max, type SQL } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { budgetItems, type CertificationState, certificationLines, certifications } from "../tables.js";

export type CertificationRow = typeof certifications.$inferSelect;
export type CertificationInsert = typeof certifications.$inferInsert;

export interface LineQuantity {
  budgetItemId: string;
  quantityToOrigin: string;
}

/** What a certification needs of each budget node: the tree shape, the budgeted quantity and the price. */
export interface ItemNode {
  id: string;
  parentId: string | null;
  kind: string;
  code: string;
  position: number;
  unit: string;
  summary: string;
  quantity: string;
  unitPrice: string;
  /** Items: the budgeted amount (quantity x price); chapters: 0. */
  amount: string;
}

export async function findCertification(db: Db, id: string, opts: { lock?: boolean } = {}) {
  const query = db.select().from(certifications).where(eq(certifications.id, id)).limit(1);
  const [row] = opts.lock ? await query.for("update") : await query;
  return row;
}

export interface CertificationFilter {
  budgetId?: string;
  estado?: CertificationState;
  /** The caller's company scope (budget-access.ts). */
  scope?: SQL;
  limit: number;
  offset: number;
}

export function listCertifications(db: Db, filter: CertificationFilter) {
  const where = and(
    filter.budgetId ? eq(certifications.budgetId, filter.budgetId) : undefined,
    filter.scope,
    filter.estado ? eq(certifications.estado, filter.estado) : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(certifications)
        .where(where)
        .orderBy(asc(certifications.createdAt), asc(certifications.id))
        .limit(filter.limit)
        .offset(filter.offset),
    () => db.select({ total: count() }).from(certifications).where(where),
  );
}

/** Highest certification number of a budget (0 when it has none). Call it under the budget lock. */
export async function lastCertificationNumber(db: Db, budgetId: string): Promise<number> {
  const [row] = await db
    .select({ last: max(certifications.number) })
    .from(certifications)
    .where(eq(certifications.budgetId, budgetId));
  return row?.last ?? 0;
}

export async function findByNumber(db: Db, budgetId: string, number: number) {
  const [row] = await db
    .select()
    .from(certifications)
    .where(and(eq(certifications.budgetId, budgetId), eq(certifications.number, number)))
    .limit(1);
  return row;
}

export async function insertCertification(tx: Db, values: CertificationInsert) {
  const [row] = await tx.insert(certifications).values(values).returning();
  return row;
}

export async function updateCertification(tx: Db, id: string, values: Partial<CertificationInsert>) {
  await tx.update(certifications).set(values).where(eq(certifications.id, id));
}

export async function deleteCertification(tx: Db, id: string) {
  await tx.delete(certifications).where(eq(certifications.id, id));
}

export async function linesOf(db: Db, certificationId: string): Promise<LineQuantity[]> {
  return db
    .select({
      budgetItemId: certificationLines.budgetItemId,
      quantityToOrigin: certificationLines.quantityToOrigin,
    })
    .from(certificationLines)
    .where(eq(certificationLines.certificationId, certificationId));
}

/** Lines of the last validated certification of the budget numbered below `number`, if any. */
export async function previousValidatedLines(
  db: Db,
  budgetId: string,
  number: number,
): Promise<{ number: number; lines: LineQuantity[] } | null> {
  const [previous] = await db
    .select({ id: certifications.id, number: certifications.number })
    .from(certifications)
    .where(
      and(
        eq(certifications.budgetId, budgetId),
        eq(certifications.estado, "validada"),
        lt(certifications.number, number),
      ),
    )
    .orderBy(desc(certifications.number))
    .limit(1);
  if (!previous) return null;
  return { number: previous.number, lines: await linesOf(db, previous.id) };
}

export async function insertLines(tx: Db, certificationId: string, lines: readonly LineQuantity[]) {
  if (lines.length === 0) return;
  await tx.insert(certificationLines).values(
    lines.map((l) => ({
      certificationId,
      budgetItemId: l.budgetItemId,
      quantityToOrigin: l.quantityToOrigin,
    })),
  );
}

export async function replaceLines(tx: Db, certificationId: string, lines: readonly LineQuantity[]) {
  await tx.delete(certificationLines).where(eq(certificationLines.certificationId, certificationId));
  await insertLines(tx, certificationId, lines);
}

export async function itemNodesOfBudget(db: Db, budgetId: string): Promise<ItemNode[]> {
  return db
    .select({
      id: budgetItems.id,
      parentId: budgetItems.parentId,
      kind: budgetItems.kind,
      code: budgetItems.code,
      position: budgetItems.position,
      unit: budgetItems.unit,
      summary: budgetItems.summary,
      quantity: budgetItems.quantity,
      unitPrice: budgetItems.unitPrice,
      amount: budgetItems.amount,
    })
    .from(budgetItems)
    .where(eq(budgetItems.budgetId, budgetId));
}

/** Kind and budget of the given items (to check a certification's lines point at leaf items of its budget). */
export async function itemKinds(db: Db, itemIds: readonly string[]) {
  if (itemIds.length === 0) return [];
  return db
    .select({ id: budgetItems.id, budgetId: budgetItems.budgetId, kind: budgetItems.kind })
    .from(budgetItems)
    .where(inArray(budgetItems.id, [...itemIds]));
}
