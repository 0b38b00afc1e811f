import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { queryBoolean, v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import { uuidParam } from "../../../platform/ids.js";
import {
  dec,
  moneyOutput,
  quantityInput,
  quantityOutput,
  toMoney,
  toQuantity,
  toUnitPrice,
  unitPriceInput,
  unitPriceOutput,
} from "../../../platform/money.js";
import { DECOMPOSITION_TYPES, ITEM_KINDS } from "../tables.js";
import { componentCosts, lineQuantity } from "./arithmetic.js";
import type { ItemRow, ItemView, StoredDecomposition, StoredMeasurement } from "./repository.js";
import type { ItemFields, NewItem } from "./service.js";

/** Deepest level of the item tree (chapter nesting + the item); the nested list schema has this many levels. */
export const MAX_ITEM_DEPTH = 10;

const yieldInput = z
  .string()
  .trim()
  .regex(/^-?\d{1,12}(\.\d{1,6})?$/, {
    message: 'must be a decimal string with at most 6 decimals, e.g. "0.25"',
  })
  .describe("Yield (rendimiento) per unit of the item, decimal string, 6 decimals at most");
export const itemCode = z.string().trim().min(1).max(50);

export const measurementIn = z.object({
  label: z.string().trim().max(500).default(""),
  units: quantityInput.nullable().optional(),
  length: quantityInput.nullable().optional(),
  width: quantityInput.nullable().optional(),
  height: quantityInput.nullable().optional(),
});
export const decompositionIn = z.object({
  type: z.enum(DECOMPOSITION_TYPES),
  code: itemCode,
  unit: z.string().trim().max(20).default(""),
  summary: z.string().trim().max(1000).default(""),
  yield: yieldInput,
  price: unitPriceInput,
});

const priceFields = {
  quantity: quantityInput.optional().describe("Ignored when measurement lines are sent"),
  unit_price: unitPriceInput.optional().describe("Ignored when decomposition lines are sent"),
  measurements: z
    .array(measurementIn)
    .max(2000)
    .optional()
    .describe("Measurement lines: each line's non-blank values multiplied, summed -> quantity"),
  decomposition: z
    .array(decompositionIn)
    .max(500)
    .optional()
    .describe("Components: sum of yield x price -> unit_price"),
};
const textFields = {
  unit: z.string().trim().max(20).optional(),
  summary: z.string().trim().max(1000).optional(),
  long_text: z.string().trim().max(50000).optional(),
};

const chapterHasNoPrice = (b: Record<string, unknown>) =>
  b.kind !== "chapter" || Object.keys(priceFields).every((k) => b[k] === undefined);

export const itemCreateBody = z
  .object({
    budget_id: z.uuid(),
    kind: z.enum(ITEM_KINDS).default("item"),
    code: itemCode,
    parent_id: z.uuid().nullable().optional().describe("A chapter of the same budget; null = top level"),
    position: z.number().int().min(0).optional().describe("0-based among its siblings; default last"),
    ...textFields,
    ...priceFields,
  })
  .refine(chapterHasNoPrice, {
    message: "a chapter has no quantity, unit_price, measurements or decomposition",
    path: ["kind"],
  });
export const itemUpdateBody = z
  .object({ code: itemCode, ...textFields, ...priceFields })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export type ItemCreateBody = z.infer<typeof itemCreateBody>;
export type ItemUpdateBody = z.infer<typeof itemUpdateBody>;

export const itemListQuery = v1ListQuery.extend({
  budget_id: z.uuid({ message: "must be a UUID" }),
  tree: queryBoolean
    .default(false)
    .describe("true: the nested tree; limit/offset then page the top-level nodes"),
  parent_id: z.uuid().optional().describe("Flat list: only the direct children of this chapter"),
  kind: z.enum(ITEM_KINDS).optional(),
  search: z.string().trim().max(200).optional().describe("Matches code or summary"),
});
export const itemDeleteQuery = z.object({
  cascade: queryBoolean.default(false).describe("Delete a chapter together with everything under it"),
});
export const moveBody = z.object({
  parent_id: z.uuid().nullable().describe("The new parent chapter; null = top level"),
  position: z.number().int().min(0).optional().describe("0-based among the new siblings; default last"),
});
export const itemParams = z.object({ id: uuidParam });

export const itemOut = z.object({
  id: z.uuid(),
  budget_id: z.uuid(),
  parent_id: z.uuid().nullable(),
  kind: z.enum(ITEM_KINDS),
  code: z.string(),
  position: z.number().int(),
  unit: z.string(),
  summary: z.string(),
  long_text: z.string(),
  quantity: quantityOutput.nullable().describe("null for chapters"),
  unit_price: unitPriceOutput.nullable().describe("null for chapters"),
  amount: moneyOutput.describe("Items: quantity x unit_price; chapters: the sum of their children"),
  created_at: z.string(),
  updated_at: z.string(),
});
export const measurementOut = z.object({
  label: z.string(),
  units: quantityOutput.nullable(),
  length: quantityOutput.nullable(),
  width: quantityOutput.nullable(),
  height: quantityOutput.nullable(),
  quantity: quantityOutput.describe("This line's product"),
});
export const decompositionOut = z.object({
  type: z.enum(DECOMPOSITION_TYPES),
  code: z.string(),
  unit: z.string(),
  summary: z.string(),
  yield: z.string().describe("Decimal string, 6 decimals"),
  price: unitPriceOutput,
  cost: unitPriceOutput.describe(
    'yield x price; a code with "%": yield (per one) x the lines before it whose code starts with the characters before the %',
  ),
});
export const conceptOut = z
  .object({
    id: z.uuid(),
    code: z.string(),
    kind: z.enum(ITEM_KINDS),
    unit: z.string(),
    summary: z.string(),
    long_text: z.string(),
    unit_price: unitPriceOutput,
    type: z.enum(DECOMPOSITION_TYPES),
    placements: z.number().int().describe("How many places of the tree use this concept"),
  })
  .describe("The concept this node places: its price and texts are shared by every placement");
export const placementOut = z.object({
  id: z.uuid(),
  parent_id: z.uuid().nullable(),
  parent_code: z.string().nullable().describe("Code of the chapter it hangs from; null at the top level"),
  quantity: quantityOutput,
  amount: moneyOutput,
});
export const itemDetailOut = itemOut.extend({
  measurements: z.array(measurementOut),
  decomposition: z.array(decompositionOut),
  concept: conceptOut,
  other_placements: z.array(placementOut).describe("The other places of the tree this concept is used"),
});

export type ItemOut = z.infer<typeof itemOut>;
export type ItemNodeOut = ItemOut & { children?: ItemNodeOut[] };

/** Nested nodes, one schema level per tree level (OpenAPI without recursive $refs). */
function nodeLevel(depth: number): z.ZodType<ItemNodeOut> {
  const children = depth >= MAX_ITEM_DEPTH ? z.array(z.never()) : z.array(nodeLevel(depth + 1));
  return itemOut.extend({
    children: children.optional().describe("Tree view only"),
  }) as z.ZodType<ItemNodeOut>;
}
export const itemPage = v1Page(nodeLevel(1));

const quantityOrNull = (v: string | null) => (v === null ? null : toQuantity(v));

export function toItemOut(row: ItemRow, amount: string): ItemOut {
  const chapter = row.kind === "chapter";
  return {
    id: row.id,
    budget_id: row.budgetId,
    parent_id: row.parentId,
    kind: row.kind,
    code: row.code,
    position: row.position,
    unit: row.unit,
    summary: row.summary,
    long_text: row.longText,
    quantity: chapter ? null : toQuantity(row.quantity),
    unit_price: chapter ? null : toUnitPrice(row.unitPrice),
    amount: toMoney(amount),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function toMeasurementOut(m: StoredMeasurement): z.infer<typeof measurementOut> {
  const line = { label: m.label, units: m.units, length: m.length, width: m.width, height: m.height };
  return {
    label: m.label,
    units: quantityOrNull(m.units),
    length: quantityOrNull(m.length),
    width: quantityOrNull(m.width),
    height: quantityOrNull(m.height),
    quantity: lineQuantity(line),
  };
}

export function toDecompositionOut(d: StoredDecomposition, cost: string): z.infer<typeof decompositionOut> {
  return {
    type: d.type,
    code: d.code,
    unit: d.unit,
    summary: d.summary,
    yield: dec(d.yield).toFixed(6),
    price: toUnitPrice(d.price),
    cost,
  };
}

export function toItemDetailOut(v: ItemView): z.infer<typeof itemDetailOut> {
  const costs = componentCosts(v.decomposition);
  return {
    ...toItemOut(v, v.displayAmount),
    measurements: v.measurements.map(toMeasurementOut),
    decomposition: v.decomposition.map((d, i) => toDecompositionOut(d, costs[i])),
    concept: {
      id: v.concept.id,
      code: v.concept.code,
      kind: v.concept.kind,
      unit: v.concept.unit,
      summary: v.concept.summary,
      long_text: v.concept.longText,
      unit_price: toUnitPrice(v.concept.unitPrice),
      type: v.concept.type,
      placements: v.otherPlacements.length + 1,
    },
    other_placements: v.otherPlacements.map((p) => ({
      id: p.id,
      parent_id: p.parentId,
      parent_code: p.parentCode,
      quantity: toQuantity(p.quantity),
      amount: toMoney(p.amount),
    })),
  };
}

/** A row of the list: flat (no children) or a tree node. */
export interface ItemListing {
  row: ItemRow;
  amount: string;
  children?: ItemListing[];
}

export function toItemNodeOut(n: ItemListing): ItemNodeOut {
  const out: ItemNodeOut = toItemOut(n.row, n.amount);
  if (n.children) out.children = n.children.map(toItemNodeOut);
  return out;
}

/** Request fields -> service input; fields left out stay undefined (unchanged on update). */
export function fromItemBody(b: ItemUpdateBody): ItemFields {
  return {
    code: b.code,
    unit: b.unit,
    summary: b.summary,
    longText: b.long_text,
    quantity: b.quantity,
    unitPrice: b.unit_price,
    measurements: b.measurements,
    decomposition: b.decomposition,
  };
}

export function fromItemCreateBody(b: ItemCreateBody): NewItem {
  return {
    ...fromItemBody(b),
    budgetId: b.budget_id,
    kind: b.kind,
    code: b.code,
    parentId: b.parent_id,
    position: b.position,
  };
}

export function fromMoveBody(b: z.infer<typeof moveBody>) {
  return { parentId: b.parent_id, position: b.position };
}
