import type { FieldError } from "../../../platform/http/errors.js";
import { parseBc3 } from "../bc3/parse.js";
import type { NewTreeNode } from "../items/bulk.js";
import { MAX_ITEM_DEPTH } from "../items/schemas.js";
import { treeFromBc3 } from "./to-rows.js";

/** A BC3 file made ready to insert: the root's code and name and the rows, or every problem found. */
export type PreparedImport =
  | { ok: true; code: string; name: string; nodes: NewTreeNode[] }
  | { ok: false; errors: FieldError[] };

/**
 * Parses a BC3 file and turns its tree into the rows of budget `budgetId`: all the CPU work of an
 * import, synchronous and pure, so it can run in a worker thread (off-thread.ts).
 */
export function prepareImport(file: Buffer, budgetId: string): PreparedImport {
  const parsed = parseBc3(file, { maxDepth: MAX_ITEM_DEPTH });
  if (!parsed.ok) {
    return { ok: false, errors: parsed.errors.map((e) => ({ path: `line ${e.line}`, message: e.message })) };
  }
  const tree = treeFromBc3(parsed.budget, budgetId);
  if (!tree.ok) return tree;
  return { ok: true, code: parsed.budget.code, name: parsed.budget.name, nodes: tree.nodes };
}
