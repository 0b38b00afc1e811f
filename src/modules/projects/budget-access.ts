import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { ConflictError, NotFoundError } from "../../platform/http/errors.js";
import { type BudgetState, budgets } from "./tables.js";

export type BudgetRow = typeof budgets.$inferSelect;

/** States in which a budget and everything under it are read-only. */
export const READ_ONLY_BUDGET_STATES: readonly BudgetState[] = ["finalizado", "cancelado"];

export async function loadBudget(db: Db, budgetId: string): Promise<BudgetRow> {
  const [row] = await db.select().from(budgets).where(eq(budgets.id, budgetId)).limit(1);
  if (!row) throw new NotFoundError("Budget");
  return row;
}

/**
 * The budget, locked for the rest of the transaction, or 409 when it is finalized or cancelled.
 * Every write to a budget, its items, activities, certifications or costs goes through here.
 */
export async function loadBudgetForWrite(db: Db, budgetId: string): Promise<BudgetRow> {
  const [row] = await db.select().from(budgets).where(eq(budgets.id, budgetId)).limit(1).for("update");
  if (!row) throw new NotFoundError("Budget");
  if (READ_ONLY_BUDGET_STATES.includes(row.estado)) {
    throw new ConflictError(`The budget is ${row.estado} and can no longer be changed`, {
      estado: row.estado,
    });
  }
  return row;
}
