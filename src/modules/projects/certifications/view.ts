import { type Dec, dec } from "../../../platform/money.js";
import type { BudgetRow } from "../budget-access.js";
import {
  type CertificationTotals,
  certificationTotals,
  type LineAmounts,
  lineAmounts,
} from "./arithmetic.js";
import type { CertificationRow, ItemNode, LineQuantity } from "./repository.js";

export interface CertificationLineView extends LineAmounts {
  budgetItemId: string;
  code: string;
  summary: string;
  unit: string;
  budgetedQuantity: string;
  unitPrice: string;
  quantityToOrigin: string;
  quantityPrevious: string;
  /** The item is not on this certification: its quantity to origin is the previous one's. */
  carriedForward: boolean;
}

export interface ChapterLines {
  /** Null for items placed directly at the root of the budget. */
  chapter: ItemNode | null;
  lines: CertificationLineView[];
}

/** A top-level chapter's figures for the summary table: every chapter, with or without work this period. */
export interface ChapterSummary {
  /** Null for the items placed directly at the root of the budget. */
  chapter: ItemNode | null;
  /** The budgeted amount of the chapter (sum of its items' amounts). */
  budget: Dec;
  toOrigin: Dec;
  previous: Dec;
  thisPeriod: Dec;
  /** toOrigin / budget x 100, 2 decimals; null when the chapter has no budget. */
  executedPct: Dec | null;
}

export interface CertificationView {
  certification: CertificationRow;
  budget: BudgetRow;
  previousNumber: number | null;
  /** The retention applied: the certification's own retention_pct, else the budget's. */
  retentionPct: string;
  /** In budget tree order. */
  lines: CertificationLineView[];
  /** The lines grouped by top-level chapter, in tree order. */
  chapters: ChapterLines[];
  /** Every top-level chapter of the budget that has a budget or certified work, in tree order. */
  summary: ChapterSummary[];
  totals: CertificationTotals;
}

export interface ViewInput {
  certification: CertificationRow;
  budget: BudgetRow;
  items: readonly ItemNode[];
  ownLines: readonly LineQuantity[];
  previous: { number: number; lines: readonly LineQuantity[] } | null;
}

/** Sort key of a node: the (position, code) of each ancestor from the root down to the node. */
export function treeOrder(items: ReadonlyMap<string, ItemNode>) {
  const keys = new Map<string, (string | number)[]>();
  const keyOf = (id: string): (string | number)[] => {
    const cached = keys.get(id);
    if (cached) return cached;
    const node = items.get(id);
    if (!node) return [];
    const key = [...(node.parentId ? keyOf(node.parentId) : []), node.position, node.code];
    keys.set(id, key);
    return key;
  };
  return (a: string, b: string): number => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      if (ka[i] === kb[i]) continue;
      return ka[i] < kb[i] ? -1 : 1;
    }
    return ka.length - kb.length;
  };
}

export function topChapterOf(items: ReadonlyMap<string, ItemNode>, node: ItemNode): ItemNode | null {
  let current = node;
  while (current.parentId) {
    const parent = items.get(current.parentId);
    if (!parent) break;
    current = parent;
  }
  return current.kind === "chapter" ? current : null;
}

/** To origin as a percentage of the budget, 2 decimals; null when there is no budget. */
export const executed = (toOrigin: Dec, budget: Dec): Dec | null =>
  budget.isZero() ? null : toOrigin.times(100).dividedBy(budget).toDecimalPlaces(2);

function chapterSummaries(
  items: ReadonlyMap<string, ItemNode>,
  order: (a: string, b: string) => number,
  lines: readonly CertificationLineView[],
): ChapterSummary[] {
  const groups = new Map<string, ChapterSummary>();
  const groupOf = (node: ItemNode): ChapterSummary => {
    const chapter = topChapterOf(items, node);
    const key = chapter?.id ?? "";
    let group = groups.get(key);
    if (!group) {
      group = {
        chapter,
        budget: dec(0),
        toOrigin: dec(0),
        previous: dec(0),
        thisPeriod: dec(0),
        executedPct: null,
      };
      groups.set(key, group);
    }
    return group;
  };
  const leafIds = [...items.values()].filter((i) => i.kind === "item").map((i) => i.id);
  for (const id of leafIds.sort(order)) {
    const group = groupOf(items.get(id) as ItemNode);
    group.budget = group.budget.plus(items.get(id)?.amount ?? 0);
  }
  for (const line of lines) {
    const group = groupOf(items.get(line.budgetItemId) as ItemNode);
    group.toOrigin = group.toOrigin.plus(line.amountToOrigin);
    group.previous = group.previous.plus(line.amountPrevious);
    group.thisPeriod = group.thisPeriod.plus(line.amountThisPeriod);
  }
  return [...groups.values()]
    .filter((g) => !g.budget.isZero() || !g.toOrigin.isZero() || !g.previous.isZero())
    .map((g) => ({ ...g, executedPct: executed(g.toOrigin, g.budget) }));
}

/**
 * The figures of a certification: its own lines, plus the items certified by the previous validated
 * certification that this one does not list (their quantity to origin carries forward unchanged).
 */
export function buildCertificationView(input: ViewInput): CertificationView {
  const items = new Map(input.items.map((i) => [i.id, i]));
  const previousByItem = new Map(
    (input.previous?.lines ?? []).map((l) => [l.budgetItemId, l.quantityToOrigin]),
  );
  const own = new Map(input.ownLines.map((l) => [l.budgetItemId, l.quantityToOrigin]));
  const carried = [...previousByItem.keys()].filter((id) => !own.has(id));
  const order = treeOrder(items);
  const itemIds = [...own.keys(), ...carried].filter((id) => items.has(id)).sort(order);

  const lines = itemIds.map((id): CertificationLineView => {
    const item = items.get(id) as ItemNode;
    const quantityPrevious = previousByItem.get(id) ?? "0";
    const quantityToOrigin = own.get(id) ?? quantityPrevious;
    return {
      budgetItemId: id,
      code: item.code,
      summary: item.summary,
      unit: item.unit,
      budgetedQuantity: item.quantity,
      unitPrice: item.unitPrice,
      quantityToOrigin,
      quantityPrevious,
      carriedForward: !own.has(id),
      ...lineAmounts({
        budgetedQuantity: item.quantity,
        unitPrice: item.unitPrice,
        quantityToOrigin,
        quantityPrevious,
      }),
    };
  });

  const chapters: ChapterLines[] = [];
  for (const line of lines) {
    const chapter = topChapterOf(items, items.get(line.budgetItemId) as ItemNode);
    const last = chapters.at(-1);
    if (last && last.chapter?.id === chapter?.id) last.lines.push(line);
    else chapters.push({ chapter, lines: [line] });
  }

  const retentionPct = input.certification.retentionPct ?? input.budget.retentionPct;
  return {
    certification: input.certification,
    budget: input.budget,
    previousNumber: input.previous?.number ?? null,
    retentionPct,
    lines,
    chapters,
    summary: chapterSummaries(items, order, lines),
    totals: certificationTotals(lines, { ...input.budget, retentionPct }),
  };
}
