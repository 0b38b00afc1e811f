import { asc, eq } from "drizzle-orm";
import { groupBy } from "../../../platform/collections.js";
import type { Db } from "../../../platform/db/client.js";
import { budgetConcepts, budgetItemDecomposition, budgetItemMeasurements, budgetItems } from "../tables.js";
import type { DecompositionLine, MeasurementLine } from "./arithmetic.js";
import { type ConceptRow, conceptsOfBudget, type NewConceptRow } from "./concepts.js";
import {
  type ItemRow,
  itemsOfBudget,
  type NewItemRow,
  type StoredDecomposition,
  type StoredMeasurement,
} from "./repository.js";

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for the widest table. */
const CHUNK_ROWS = 1000;

/** One concept to insert (its id already chosen) and its decomposition. */
export interface NewConcept {
  row: NewConceptRow & { id: string };
  decomposition: DecompositionLine[];
}

/** One placement to insert: its row (with its id and concept already chosen) and its measurement lines. */
export interface NewTreeNode {
  row: NewItemRow & { id: string };
  measurements: MeasurementLine[];
}

/** A whole tree: the concepts first, then the placements, parents before children. */
export interface NewTree {
  concepts: NewConcept[];
  nodes: NewTreeNode[];
}

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) await insert(rows.slice(i, i + CHUNK_ROWS));
}

/** Rows inserted so far and in all, after each chunk (concepts, placements, lines). */
export type InsertProgress = (done: number, total: number) => void;

/** Bulk insert of a whole tree; `nodes` must list every parent before its children. */
export async function insertTree(
  tx: Db,
  { concepts, nodes }: NewTree,
  onProgress?: InsertProgress,
): Promise<void> {
  const measurements = nodes.flatMap((n) =>
    n.measurements.map((m, position) => ({ ...m, itemId: n.row.id, position })),
  );
  const decomposition = concepts.flatMap((c) =>
    c.decomposition.map((d, position) => ({ ...d, conceptId: c.row.id, position })),
  );
  const total = concepts.length + nodes.length + measurements.length + decomposition.length;
  let done = 0;
  const step = async <T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) =>
    insertChunked(rows, async (chunk) => {
      await insert(chunk);
      done += chunk.length;
      onProgress?.(done, total);
    });
  await step(
    concepts.map((c) => c.row),
    (chunk) => tx.insert(budgetConcepts).values(chunk),
  );
  await step(
    nodes.map((n) => n.row),
    (chunk) => tx.insert(budgetItems).values(chunk),
  );
  await step(measurements, (chunk) => tx.insert(budgetItemMeasurements).values(chunk));
  await step(decomposition, (chunk) => tx.insert(budgetItemDecomposition).values(chunk));
}

export interface LoadedTree {
  /** Siblings in position order. */
  items: ItemRow[];
  concepts: Map<string, ConceptRow>;
  /** By item (placement) id. */
  measurements: Map<string, StoredMeasurement[]>;
  /** By concept id. */
  decomposition: Map<string, StoredDecomposition[]>;
}

/** A budget's whole tree with its concepts and lines, in four queries. */
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
    .innerJoin(budgetConcepts, eq(budgetConcepts.id, budgetItemDecomposition.conceptId))
    .where(eq(budgetConcepts.budgetId, budgetId))
    .orderBy(asc(budgetItemDecomposition.conceptId), asc(budgetItemDecomposition.position));
  const concepts = await conceptsOfBudget(db, budgetId);
  return {
    items,
    concepts: new Map(concepts.map((c) => [c.id, c])),
    measurements: groupBy(
      measurements.map((r) => r.line),
      (m) => m.itemId,
    ),
    decomposition: groupBy(
      decomposition.map((r) => r.line),
      (d) => d.conceptId,
    ),
  };
}
