import { eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Actor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { preparedRead } from "../../platform/db/prepared.js";
import { ConflictError, NotFoundError } from "../../platform/http/errors.js";
import { type BudgetState, budgets } from "./tables.js";

export type BudgetRow = typeof budgets.$inferSelect;

/** States in which a budget and everything under it are read-only. */
export const READ_ONLY_BUDGET_STATES: readonly BudgetState[] = ["finalizado", "cancelado"];

/**
 * Company scope (ADR 013): a caller restricted to a company sees only that company's budgets and
 * everything in them; a budget of another company, or of none, does not exist for it (404).
 * A null actor is trusted code (CLI, demo, tests' setup).
 */
export function canSeeBudget(actor: Actor | null, budget: Pick<BudgetRow, "companyId">): boolean {
  return !actor?.companyId || budget.companyId === actor.companyId;
}

/** Condition on a `budget_id` column keeping the rows of budgets the caller sees (none when unrestricted). */
export function visibleBudgetsCondition(actor: Actor | null, budgetIdColumn: PgColumn): SQL | undefined {
  if (!actor?.companyId) return undefined;
  return sql`${budgetIdColumn} in (select ${budgets.id} from ${budgets} where ${budgets.companyId} = ${actor.companyId})`;
}

const budgetById = preparedRead("cuadra_budget_by_id", (db) =>
  db
    .select()
    .from(budgets)
    .where(eq(budgets.id, sql.placeholder("id")))
    .limit(1),
);

export async function loadBudget(db: Db, budgetId: string, actor: Actor | null): Promise<BudgetRow> {
  const [row] = await budgetById(db, { id: budgetId });
  if (!row || !canSeeBudget(actor, row)) throw new NotFoundError("Budget");
  return row;
}

/**
 * The budget, locked for the rest of the transaction, or 409 when it is finalized or cancelled.
 * Every write to a budget, its items, activities, certifications or costs goes through here.
 */
export async function loadBudgetForWrite(db: Db, budgetId: string, actor: Actor | null): Promise<BudgetRow> {
  const [row] = await db.select().from(budgets).where(eq(budgets.id, budgetId)).limit(1).for("update");
  if (!row || !canSeeBudget(actor, row)) throw new NotFoundError("Budget");
  if (READ_ONLY_BUDGET_STATES.includes(row.estado)) {
    throw new ConflictError(`The budget is ${row.estado} and can no longer be changed`, {
      estado: row.estado,
    });
  }
  return row;
}

/** 404 naming `what` when the record's budget is not visible to a company-restricted caller. */
export async function assertBudgetVisible(db: Db, budgetId: string, actor: Actor | null, what: string) {
  if (!actor?.companyId) return;
  const [row] = await db
    .select({ companyId: budgets.companyId })
    .from(budgets)
    .where(eq(budgets.id, budgetId))
    .limit(1);
  if (!row || !canSeeBudget(actor, row)) throw new NotFoundError(what);
}

/** Condition on `budgets` for a list: the caller's company scope and the company asked for. */
export function budgetCompanyCondition(actor: Actor | null, requested?: string): SQL | undefined {
  if (actor?.companyId) {
    return requested && requested !== actor.companyId ? sql`false` : eq(budgets.companyId, actor.companyId);
  }
  return requested ? eq(budgets.companyId, requested) : undefined;
}
