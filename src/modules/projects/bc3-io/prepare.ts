import type { FieldError } from "../../../platform/http/errors.js";
import { parseBc3 } from "../bc3/parse.js";
import type { Bc3Charset, Bc3Coefficients, Bc3LineError } from "../bc3/types.js";
import type { NewTree } from "../items/bulk.js";
import { MAX_ITEM_DEPTH } from "../items/schemas.js";
import { type ImportCounts, treeFromBc3 } from "./to-rows.js";

/** Everything an import learns from the file besides its rows. */
export interface ImportHead {
  code: string;
  name: string;
  charset: Bc3Charset;
  coefficients: Bc3Coefficients;
  declaredPrice: string | null;
  warnings: Bc3LineError[];
  counts: ImportCounts;
}

/** A BC3 file made ready to insert: its head and rows, or every problem found. */
export type PreparedImport = ({ ok: true; tree: NewTree } & ImportHead) | { ok: false; errors: FieldError[] };

/**
 * Parses a BC3 file and turns its tree into the rows of budget `budgetId`: all the CPU work of an
 * import, synchronous and pure, so it can run in a worker thread (off-thread.ts).
 */
export function prepareImport(file: Buffer, budgetId: string): PreparedImport {
  const parsed = parseBc3(file, { maxDepth: MAX_ITEM_DEPTH });
  if (!parsed.ok) {
    return { ok: false, errors: parsed.errors.map((e) => ({ path: `line ${e.line}`, message: e.message })) };
  }
  const b = parsed.budget;
  const rows = treeFromBc3(b, budgetId);
  if (!rows.ok) return rows;
  return {
    ok: true,
    code: b.code,
    name: b.name,
    charset: b.charset,
    coefficients: b.coefficients as Bc3Coefficients,
    declaredPrice: b.declaredPrice ?? null,
    warnings: b.warnings ?? [],
    counts: rows.counts,
    tree: rows.tree,
  };
}
