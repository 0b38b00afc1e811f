import { allQueries, inTransaction } from "../../../platform/db/sql.js";
import type { Ctx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { assertBudgetVisible, loadBudget, loadBudgetForWrite } from "../budget-access.js";
import type { ItemKind } from "../tables.js";
import type { DecompositionLine } from "./arithmetic.js";
import {
  type ConceptRow,
  deleteUnplacedConcepts,
  findConcept,
  findConceptByCode,
  insertConcept,
  otherPlacements,
  updateConceptEverywhere,
} from "./concepts.js";
import { type MeasurementInput, resolvePricing } from "./pricing.js";
import {
  compactSiblings,
  countChildren,
  decompositionOf,
  deleteItemRow,
  depthOf,
  displayAmounts,
  displayAmountsOfBudget,
  findItem,
  type ItemRow,
  type ItemView,
  insertItem,
  itemsByIds,
  itemsOfBudget,
  measurementsOf,
  openGap,
  pageItemIds,
  replaceDecomposition,
  replaceMeasurements,
  updateItemRow,
} from "./repository.js";
import { type ItemListing, MAX_ITEM_DEPTH } from "./schemas.js";
import { nest, type TreeNode } from "./tree.js";

export async function requireItem(db: Ctx["db"], id: string): Promise<ItemRow> {
  const item = await findItem(db, id);
  if (!item) throw new NotFoundError("Budget item");
  return item;
}

const badParent = (message: string) =>
  new BadRequestError(`parent_id ${message}`, [{ path: "body.parent_id", message }]);

/** The parent chapter a node may hang from, or a 400 saying why not. */
export async function assertParentChapter(
  db: Ctx["db"],
  budgetId: string,
  parentId: string,
): Promise<ItemRow> {
  const parent = await findItem(db, parentId);
  if (!parent || parent.budgetId !== budgetId) throw badParent("must be a chapter of the same budget");
  if (parent.kind !== "chapter") throw badParent("must be a chapter, not an item");
  return parent;
}

export const tooDeep = () =>
  new BadRequestError(`The item tree may not be deeper than ${MAX_ITEM_DEPTH} levels`, [
    { path: "body.parent_id", message: `the tree would exceed ${MAX_ITEM_DEPTH} levels` },
  ]);

/** Codes name concepts: a code another concept of the budget has is a 409. */
async function assertCodeFree(db: Ctx["db"], budgetId: string, code: string, exceptConceptId?: string) {
  const clash = await findConceptByCode(db, budgetId, code);
  if (clash && clash.id !== exceptConceptId)
    throw new ConflictError(`The budget already has an item with code ${code}`);
}

export async function getItem(ctx: Ctx, id: string): Promise<ItemView> {
  const item = await requireItem(ctx.db, id);
  await assertBudgetVisible(ctx.db, item.budgetId, ctx.actor, "Budget item");
  const [amounts, measurements, decomposition, concept, others] = await allQueries(ctx.db, [
    () => displayAmounts(ctx.db, [id]),
    () => measurementsOf(ctx.db, id),
    () => decompositionOf(ctx.db, item.conceptId),
    () => findConcept(ctx.db, item.conceptId),
    () => otherPlacements(ctx.db, item.conceptId, id),
  ]);
  return {
    ...item,
    displayAmount: amounts.get(id) ?? "0",
    measurements,
    decomposition,
    concept: concept as ConceptRow,
    otherPlacements: others,
  };
}

/** A chapter's or an item's fields; left out: unchanged on update. */
export interface ItemFields {
  code?: string;
  unit?: string;
  summary?: string;
  longText?: string;
  quantity?: string;
  unitPrice?: string;
  measurements?: MeasurementInput[];
  decomposition?: DecompositionLine[];
}

export interface NewItem extends ItemFields {
  budgetId: string;
  kind: ItemKind;
  code: string;
  /** A chapter of the same budget; null or absent: the top level. */
  parentId?: string | null;
  /** 0-based among its siblings; default last. */
  position?: number;
}

export interface ItemListFilters {
  budgetId: string;
  /** The nested tree (limit and offset page its top-level nodes) instead of a flat page. */
  tree: boolean;
  parentId?: string;
  kind?: ItemKind;
  search?: string;
  limit: number;
  offset: number;
}

export async function listItems(
  ctx: Ctx,
  f: ItemListFilters,
): Promise<{ rows: ItemListing[]; total: number }> {
  await loadBudget(ctx.db, f.budgetId, ctx.actor);
  if (f.tree) return listTree(ctx, f);
  const { ids, total } = await pageItemIds(ctx.db, {
    budgetId: f.budgetId,
    parentId: f.parentId,
    kind: f.kind,
    search: f.search,
    limit: f.limit,
    offset: f.offset,
  });
  const [rows, amounts] = await allQueries(ctx.db, [
    () => itemsByIds(ctx.db, ids),
    () => displayAmounts(ctx.db, ids),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    rows: ids.map((id) => ({ row: byId.get(id) as ItemRow, amount: amounts.get(id) ?? "0" })),
    total,
  };
}

async function listTree(ctx: Ctx, f: ItemListFilters) {
  const [rows, amounts] = await allQueries(ctx.db, [
    () => itemsOfBudget(ctx.db, f.budgetId),
    () => displayAmountsOfBudget(ctx.db, f.budgetId),
  ]);
  const toListing = (t: TreeNode<ItemRow>): ItemListing => ({
    row: t.node,
    amount: amounts.get(t.node.id) ?? "0",
    children: t.children.map(toListing),
  });
  const roots = nest(rows);
  return { rows: roots.slice(f.offset, f.offset + f.limit).map(toListing), total: roots.length };
}

export async function createItem(ctx: Ctx, input: NewItem): Promise<ItemView> {
  const id = await inTransaction(ctx.db, async (tx) => {
    const budgetId = input.budgetId;
    const budget = await loadBudgetForWrite(tx, budgetId, ctx.actor);
    const parentId = input.parentId ?? null;
    if (parentId) {
      await assertParentChapter(tx, budgetId, parentId);
      if ((await depthOf(tx, parentId)) + 1 > MAX_ITEM_DEPTH) throw tooDeep();
    }
    await assertCodeFree(tx, budgetId, input.code);
    const siblings = await countChildren(tx, budgetId, parentId);
    const position = Math.min(input.position ?? siblings, siblings);
    if (position < siblings) await openGap(tx, budgetId, parentId, position);
    const pricing =
      input.kind === "item"
        ? resolvePricing(input, undefined, { indirectPct: budget.indirectCostsPct })
        : undefined;
    const texts = {
      code: input.code,
      unit: input.unit ?? "",
      summary: input.summary ?? "",
      longText: input.longText ?? "",
    };
    const concept = await insertConcept(tx, {
      budgetId,
      kind: input.kind,
      ...texts,
      unitPrice: pricing?.unitPrice ?? "0",
    });
    const row = await insertItem(tx, {
      budgetId,
      parentId,
      conceptId: concept.id,
      kind: input.kind,
      position,
      ...texts,
      quantity: pricing?.quantity ?? "0",
      unitPrice: pricing?.unitPrice ?? "0",
      amount: pricing?.amount ?? "0",
    });
    if (pricing?.measurements?.length) await replaceMeasurements(tx, row.id, pricing.measurements);
    if (pricing?.decomposition?.length) await replaceDecomposition(tx, concept.id, pricing.decomposition);
    return row.id;
  });
  return getItem(ctx, id);
}

/** Price fields and the request field each one comes from (named in errors). */
const PRICE_FIELDS = [
  ["quantity", "quantity"],
  ["unitPrice", "unit_price"],
  ["measurements", "measurements"],
  ["decomposition", "decomposition"],
] as const;

export async function updateItem(ctx: Ctx, id: string, input: ItemFields): Promise<ItemView> {
  await inTransaction(ctx.db, async (tx) => {
    const item = await requireItem(tx, id);
    const budget = await loadBudgetForWrite(tx, item.budgetId, ctx.actor);
    if (input.code !== undefined && input.code !== item.code)
      await assertCodeFree(tx, item.budgetId, input.code, item.conceptId);
    // Texts and price belong to the concept: every placement of it changes with them.
    const texts = { code: input.code, unit: input.unit, summary: input.summary, longText: input.longText };
    if (item.kind === "chapter") {
      const sent = PRICE_FIELDS.filter(([field]) => input[field] !== undefined);
      if (sent.length > 0) {
        throw new BadRequestError(
          "A chapter has no quantity or price: its amount is the sum of its children",
          sent.map(([, wire]) => ({ path: `body.${wire}`, message: "not allowed on a chapter" })),
        );
      }
      await updateConceptEverywhere(tx, item.conceptId, texts);
      return;
    }
    // One after the other: a transaction is one connection.
    const measurements = await measurementsOf(tx, id);
    const decomposition = await decompositionOf(tx, item.conceptId);
    const pricing = resolvePricing(
      input,
      {
        quantity: item.quantity,
        unitPrice: item.unitPrice,
        hasMeasurements: measurements.length > 0,
        hasDecomposition: decomposition.length > 0,
      },
      { indirectPct: budget.indirectCostsPct },
    );
    await updateItemRow(tx, id, { quantity: pricing.quantity });
    if (pricing.measurements) await replaceMeasurements(tx, id, pricing.measurements);
    if (pricing.decomposition) await replaceDecomposition(tx, item.conceptId, pricing.decomposition);
    await updateConceptEverywhere(tx, item.conceptId, { ...texts, unitPrice: pricing.unitPrice });
  });
  return getItem(ctx, id);
}

export async function deleteItem(ctx: Ctx, id: string, cascade: boolean): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const item = await requireItem(tx, id);
    await loadBudgetForWrite(tx, item.budgetId, ctx.actor);
    const children = item.kind === "chapter" ? await countChildren(tx, item.budgetId, id) : 0;
    if (children > 0 && !cascade) {
      throw new ConflictError(
        `The chapter has ${children} child node(s); delete with ?cascade=true to remove them too`,
        { children },
      );
    }
    await deleteItemRow(tx, id);
    await deleteUnplacedConcepts(tx, item.budgetId);
    await compactSiblings(tx, item.budgetId, item.parentId);
  });
}
