import { and, asc, count, eq, gte, ilike, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import {
  bankMovementSuggestions,
  bankMovements,
  bankReconciliations,
  type MovementState,
  type SuggestionTarget,
} from "../tables.js";

export type MovementRow = typeof bankMovements.$inferSelect;
export type ReconciliationRow = typeof bankReconciliations.$inferSelect;
export type ReconciliationInsert = typeof bankReconciliations.$inferInsert;
export type SuggestionRow = typeof bankMovementSuggestions.$inferSelect;

const CHUNK = 5_000;
const INSERT_CHUNK = 2_000;

export interface MovementFilter {
  scope?: SQL;
  estado?: MovementState;
  bankAccountId?: string;
  dateFrom?: string;
  dateTo?: string;
  minAmount?: string;
  maxAmount?: string;
  search?: string;
  limit: number;
  offset: number;
}

export function listMovements(db: Db, f: MovementFilter) {
  const pattern = f.search ? likePattern(f.search) : undefined;
  const where = and(
    f.scope,
    f.estado ? eq(bankMovements.estado, f.estado) : undefined,
    f.bankAccountId ? eq(bankMovements.bankAccountId, f.bankAccountId) : undefined,
    f.dateFrom ? gte(bankMovements.operationDate, f.dateFrom) : undefined,
    f.dateTo ? lte(bankMovements.operationDate, f.dateTo) : undefined,
    f.minAmount ? gte(bankMovements.amount, f.minAmount) : undefined,
    f.maxAmount ? lte(bankMovements.amount, f.maxAmount) : undefined,
    pattern
      ? or(
          ilike(sql`${bankMovements.concepts}::text`, pattern),
          ilike(bankMovements.reference1, pattern),
          ilike(bankMovements.reference2, pattern),
          ilike(bankMovements.document, pattern),
        )
      : undefined,
  );
  return paginate(
    db
      .select()
      .from(bankMovements)
      .where(where)
      .orderBy(asc(bankMovements.operationDate), asc(bankMovements.id))
      .limit(f.limit)
      .offset(f.offset),
    db.select({ total: count() }).from(bankMovements).where(where),
  );
}

export async function findMovement(db: Db, id: string, lock = false): Promise<MovementRow | undefined> {
  const q = db.select().from(bankMovements).where(eq(bankMovements.id, id)).limit(1);
  const [row] = lock ? await q.for("update") : await q;
  return row;
}

/** The movements auto-match looks at (not reconciled, not ignored), locked for its transaction. */
export function openMovements(db: Db, companyId: string, bankAccountId?: string) {
  return db
    .select()
    .from(bankMovements)
    .where(
      and(
        eq(bankMovements.companyId, companyId),
        inArray(bankMovements.estado, ["pendiente", "sugerido"]),
        bankAccountId ? eq(bankMovements.bankAccountId, bankAccountId) : undefined,
      ),
    )
    .orderBy(asc(bankMovements.operationDate), asc(bankMovements.id))
    .for("update");
}

export async function suggestionsOf(db: Db, movementIds: string[]): Promise<SuggestionRow[]> {
  if (!movementIds.length) return [];
  return db
    .select()
    .from(bankMovementSuggestions)
    .where(inArray(bankMovementSuggestions.movementId, movementIds));
}

export interface NewSuggestion {
  movementId: string;
  dueId: string;
  target: SuggestionTarget;
  score: number;
}

/** Replaces the kept suggestions of these movements and sets each one sugerido or pendiente. */
export async function replaceSuggestions(
  db: Db,
  movementIds: string[],
  rows: NewSuggestion[],
): Promise<void> {
  const suggested = new Set(rows.map((r) => r.movementId));
  for (let i = 0; i < movementIds.length; i += CHUNK) {
    const ids = movementIds.slice(i, i + CHUNK);
    await db.delete(bankMovementSuggestions).where(inArray(bankMovementSuggestions.movementId, ids));
    const withSuggestions = ids.filter((id) => suggested.has(id));
    const without = ids.filter((id) => !suggested.has(id));
    if (withSuggestions.length)
      await db
        .update(bankMovements)
        .set({ estado: "sugerido" })
        .where(and(inArray(bankMovements.id, withSuggestions), eq(bankMovements.estado, "pendiente")));
    if (without.length)
      await db
        .update(bankMovements)
        .set({ estado: "pendiente" })
        .where(and(inArray(bankMovements.id, without), eq(bankMovements.estado, "sugerido")));
  }
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db.insert(bankMovementSuggestions).values(rows.slice(i, i + INSERT_CHUNK));
  }
}

export async function setMovementState(db: Db, id: string, estado: MovementState): Promise<MovementRow> {
  const [row] = await db.update(bankMovements).set({ estado }).where(eq(bankMovements.id, id)).returning();
  return row!;
}

export async function hasSuggestions(db: Db, movementId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bankMovementSuggestions.movementId })
    .from(bankMovementSuggestions)
    .where(eq(bankMovementSuggestions.movementId, movementId))
    .limit(1);
  return Boolean(row);
}

export async function liveReconciliationsOf(db: Db, movementIds: string[]): Promise<ReconciliationRow[]> {
  if (!movementIds.length) return [];
  return db
    .select()
    .from(bankReconciliations)
    .where(and(inArray(bankReconciliations.movementId, movementIds), isNull(bankReconciliations.undoneAt)));
}

export async function insertReconciliation(db: Db, row: ReconciliationInsert): Promise<ReconciliationRow> {
  const [created] = await db.insert(bankReconciliations).values(row).returning();
  return created!;
}

export async function markReconciliationUndone(db: Db, id: string, undoneBy: string): Promise<void> {
  await db
    .update(bankReconciliations)
    .set({ undoneAt: new Date(), undoneBy })
    .where(eq(bankReconciliations.id, id));
}
