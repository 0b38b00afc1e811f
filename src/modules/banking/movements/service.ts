import { assertCompanyVisible, companyFilter } from "../../../platform/auth/company-scope.js";
import { allQueries, violatedConstraint } from "../../../platform/db/sql.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { unknownCursorError } from "../../../platform/http/pagination.js";
import { dec, toMoney } from "../../../platform/money.js";
import { getEntry } from "../../accounting/index.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import {
  getBankAccount,
  listOpenDues,
  listOpenDuesForMatching,
  type OpenDue,
  payDue,
  payDues,
  undoPayment,
} from "../../treasury/index.js";
import {
  indexDues,
  type MatchDue,
  type MatchMovement,
  type Suggestion,
  suggestAll,
  suggestFor,
  uniqueAutoMatches,
} from "../matching.js";
import { bankMovements, type MovementState, type ReconciliationTarget } from "../tables.js";
import type { MovementRow, ReconciliationRow } from "./repository.js";
import * as repo from "./repository.js";
import { MOVEMENT_ACTIONS, type MovementAction } from "./transitions.js";

export type { MovementRow, ReconciliationRow } from "./repository.js";

export type DueDirection = "sale" | "purchase";
export type OpenDueView = OpenDue & { direction: DueDirection };

export interface SuggestionView extends Suggestion {
  due: OpenDueView;
}

export interface MovementView {
  row: MovementRow;
  suggestions: SuggestionView[];
  reconciliation: ReconciliationRow | null;
}

export interface MovementListFilters {
  companyId?: string;
  status?: MovementState;
  bankAccountId?: string;
  dateFrom?: string;
  dateTo?: string;
  minAmount?: string;
  maxAmount?: string;
  search?: string;
  limit: number;
  offset: number;
  /** Keyset cursor: the id of the last movement of the previous page. */
  after?: string;
}

/** Texts worth matching: concepts, then the document and references unless they are only zeros. */
export function movementTexts(m: Pick<MovementRow, "concepts" | "document" | "reference1" | "reference2">) {
  return [...m.concepts, m.document, m.reference1, m.reference2].filter((t) => t && !/^0*$/.test(t));
}

const toMatchMovement = (m: MovementRow): MatchMovement => ({
  id: m.id,
  amount: m.amount,
  operationDate: m.operationDate,
  valueDate: m.valueDate,
  texts: movementTexts(m),
});

const toMatchDue = (d: OpenDueView): MatchDue => ({
  id: d.id,
  direction: d.direction,
  documentCode: d.documentCode,
  code: d.code,
  supplierNumber: d.supplierNumber,
  dueDate: d.dueDate,
  openAmount: d.openAmount,
  contactName: d.contactName,
  contactTaxId: d.contactTaxId,
});

/** The open receipts and supplier payments of a company (all, or the ones listed), by id. */
async function openDuesOf(ctx: AuthedCtx, companyId: string, dueIds?: string[]) {
  const byId = new Map<string, OpenDueView>();
  if (dueIds && dueIds.length === 0) return byId;
  for (const direction of ["sale", "purchase"] as const) {
    for (const due of await listOpenDues(ctx, { companyId, direction, dueIds }))
      byId.set(due.id, { ...due, direction });
  }
  return byId;
}

/**
 * Runs the matcher over these movements of one company against all its open dues (two queries),
 * keeps the suggestions and sets each movement sugerido or pendiente. Runs in the caller's
 * transaction when there is one. The suggestions returned carry scores, not reasons (nothing here
 * shows them; a movement's view rescores its kept candidates with their reasons).
 */
export async function refreshSuggestions(ctx: AuthedCtx, companyId: string, movements: MovementRow[]) {
  const open = await listOpenDuesForMatching(ctx, companyId);
  const dues = new Map(open.map((d) => [d.id, d]));
  const suggestions = suggestAll(movements.map(toMatchMovement), open, { reasons: false });
  const rows = [...suggestions].flatMap(([movementId, list]) =>
    list.map((s) => ({ movementId, dueId: s.dueId, target: s.target, score: s.score })),
  );
  await repo.replaceSuggestions(ctx.db, movements, rows);
  return { suggestions, dues };
}

/**
 * The matcher's suggestions for movements not saved yet (an import): nothing is written, the
 * caller saves each movement sugerido or pendiente with its suggestions.
 */
export async function suggestionsForNew(ctx: AuthedCtx, companyId: string, movements: MovementRow[]) {
  const suggestions = suggestAll(
    movements.map(toMatchMovement),
    await listOpenDuesForMatching(ctx, companyId),
    { reasons: false },
  );
  return [...suggestions].flatMap(([movementId, list]) =>
    list.map((s) => ({ movementId, dueId: s.dueId, target: s.target, score: s.score })),
  );
}

/** Each movement with its live suggestions (kept candidates rescored against what is open now). */
async function viewsOf(ctx: AuthedCtx, rows: MovementRow[]): Promise<MovementView[]> {
  const ids = rows.map((r) => r.id);
  const [kept, reconciliations] = await allQueries(ctx.db, [
    () => repo.suggestionsOf(ctx.db, ids),
    () => repo.liveReconciliationsOf(ctx.db, ids),
  ]);
  const companyOf = new Map(rows.map((r) => [r.id, r.companyId]));
  const duesByCompany = new Map<string, Set<string>>();
  for (const s of kept) {
    const company = companyOf.get(s.movementId)!;
    const set = duesByCompany.get(company) ?? new Set<string>();
    set.add(s.dueId);
    duesByCompany.set(company, set);
  }
  const dues = new Map<string, OpenDueView>();
  for (const [companyId, set] of duesByCompany)
    for (const [id, due] of await openDuesOf(ctx, companyId, [...set])) dues.set(id, due);
  const keptByMovement = new Map<string, OpenDueView[]>();
  for (const s of kept) {
    const due = dues.get(s.dueId);
    if (!due) continue;
    const list = keptByMovement.get(s.movementId) ?? [];
    list.push(due);
    keptByMovement.set(s.movementId, list);
  }
  const reconciliationOf = new Map(reconciliations.map((r) => [r.movementId, r]));
  return rows.map((row) => {
    const candidates = keptByMovement.get(row.id);
    const open = row.estado === "pendiente" || row.estado === "sugerido";
    const suggestions =
      open && candidates
        ? suggestFor(toMatchMovement(row), indexDues(candidates.map(toMatchDue))).map((s) => ({
            ...s,
            due: dues.get(s.dueId)!,
          }))
        : [];
    return { row, suggestions, reconciliation: reconciliationOf.get(row.id) ?? null };
  });
}

export async function listMovements(ctx: AuthedCtx, f: MovementListFilters) {
  const page = await repo.listMovements(ctx.db, {
    scope: companyFilter(ctx.actor, bankMovements.companyId, f.companyId),
    estado: f.status,
    bankAccountId: f.bankAccountId,
    dateFrom: f.dateFrom,
    dateTo: f.dateTo,
    minAmount: f.minAmount,
    maxAmount: f.maxAmount,
    search: f.search,
    limit: f.limit,
    offset: f.offset,
    after: f.after,
  });
  if (!page) throw unknownCursorError("bank movement");
  return {
    rows: await viewsOf(ctx, page.rows),
    total: page.total,
    totalIsEstimate: page.totalIsEstimate ?? false,
  };
}

async function visibleMovement(ctx: AuthedCtx, id: string, lock = false): Promise<MovementRow> {
  return assertCompanyVisible(ctx.actor, await repo.findMovement(ctx.db, id, lock), "Bank movement");
}

export async function getMovement(ctx: AuthedCtx, id: string): Promise<MovementView> {
  const [view] = await viewsOf(ctx, [await visibleMovement(ctx, id)]);
  return view!;
}

function assertAction(row: MovementRow, action: MovementAction) {
  const rule = MOVEMENT_ACTIONS[action];
  if (!rule.from.includes(row.estado))
    throw new ConflictError(
      `A movement in state ${row.estado} cannot be ${action === "reconcile" ? "reconciled" : action === "ignore" ? "ignored" : "unreconciled"}: only ${rule.from.join(" or ")} ones can`,
      { state: row.estado, allowed_from: rule.from },
    );
}

export async function ignoreMovement(ctx: AuthedCtx, id: string): Promise<MovementView> {
  await inCtxTransaction(ctx, async (tx) => {
    const row = await visibleMovement(tx, id, true);
    assertAction(row, "ignore");
    await repo.setMovementState(tx.db, id, "ignorado");
  });
  return getMovement(ctx, id);
}

export interface ReconcileInput {
  target: ReconciliationTarget;
  id: string;
  /** Bank fees on a receipt or payment (Dr 626); the movement is the net. */
  fees?: string;
}

/**
 * Pays a due from a movement: the amount allocated is what the movement moved plus the fees for a
 * receipt (the bank kept them) and minus them for a supplier payment (the bank charged them on
 * top), so the payment's 572 line equals the movement. In the caller's transaction.
 */
async function reconcileWithDue(
  tx: AuthedCtx,
  movement: MovementRow,
  due: { id: string; direction: DueDirection },
  fees: string,
  origin: "manual" | "auto",
) {
  const moved = dec(movement.amount);
  const amount = due.direction === "sale" ? moved.plus(fees) : moved.negated().minus(fees);
  const { paymentId, entryId } = await payDue(tx, {
    dueId: due.id,
    date: movement.operationDate,
    amount: toMoney(amount),
    bankAccountId: movement.bankAccountId,
    fees,
    bankMovementId: movement.id,
  });
  await repo.insertReconciliation(tx.db, {
    companyId: movement.companyId,
    movementId: movement.id,
    target: due.direction === "sale" ? "receipt" : "payment",
    dueId: due.id,
    paymentId,
    entryId,
    amount: toMoney(amount),
    fees,
    origin,
    createdBy: tx.actor.userId,
  });
  await repo.setMovementState(tx.db, movement.id, "conciliado");
  return { paymentId, entryId };
}

/** Ties a movement to an existing entry whose lines on the bank's subaccount move the same amount. */
async function reconcileWithEntry(tx: AuthedCtx, movement: MovementRow, entryId: string) {
  const entry = await getEntry(tx, entryId);
  if (entry.companyId !== movement.companyId) throw new NotFoundError("Entry");
  const bank = await getBankAccount(tx, movement.bankAccountId);
  const lines = entry.lines.filter((l) => l.subaccountCode === bank.subaccountCode);
  const net = lines.reduce((acc, l) => acc.plus(l.debit ?? 0).minus(l.credit ?? 0), dec(0));
  if (!lines.length)
    throw new ConflictError(
      `Entry ${entry.number} has no line on ${bank.subaccountCode} (${bank.name}): reconcile with an entry that moves the bank's subaccount`,
    );
  if (!net.eq(movement.amount))
    throw new ConflictError(
      `Entry ${entry.number} moves ${toMoney(net)} on ${bank.subaccountCode}, the movement ${toMoney(movement.amount)}: they must be equal`,
    );
  try {
    await inCtxTransaction(tx, (sp) =>
      repo.insertReconciliation(sp.db, {
        companyId: movement.companyId,
        movementId: movement.id,
        target: "entry",
        entryId: entry.id,
        amount: toMoney(net),
        fees: "0.00",
        origin: "manual",
        createdBy: tx.actor.userId,
      }),
    );
  } catch (err) {
    if (violatedConstraint(err) === "bank_reconciliations_live_entry_key")
      throw new ConflictError(`Entry ${entry.number} already reconciles another bank movement`);
    throw err;
  }
  await repo.setMovementState(tx.db, movement.id, "conciliado");
}

export async function reconcileMovement(
  ctx: AuthedCtx,
  id: string,
  input: ReconcileInput,
): Promise<MovementView> {
  const fees = toMoney(input.fees ?? "0");
  if (dec(fees).isNegative())
    throw new BadRequestError("fees must not be negative", [
      { path: "fees", message: "must not be negative" },
    ]);
  await inCtxTransaction(ctx, async (tx) => {
    const movement = await visibleMovement(tx, id, true);
    assertAction(movement, "reconcile");
    if (input.target === "entry") {
      if (!dec(fees).isZero())
        throw new BadRequestError("fees apply to receipts and payments only", [
          { path: "fees", message: "must be 0 when the target is an entry" },
        ]);
      await reconcileWithEntry(tx, movement, input.id);
      return;
    }
    const direction: DueDirection = input.target === "receipt" ? "sale" : "purchase";
    const due = (await listOpenDues(tx, { companyId: movement.companyId, direction, dueIds: [input.id] }))[0];
    if (!due)
      throw new NotFoundError(
        input.target === "receipt"
          ? "Open customer receipt of this company"
          : "Open supplier payment of this company",
      );
    await reconcileWithDue(tx, movement, { id: due.id, direction }, fees, "manual");
  });
  return getMovement(ctx, id);
}

/**
 * Undoes a reconciliation: a payment it recorded is undone by treasury (its entry reversed), a
 * linked entry is simply let go; the movement is open again. An ignored movement is taken back.
 */
export async function unreconcileMovement(ctx: AuthedCtx, id: string): Promise<MovementView> {
  await inCtxTransaction(ctx, async (tx) => {
    const movement = await visibleMovement(tx, id, true);
    assertAction(movement, "unreconcile");
    const [live] = await repo.liveReconciliationsOf(tx.db, [movement.id]);
    if (live) {
      if (live.paymentId) await undoPayment(tx, live.paymentId, { bankMovementId: movement.id });
      await repo.markReconciliationUndone(tx.db, live.id, tx.actor.userId);
    }
    await repo.setMovementState(
      tx.db,
      movement.id,
      (await repo.hasSuggestions(tx.db, movement.id)) ? "sugerido" : "pendiente",
    );
  });
  return getMovement(ctx, id);
}

export interface AutoMatchInput {
  companyId?: string;
  bankAccountId?: string;
}

export interface AutoMatchResult {
  companyId: string;
  examined: number;
  suggested: number;
  applied: Array<{
    movementId: string;
    target: "receipt" | "payment";
    dueId: string;
    documentCode: string;
    score: number;
    paymentId: string;
    entryId: string;
  }>;
  /** Movements with an 85+ candidate left to a person: two 85+ candidates, or a due two movements claim. */
  ambiguous: number;
  failed: Array<{ movementId: string; dueId: string; reason: string }>;
}

/**
 * Picks applied per step: each step pays its picks (payDues), records their reconciliations and
 * sets their movements conciliado before the next one builds anything, so the memory held at a
 * time is one step's payments and entries, not all of them (garbage collection over 100,000 of
 * each cost more than the work itself). All steps run in the one transaction of the auto-match.
 */
export const AUTO_MATCH_STEP = 10_000;

/**
 * Matches every open movement of a company (or of one bank account) against its open dues, keeps
 * the suggestions, and reconciles the movements whose only 85+ candidate is a due no other
 * movement claims. The payments go to treasury in steps of AUTO_MATCH_STEP (payDues, which locks
 * each step's dues in id order as it reads them); one treasury refuses (a due paid meanwhile, an amount over what is open, a
 * closed year) is reported and the rest go on. One transaction: it applies everything or nothing.
 * `opts.step` changes the step size (tests walk several steps with a few movements).
 */
export async function autoMatch(
  ctx: AuthedCtx,
  input: AutoMatchInput,
  opts: { step?: number } = {},
): Promise<AutoMatchResult> {
  const step = opts.step ?? AUTO_MATCH_STEP;
  let companyId: string;
  if (input.bankAccountId) {
    const bank = await getBankAccount(ctx, input.bankAccountId);
    if (input.companyId && input.companyId !== bank.companyId)
      throw new BadRequestError("The bank account belongs to another company", [
        { path: "bank_account_id", message: "must be a bank account of company_id" },
      ]);
    companyId = bank.companyId;
  } else {
    companyId = await resolveCompanyForWrite(ctx, input.companyId);
  }
  return inCtxTransaction(ctx, async (tx) => {
    const movements = await repo.openMovements(tx.db, companyId, input.bankAccountId);
    const { suggestions, dues } = await refreshSuggestions(tx, companyId, movements);
    const picks = uniqueAutoMatches(suggestions);
    const highCandidates = [...suggestions.values()].filter((l) => l.some((s) => s.score >= 85)).length;
    const result: AutoMatchResult = {
      companyId,
      examined: movements.length,
      suggested: suggestions.size,
      applied: [],
      ambiguous: highCandidates - picks.length,
      failed: [],
    };
    suggestions.clear();
    const byId = new Map(movements.map((m) => [m.id, m]));
    movements.length = 0;
    for (let from = 0; from < picks.length; from += step)
      await applyPicks(tx, picks.slice(from, from + step), byId, dues, result);
    return result;
  });
}

/**
 * One step of autoMatch: pays these picks as one treasury batch (a pick it refuses leaves no trace
 * and is reported in `failed`), records the reconciliations of the others and sets their movements
 * conciliado, adding them to `result.applied`.
 */
async function applyPicks(
  tx: AuthedCtx,
  picks: ReturnType<typeof uniqueAutoMatches>,
  movements: Map<string, MovementRow>,
  dues: Map<string, { id: string; direction: DueDirection; documentCode: string }>,
  result: AutoMatchResult,
) {
  const planned = picks.map(({ movementId, suggestion }) => {
    const movement = movements.get(movementId)!;
    const due = dues.get(suggestion.dueId)!;
    const amount = toMoney(due.direction === "sale" ? dec(movement.amount) : dec(movement.amount).negated());
    return { movement, due, suggestion, amount };
  });
  const outcomes = await payDues(
    tx,
    planned.map(({ movement, due, amount }) => ({
      dueId: due.id,
      date: movement.operationDate,
      amount,
      bankAccountId: movement.bankAccountId,
      fees: "0.00",
      bankMovementId: movement.id,
    })),
  );
  const reconciliations: repo.ReconciliationInsert[] = [];
  planned.forEach(({ movement, due, suggestion, amount }, n) => {
    const outcome = outcomes[n]!;
    if ("error" in outcome) {
      result.failed.push({ movementId: movement.id, dueId: due.id, reason: outcome.error.message });
      return;
    }
    reconciliations.push({
      companyId: movement.companyId,
      movementId: movement.id,
      target: suggestion.target,
      dueId: due.id,
      paymentId: outcome.paymentId,
      entryId: outcome.entryId,
      amount,
      fees: "0.00",
      origin: "auto",
      createdBy: tx.actor.userId,
    });
    result.applied.push({
      movementId: movement.id,
      target: suggestion.target,
      dueId: due.id,
      documentCode: due.documentCode,
      score: suggestion.score,
      paymentId: outcome.paymentId,
      entryId: outcome.entryId,
    });
  });
  await repo.insertReconciliations(tx.db, reconciliations);
  await repo.setMovementsState(
    tx.db,
    reconciliations.map((r) => r.movementId),
    "conciliado",
  );
}
