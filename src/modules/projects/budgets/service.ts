import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
} from "../../../platform/http/errors.js";
import { hasActiveCompany, resolveCompanyForWrite } from "../../companies/index.js";
import { emailsOfUsers } from "../../identity/index.js";
import {
  type BudgetRow,
  budgetCompanyCondition,
  canSeeBudget,
  loadBudget,
  loadBudgetForWrite,
} from "../budget-access.js";
import type { BudgetState } from "../tables.js";
import {
  type BudgetFilter,
  deleteBudgetRow,
  findBudgetByCode,
  insertBudget,
  insertHistory,
  listBudgets as listBudgetRows,
  listHistory,
  lockBudget,
  pemOfBudgets,
  updateBudgetRow,
} from "./repository.js";
import { type BudgetTotals, budgetTotals } from "./totals.js";
import { allowedBudgetTransitions, budgetTransitionPermission } from "./transitions.js";

export interface BudgetView {
  row: BudgetRow;
  totals: BudgetTotals;
}

/** What a budget's create and update take; fields left out stay undefined (not changed). */
export interface BudgetInput {
  code?: string;
  name?: string;
  clientName?: string;
  clientTaxId?: string | null;
  description?: string;
  startDate?: string | null;
  endDate?: string | null;
  overheadsPct?: string;
  profitPct?: string;
  discountPct?: string;
  vatPct?: string;
  retentionPct?: string;
  ownerAddress?: string;
  siteAddress?: string;
  contractAmount?: string | null;
  fileNumber?: string;
  siteManagerName?: string;
  contractorSignatory?: string;
  ownerSignatory?: string;
}

export interface BudgetHistoryEntry {
  id: string;
  fromEstado: BudgetState;
  toEstado: BudgetState;
  userId: string | null;
  userEmail: string | null;
  createdAt: Date;
}

export async function withTotals(db: Ctx["db"], rows: BudgetRow[]): Promise<BudgetView[]> {
  const pem = await pemOfBudgets(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ row, totals: budgetTotals(pem.get(row.id) ?? "0", row) }));
}

export async function assertBudgetCodeFree(db: Ctx["db"], code: string, exceptId?: string) {
  const clash = await findBudgetByCode(db, code);
  if (clash && clash.id !== exceptId) throw new ConflictError(`A budget with code ${code} already exists`);
}

export async function listBudgets(ctx: Ctx, filter: BudgetFilter) {
  const { rows, total } = await listBudgetRows(ctx.db, {
    ...filter,
    scope: budgetCompanyCondition(ctx.actor, filter.companyId),
  });
  return { rows: await withTotals(ctx.db, rows), total };
}

export async function getBudget(ctx: Ctx, id: string): Promise<BudgetView> {
  const [view] = await withTotals(ctx.db, [await loadBudget(ctx.db, id, ctx.actor)]);
  return view;
}

/** The budget with this code (codes are unique); another company's is a 404 like a missing one. */
export async function getBudgetByCode(ctx: Ctx, code: string): Promise<BudgetView> {
  const row = await findBudgetByCode(ctx.db, code);
  if (!row || !canSeeBudget(ctx.actor, row)) throw new NotFoundError("Budget");
  const [view] = await withTotals(ctx.db, [row]);
  return view;
}

/**
 * The company a new budget belongs to (ADR 013): the caller's own when restricted (another is a
 * 404), else the one requested, else the tenant's only company; a tenant with several needs
 * company_id (400), one with none keeps budgets without a company.
 */
export async function companyOfNewBudget(ctx: AuthedCtx, requested?: string): Promise<string | null> {
  if (!requested && !ctx.actor.companyId && !(await hasActiveCompany(ctx.db))) return null;
  return resolveCompanyForWrite(ctx, requested);
}

export async function createBudget(
  ctx: AuthedCtx,
  input: BudgetInput & { code: string; name: string; companyId?: string },
): Promise<BudgetView> {
  const companyId = await companyOfNewBudget(ctx, input.companyId);
  await assertBudgetCodeFree(ctx.db, input.code);
  const row = await insertBudget(ctx.db, { ...input, companyId, createdBy: ctx.actor.userId });
  return { row, totals: budgetTotals("0", row) };
}

export async function updateBudget(ctx: Ctx, id: string, input: BudgetInput): Promise<BudgetView> {
  await inTransaction(ctx.db, async (tx) => {
    const budget = await loadBudgetForWrite(tx, id, ctx.actor);
    const start = input.startDate === undefined ? budget.startDate : input.startDate;
    const end = input.endDate === undefined ? budget.endDate : input.endDate;
    if (start && end && end < start) {
      throw new BadRequestError("end_date must not be before start_date", [
        { path: "body.end_date", message: `is before start_date ${start}` },
      ]);
    }
    if (input.code !== undefined && input.code !== budget.code)
      await assertBudgetCodeFree(tx, input.code, id);
    await updateBudgetRow(tx, id, input);
  });
  return getBudget(ctx, id);
}

export async function deleteBudget(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const budget = await loadBudgetForWrite(tx, id, ctx.actor);
    if (budget.estado !== "borrador") {
      throw new ConflictError(`Only a borrador budget can be deleted; this one is ${budget.estado}`, {
        estado: budget.estado,
      });
    }
    await deleteBudgetRow(tx, id);
  });
}

/** Moves the budget to another state and records who did it, in one transaction. */
export async function changeBudgetEstado(ctx: AuthedCtx, id: string, to: BudgetState): Promise<BudgetView> {
  await inTransaction(ctx.db, async (tx) => {
    const budget = await lockBudget(tx, id);
    if (!budget || !canSeeBudget(ctx.actor, budget)) throw new NotFoundError("Budget");
    const permission = budgetTransitionPermission(budget.estado, to);
    if (!permission) {
      const allowed = allowedBudgetTransitions(budget.estado);
      throw new ConflictError(
        `A ${budget.estado} budget can't move to ${to}` +
          (allowed.length ? `; allowed: ${allowed.join(", ")}` : "; it has no further states"),
        { estado: budget.estado, allowed },
      );
    }
    if (!ctx.actor.permissions.has(permission)) {
      throw new ForbiddenError(
        `Moving a budget from ${budget.estado} to ${to} requires permission ${permission}`,
      );
    }
    await updateBudgetRow(tx, id, { estado: to });
    await insertHistory(tx, {
      budgetId: id,
      fromEstado: budget.estado,
      toEstado: to,
      userId: ctx.actor.userId,
    });
  });
  return getBudget(ctx, id);
}

/** The budget's state changes, oldest first, with the e-mail of who made each one. */
export async function listBudgetHistory(ctx: Ctx, id: string, page: { limit: number; offset: number }) {
  await loadBudget(ctx.db, id, ctx.actor);
  const { rows, total } = await listHistory(ctx.db, id, page);
  const emails = await emailsOfUsers(
    ctx.db,
    rows.flatMap((r) => (r.userId ? [r.userId] : [])),
  );
  const entries: BudgetHistoryEntry[] = rows.map((r) => ({
    ...r,
    userEmail: r.userId ? (emails.get(r.userId) ?? null) : null,
  }));
  return { rows: entries, total };
}
