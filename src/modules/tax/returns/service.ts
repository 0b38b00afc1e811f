import { and, eq } from "drizzle-orm";
import { assertCompanyVisible, companyFilter } from "../../../platform/auth/company-scope.js";
import type { Db } from "../../../platform/db/client.js";
import { allQueries, violatedConstraint } from "../../../platform/db/sql.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import {
  BadRequestError,
  ConflictError,
  type FieldError,
  ForbiddenError,
} from "../../../platform/http/errors.js";
import { Dec, dec, sum, toMoney } from "../../../platform/money.js";
import {
  DEFAULT_JOURNAL,
  postSourceEntry,
  subaccountCode,
  subaccountLengthOf,
} from "../../accounting/index.js";
import { getCompany, resolveCompanyForWrite } from "../../companies/index.js";
import {
  type DeclarationKind,
  type DeclarationType,
  type MappedModel,
  type TaxModel,
  taxReturns,
} from "../tables.js";
import { dr111File, dr115File, dr303File, dr349File, type Record349 } from "./aeat-files.js";
import { boxSums, invoicesOfBox } from "./books-query.js";
import { type Boxes, compute111, compute115, compute303, defaultDeclarationType } from "./compute.js";
import { type Issue390, sourceOf390 } from "./compute-390.js";
import { MANUAL_BOXES } from "./layout.js";
import { compute349 } from "./modelo349.js";
import { compute390FromBooks, file390 } from "./modelo390.js";
import { type Period, periodOf, previousPeriod } from "./periods.js";
import * as repo from "./repository.js";
import { assertMove } from "./transitions.js";

export type ReturnRow = repo.ReturnRow;

/** Reopening a locked period: an admin's (reopen, or a correcting 303 whose draft reopens it). */
export const REOPEN_PERMISSION = "admin:editar";

/** The box holding the result to pay (positive) or to compensate / refund (negative). */
const RESULT_BOX: Partial<Record<TaxModel, string>> = { "303": "71", "111": "30", "115": "05" };

export function resultOf(row: { model: TaxModel; boxes: Boxes }): string | null {
  const box = RESULT_BOX[row.model];
  return box ? (row.boxes[box] ?? "0.00") : null;
}

interface Computed {
  boxes: Boxes;
  /** 349: its records; 390: what it cannot place (Issue390). */
  records: Record349[] | Issue390[];
}

/** The boxes of a return from the books (one set-based query per box group) and its manual boxes. */
async function computeReturn(
  db: Db,
  companyId: string,
  model: TaxModel,
  p: Period,
  manual: Boxes,
  previous: repo.ReturnRow | undefined,
): Promise<Computed> {
  switch (model) {
    case "303": {
      const withCarry = { ...manual };
      if (withCarry["110"] === undefined) withCarry["110"] = await carriedCompensation(db, companyId, p);
      if (withCarry["70"] === undefined && previous) withCarry["70"] = paidBy(previous, "71");
      const rows = await boxSums(db, companyId, "303", p.dateFrom, p.dateTo);
      return { boxes: compute303(rows, withCarry, p).boxes, records: [] };
    }
    case "111": {
      const m = { ...manual };
      if (m["29"] === undefined && previous) m["29"] = paidBy(previous, "30");
      return { boxes: compute111(await boxSums(db, companyId, "111", p.dateFrom, p.dateTo), m), records: [] };
    }
    case "115": {
      const m = { ...manual };
      if (m["04"] === undefined && previous) m["04"] = paidBy(previous, "05");
      return { boxes: compute115(await boxSums(db, companyId, "115", p.dateFrom, p.dateTo), m), records: [] };
    }
    case "349": {
      const records = await compute349(db, companyId, p);
      const ops = records.filter((r) => r.kind === "operator");
      const rects = records.filter((r) => r.kind === "rectification");
      return {
        boxes: {
          operators: String(ops.length),
          total: toMoney(sum(ops.map((r) => dec(r.base)))),
          rectifications: String(rects.length),
          rectified_total: toMoney(sum(rects.map((r) => dec(r.newBase)))),
        },
        records,
      };
    }
    case "390": {
      const quarters = await returns303OfYear(db, companyId, p.year);
      return compute390FromBooks(db, companyId, p, manual, quarters);
    }
  }
}

/** What a previous return of the period paid (its result when positive): 303 box 70, 111 box 29... */
function paidBy(previous: repo.ReturnRow, box: string): string {
  const result = dec(previous.boxes[box] ?? "0");
  return toMoney(result.isPositive() ? result : new Dec(0));
}

/** What a 303 leaves to compensate in the next one: its pending 87 plus its result when that is C. */
function leftToCompensate(prev: { boxes: Boxes; declarationType: string | null }): string {
  const pending = dec(prev.boxes["87"] ?? "0");
  const result = dec(prev.boxes["71"] ?? "0");
  const type = prev.declarationType ?? defaultDeclarationType(result);
  return toMoney(pending.plus(result.lt(0) && type === "C" ? result.abs() : 0));
}

/** Box 110 of a 303: what the previous period's return left to compensate. */
async function carriedCompensation(db: Db, companyId: string, p: Period): Promise<string> {
  const before = previousPeriod(p.year, p.period);
  const prev = await repo.findLatestReturn(db, companyId, "303", before.year, before.period);
  return prev ? leftToCompensate(prev) : "0.00";
}

/**
 * The year's 303s for the 390: the confirmed (or presented) return of each period where there is
 * one, else the period computed from the books with the compensation the period before left (so
 * the 390's 95 and 97 follow the chain of results). Quarterly, unless the company filed monthly.
 */
async function returns303OfYear(db: Db, companyId: string, year: number) {
  const confirmed = await repo.confirmed303sOfYear(db, companyId, year);
  const monthly = confirmed.some((r) => /^\d{2}$/.test(r.period));
  const periods = monthly
    ? Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, "0"))
    : ["1T", "2T", "3T", "4T"];
  const byPeriod = new Map(confirmed.map((r) => [r.period, r]));
  const out: Array<{ boxes: Boxes; declarationType: string | null; last: boolean }> = [];
  for (const period of periods) {
    const p = periodOf("303", year, period);
    const found = byPeriod.get(period);
    if (found) {
      out.push({ boxes: found.boxes, declarationType: found.declarationType, last: p.last });
      continue;
    }
    const before = out.at(-1);
    const carried = before ? leftToCompensate(before) : await carriedCompensation(db, companyId, p);
    const rows = await boxSums(db, companyId, "303", p.dateFrom, p.dateTo);
    const boxes = compute303(rows, { "110": carried }, p).boxes;
    out.push({ boxes, declarationType: defaultDeclarationType(dec(boxes["71"])), last: p.last });
  }
  return out;
}

export interface NewReturn {
  companyId?: string;
  model: TaxModel;
  year: number;
  period: string;
  declarationKind?: DeclarationKind;
  previousReturnId?: string;
  previousReceipt?: string;
}

/** Computes a draft return (an ordinary one per company, model and period; 409 if it exists). */
export async function createReturn(ctx: AuthedCtx, input: NewReturn) {
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  const p = periodOf(input.model, input.year, input.period);
  const kind = input.declarationKind ?? "ordinaria";
  let previous: repo.ReturnRow | undefined;
  if (kind !== "ordinaria") {
    if (!input.previousReturnId)
      throw new BadRequestError(`A ${kind} return refers to the return it corrects`, [
        { path: "previous_return_id", message: "is required for a complementaria or sustitutiva return" },
      ]);
    previous = await repo.findReturn(ctx.db, input.previousReturnId);
    if (!previous || previous.companyId !== companyId)
      throw new BadRequestError("The previous return was not found", [
        { path: "previous_return_id", message: "is not a return of this company" },
      ]);
    if (previous.model !== input.model || previous.year !== p.year || previous.period !== p.period)
      throw new BadRequestError("The previous return is of another model or period", [
        { path: "previous_return_id", message: `must be a ${input.model} of ${p.period} ${p.year}` },
      ]);
    if (previous.estado !== "presentada")
      throw new ConflictError("Only a presented return is corrected by a complementaria or sustitutiva one", {
        previous_return_id: previous.id,
        estado: previous.estado,
      });
    // A 303 correction in draft reopens the locked period, as reopening a confirmed return does.
    if (input.model === "303" && !ctx.actor.permissions.has(REOPEN_PERMISSION))
      throw new ForbiddenError(
        `Requires permission ${REOPEN_PERMISSION} to correct a presented 303: its draft reopens the period`,
      );
  } else if (input.previousReturnId) {
    throw new BadRequestError("An ordinary return refers to no previous return", [
      { path: "previous_return_id", message: "only with declaration_kind complementaria or sustitutiva" },
    ]);
  }
  const existing =
    kind === "ordinaria"
      ? await repo.findOrdinaryReturn(ctx.db, companyId, input.model, p.year, p.period)
      : undefined;
  if (existing)
    throw new ConflictError(
      `The ${input.model} of ${p.period} ${p.year} already exists (${existing.id}, ${existing.estado}): recompute it`,
      { tax_return_id: existing.id },
    );
  const computed = await computeReturn(ctx.db, companyId, input.model, p, {}, previous);
  try {
    const row = await repo.insertReturn(ctx.db, {
      companyId,
      model: input.model,
      year: p.year,
      period: p.period,
      dateFrom: p.dateFrom,
      dateTo: p.dateTo,
      declarationKind: kind,
      previousReturnId: previous?.id ?? null,
      previousReceipt: input.previousReceipt ?? previous?.receipt ?? null,
      boxes: computed.boxes,
      records: computed.records,
      computedAt: new Date(),
      createdBy: ctx.actor.userId,
    });
    if (previous)
      await repo.insertEvent(ctx.db, {
        companyId,
        returnId: previous.id,
        action: "correct",
        reason: `${kind} ${row.id}`,
        userId: ctx.actor.userId,
      });
    return row;
  } catch (err) {
    if (violatedConstraint(err) === "tax_returns_period_key")
      throw new ConflictError(`The ${input.model} of ${p.period} ${p.year} already exists`);
    throw err;
  }
}

export async function getReturn(ctx: AuthedCtx, id: string, opts: { lock?: boolean } = {}) {
  return assertCompanyVisible(ctx.actor, await repo.findReturn(ctx.db, id, opts), "Tax return");
}

export interface ReturnListFilters {
  companyId?: string;
  model?: TaxModel;
  year?: number;
  limit: number;
  offset: number;
}

export function listReturns(ctx: AuthedCtx, f: ReturnListFilters) {
  return repo.listReturns(
    ctx.db,
    and(
      companyFilter(ctx.actor, taxReturns.companyId, f.companyId),
      f.model ? eq(taxReturns.model, f.model) : undefined,
      f.year ? eq(taxReturns.year, f.year) : undefined,
    ),
    f,
  );
}

/** The return of a period (the latest, rectifying ones first), or a draft computed on the fly. */
export async function findReturnOfPeriod(
  ctx: AuthedCtx,
  input: { companyId?: string; model: TaxModel; year: number; period: string },
) {
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  const p = periodOf(input.model, input.year, input.period);
  const stored = await repo.findLatestReturn(ctx.db, companyId, input.model, p.year, p.period);
  if (stored) return { stored: true as const, row: stored };
  const computed = await computeReturn(ctx.db, companyId, input.model, p, {}, undefined);
  return {
    stored: false as const,
    row: {
      companyId,
      model: input.model,
      year: p.year,
      period: p.period,
      dateFrom: p.dateFrom,
      dateTo: p.dateTo,
      estado: "borrador" as const,
      boxes: computed.boxes,
      records: computed.records as unknown[],
      declarationType: null,
    },
  };
}

export interface ReturnChanges {
  manualBoxes?: Record<string, string | null>;
  declarationType?: DeclarationType | null;
  iban?: string | null;
  previousReceipt?: string | null;
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;

/** The declaration types a result allows (tax-returns.md §1 "Declaration type"). */
function assertDeclarationType(
  model: TaxModel,
  result: Dec,
  type: DeclarationType,
  last: boolean,
  iban: string | null,
) {
  const fail = (message: string): never => {
    throw new BadRequestError(`Declaration type ${type}: ${message}`, [
      { path: "declaration_type", message },
    ]);
  };
  if (model === "349" || model === "390") fail(`a ${model} has no declaration type`);
  if (result.isZero() && type !== "N") fail("a zero result is declared N");
  // lt/gt, not isNegative/isPositive: decimal.js counts zero as positive.
  if (result.gt(0) && !["I", "U", "G"].includes(type)) fail("a result to pay is I, U (direct debit) or G");
  if (result.lt(0)) {
    if (model !== "303") fail("a withholding return cannot be negative");
    if (!["C", "D", "X", "V"].includes(type))
      fail("a negative result is C (compensate), or D, X or V (refund)");
    if (type !== "C" && !last) fail("a refund is only possible in the last period (4T or 12); use C");
  }
  if ((type === "U" || type === "D" || type === "X") && !iban) fail("needs the iban to charge or refund");
}

/** Edits a draft: manual boxes (null clears one), declaration type, IBAN; then recomputes it. */
export async function updateReturn(ctx: AuthedCtx, id: string, changes: ReturnChanges) {
  return inCtxTransaction(ctx, async (tx) => {
    const row = await getReturn(tx, id, { lock: true });
    assertMove("edit", row.estado);
    const manual = { ...row.manualBoxes };
    const errors: FieldError[] = [];
    for (const [box, value] of Object.entries(changes.manualBoxes ?? {})) {
      if (!MANUAL_BOXES[row.model].includes(box)) {
        errors.push({
          path: `manual_boxes.${box}`,
          message: MANUAL_BOXES[row.model].length
            ? `is not a box the accountant fills in a ${row.model} (${MANUAL_BOXES[row.model].join(", ")})`
            : `a ${row.model} has no manual boxes`,
        });
        continue;
      }
      if (value === null) delete manual[box];
      else if (dec(value).isNegative() && box !== "108" && box !== "109" && box !== "112")
        errors.push({ path: `manual_boxes.${box}`, message: "cannot be negative" });
      else if (box === "65" && dec(value).gt(100))
        errors.push({ path: "manual_boxes.65", message: "is a percentage up to 100" });
      else manual[box] = toMoney(dec(value));
    }
    let iban = row.iban;
    if (changes.iban !== undefined) {
      iban = changes.iban ? changes.iban.replace(/\s+/g, "").toUpperCase() : null;
      if (iban && !IBAN.test(iban)) errors.push({ path: "iban", message: "is not an IBAN" });
    }
    if (errors.length) throw new BadRequestError("Some fields are not valid", errors);
    const p = periodOf(row.model, row.year, row.period);
    const previous = row.previousReturnId ? await repo.findReturn(tx.db, row.previousReturnId) : undefined;
    const computed = await computeReturn(tx.db, row.companyId, row.model, p, manual, previous);
    const declarationType =
      changes.declarationType !== undefined ? changes.declarationType : row.declarationType;
    const result = resultOf({ model: row.model, boxes: computed.boxes });
    if (declarationType && result !== null)
      assertDeclarationType(row.model, dec(result), declarationType, p.last, iban);
    await repo.updateReturn(tx.db, row.id, {
      manualBoxes: manual,
      boxes: computed.boxes,
      records: computed.records,
      declarationType,
      iban,
      previousReceipt: changes.previousReceipt !== undefined ? changes.previousReceipt : row.previousReceipt,
      computedAt: new Date(),
    });
    return getReturn(tx, row.id);
  });
}

/** Recomputes a draft from the books as they are now (its manual boxes kept). */
export function recomputeReturn(ctx: AuthedCtx, id: string) {
  return updateReturn(ctx, id, {});
}

/** The declaration type a return will be filed with: the chosen one, or what its result implies. */
export function declarationTypeOf(row: { model: TaxModel; boxes: Boxes; declarationType: string | null }) {
  if (row.declarationType) return row.declarationType;
  const result = resultOf(row);
  return result === null ? null : defaultDeclarationType(dec(result));
}

/** Confirms a draft (recomputed first): its boxes are frozen and, for a 303, its period is locked. */
export async function confirmReturn(ctx: AuthedCtx, id: string) {
  await recomputeReturn(ctx, id);
  return inCtxTransaction(ctx, async (tx) => {
    const row = await getReturn(tx, id, { lock: true });
    assertMove("confirm", row.estado);
    const p = periodOf(row.model, row.year, row.period);
    const type = declarationTypeOf(row) as DeclarationType | null;
    const result = resultOf(row);
    if (type && result !== null) assertDeclarationType(row.model, dec(result), type, p.last, row.iban);
    await repo.updateReturn(tx.db, row.id, {
      estado: "confirmada",
      declarationType: type,
      confirmedAt: new Date(),
      confirmedBy: ctx.actor.userId,
    });
    await repo.insertEvent(tx.db, {
      companyId: row.companyId,
      returnId: row.id,
      action: "confirm",
      userId: ctx.actor.userId,
    });
    return getReturn(tx, row.id);
  });
}

/** Marks a confirmed return as filed with the AEAT, with the receipt number when known. */
export async function presentReturn(ctx: AuthedCtx, id: string, receipt?: string) {
  return inCtxTransaction(ctx, async (tx) => {
    const row = await getReturn(tx, id, { lock: true });
    assertMove("present", row.estado);
    await repo.updateReturn(tx.db, row.id, {
      estado: "presentada",
      presentedAt: new Date(),
      receipt: receipt ?? null,
    });
    await repo.insertEvent(tx.db, {
      companyId: row.companyId,
      returnId: row.id,
      action: "present",
      reason: receipt ?? "",
      userId: ctx.actor.userId,
    });
    return getReturn(tx, row.id);
  });
}

/** Admin: takes a confirmed return back to draft, unlocking its period; audited with its reason. */
export async function reopenReturn(ctx: AuthedCtx, id: string, reason: string) {
  return inCtxTransaction(ctx, async (tx) => {
    const row = await getReturn(tx, id, { lock: true });
    assertMove("reopen", row.estado);
    await repo.updateReturn(tx.db, row.id, { estado: "borrador", confirmedAt: null, confirmedBy: null });
    await repo.insertEvent(tx.db, {
      companyId: row.companyId,
      returnId: row.id,
      action: "reopen",
      reason,
      userId: ctx.actor.userId,
    });
    return getReturn(tx, row.id);
  });
}

export function returnEvents(ctx: AuthedCtx, id: string) {
  return repo.eventsOf(ctx.db, id);
}

/** 4750 (to pay: I, G, U) or 4700 (to compensate or refund: C, D, V, X, N). */
const settlementAccount = (type: string) => (["I", "G", "U"].includes(type) ? "4750" : "4700");

/**
 * Posts the settlement entry of a confirmed 303 once, dated on the period's last day: every 477
 * and 472 subaccount's balance of the period reversed, the net to 4750 or 4700 by the declaration
 * type (tax-returns.md §1 "Settlement entry").
 */
export async function settleReturn(ctx: AuthedCtx, id: string) {
  return inCtxTransaction(ctx, async (tx) => {
    const row = await getReturn(tx, id, { lock: true });
    if (row.model !== "303")
      throw new ConflictError(`Only a 303 has a settlement entry; this return is a ${row.model}`, {
        model: row.model,
      });
    assertMove("settle", row.estado);
    if (row.entryId) throw new ConflictError("The return is already settled", { entry_id: row.entryId });
    // A correcting return settles only what the period's earlier settlements left on 477 and 472.
    const balances = await repo.vatBalances(tx.db, row.companyId, row.dateFrom, row.dateTo, ["477", "472"], {
      withSettlements: row.declarationKind !== "ordinaria",
    });
    if (!balances.length)
      throw new ConflictError(`Nothing to settle: 477 and 472 have no balance in ${row.period} ${row.year}`);
    const lines = balances.map((b) => {
      const balance = dec(b.balance);
      const amount = toMoney(balance.abs());
      return balance.isPositive()
        ? { subaccountCode: b.code, subaccountName: b.name, credit: amount }
        : { subaccountCode: b.code, subaccountName: b.name, debit: amount };
    });
    const net = sum(balances.map((b) => dec(b.balance))); // debit − credit of 477 + 472: negative = to pay
    const type = declarationTypeOf(row) ?? "N";
    const account = settlementAccount(type);
    const length = await subaccountLengthOf(tx, row.companyId);
    const name =
      account === "4750" ? "Hacienda Pública, acreedora por IVA" : "Hacienda Pública, deudora por IVA";
    if (!net.isZero())
      lines.push(
        net.isNegative()
          ? {
              subaccountCode: subaccountCode(account, "", length),
              subaccountName: name,
              credit: toMoney(net.abs()),
            }
          : {
              subaccountCode: subaccountCode(account, "", length),
              subaccountName: name,
              debit: toMoney(net),
            },
      );
    const entry = await postSourceEntry(tx, {
      companyId: row.companyId,
      date: row.dateTo,
      journal: DEFAULT_JOURNAL,
      concept: `Liquidación IVA modelo 303 ${row.period} ${row.year}`,
      source: { type: "tax_return", id: row.id },
      lines,
    });
    await repo.updateReturn(tx.db, row.id, { entryId: entry.id });
    await repo.insertEvent(tx.db, {
      companyId: row.companyId,
      returnId: row.id,
      action: "settle",
      userId: ctx.actor.userId,
    });
    return getReturn(tx, row.id);
  });
}

/** The AEAT upload file of a confirmed (or presented) return. */
export async function returnFile(ctx: AuthedCtx, id: string): Promise<{ filename: string; body: Buffer }> {
  const row = await getReturn(ctx, id);
  assertMove("file", row.estado);
  const company = await getCompany(ctx, row.companyId);
  const declarant = { taxId: company.taxId, name: company.legalName || company.name };
  const header = {
    year: row.year,
    period: row.period,
    declarationType: declarationTypeOf(row) ?? "N",
    rectifying: row.declarationKind !== "ordinaria",
    substitutive: row.declarationKind === "sustitutiva",
    previousReceipt: row.previousReceipt,
    iban: row.iban,
    lastPeriod: periodOf(row.model, row.year, row.period).last,
  };
  const filename = `${declarant.taxId}_${row.model}_${row.year}${row.period}.txt`;
  switch (row.model) {
    case "303":
      return { filename, body: dr303File(declarant, header, row.boxes) };
    case "111":
      return { filename, body: dr111File(declarant, header, row.boxes) };
    case "115":
      return { filename, body: dr115File(declarant, header, row.boxes) };
    case "349": {
      const numbers = await declarationNumbers349(ctx.db, row);
      return {
        filename,
        body: dr349File(
          declarant,
          {
            ...header,
            declarationNumber: numbers.get(row.id) as string,
            previousDeclarationNumber: row.previousReturnId ? numbers.get(row.previousReturnId) : null,
          },
          row.records as Record349[],
        ),
      };
    }
    case "390":
      return { filename, body: await file390(ctx, row, declarant) };
  }
}

/**
 * The 13-digit declaration numbers of a company's 349s of a period: 349, the year, the period's
 * last day (days since 1970, last 5 digits) and the return's place among the period's returns (0
 * the ordinary one, 1 its first correction...), so a complementaria or sustitutiva gets its own
 * number and names the one it corrects.
 */
async function declarationNumbers349(db: Db, row: repo.ReturnRow): Promise<Map<string, string>> {
  const day = String(Date.parse(`${row.dateTo}T00:00:00Z`) / 86_400_000)
    .slice(-5)
    .padStart(5, "0");
  const ofPeriod = await repo.returnsOfPeriod(db, row.companyId, "349", row.year, row.period);
  return new Map(ofPeriod.map((r, i) => [r.id, `349${row.year}${day}${i % 10}`]));
}

/**
 * The invoices behind one box of a return (traceability): a 303, 111 or 115 box; a 349 key (the
 * invoices of its operator and rectification records); a 390 box through the 303 boxes it adds up,
 * over the year.
 */
export async function invoicesBehindBox(ctx: AuthedCtx, id: string, box: string) {
  const row = await getReturn(ctx, id);
  const fail = (message: string): never => {
    throw new BadRequestError(`Box ${box} of a ${row.model} is not traced to invoices: ${message}`, [
      { path: "box", message },
    ]);
  };
  const isKey = /^[A-Z]$/.test(box);
  if (isKey !== (row.model === "349"))
    fail(isKey ? "only a 349 is traced by key" : "a 349 is traced by key (E, A, S, I...)");
  if (row.model !== "390")
    return invoicesOfBox(ctx.db, row.companyId, row.model as MappedModel, row.dateFrom, row.dateTo, box);
  const source = sourceOf390(box);
  if (!source)
    return fail("it is a total or comes from the returns (85, 86, 95, 97, 98): trace the boxes it adds");
  const { boxes: from, rate, services } = source;
  const lists = await allQueries(
    ctx.db,
    from.map(
      (b) => () =>
        invoicesOfBox(ctx.db, row.companyId, "303", row.dateFrom, row.dateTo, b, { rate, services }),
    ),
  );
  return lists.flat();
}

/** The period's movements on an account, credit positive for 477 and 4751, debit for 472. */
function ledgerTotal(balances: Array<{ code: string; balance: string }>, account: string): Dec {
  const rent = (code: string) => code.charAt(code.length - 5) === "2";
  const of = balances.filter((b) =>
    account === "4751R"
      ? b.code.startsWith("4751") && rent(b.code)
      : account === "4751"
        ? b.code.startsWith("4751") && !rent(b.code)
        : b.code.startsWith(account),
  );
  const total = sum(of.map((b) => dec(b.balance)));
  return account === "472" ? total : total.neg();
}

/**
 * Compares a 303 (or 111/115) with the ledger of its period: 477 (accrued VAT and RE), 472
 * (deductible VAT) and 4751 (IRPF withheld): per account, what the invoices say and what is posted,
 * and every entry or invoice that differs (a manual entry no invoice explains, an invoice not posted).
 */
export async function checkReturn(ctx: AuthedCtx, id: string) {
  const row = await getReturn(ctx, id);
  if (row.model === "349" || row.model === "390")
    throw new ConflictError(`A ${row.model} has no ledger account to check against`, { model: row.model });
  const differences = await repo.ledgerDifferences(ctx.db, row.companyId, row.dateFrom, row.dateTo);
  const accounts = row.model === "303" ? ["477", "472"] : row.model === "111" ? ["4751"] : ["4751R"];
  const relevant = differences.filter((d) => accounts.includes(d.account));
  const balances = await repo.vatBalances(ctx.db, row.companyId, row.dateFrom, row.dateTo, [
    "477",
    "472",
    "4751",
  ]);
  const boxesOf = (account: string) => {
    const b = (k: string) => dec(row.boxes[k] ?? "0");
    if (account === "477") return b("27");
    if (account === "472") return b("45");
    return row.model === "111" ? b("28") : b("03");
  };
  const totals = accounts.map((account) => {
    const boxes = boxesOf(account);
    const ledger = ledgerTotal(balances, account);
    return {
      account: account === "4751R" ? "4751" : account,
      boxes: toMoney(boxes),
      ledger: toMoney(ledger),
      difference: toMoney(ledger.minus(boxes)),
    };
  });
  return {
    totals,
    differences: relevant,
    balanced: totals.every((t) => dec(t.difference).isZero()) && !relevant.length,
  };
}
