import type { Db } from "../../../platform/db/client.js";
import { inTransaction } from "../../../platform/db/sql.js";
import { type AuthedCtx, type Ctx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, type FieldError, NotFoundError } from "../../../platform/http/errors.js";
import type { FileStorage } from "../../../platform/storage.js";
import { assertBudgetVisible, loadBudgetForWrite, visibleBudgetsCondition } from "../budget-access.js";
import { type CostCategory, costEntries } from "../tables.js";
import * as repo from "./repository.js";
import { costSummary } from "./summary.js";

export interface CostEntryInput {
  budgetItemId?: string | null;
  activityId?: string | null;
  date: string;
  category: CostCategory;
  supplierName?: string;
  supplierTaxId?: string | null;
  documentNumber?: string;
  concept?: string;
  netAmount: string;
  vatAmount?: string;
}

export async function listCostEntries(ctx: Ctx, filter: repo.CostEntryFilter) {
  const scope = visibleBudgetsCondition(ctx.actor, costEntries.budgetId);
  return repo.listCostEntries(ctx.db, { ...filter, scope });
}

export async function getCostEntry(ctx: Ctx, id: string) {
  const row = await repo.findCostEntry(ctx.db, id);
  if (!row) throw new NotFoundError("Cost entry");
  await assertBudgetVisible(ctx.db, row.budgetId, ctx.actor, "Cost entry");
  return row;
}

/** Budgeted, certified and actual cost per chapter and item of a budget. */
export async function getCostSummary(ctx: Ctx, budgetId: string) {
  await assertBudgetVisible(ctx.db, budgetId, ctx.actor, "Budget");
  return costSummary(ctx.db, budgetId);
}

/** The budget item and the activity a cost is charged to must be of the entry's own budget. */
async function checkLinks(db: Db, budgetId: string, input: Partial<CostEntryInput>) {
  const errors: FieldError[] = [];
  if (input.budgetItemId && (await repo.findBudgetOfItem(db, input.budgetItemId)) !== budgetId) {
    errors.push({ path: "body.budget_item_id", message: "is not an item of the entry's budget" });
  }
  if (input.activityId && (await repo.findBudgetOfActivity(db, input.activityId)) !== budgetId) {
    errors.push({ path: "body.activity_id", message: "is not an activity of the entry's budget" });
  }
  if (errors.length) throw new BadRequestError("The cost entry refers to records of another budget", errors);
}

export async function createCostEntry(ctx: AuthedCtx, input: CostEntryInput & { budgetId: string }) {
  return inTransaction(ctx.db, async (tx) => {
    await loadBudgetForWrite(tx, input.budgetId, ctx.actor);
    await checkLinks(tx, input.budgetId, input);
    return repo.insertCostEntry(tx, { ...input, createdBy: ctx.actor.userId });
  });
}

export async function updateCostEntry(ctx: AuthedCtx, id: string, input: Partial<CostEntryInput>) {
  return inCtxTransaction(ctx, async (txCtx) => {
    const entry = await getCostEntry(txCtx, id);
    await loadBudgetForWrite(txCtx.db, entry.budgetId, ctx.actor);
    await checkLinks(txCtx.db, entry.budgetId, input);
    return repo.updateCostEntry(txCtx.db, id, input);
  });
}

/** Deletes the entry, its attachment rows and then their files. */
export async function deleteCostEntry(ctx: AuthedCtx, storage: FileStorage, id: string) {
  const keys = await inCtxTransaction(ctx, async (txCtx) => {
    const entry = await getCostEntry(txCtx, id);
    await loadBudgetForWrite(txCtx.db, entry.budgetId, ctx.actor);
    const storageKeys = await repo.storageKeysOfEntry(txCtx.db, id);
    await repo.deleteCostEntry(txCtx.db, id);
    return storageKeys;
  });
  await Promise.all(keys.map((key) => storage.remove(key)));
}
