import { z } from "zod";
import { iso } from "../../../platform/dates.js";
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
import type { ActivityInput, ActivityView, NewActivity } from "./service.js";

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

export type ActivityDates = {
  [K in "plannedStart" | "plannedEnd" | "actualStart" | "actualEnd"]?: string | null;
};
/** Each end date must not precede its start date; returns the request field of the offending end, if any. */
export const misorderedDate = (d: ActivityDates): "planned_end" | "actual_end" | undefined => {
  if (d.plannedStart && d.plannedEnd && d.plannedEnd < d.plannedStart) return "planned_end";
  if (d.actualStart && d.actualEnd && d.actualEnd < d.actualStart) return "actual_end";
  return undefined;
};

export const activityCreateBody = z.object({ budget_id: z.uuid(), ...activityFields }).refine(
  (b) =>
    misorderedDate({
      plannedStart: b.planned_start,
      plannedEnd: b.planned_end,
      actualStart: b.actual_start,
      actualEnd: b.actual_end,
    }) === undefined,
  { message: "an end date precedes its start date" },
);
export const activityUpdateBody = z
  .object(activityFields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export type ActivityCreateBody = z.infer<typeof activityCreateBody>;
export type ActivityUpdateBody = z.infer<typeof activityUpdateBody>;

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
    estado: a.estado,
    budget_item_ids: v.itemIds,
    planned_value: v.plannedValue,
    earned_value: v.earnedValue,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

/** Request fields -> service input; fields left out stay undefined (unchanged on update). */
export function fromActivityBody(b: ActivityUpdateBody): ActivityInput {
  return {
    code: b.code,
    name: b.name,
    plannedStart: b.planned_start,
    plannedEnd: b.planned_end,
    actualStart: b.actual_start,
    actualEnd: b.actual_end,
    progressPct: b.progress_pct,
    responsibleUserId: b.responsible_user_id,
    budgetItemIds: b.budget_item_ids,
  };
}

export function fromActivityCreateBody(b: ActivityCreateBody): NewActivity {
  return { ...fromActivityBody(b), budgetId: b.budget_id, code: b.code, name: b.name };
}
