import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { bankAccounts, treasuryPayments } from "../tables.js";

export type PaymentRow = typeof treasuryPayments.$inferSelect;
export type PaymentInsert = typeof treasuryPayments.$inferInsert;

export async function insertPayment(tx: Db, values: PaymentInsert): Promise<PaymentRow> {
  const [row] = await tx.insert(treasuryPayments).values(values).returning();
  return row;
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
