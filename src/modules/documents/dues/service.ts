import { canSeeCompany, companyFilter } from "../../../platform/auth/company-scope.js";
import { today } from "../../../platform/dates.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { unknownCursorError } from "../../../platform/http/pagination.js";
import { uuidv7 } from "../../../platform/ids.js";
import { Dec, dec, toMoney } from "../../../platform/money.js";
import { type Direction, documentDues } from "../tables.js";
import * as repo from "./repository.js";

export type { AgingRow, DueForMatching, DueStatusFilter, DueView } from "./repository.js";

/**
 * The instalments of finalized invoices (customer receipts, supplier payments due) for treasury:
 * listed, changed while unpaid, split, added by hand, and their paid amounts kept in step with the
 * invoice's, always in the caller's transaction.
 */

const dueName = (direction: Direction) => (direction === "sale" ? "Customer receipt" : "Supplier payment");

export interface DueListFilters {
  companyId?: string;
  direction: Direction;
  status?: repo.DueStatusFilter;
  dateFrom?: string;
  dateTo?: string;
  contactId?: string;
  documentId?: string;
  ids?: string[];
  search?: string;
  limit: number;
  offset: number;
  /** Keyset cursor: the id of the last due of the previous page. */
  after?: string;
}

export async function listDues(ctx: AuthedCtx, f: DueListFilters) {
  const page = await repo.listDues(ctx.db, {
    ...f,
    scope: companyFilter(ctx.actor, documentDues.companyId, f.companyId),
    today: today(),
  });
  if (!page) throw unknownCursorError(dueName(f.direction).toLowerCase());
  return page;
}

/**
 * A due the caller may see, in the direction asked (404 otherwise); `lock` holds it (FOR UPDATE)
 * until the caller's transaction ends.
 */
export async function getDue(
  ctx: AuthedCtx,
  id: string,
  opts: { direction?: Direction; lock?: boolean } = {},
): Promise<repo.DueView> {
  const row = await repo.findDue(ctx.db, id, opts.lock);
  if (
    !row ||
    !canSeeCompany(ctx.actor, row.companyId) ||
    (opts.direction && row.direction !== opts.direction)
  )
    throw new NotFoundError(opts.direction ? dueName(opts.direction) : "Due");
  return row;
}

/**
 * Adds `delta` (a payment, or minus one when undone) to the paid amount of a due and of its
 * invoice, in the caller's transaction. The caller holds the due (getDue with lock) and has checked
 * that the due can take it.
 */
export async function addDuePayment(ctx: AuthedCtx, due: repo.DueView, delta: string): Promise<void> {
  await repo.addToPaid(ctx.db, due.id, due.documentId, toMoney(delta));
}

/** Every open due (receipts and supplier payments) of a company the caller sees, for bank matching. */
export async function openDuesForMatching(ctx: AuthedCtx, companyId: string) {
  if (!canSeeCompany(ctx.actor, companyId)) throw new NotFoundError("Company");
  return repo.openDuesForMatching(ctx.db, companyId);
}

/** Several dues the caller may see (the others left out), locked in id order when `lock`. */
export async function getDues(ctx: AuthedCtx, ids: string[], opts: { lock?: boolean } = {}) {
  return (await repo.findDues(ctx.db, ids, opts.lock)).filter((d) => canSeeCompany(ctx.actor, d.companyId));
}

/** addDuePayment for many payments at once (the caller holds the dues, see getDues). */
export async function addDuePayments(
  ctx: AuthedCtx,
  items: Array<{ due: repo.DueView; delta: string }>,
): Promise<void> {
  await repo.addToPaidMany(
    ctx.db,
    items.map(({ due, delta }) => ({ dueId: due.id, documentId: due.documentId, delta: toMoney(delta) })),
  );
}

function assertUnpaid(due: repo.DueView, action: string) {
  if (!dec(due.paidAmount).isZero())
    throw new ConflictError(
      `${due.code} already has ${due.paidAmount} paid: only an unpaid instalment can be ${action} (undo its payments first)`,
    );
}

/** Moves the due date of an instalment that is not fully paid. */
export async function changeDueDate(ctx: AuthedCtx, id: string, direction: Direction, dueDate: string) {
  return inCtxTransaction(ctx, async (tx) => {
    const due = await getDue(tx, id, { direction, lock: true });
    if (due.estado === "pagado")
      throw new ConflictError(`${due.code} is fully paid: its due date can no longer change`);
    await repo.updateDue(tx.db, id, { dueDate });
    return getDue(tx, id);
  });
}

/**
 * Splits an unpaid instalment into several (the first keeps its id and sequence, the others take
 * the next sequences of the invoice); the parts must add up to its amount, each on its side of zero.
 */
export async function splitDue(
  ctx: AuthedCtx,
  id: string,
  direction: Direction,
  parts: Array<{ dueDate: string; amount: string }>,
) {
  return inCtxTransaction(ctx, async (tx) => {
    const due = await getDue(tx, id, { direction, lock: true });
    assertUnpaid(due, "split");
    const sign = dec(due.amount).isNegative() ? -1 : 1;
    parts.forEach((p, i) => {
      if (dec(p.amount).times(sign).lte(0))
        throw new BadRequestError(
          `instalments.${i}.amount must be on the same side of zero as ${due.amount}`,
          [{ path: `instalments.${i}.amount`, message: `must be ${sign > 0 ? "positive" : "negative"}` }],
        );
    });
    const sum = parts.reduce((acc, p) => acc.plus(p.amount), new Dec(0));
    if (!sum.eq(due.amount))
      throw new BadRequestError(`The instalments add up to ${toMoney(sum)}, not the ${due.amount} due`, [
        { path: "instalments", message: `must add up to ${due.amount}` },
      ]);
    const invoice = await repo.invoiceForDues(tx.db, due.documentId);
    if (!invoice) throw new NotFoundError("Invoice");
    const [first, ...rest] = parts;
    await repo.updateDue(tx.db, id, { dueDate: first.dueDate, amount: toMoney(first.amount) });
    const rows = rest.map((p, i) => {
      const sequence = invoice.lastSequence + i + 1;
      return {
        id: uuidv7(),
        companyId: due.companyId,
        documentId: due.documentId,
        direction: due.direction,
        contactId: due.contactId,
        sequence,
        code: `${due.documentCode}/${sequence}`,
        dueDate: p.dueDate,
        amount: toMoney(p.amount),
      };
    });
    await repo.insertDues(tx.db, rows);
    return [id, ...rows.map((r) => r.id)];
  });
}

/**
 * Adds an instalment by hand to a finalized invoice of the caller's companies. Its amount comes
 * from what no instalment covers yet, else out of the invoice's last unpaid instalment that is
 * larger (which keeps the rest); otherwise 409, since the instalments always add up to the total.
 */
export async function addDue(
  ctx: AuthedCtx,
  input: { documentId: string; direction: Direction; dueDate: string; amount: string },
): Promise<string> {
  const name = input.direction === "sale" ? "Sales invoice" : "Purchase invoice";
  return inCtxTransaction(ctx, async (tx) => {
    const invoice = await repo.invoiceForDues(tx.db, input.documentId);
    if (
      !invoice ||
      !canSeeCompany(ctx.actor, invoice.companyId) ||
      invoice.direction !== input.direction ||
      invoice.kind !== "invoice"
    )
      throw new NotFoundError(name);
    const finalState = input.direction === "sale" ? "emitida" : "aprobada";
    if (invoice.estado !== finalState || !invoice.code)
      throw new ConflictError(
        `${name} ${invoice.code ?? invoice.id} is ${invoice.estado}: only a ${finalState} invoice has instalments`,
      );
    const amount = dec(input.amount);
    const sign = dec(invoice.total).isNegative() ? -1 : 1;
    if (amount.times(sign).lte(0))
      throw new BadRequestError(
        `amount must be ${sign > 0 ? "positive" : "negative"} like the invoice's total`,
        [{ path: "amount", message: `must be ${sign > 0 ? "positive" : "negative"}` }],
      );
    const uncovered = dec(invoice.total).minus(invoice.dueTotal);
    if (uncovered.times(sign).lt(amount.times(sign))) {
      const source = (await repo.unpaidDuesOf(tx.db, invoice.id)).find((d) =>
        dec(d.amount).times(sign).gt(amount.times(sign)),
      );
      if (!source)
        throw new ConflictError(
          `${invoice.code} has ${toMoney(uncovered)} not covered by instalments and no unpaid instalment larger than ${toMoney(amount)}: split an instalment instead`,
        );
      await repo.updateDue(tx.db, source.id, { amount: toMoney(dec(source.amount).minus(amount)) });
    }
    const sequence = invoice.lastSequence + 1;
    const id = uuidv7();
    await repo.insertDues(tx.db, [
      {
        id,
        companyId: invoice.companyId,
        documentId: invoice.id,
        direction: input.direction,
        contactId: invoice.contactId,
        sequence,
        code: `${invoice.code}/${sequence}`,
        dueDate: input.dueDate,
        amount: toMoney(amount),
      },
    ]);
    return id;
  });
}

/** Open amounts per direction and due date of one company (the cash flow's inflows and outflows). */
export function openDueSumsByDate(
  ctx: AuthedCtx,
  f: { companyId: string; from?: string; to?: string; before?: string },
) {
  if (!canSeeCompany(ctx.actor, f.companyId)) throw new NotFoundError("Company");
  return repo.openDueSumsByDate(ctx.db, f);
}

/** Open amounts per contact and direction in aging buckets at `asOf`. */
export function agingByContact(ctx: AuthedCtx, f: { companyId: string; asOf: string }) {
  if (!canSeeCompany(ctx.actor, f.companyId)) throw new NotFoundError("Company");
  return repo.agingByContact(ctx.db, f);
}
