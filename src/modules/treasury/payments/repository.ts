import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { insertUnnest } from "../../../platform/db/sql.js";
import { bankAccounts, treasuryPayments } from "../tables.js";

export type PaymentRow = typeof treasuryPayments.$inferSelect;
export type PaymentInsert = typeof treasuryPayments.$inferInsert;

export async function insertPayment(tx: Db, values: PaymentInsert): Promise<PaymentRow> {
  const [row] = await tx.insert(treasuryPayments).values(values).returning();
  return row;
}

/** Many payments as INSERT ... SELECT FROM unnest (10,000 per statement). */
export async function insertPayments(tx: Db, rows: PaymentInsert[]): Promise<void> {
  const col = (name: string, type: string, pick: (r: PaymentInsert) => string | null | undefined) => ({
    name,
    type,
    values: rows.map((r) => pick(r) ?? null),
  });
  await insertUnnest(tx, "treasury_payments", [
    col("id", "uuid", (r) => r.id),
    col("company_id", "uuid", (r) => r.companyId),
    col("due_id", "uuid", (r) => r.dueId),
    col("direction", "text", (r) => r.direction),
    col("date", "date", (r) => r.date),
    col("amount", "numeric", (r) => r.amount),
    col("fees", "numeric", (r) => r.fees),
    col("bank_account_id", "uuid", (r) => r.bankAccountId),
    col("entry_id", "uuid", (r) => r.entryId),
    col("bank_movement_id", "uuid", (r) => r.bankMovementId),
    col("created_by", "uuid", (r) => r.createdBy),
  ]);
}

/** One payment; `lock` holds it (FOR UPDATE) for an undo. */
export async function findPayment(db: Db, id: string, lock = false): Promise<PaymentRow | undefined> {
  const query = db.select().from(treasuryPayments).where(eq(treasuryPayments.id, id)).limit(1);
  const [row] = await (lock ? query.for("update") : query);
  return row;
}

export async function markUndone(
  tx: Db,
  id: string,
  values: { undoneAt: Date; undoneBy: string; reversalEntryId: string },
) {
  const [row] = await tx.update(treasuryPayments).set(values).where(eq(treasuryPayments.id, id)).returning();
  return row;
}

/** The payments of some dues (undone ones too), oldest first, with their bank account's name. */
export function paymentsOfDues(db: Db, dueIds: string[]) {
  if (!dueIds.length) return Promise.resolve([]);
  return db
    .select({ payment: treasuryPayments, bankAccountName: bankAccounts.name })
    .from(treasuryPayments)
    .innerJoin(bankAccounts, eq(bankAccounts.id, treasuryPayments.bankAccountId))
    .where(inArray(treasuryPayments.dueId, dueIds))
    .orderBy(asc(treasuryPayments.dueId), asc(treasuryPayments.date), asc(treasuryPayments.id));
}
