import type { Db } from "../../../platform/db/client.js";
import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import { BadRequestError, type FieldError, NotFoundError } from "../../../platform/http/errors.js";
import type { FileStorage } from "../../../platform/storage.js";
import { loadBudgetForWrite } from "../budget-access.js";
import * as repo from "./repository.js";

export interface CostEntryInput {
  budgetItemId?: string | null;
  activityId?: string | null;
  date: string;
  category: string;
  supplierName?: string;
  supplierTaxId?: string | null;
  documentNumber?: string;
  concept?: string;
  netAmount: string;
  vatAmount?: string;
}

export async function list(ctx: Ctx, filter: repo.CostEntryFilter) {
  return repo.listCostEntries(ctx.db, filter);
}

export async function get(ctx: Ctx, id: string) {
  const row = await repo.findCostEntry(ctx.db, id);
  if (!row) throw new NotFoundError("Cost entry");
  return row;
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

export async function create(ctx: AuthedCtx, input: CostEntryInput & { budgetId: string }) {
  return inTransaction(ctx.db, async (tx) => {
    await loadBudgetForWrite(tx, input.budgetId);
    await checkLinks(tx, input.budgetId, input);
    return repo.insertCostEntry(tx, { ...input, createdBy: ctx.actor.userId });
  });
}

export async function update(ctx: AuthedCtx, id: string, input: Partial<CostEntryInput>) {
  return inTransaction(ctx.db, async (tx) => {
    const entry = await get({ ...ctx, db: tx }, id);
    await loadBudgetForWrite(tx, entry.budgetId);
    await checkLinks(tx, entry.budgetId, input);
    return repo.updateCostEntry(tx, id, input);
  });
}

/** Deletes the entry, its attachment rows and then their files. */
export async function remove(ctx: AuthedCtx, storage: FileStorage, id: string) {
  const keys = await inTransaction(ctx.db, async (tx) => {
    const entry = await get({ ...ctx, db: tx }, id);
    await loadBudgetForWrite(tx, entry.budgetId);
    const storageKeys = await repo.storageKeysOfEntry(tx, id);
    await repo.deleteCostEntry(tx, id);
    return storageKeys;
  });
  await Promise.all(keys.map((key) => storage.remove(key)));
}
