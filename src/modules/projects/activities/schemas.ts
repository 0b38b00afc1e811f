import { z } from "zod";
import { queryDate, v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import { uuidParam } from "../../../platform/ids.js";
import {
  dec,
  moneyOutput,
  nonNegative,
  percentInput,
  percentOutput,
  toPercent,
} from "../../../platform/money.js";
import { ACTIVITY_STATES } from "../tables.js";
import type { ActivityView } from "./service.js";

const iso = (d: Date) => d.toISOString();
const date = queryDate.nullable().optional();
const progress = nonNegative(percentInput).refine((v) => dec(v).lte(100), {
  message: "must be between 0 and 100",
});

const activityFields = {
  code: z.string().trim().min(1).max(50).describe("Unique within the budget"),
  name: z.string().trim().min(1).max(200),
  planned_start: date,
  planned_end: date,
  actual_start: date,
  actual_end: date,
  progress_pct: progress.optional().describe("0..100"),
  responsible_user_id: z.uuid().nullable().optional().describe("An existing user"),
  budget_item_ids: z
    .array(z.uuid())
    .max(5000)
    .optional()
    .describe("Items or chapters of the same budget (a chapter counts its whole subtree)"),
};

type Dates = { [K in "planned_start" | "planned_end" | "actual_start" | "actual_end"]?: string | null };
/** Each end date must not precede its start date; returns the offending end field, if any. */
export const misorderedDate = (d: Dates): "planned_end" | "actual_end" | undefined => {
  if (d.planned_start && d.planned_end && d.planned_end < d.planned_start) return "planned_end";
  if (d.actual_start && d.actual_end && d.actual_end < d.actual_start) return "actual_end";
  return undefined;
};

export const activityCreateBody = z
  .object({ budget_id: z.uuid(), ...activityFields })
  .refine((b) => misorderedDate(b) === undefined, { message: "an end date precedes its start date" });
export const activityUpdateBody = z
  .object(activityFields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export type ActivityCreateInput = z.infer<typeof activityCreateBody>;
export type ActivityUpdateInput = z.infer<typeof activityUpdateBody>;

export const activityListQuery = v1ListQuery.extend({
  budget_id: z.uuid().optional(),
  estado: z.enum(ACTIVITY_STATES).optional(),
  search: z.string().trim().max(200).optional().describe("Matches code or name"),
});
export const activityEstadoBody = z.object({ estado: z.enum(ACTIVITY_STATES) });
export const activityParams = z.object({ id: uuidParam });

export const activityOut = z.object({
  id: z.uuid(),
  budget_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  planned_start: z.string().nullable(),
  planned_end: z.string().nullable(),
  actual_start: z.string().nullable(),
  actual_end: z.string().nullable(),
  progress_pct: percentOutput,
  responsible_user_id: z.uuid().nullable(),
  estado: z.enum(ACTIVITY_STATES),
  budget_item_ids: z.array(z.uuid()),
  planned_value: moneyOutput.describe("Sum of the linked items' amounts (a chapter counts its subtree)"),
  earned_value: moneyOutput.describe("progress_pct x planned_value / 100"),
  created_at: z.string(),
  updated_at: z.string(),
});
export const activityPage = v1Page(activityOut);

export function toActivityOut(v: ActivityView): z.infer<typeof activityOut> {
  const a = v.row;
  return {
    id: a.id,
    budget_id: a.budgetId,
    code: a.code,
    name: a.name,
    planned_start: a.plannedStart,
    planned_end: a.plannedEnd,
    actual_start: a.actualStart,
    actual_end: a.actualEnd,
    progress_pct: toPercent(a.progressPct),
    responsible_user_id: a.responsibleUserId,
    estado: a.estado as z.infer<typeof activityOut>["estado"],
    budget_item_ids: v.itemIds,
    planned_value: v.plannedValue,
    earned_value: v.earnedValue,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}
