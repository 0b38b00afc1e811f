import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, type FieldError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import type { Bc3Charset } from "../bc3/types.js";
import { writeBc3 } from "../bc3/write.js";
import { loadBudget, loadBudgetForWrite } from "../budget-access.js";
import { insertBudget } from "../budgets/repository.js";
import { assertBudgetCodeFree, type BudgetView, getBudget } from "../budgets/service.js";
import { insertTree, loadTree } from "../items/bulk.js";
import { deleteItemsOfBudget, displayAmountsOfBudget } from "../items/repository.js";
import { bc3FromTree } from "./from-rows.js";
import { prepareImportOffThread } from "./off-thread.js";

const malformed = (errors: FieldError[]) =>
  new BadRequestError(`The BC3 file is not valid: ${errors.length} problem(s) found`, errors);

/** The file's root and rows for `budgetId` (parsed in a worker thread when large), or a 400 listing every problem. */
async function prepareOrThrow(file: Buffer, budgetId: string) {
  const prepared = await prepareImportOffThread(file, budgetId);
  if (!prepared.ok) throw malformed(prepared.errors);
  return prepared;
}

/** A new borrador budget from a BC3 file: code and name from its root concept. All or nothing. */
export async function importBudget(ctx: AuthedCtx, file: Buffer): Promise<BudgetView> {
  const budgetId = uuidv7();
  const { nodes, ...bc3 } = await prepareOrThrow(file, budgetId);
  await inTransaction(ctx.db, async (tx) => {
    await assertBudgetCodeFree(tx, bc3.code);
    await insertBudget(tx, {
      id: budgetId,
      code: bc3.code,
      name: bc3.name || bc3.code,
      createdBy: ctx.actor.userId,
    });
    await insertTree(tx, nodes);
  });
  return getBudget(ctx, budgetId);
}

/** Replaces every item of a borrador budget with the file's tree (activity links to old items go too). */
export async function replaceBudgetItems(ctx: Ctx, budgetId: string, file: Buffer): Promise<BudgetView> {
  await loadBudget(ctx.db, budgetId);
  const { nodes } = await prepareOrThrow(file, budgetId);
  await inTransaction(ctx.db, async (tx) => {
    const budget = await loadBudgetForWrite(tx, budgetId);
    if (budget.estado !== "borrador") {
      throw new ConflictError(
        `Only a borrador budget's items can be replaced; this one is ${budget.estado}`,
        {
          estado: budget.estado,
        },
      );
    }
    await deleteItemsOfBudget(tx, budgetId);
    await insertTree(tx, nodes);
  });
  return getBudget(ctx, budgetId);
}

export async function exportBudget(ctx: Ctx, budgetId: string, charset: Bc3Charset) {
  const budget = await loadBudget(ctx.db, budgetId);
  const [tree, amounts] = await Promise.all([
    loadTree(ctx.db, budgetId),
    displayAmountsOfBudget(ctx.db, budgetId),
  ]);
  return { code: budget.code, file: writeBc3(bc3FromTree(budget, tree, amounts, charset), { charset }) };
}
