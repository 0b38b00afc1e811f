import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, type FieldError } from "../../../platform/http/errors.js";
import { dec } from "../../../platform/money.js";
import type { Direction } from "../tables.js";
import type { LineInput } from "./lines.js";
import * as repo from "./repository.js";
import {
  type DocumentScope,
  getDocument,
  insertDocumentInTransaction,
  loadDocument,
  storedLineInputs,
} from "./service.js";

export interface RectifyInput {
  /** I: by differences (the lines say what changes); S: by substitution (the invoice is replaced). */
  type: "I" | "S";
  reason: string;
  /** I only: quantities of the corrected invoice's lines to take back; every line whole when absent. */
  lines?: Array<{ lineId: string; quantity: string }>;
  seriesCode?: string;
  date?: string;
  supplierNumber?: string;
}

/**
 * Creates the rectifying invoice of a finalized invoice as a draft (series R, `corrects_invoice_id`),
 * issued (or approved) later like any invoice. By differences (I), its lines take back the corrected
 * quantities (negative lines referencing the corrected lines) and the user may add the right ones.
 * By substitution (S), it takes back every line and carries a copy of each to be corrected into the
 * substituting values. Either way its totals are the difference, so books, 303 and 347 add up.
 */
export async function rectifyInvoice(ctx: AuthedCtx, direction: Direction, id: string, input: RectifyInput) {
  const scope: DocumentScope = { direction, kind: "invoice" };
  return inCtxTransaction(ctx, async (tx) => {
    const invoice = await loadDocument(tx, scope, id, { lock: true });
    const finalized = direction === "sale" ? "emitida" : "aprobada";
    if (invoice.estado !== finalized)
      throw new ConflictError(`Only a ${finalized} invoice can be rectified; this one is ${invoice.estado}`, {
        estado: invoice.estado,
        allowed: [finalized],
      });
    if (invoice.correctsDocumentId)
      throw new ConflictError("A rectifying invoice is not rectified again: rectify the original invoice");
    if (input.type === "S" && input.lines)
      throw new BadRequestError("A rectification by substitution replaces the whole invoice: give no lines", [
        { path: "lines", message: "only for type I" },
      ]);
    const lines = await repo.linesOf(tx.db, invoice.id);
    const already = await repo.rectifiedQuantities(
      tx.db,
      lines.map((l) => l.id),
    );
    const left = (l: repo.LineRow) => dec(l.quantity).plus(dec(already.get(l.id))); // already is negative
    let take: Array<{ line: repo.LineRow; quantity: string }>;
    if (input.lines) {
      const byId = new Map(lines.map((l) => [l.id, l]));
      const errors: FieldError[] = [];
      take = [];
      input.lines.forEach((want, i) => {
        const line = byId.get(want.lineId);
        if (!line) {
          errors.push({ path: `lines.${i}.line_id`, message: "is not a line of the invoice" });
          return;
        }
        if (dec(want.quantity).gt(left(line).abs()))
          throw new ConflictError(
            `Line ${line.lineNo} (${line.description}) has ${left(line).toFixed(4)} left to rectify; ${want.quantity} asked`,
            { line_id: line.id, remaining: left(line).toFixed(4) },
          );
        take.push({ line, quantity: want.quantity });
      });
      if (errors.length) throw new BadRequestError("Some lines to rectify are not valid", errors);
    } else {
      take = lines
        .filter((l) => !left(l).isZero())
        .map((line) => ({ line, quantity: left(line).toFixed(4) }));
    }
    if (!take.length) throw new ConflictError(`Invoice ${invoice.code} is already fully rectified`);
    const inputs = await storedLineInputs(
      tx.db,
      take.map((t) => t.line),
    );
    const reversed: LineInput[] = inputs.map((l, i) => ({
      ...l,
      id: undefined,
      quantity: dec(take[i].quantity).neg().toFixed(4),
      correctsLineId: take[i].line.id,
    }));
    const substitutes: LineInput[] =
      input.type === "S"
        ? inputs.map((l, i) => ({ ...l, id: undefined, quantity: take[i].quantity, correctsLineId: null }))
        : [];
    const created = await insertDocumentInTransaction(
      tx,
      scope,
      {
        companyId: invoice.companyId,
        contactId: invoice.contactId,
        seriesCode: input.seriesCode,
        date: input.date,
        operationDate: invoice.operationDate,
        paymentTermId: invoice.paymentTermId,
        agentId: invoice.agentId,
        discount1: invoice.discount1,
        discount2: invoice.discount2,
        supplierNumber: input.supplierNumber,
        notes: input.reason,
        lines: [...reversed, ...substitutes],
      },
      { correctsDocumentId: invoice.id, rectificationType: input.type, rectificationReason: input.reason },
    );
    return getDocument(tx, scope, created.id);
  });
}
