import { today } from "../../../platform/dates.js";
import { allQueries, inTransaction } from "../../../platform/db/sql.js";
import type { Ctx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { dec, toMoney } from "../../../platform/money.js";
import { userExists } from "../../identity/index.js";
import { assertBudgetVisible, loadBudgetForWrite, visibleBudgetsCondition } from "../budget-access.js";
import { itemsByIds } from "../items/repository.js";
import { type ActivityState, activities } from "../tables.js";
import {
  type ActivityFilter,
  type ActivityRow,
  deleteActivityRow,
  findActivity,
  findActivityByCode,
  insertActivity,
  itemIdsOfActivities,
  listActivityRows,
  type NewActivityRow,
  plannedValues,
  replaceActivityItems,
  updateActivityRow,
} from "./repository.js";
import { type ActivityDates, misorderedDate } from "./schemas.js";
import { allowedActivityTransitions } from "./transitions.js";

/** An activity's fields; left out: unchanged on update. */
export interface ActivityInput {
  code?: string;
  name?: string;
  plannedStart?: string | null;
  plannedEnd?: string | null;
  actualStart?: string | null;
  actualEnd?: string | null;
  progressPct?: string;
  responsibleUserId?: string | null;
  /** Items or chapters of the same budget; when given, they replace the links. */
  budgetItemIds?: string[];
}

export interface NewActivity extends ActivityInput {
  budgetId: string;
  code: string;
  name: string;
}

export interface ActivityView {
  row: ActivityRow;
  itemIds: string[];
  plannedValue: string;
  earnedValue: string;
}

async function views(db: Ctx["db"], rows: ActivityRow[]): Promise<ActivityView[]> {
  const ids = rows.map((r) => r.id);
  const [links, planned] = await allQueries(db, [
    () => itemIdsOfActivities(db, ids),
    () => plannedValues(db, ids),
  ]);
  return rows.map((row) => {
    const plannedValue = planned.get(row.id) ?? "0";
    return {
      row,
      itemIds: links.get(row.id) ?? [],
      plannedValue: toMoney(plannedValue),
      earnedValue: toMoney(dec(row.progressPct).times(plannedValue).dividedBy(100)),
    };
  });
}

async function requireActivity(db: Ctx["db"], id: string): Promise<ActivityRow> {
  const row = await findActivity(db, id);
  if (!row) throw new NotFoundError("Activity");
  return row;
}

async function assertCodeFree(db: Ctx["db"], budgetId: string, code: string, exceptId?: string) {
  const clash = await findActivityByCode(db, budgetId, code);
  if (clash && clash.id !== exceptId)
    throw new ConflictError(`The budget already has an activity with code ${code}`);
}

async function assertUserExists(db: Ctx["db"], userId: string | null | undefined) {
  if (!userId) return;
  if (!(await userExists(db, userId))) {
    throw new BadRequestError("responsible_user_id is not an existing user", [
      { path: "body.responsible_user_id", message: "no user has this id" },
    ]);
  }
}

/** Distinct ids, each an item or chapter of the budget (else 400 naming the bad ones). */
async function budgetItemIds(db: Ctx["db"], budgetId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = new Map((await itemsByIds(db, unique)).map((i) => [i.id, i]));
  const errors = ids
    .map((id, index) => ({ id, index }))
    .filter(({ id }) => found.get(id)?.budgetId !== budgetId)
    .map(({ index }) => ({
      path: `body.budget_item_ids.${index}`,
      message: "is not an item of this budget",
    }));
  if (errors.length) throw new BadRequestError("budget_item_ids must be items of the same budget", errors);
  return unique;
}

function assertDateOrder(dates: ActivityDates) {
  const field = misorderedDate(dates);
  if (field) {
    throw new BadRequestError(`${field} precedes its start date`, [
      { path: `body.${field}`, message: "precedes its start date" },
    ]);
  }
}

function activityColumns(input: ActivityInput): Partial<NewActivityRow> {
  return {
    code: input.code,
    name: input.name,
    plannedStart: input.plannedStart,
    plannedEnd: input.plannedEnd,
    actualStart: input.actualStart,
    actualEnd: input.actualEnd,
    progressPct: input.progressPct,
    responsibleUserId: input.responsibleUserId,
  };
}

export async function listActivities(ctx: Ctx, filter: ActivityFilter) {
  const scope = visibleBudgetsCondition(ctx.actor, activities.budgetId);
  const { rows, total } = await listActivityRows(ctx.db, { ...filter, scope });
  return { rows: await views(ctx.db, rows), total };
}

export async function getActivity(ctx: Ctx, id: string): Promise<ActivityView> {
  const activity = await requireActivity(ctx.db, id);
  await assertBudgetVisible(ctx.db, activity.budgetId, ctx.actor, "Activity");
  const [view] = await views(ctx.db, [activity]);
  return view;
}

export async function createActivity(ctx: Ctx, input: NewActivity): Promise<ActivityView> {
  const id = await inTransaction(ctx.db, async (tx) => {
    await loadBudgetForWrite(tx, input.budgetId, ctx.actor);
    await assertCodeFree(tx, input.budgetId, input.code);
    await assertUserExists(tx, input.responsibleUserId);
    const itemIds = await budgetItemIds(tx, input.budgetId, input.budgetItemIds ?? []);
    const row = await insertActivity(tx, {
      ...activityColumns(input),
      budgetId: input.budgetId,
      code: input.code,
      name: input.name,
    });
    await replaceActivityItems(tx, row.id, itemIds);
    return row.id;
  });
  return getActivity(ctx, id);
}

export async function updateActivity(ctx: Ctx, id: string, input: ActivityInput): Promise<ActivityView> {
  await inTransaction(ctx.db, async (tx) => {
    const current = await requireActivity(tx, id);
    await loadBudgetForWrite(tx, current.budgetId, ctx.actor);
    if (input.code !== undefined && input.code !== current.code)
      await assertCodeFree(tx, current.budgetId, input.code, id);
    await assertUserExists(tx, input.responsibleUserId);
    const pick = <T>(sent: T | undefined, stored: T) => (sent === undefined ? stored : sent);
    assertDateOrder({
      plannedStart: pick(input.plannedStart, current.plannedStart),
      plannedEnd: pick(input.plannedEnd, current.plannedEnd),
      actualStart: pick(input.actualStart, current.actualStart),
      actualEnd: pick(input.actualEnd, current.actualEnd),
    });
    // updatedAt is set explicitly: a body with only budget_item_ids changes no other column.
    await updateActivityRow(tx, id, { ...activityColumns(input), updatedAt: new Date() });
    if (input.budgetItemIds) {
      await replaceActivityItems(tx, id, await budgetItemIds(tx, current.budgetId, input.budgetItemIds));
    }
  });
  return getActivity(ctx, id);
}

export async function deleteActivity(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const current = await requireActivity(tx, id);
    await loadBudgetForWrite(tx, current.budgetId, ctx.actor);
    await deleteActivityRow(tx, id);
  });
}

/**
 * Starting sets actual_start (today when empty); completing sets progress 100 and actual_end (today when
 * empty); reopening clears actual_end.
 */
export async function changeActivityEstado(ctx: Ctx, id: string, to: ActivityState): Promise<ActivityView> {
  await inTransaction(ctx.db, async (tx) => {
    const current = await requireActivity(tx, id);
    await loadBudgetForWrite(tx, current.budgetId, ctx.actor);
    const allowed = allowedActivityTransitions(current.estado);
    if (!allowed.includes(to)) {
      throw new ConflictError(
        `A ${current.estado} activity can't move to ${to}; allowed: ${allowed.join(", ")}`,
        {
          estado: current.estado,
          allowed,
        },
      );
    }
    const changes: Partial<NewActivityRow> = { estado: to };
    if (to === "en_curso" && current.estado === "pendiente")
      changes.actualStart = current.actualStart ?? today();
    if (to === "en_curso" && current.estado === "completada") changes.actualEnd = null;
    if (to === "completada") {
      changes.progressPct = "100";
      changes.actualEnd = current.actualEnd ?? today();
      if (current.actualStart && changes.actualEnd < current.actualStart)
        changes.actualEnd = current.actualStart;
    }
    await updateActivityRow(tx, id, changes);
  });
  return getActivity(ctx, id);
}
