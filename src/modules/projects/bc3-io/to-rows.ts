import type { FieldError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { toQuantity, toUnitPrice } from "../../../platform/money.js";
import type { Bc3Budget, Bc3Node } from "../bc3/types.js";
import { itemAmount } from "../items/arithmetic.js";
import type { NewConcept, NewTree, NewTreeNode } from "../items/bulk.js";
import { MAX_ITEM_DEPTH } from "../items/schemas.js";

/** What an import read, for its report. */
export interface ImportCounts {
  concepts: number;
  placements: number;
  measurementLines: number;
  texts: number;
  /** Sum of the items' amounts (quantity x price, each to cents). */
  importedTotal: string;
}

/**
 * One concept per code (the parser gives every placement of a code the same ~C data, so the
 * first placement describes it); a code placed again becomes another placement of the same concept.
 */
function conceptFor(concepts: Map<string, NewConcept>, node: Bc3Node, budgetId: string): NewConcept {
  const known = concepts.get(node.code);
  if (known) return known;
  const chapter = node.kind === "chapter";
  const concept: NewConcept = {
    row: {
      id: uuidv7(),
      budgetId,
      kind: node.kind,
      code: node.code,
      unit: node.unit,
      summary: node.summary,
      longText: node.longText,
      // A chapter's amount is the sum of its children: its own BC3 price is not kept.
      unitPrice: chapter ? "0" : toUnitPrice(node.unitPrice),
    },
    decomposition: chapter ? [] : node.decomposition.map((d) => ({ ...d })),
  };
  concepts.set(node.code, concept);
  return concept;
}

function placement(
  node: Bc3Node,
  concept: NewConcept,
  ids: { id: string; budgetId: string; parentId: string | null },
  position: number,
): NewTreeNode {
  const base = {
    ...ids,
    conceptId: concept.row.id,
    kind: node.kind,
    code: node.code,
    position,
    unit: node.unit,
    summary: node.summary,
    longText: node.longText,
  };
  if (node.kind === "chapter") {
    return { row: { ...base, quantity: "0", unitPrice: "0", amount: "0" }, measurements: [] };
  }
  const quantity = toQuantity(node.quantity);
  const unitPrice = concept.row.unitPrice as string;
  return {
    row: { ...base, quantity, unitPrice, amount: itemAmount(quantity, unitPrice) },
    measurements: node.measurements.map((m) => ({ ...m })),
  };
}

/**
 * The rows of a parsed BC3 tree for `budgetId`: its concepts, then its placements parents first;
 * or the problems that prevent storing it (reported like parser errors, at line 1).
 */
export function treeFromBc3(
  bc3: Bc3Budget,
  budgetId: string,
): { ok: true; tree: NewTree; counts: ImportCounts } | { ok: false; errors: FieldError[] } {
  const nodes: NewTreeNode[] = [];
  const concepts = new Map<string, NewConcept>();
  let total = 0n;
  let measurementLines = 0;
  const stack: { node: Bc3Node; parentId: string | null; position: number; depth: number }[] =
    bc3.root.children.map((node, position) => ({ node, parentId: null, position, depth: 1 })).reverse();
  while (stack.length > 0) {
    const { node, parentId, position, depth } = stack.pop() as (typeof stack)[number];
    if (depth > MAX_ITEM_DEPTH) {
      return {
        ok: false,
        errors: [{ path: "line 1", message: `${node.code} is nested deeper than ${MAX_ITEM_DEPTH} levels` }],
      };
    }
    const id = uuidv7();
    const placed = placement(
      node,
      conceptFor(concepts, node, budgetId),
      { id, budgetId, parentId },
      position,
    );
    nodes.push(placed);
    measurementLines += placed.measurements.length;
    if (node.kind === "item") total += BigInt((placed.row.amount as string).replace(".", ""));
    for (let i = node.children.length - 1; i >= 0; i--) {
      stack.push({ node: node.children[i], parentId: id, position: i, depth: depth + 1 });
    }
  }
  const cents = total < 0n ? -total : total;
  const importedTotal = `${total < 0n ? "-" : ""}${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
  return {
    ok: true,
    tree: { concepts: [...concepts.values()], nodes },
    counts: {
      concepts: concepts.size,
      placements: nodes.length,
      measurementLines,
      texts: bc3.texts ?? 0,
      importedTotal,
    },
  };
}
