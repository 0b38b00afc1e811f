import { allQueries, inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, type FieldError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import type { Bc3Charset } from "../bc3/types.js";
import { writeBc3 } from "../bc3/write.js";
import { loadBudget, loadBudgetForWrite } from "../budget-access.js";
import { codesStartingWith, insertBudget, updateBudgetRow } from "../budgets/repository.js";
import { assertBudgetCodeFree, type BudgetView, companyOfNewBudget, getBudget } from "../budgets/service.js";
import { type InsertProgress, insertTree, loadTree } from "../items/bulk.js";
import { deleteItemsOfBudget, displayAmountsOfBudget } from "../items/repository.js";
import { bc3FromTree } from "./from-rows.js";
import { prepareImportOffThread } from "./off-thread.js";
import type { ImportHead } from "./prepare.js";

const malformed = (errors: FieldError[]) =>
  new BadRequestError(`The BC3 file is not valid: ${errors.length} problem(s) found`, errors);

/** The file's root and rows for `budgetId` (parsed in a worker thread when large), or a 400 listing every problem. */
async function prepareOrThrow(file: Buffer, budgetId: string) {
  const prepared = await prepareImportOffThread(file, budgetId);
  if (!prepared.ok) throw malformed(prepared.errors);
  return prepared;
}

/** The root code, or the first of CODE-2, CODE-3... no budget has yet. */
async function freeCode(db: Ctx["db"], code: string): Promise<string> {
  const taken = await codesStartingWith(db, code);
  if (!taken.has(code)) return code;
  let n = 2;
  while (taken.has(`${code}-${n}`)) n++;
  return `${code}-${n}`;
}

/** Budget settings the file's ~K declares (percentages left blank keep the budget's). */
function settingsFromFile(head: ImportHead) {
  const k = head.coefficients;
  const declared = {
    overheadsPct: k.overheadsPct ?? undefined,
    profitPct: k.profitPct ?? undefined,
    discountPct: k.discountPct ?? undefined,
    vatPct: k.vatPct ?? undefined,
  };
  return {
    ...Object.fromEntries(Object.entries(declared).filter(([, v]) => v !== undefined)),
    indirectCostsPct: k.indirectPct ?? "0",
    decimals: k.decimals,
  };
}

export interface ImportReport extends ImportHead {
  /** The code the new budget got; differs from `code` (the file's root) when that was taken. */
  budgetCode: string;
}

export interface ImportedBudget {
  view: BudgetView;
  report: ImportReport;
}

/**
 * A new borrador budget from a BC3 file. Code and name: the request's, else the root concept's; a
 * root code already taken gets the next free -N suffix (a code sent by the caller and taken is a 409).
 * All or nothing.
 */
export async function importBudget(
  ctx: AuthedCtx,
  file: Buffer,
  requested: { code?: string; name?: string; companyId?: string } = {},
  onProgress?: InsertProgress,
): Promise<ImportedBudget> {
  const companyId = await companyOfNewBudget(ctx, requested.companyId);
  const budgetId = uuidv7();
  const { tree, ...head } = await prepareOrThrow(file, budgetId);
  const budgetCode = await inTransaction(ctx.db, async (tx) => {
    let code = requested.code;
    if (code) await assertBudgetCodeFree(tx, code);
    else code = await freeCode(tx, head.code);
    await insertBudget(tx, {
      id: budgetId,
      companyId,
      code,
      name: requested.name || head.name || head.code,
      ...settingsFromFile(head),
      createdBy: ctx.actor.userId,
    });
    await insertTree(tx, tree, onProgress);
    return code;
  });
  return { view: await getBudget(ctx, budgetId), report: { ...head, budgetCode } };
}

/** Replaces every item of a borrador budget with the file's tree (activity links to old items go too). */
export async function replaceBudgetItems(ctx: Ctx, budgetId: string, file: Buffer): Promise<ImportedBudget> {
  await loadBudget(ctx.db, budgetId, ctx.actor);
  const { tree, ...head } = await prepareOrThrow(file, budgetId);
  const code = await inTransaction(ctx.db, async (tx) => {
    const budget = await loadBudgetForWrite(tx, budgetId, ctx.actor);
    if (budget.estado !== "borrador") {
      throw new ConflictError(
        `Only a borrador budget's items can be replaced; this one is ${budget.estado}`,
        {
          estado: budget.estado,
        },
      );
    }
    await deleteItemsOfBudget(tx, budgetId);
    await updateBudgetRow(tx, budgetId, settingsFromFile(head));
    await insertTree(tx, tree);
    return budget.code;
  });
  return { view: await getBudget(ctx, budgetId), report: { ...head, budgetCode: code } };
}

export async function exportBudget(ctx: Ctx, budgetId: string, charset: Bc3Charset) {
  const budget = await loadBudget(ctx.db, budgetId, ctx.actor);
  const [tree, amounts] = await allQueries(ctx.db, [
    () => loadTree(ctx.db, budgetId),
    () => displayAmountsOfBudget(ctx.db, budgetId),
  ]);
  return { code: budget.code, file: writeBc3(bc3FromTree(budget, tree, amounts, charset), { charset }) };
}
