import { canSeeCompany } from "../../../platform/auth/company-scope.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import {
  BadRequestError,
  ConflictError,
  type FieldError,
  NotFoundError,
} from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { dec } from "../../../platform/money.js";
import type { Direction, DocumentKind } from "../tables.js";
import * as repo from "./repository.js";
import {
  type DocumentScope,
  getDocument,
  insertDocumentInTransaction,
  recomputeConversionStates,
  storedLineInputs,
} from "./service.js";

/** What each kind may become: any later step, skipping steps allowed. */
const NEXT_KINDS: Record<DocumentKind, DocumentKind[]> = {
  estimate: ["order", "delivery_note", "invoice"],
  order: ["delivery_note", "invoice"],
  delivery_note: ["invoice"],
  invoice: [],
};

const CONVERTIBLE_STATES = new Set(["borrador", "abierto", "parcial"]);

export interface ConversionInput {
  direction: Direction;
  fromKind: DocumentKind;
  toKind: DocumentKind;
  sourceIds: string[];
  /** Quantities to take per source line; all that remains of every line when absent. */
  lines?: Array<{ lineId: string; quantity: string }>;
  date?: string;
  seriesCode?: string;
  /** Purchases into an invoice: the supplier's own invoice number. */
  supplierNumber?: string;
}

const NAMES: Record<DocumentKind, string> = {
  estimate: "estimate",
  order: "order",
  delivery_note: "delivery note",
  invoice: "invoice",
};

/**
 * Converts documents of one contact into a new later document (estimate -> order -> delivery note
 * -> invoice, steps may be skipped), whole or for given line quantities; several sources merge into
 * one. The sources' lines remember what was served and their state follows (parcial, convertido).
 * Taking more than what remains is a 409.
 */
export async function convertDocuments(ctx: AuthedCtx, input: ConversionInput) {
  if (!NEXT_KINDS[input.fromKind].includes(input.toKind))
    throw new BadRequestError(`A ${NAMES[input.fromKind]} cannot become a ${NAMES[input.toKind]}`);
  const target: DocumentScope = { direction: input.direction, kind: input.toKind };
  return inCtxTransaction(ctx, async (tx) => {
    const ids = [...new Set(input.sourceIds)];
    const sources = await repo.lockDocuments(tx.db, ids);
    const missing = ids.filter(
      (sid) =>
        !sources.some(
          (s) =>
            s.id === sid &&
            s.direction === input.direction &&
            s.kind === input.fromKind &&
            canSeeCompany(ctx.actor, s.companyId),
        ),
    );
    if (missing.length)
      throw new NotFoundError(
        `${NAMES[input.fromKind][0].toUpperCase()}${NAMES[input.fromKind].slice(1)} ${missing.join(", ")}`,
      );
    const first = sources[0];
    for (const s of sources) {
      if (!CONVERTIBLE_STATES.has(s.estado))
        throw new ConflictError(`${s.code ?? NAMES[s.kind]} is ${s.estado} and cannot be converted`, {
          estado: s.estado,
          allowed: [...CONVERTIBLE_STATES],
        });
      if (s.companyId !== first.companyId || s.contactId !== first.contactId || s.currency !== first.currency)
        throw new ConflictError("Only documents of the same company, contact and currency can be merged");
      if (s.discount1 !== first.discount1 || s.discount2 !== first.discount2)
        throw new ConflictError("Documents with different global discounts cannot be merged into one");
    }
    const sourceLines = await repo.linesOfDocuments(
      tx.db,
      sources.map((s) => s.id),
    );
    const remaining = (l: repo.LineRow) => dec(l.quantity).minus(l.servedQuantity);
    let taken: Array<{ line: repo.LineRow; quantity: string }>;
    if (input.lines) {
      const byId = new Map(sourceLines.map((l) => [l.id, l]));
      const errors: FieldError[] = [];
      const seen = new Set<string>();
      taken = [];
      input.lines.forEach((want, i) => {
        const line = byId.get(want.lineId);
        if (!line || seen.has(want.lineId)) {
          errors.push({
            path: `lines.${i}.line_id`,
            message: line ? "is listed twice" : "is not a line of the documents converted",
          });
          return;
        }
        seen.add(want.lineId);
        if (dec(want.quantity).gt(remaining(line)))
          throw new ConflictError(
            `Line ${line.lineNo} (${line.description}) has ${remaining(line).toFixed(4)} left to convert; ${want.quantity} asked`,
            { line_id: line.id, remaining: remaining(line).toFixed(4) },
          );
        taken.push({ line, quantity: dec(want.quantity).toFixed(4) });
      });
      if (errors.length) throw new BadRequestError("Some lines to convert are not valid", errors);
    } else {
      taken = sourceLines
        .filter((l) => remaining(l).gt(0))
        .map((line) => ({ line, quantity: remaining(line).toFixed(4) }));
    }
    if (!taken.length) throw new ConflictError("Nothing is left to convert in these documents");
    const inputs = await storedLineInputs(
      tx.db,
      taken.map((t) => t.line),
    );
    const created = await insertDocumentInTransaction(tx, target, {
      companyId: first.companyId,
      contactId: first.contactId,
      seriesCode: input.seriesCode,
      date: input.date,
      paymentTermId: first.paymentTermId,
      agentId: first.agentId,
      discount1: first.discount1,
      discount2: first.discount2,
      notes: sources.length === 1 ? first.notes : "",
      supplierNumber: input.supplierNumber,
      lines: inputs.map((l, i) => ({ ...l, id: undefined, quantity: taken[i].quantity })),
    });
    await repo.insertLinks(
      tx.db,
      taken.map((t, i) => ({
        id: uuidv7(),
        companyId: first.companyId,
        fromDocumentId: t.line.documentId,
        fromLineId: t.line.id,
        toDocumentId: created.id,
        toLineId: created.lines[i].id,
        quantity: t.quantity,
      })),
    );
    for (const t of taken) await repo.addServed(tx.db, t.line.id, t.quantity);
    await recomputeConversionStates(
      tx.db,
      sources.map((s) => s.id),
    );
    return getDocument(tx, target, created.id);
  });
}
