import { inTransaction } from "../../../platform/db/sql.js";
import type { Ctx } from "../../../platform/http/context.js";
import { BadRequestError } from "../../../platform/http/errors.js";
import { loadBudgetForWrite } from "../budget-access.js";
import {
  compactSiblings,
  countChildren,
  depthOf,
  type ItemView,
  openGap,
  subtreeOf,
  updateItemRow,
} from "./repository.js";
import { MAX_ITEM_DEPTH } from "./schemas.js";
import { assertParentChapter, getItem, requireItem, tooDeep } from "./service.js";

/**
 * Moves a node (with its subtree) under another chapter of the same budget, or to the top level, at a
 * 0-based position among its new siblings (default: last). Old and new siblings are renumbered 0..n-1.
 */
export async function moveItem(
  ctx: Ctx,
  id: string,
  target: { parentId: string | null; position?: number },
): Promise<ItemView> {
  await inTransaction(ctx.db, async (tx) => {
    const item = await requireItem(tx, id);
    await loadBudgetForWrite(tx, item.budgetId, ctx.actor);
    const parentId = target.parentId;
    if (parentId) {
      await assertParentChapter(tx, item.budgetId, parentId);
      const subtree = await subtreeOf(tx, id);
      if (subtree.some((n) => n.id === parentId)) {
        throw new BadRequestError("A node can't be moved under itself or one of its descendants", [
          { path: "body.parent_id", message: "is the node itself or one of its descendants" },
        ]);
      }
      const height = Math.max(...subtree.map((n) => n.depth));
      if ((await depthOf(tx, parentId)) + height > MAX_ITEM_DEPTH) throw tooDeep();
    }
    // Park the node outside both sibling lists, close its old gap, then open one where it goes.
    await updateItemRow(tx, id, { parentId, position: -1 });
    await compactSiblings(tx, item.budgetId, item.parentId, id);
    const siblings = (await countChildren(tx, item.budgetId, parentId)) - 1;
    const position = Math.min(target.position ?? siblings, siblings);
    await openGap(tx, item.budgetId, parentId, position);
    await updateItemRow(tx, id, { position });
  });
  return getItem(ctx, id);
}
