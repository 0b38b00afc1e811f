import { eq } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { uuidv7 } from "../../../platform/ids.js";
import { dec, toMoney } from "../../../platform/money.js";
import { type BudgetState, budgetConcepts, budgetItems, budgets } from "../tables.js";

/** Test setup: budgets and items written straight to the tables, independent of the budget routes. */

export async function insertBudget(db: Db, values: Partial<typeof budgets.$inferInsert> = {}) {
  const [row] = await db
    .insert(budgets)
    .values({ code: `T-${uuidv7().slice(-12)}`, name: "Obra de prueba", estado: "en_ejecucion", ...values })
    .returning();
  return row;
}

export async function setBudgetEstado(db: Db, budgetId: string, estado: BudgetState) {
  await db.update(budgets).set({ estado }).where(eq(budgets.id, budgetId));
}

export interface ItemSpec {
  code: string;
  kind?: "chapter" | "item";
  parentId?: string | null;
  position?: number;
  unit?: string;
  summary?: string;
  quantity?: string;
  unitPrice?: string;
}

/** An item's amount is quantity x unit price rounded to cents; a chapter's stored amount is 0. */
export async function insertItem(db: Db, budgetId: string, spec: ItemSpec) {
  const kind = spec.kind ?? "item";
  const quantity = spec.quantity ?? "0";
  const unitPrice = spec.unitPrice ?? "0";
  const unit = spec.unit ?? (kind === "item" ? "m2" : "");
  const summary = spec.summary ?? `Partida ${spec.code}`;
  const [concept] = await db
    .insert(budgetConcepts)
    .values({ budgetId, kind, code: spec.code, unit, summary, unitPrice })
    .returning();
  const [row] = await db
    .insert(budgetItems)
    .values({
      budgetId,
      conceptId: concept.id,
      kind,
      code: spec.code,
      parentId: spec.parentId ?? null,
      position: spec.position ?? 0,
      unit,
      summary,
      quantity,
      unitPrice,
      amount: kind === "item" ? toMoney(dec(quantity).times(unitPrice)) : "0",
    })
    .returning();
  return row;
}
