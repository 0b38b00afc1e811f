import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import { uuidv7 } from "../../../platform/ids.js";
import { loadBudget } from "../budget-access.js";
import type { DecompositionLine } from "../items/arithmetic.js";
import { insertTree, loadTree } from "../items/bulk.js";
import { nest, parentsFirst } from "../items/tree.js";
import { codesStartingWith, insertBudget } from "./repository.js";
import { assertBudgetCodeFree, type BudgetView, getBudget } from "./service.js";

/** {code}-COPIA, then {code}-COPIA-2, -3... whichever is free first. */
async function freeCopyCode(db: Ctx["db"], code: string): Promise<string> {
  const base = `${code}-COPIA`;
  const taken = await codesStartingWith(db, base);
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** A new borrador budget with the same settings and a deep copy of the concepts, the item tree and its lines. */
export async function duplicateBudget(
  ctx: AuthedCtx,
  id: string,
  body: { code?: string; name?: string } = {},
): Promise<BudgetView> {
  const copyId = await inTransaction(ctx.db, async (tx) => {
    const source = await loadBudget(tx, id, ctx.actor);
    const code = body.code ?? (await freeCopyCode(tx, source.code));
    await assertBudgetCodeFree(tx, code);
    const { id: _id, createdAt: _c, updatedAt: _u, ...settings } = source;
    const copy = await insertBudget(tx, {
      ...settings,
      code,
      name: body.name ?? `${source.name} (copia)`,
      estado: "borrador",
      createdBy: ctx.actor.userId,
    });
    const tree = await loadTree(tx, id);
    const newIds = new Map(tree.items.map((item) => [item.id, uuidv7()]));
    const newConceptIds = new Map([...tree.concepts.keys()].map((conceptId) => [conceptId, uuidv7()]));
    const concepts = [...tree.concepts.values()].map((c) => ({
      row: {
        ...c,
        id: newConceptIds.get(c.id) as string,
        budgetId: copy.id,
        createdAt: undefined,
        updatedAt: undefined,
      },
      decomposition: (tree.decomposition.get(c.id) ?? []).map(
        (d): DecompositionLine => ({
          type: d.type,
          code: d.code,
          unit: d.unit,
          summary: d.summary,
          yield: d.yield,
          price: d.price,
        }),
      ),
    }));
    const nodes = parentsFirst(nest(tree.items)).map((item) => ({
      row: {
        ...item,
        id: newIds.get(item.id) as string,
        budgetId: copy.id,
        conceptId: newConceptIds.get(item.conceptId) as string,
        parentId: item.parentId ? (newIds.get(item.parentId) as string) : null,
        createdAt: undefined,
        updatedAt: undefined,
      },
      measurements: (tree.measurements.get(item.id) ?? []).map((m) => ({
        label: m.label,
        units: m.units,
        length: m.length,
        width: m.width,
        height: m.height,
      })),
    }));
    await insertTree(tx, { concepts, nodes });
    return copy.id;
  });
  return getBudget(ctx, copyId);
}
