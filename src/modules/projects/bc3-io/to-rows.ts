import type { FieldError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { toQuantity, toUnitPrice } from "../../../platform/money.js";
import type { Bc3Budget, Bc3Node } from "../bc3/types.js";
import { itemAmount } from "../items/arithmetic.js";
import type { NewTreeNode } from "../items/bulk.js";
import { MAX_ITEM_DEPTH } from "../items/schemas.js";

/** A code placed again elsewhere in the tree gets "-2", "-3"... (codes are unique within a budget). */
function uniqueCodes() {
  const used = new Set<string>();
  return (code: string): string => {
    let candidate = code;
    for (let n = 2; used.has(candidate); n++) candidate = `${code}-${n}`;
    used.add(candidate);
    return candidate;
  };
}

function toTreeNode(
  node: Bc3Node,
  id: string,
  budgetId: string,
  parentId: string | null,
  position: number,
  code: string,
): NewTreeNode {
  const base = {
    id,
    budgetId,
    parentId,
    kind: node.kind,
    code,
    position,
    unit: node.unit,
    summary: node.summary,
    longText: node.longText,
  };
  if (node.kind === "chapter") {
    // A chapter's amount is the sum of its children: its own BC3 price and quantity are not kept.
    return {
      row: { ...base, quantity: "0", unitPrice: "0", amount: "0" },
      measurements: [],
      decomposition: [],
    };
  }
  const quantity = toQuantity(node.quantity);
  // The file's price is kept even when it differs from its decomposition's sum (percentage components
  // such as "%CI" costes indirectos are priced by the authoring program, not by yield x price).
  const unitPrice = toUnitPrice(node.unitPrice);
  return {
    row: { ...base, quantity, unitPrice, amount: itemAmount(quantity, unitPrice) },
    measurements: node.measurements.map((m) => ({ ...m })),
    decomposition: node.decomposition.map((d) => ({ ...d })),
  };
}

/**
 * The rows of a parsed BC3 tree for `budgetId`, parents before children, or the problems that prevent
 * storing it (reported like parser errors, at line 1 since they concern the whole tree).
 */
export function treeFromBc3(
  bc3: Bc3Budget,
  budgetId: string,
): { ok: true; nodes: NewTreeNode[] } | { ok: false; errors: FieldError[] } {
  const nodes: NewTreeNode[] = [];
  const codeFor = uniqueCodes();
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
    nodes.push(toTreeNode(node, id, budgetId, parentId, position, codeFor(node.code)));
    for (let i = node.children.length - 1; i >= 0; i--) {
      stack.push({ node: node.children[i], parentId: id, position: i, depth: depth + 1 });
    }
  }
  return { ok: true, nodes };
}
