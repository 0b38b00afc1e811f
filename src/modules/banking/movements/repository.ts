import { and, asc, eq, gte, ilike, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { type Page, paginateBounded } from "../../../platform/db/paginate.js";
import { insertUnnest, pgArray, queryRows } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { uuidv7 } from "../../../platform/ids.js";
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
  /** Keyset cursor: the id of the last movement of the previous page (one matching the filters). */
  after?: string;
}

/**
 * The page continues after the cursor movement in (operation date, id), read from the
 * (company, operation date, id) index; null when it is not a movement of the filtered list.
 */
async function movementCursor(db: Db, f: MovementFilter, where: SQL | undefined) {
  if (!f.after) return undefined;
  const [c] = await db
    .select({ operationDate: bankMovements.operationDate, id: bankMovements.id })
    .from(bankMovements)
    .where(and(eq(bankMovements.id, f.after), where));
  if (!c) return null;
  return sql`(${bankMovements.operationDate}, ${bankMovements.id}) > (${c.operationDate}::date, ${c.id}::uuid)`;
}

/** A page of movements by operation date, or null when `after` names no movement of the list. */
export async function listMovements(db: Db, f: MovementFilter): Promise<Page<MovementRow> | null> {
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
  const cursor = await movementCursor(db, f, where);
  if (cursor === null) return null;
  return paginateBounded(
    db,
    () =>
      db
        .select()
        .from(bankMovements)
        .where(and(where, cursor))
        .orderBy(asc(bankMovements.operationDate), asc(bankMovements.id))
        .limit(f.limit)
        .offset(f.offset),
    bankMovements,
    where,
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

/** Ids per array parameter of an UPDATE or DELETE (each array is one parameter, whatever its length). */
const ARRAY_CHUNK = 20_000;

const suggestionKey = (s: { movementId: string; dueId: string }) => `${s.movementId}|${s.dueId}`;

/**
 * Makes the kept suggestions of these movements `rows` and sets each one sugerido or pendiente,
 * writing only what changed: the kept ones are read in one query per 20,000 movements, the ones
 * gone (or rescored) deleted and the new ones inserted by arrays, and only the movements whose
 * state changes updated. Re-running the matcher over unchanged data writes nothing.
 */
export async function replaceSuggestions(
  db: Db,
  movements: Array<Pick<MovementRow, "id" | "estado">>,
  rows: NewSuggestion[],
): Promise<void> {
  const wanted = new Map(rows.map((r) => [suggestionKey(r), r]));
  const stale: SuggestionRow[] = [];
  const kept = new Set<string>();
  for (let i = 0; i < movements.length; i += ARRAY_CHUNK) {
    const ids = movements.slice(i, i + ARRAY_CHUNK).map((m) => m.id);
    const existing = await queryRows<SuggestionRow>(
      db,
      sql`select movement_id as "movementId", due_id as "dueId", target, score from ${bankMovementSuggestions}
           where movement_id = any(${pgArray(ids)}::uuid[])`,
    );
    for (const s of existing) {
      const want = wanted.get(suggestionKey(s));
      if (want && want.target === s.target && want.score === s.score) kept.add(suggestionKey(s));
      else stale.push(s);
    }
  }
  for (let i = 0; i < stale.length; i += ARRAY_CHUNK) {
    const chunk = stale.slice(i, i + ARRAY_CHUNK);
    await db.execute(sql`
      delete from ${bankMovementSuggestions} s
       using unnest(${pgArray(chunk.map((r) => r.movementId))}::uuid[], ${pgArray(chunk.map((r) => r.dueId))}::uuid[]) as u(movement_id, due_id)
       where s.movement_id = u.movement_id and s.due_id = u.due_id`);
  }
  await insertSuggestions(
    db,
    rows.filter((r) => !kept.has(suggestionKey(r))),
  );
  const suggested = new Set(rows.map((r) => r.movementId));
  const open = movements.filter((m) => m.estado === "pendiente" || m.estado === "sugerido");
  await setMovementsState(
    db,
    open.filter((m) => m.estado === "pendiente" && suggested.has(m.id)).map((m) => m.id),
    "sugerido",
  );
  await setMovementsState(
    db,
    open.filter((m) => m.estado === "sugerido" && !suggested.has(m.id)).map((m) => m.id),
    "pendiente",
  );
}

/** Suggestions, 10,000 per INSERT ... SELECT FROM unnest (one array parameter per column). */
export async function insertSuggestions(db: Db, rows: NewSuggestion[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 10_000) {
    const chunk = rows.slice(i, i + 10_000);
    await db.execute(sql`
      insert into ${bankMovementSuggestions} (movement_id, due_id, target, score)
      select * from unnest(${pgArray(chunk.map((r) => r.movementId))}::uuid[],
        ${pgArray(chunk.map((r) => r.dueId))}::uuid[], ${pgArray(chunk.map((r) => r.target))}::text[],
        ${pgArray(chunk.map((r) => String(r.score)))}::int[])`);
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

/** Many reconciliations as INSERT ... SELECT FROM unnest (10,000 per statement). */
export async function insertReconciliations(db: Db, rows: ReconciliationInsert[]): Promise<void> {
  const col = (name: string, type: string, pick: (r: ReconciliationInsert) => string | null | undefined) => ({
    name,
    type,
    values: rows.map((r) => pick(r) ?? null),
  });
  await insertUnnest(db, "bank_reconciliations", [
    col("id", "uuid", (r) => r.id ?? uuidv7()),
    col("company_id", "uuid", (r) => r.companyId),
    col("movement_id", "uuid", (r) => r.movementId),
    col("target", "text", (r) => r.target),
    col("due_id", "uuid", (r) => r.dueId),
    col("payment_id", "uuid", (r) => r.paymentId),
    col("entry_id", "uuid", (r) => r.entryId),
    col("amount", "numeric", (r) => r.amount),
    col("fees", "numeric", (r) => r.fees),
    col("origin", "text", (r) => r.origin),
    col("created_by", "uuid", (r) => r.createdBy),
  ]);
}

/** Sets these movements' state: one UPDATE per 20,000 ids, the ids as one array parameter. */
export async function setMovementsState(db: Db, ids: string[], estado: MovementState): Promise<void> {
  for (let i = 0; i < ids.length; i += ARRAY_CHUNK)
    await db.execute(sql`
      update ${bankMovements} set estado = ${estado}, updated_at = now()
       where id = any(${pgArray(ids.slice(i, i + ARRAY_CHUNK))}::uuid[])`);
}

export async function markReconciliationUndone(db: Db, id: string, undoneBy: string): Promise<void> {
  await db
    .update(bankReconciliations)
    .set({ undoneAt: new Date(), undoneBy })
    .where(eq(bankReconciliations.id, id));
}
