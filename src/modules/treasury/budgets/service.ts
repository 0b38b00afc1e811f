import { assertCompanyVisible, companyFilter } from "../../../platform/auth/company-scope.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, NotFoundError } from "../../../platform/http/errors.js";
import { dec, toMoney } from "../../../platform/money.js";
import { getContact } from "../../clients/index.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { getBankAccount } from "../bank-accounts/service.js";
import { type BudgetRecurrence, treasuryBudgets } from "../tables.js";
import type { BudgetRow } from "./repository.js";
import * as repo from "./repository.js";

export type { BudgetRow } from "./repository.js";

/**
 * The treasury budget: forecast lines (payroll, rent, taxes...) the cash flow adds to the open
 * receipts and payments. A positive amount is expected in, a negative one out.
 */

export interface BudgetFields {
  category?: string;
  description?: string;
  contactId?: string | null;
  bankAccountId?: string | null;
  date?: string;
  amount?: string;
  recurrence?: BudgetRecurrence;
  until?: string | null;
}

export type NewBudget = BudgetFields & { companyId?: string; category: string; date: string; amount: string };

export interface BudgetListFilters {
  companyId?: string;
  category?: string;
  contactId?: string;
  bankAccountId?: string;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
  limit: number;
  offset: number;
}

const fieldError = (path: string, message: string) =>
  new BadRequestError(`${path} ${message}`, [{ path, message }]);

export async function getBudget(ctx: AuthedCtx, id: string): Promise<BudgetRow> {
  return assertCompanyVisible(ctx.actor, await repo.findBudget(ctx.db, id), "Treasury budget line");
}

export function listBudgets(ctx: AuthedCtx, f: BudgetListFilters) {
  const { companyId, ...rest } = f;
  return repo.listBudgets(ctx.db, {
    ...rest,
    scope: companyFilter(ctx.actor, treasuryBudgets.companyId, companyId),
  });
}

/** Checks a line as it will be stored: its contact and bank account of its company, until after date. */
async function checkLine(
  ctx: AuthedCtx,
  companyId: string,
  line: Required<Pick<BudgetFields, "date" | "amount" | "recurrence">> & BudgetFields,
) {
  if (dec(line.amount).isZero()) throw fieldError("amount", "must not be zero (positive: in; negative: out)");
  if (line.recurrence === "none" && line.until) throw fieldError("until", "is only for a recurring line");
  if (line.until && line.until < line.date) throw fieldError("until", "must not be before date");
  if (line.contactId) {
    const contact = await getContact(ctx, line.contactId).catch((err) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (!contact || contact.companyId !== companyId)
      throw fieldError("contact_id", "must be a contact of the line's company");
  }
  if (line.bankAccountId) {
    const bank = await getBankAccount(ctx, line.bankAccountId).catch((err) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (!bank || bank.companyId !== companyId)
      throw fieldError("bank_account_id", "must be a bank account of the line's company");
  }
}

export async function createBudget(ctx: AuthedCtx, input: NewBudget): Promise<BudgetRow> {
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  const line = { ...input, recurrence: input.recurrence ?? "none" };
  await checkLine(ctx, companyId, line);
  return repo.insertBudget(ctx.db, {
    companyId,
    category: line.category,
    description: line.description ?? "",
    contactId: line.contactId ?? null,
    bankAccountId: line.bankAccountId ?? null,
    date: line.date,
    amount: toMoney(line.amount),
    recurrence: line.recurrence,
    until: line.until ?? null,
  });
}

export async function updateBudget(ctx: AuthedCtx, id: string, changes: BudgetFields): Promise<BudgetRow> {
  const current = await getBudget(ctx, id);
  const merged = {
    ...current,
    ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
  } as BudgetRow;
  // A line that stops recurring loses its end date.
  if (changes.recurrence === "none" && changes.until === undefined) merged.until = null;
  await checkLine(ctx, current.companyId, merged);
  return repo.updateBudget(ctx.db, id, {
    category: merged.category,
    description: merged.description,
    contactId: merged.contactId,
    bankAccountId: merged.bankAccountId,
    date: merged.date,
    amount: toMoney(merged.amount),
    recurrence: merged.recurrence,
    until: merged.until,
    updatedAt: new Date(),
  });
}

export async function deleteBudget(ctx: AuthedCtx, id: string): Promise<void> {
  await getBudget(ctx, id);
  await repo.deleteBudget(ctx.db, id);
}

/** The lines that may fall within [from, to] (the cash flow expands their recurrence). */
export function budgetsInWindow(
  ctx: AuthedCtx,
  f: { companyId: string; from: string; to: string; bankAccountId?: string },
) {
  return repo.budgetsInWindow(ctx.db, f);
}
