import { asc, eq } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { budgetItemDecomposition, budgetItemMeasurements, budgetItems } from "../tables.js";
import type { DecompositionLine, MeasurementLine } from "./arithmetic.js";
import {
  type ItemRow,
  itemsOfBudget,
  type NewItemRow,
  type StoredDecomposition,
  type StoredMeasurement,
} from "./repository.js";

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for the widest table. */
const CHUNK_ROWS = 1000;

/** One node to insert: its row (with its id already chosen) and its lines. */
export interface NewTreeNode {
  row: NewItemRow & { id: string };
  measurements: MeasurementLine[];
  decomposition: DecompositionLine[];
}

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) await insert(rows.slice(i, i + CHUNK_ROWS));
}

/** Bulk insert of a whole tree; `nodes` must list every parent before its children. */
export async function insertTree(tx: Db, nodes: NewTreeNode[]): Promise<void> {
  await insertChunked(
    nodes.map((n) => n.row),
    (chunk) => tx.insert(budgetItems).values(chunk),
  );
  const measurements = nodes.flatMap((n) =>
    n.measurements.map((m, position) => ({ ...m, itemId: n.row.id, position })),
  );
  await insertChunked(measurements, (chunk) => tx.insert(budgetItemMeasurements).values(chunk));
  const decomposition = nodes.flatMap((n) =>
    n.decomposition.map((d, position) => ({ ...d, itemId: n.row.id, position })),
  );
  await insertChunked(decomposition, (chunk) => tx.insert(budgetItemDecomposition).values(chunk));
}

export interface LoadedTree {
  /** Siblings in position order. */
  items: ItemRow[];
  measurements: Map<string, StoredMeasurement[]>;
  decomposition: Map<string, StoredDecomposition[]>;
}

function groupBy<T extends { itemId: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(row.itemId);
    if (list) list.push(row);
    else groups.set(row.itemId, [row]);
  }
  return groups;
}

/** A budget's whole tree with its lines, in three queries. */
export async function loadTree(db: Db, budgetId: string): Promise<LoadedTree> {
  // Sequential on purpose: `db` may be a transaction, which is one connection.
  const items = await itemsOfBudget(db, budgetId);
  const measurements = await db
    .select({ line: budgetItemMeasurements })
    .from(budgetItemMeasurements)
    .innerJoin(budgetItems, eq(budgetItems.id, budgetItemMeasurements.itemId))
    .where(eq(budgetItems.budgetId, budgetId))
    .orderBy(asc(budgetItemMeasurements.itemId), asc(budgetItemMeasurements.position));
  const decomposition = await db
    .select({ line: budgetItemDecomposition })
    .from(budgetItemDecomposition)
    .innerJoin(budgetItems, eq(budgetItems.id, budgetItemDecomposition.itemId))
    .where(eq(budgetItems.budgetId, budgetId))
    .orderBy(asc(budgetItemDecomposition.itemId), asc(budgetItemDecomposition.position));
  return {
    items,
    measurements: groupBy(measurements.map((r) => r.line)),
    decomposition: groupBy(decomposition.map((r) => r.line)),
  };
}
