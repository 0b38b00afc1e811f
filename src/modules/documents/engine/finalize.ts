import { today } from "../../../platform/dates.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { dec } from "../../../platform/money.js";
import {
  contactSubaccountCode,
  type PreparedSourceEntry,
  PURCHASES_JOURNAL,
  postPreparedSourceEntry,
  prepareSourceEntry,
  SALES_JOURNAL,
  subaccountLengthOf,
} from "../../accounting/index.js";
import type { ContactRow } from "../../clients/index.js";
import { getContact } from "../../clients/index.js";
import { instalments, type TermLine } from "../due-dates.js";
import { assertTransition } from "../transitions.js";
import { findPaymentTerm, findSeriesById, type SeriesRow, type SettingsRow, settingsOf } from "./config.js";
import { type FinalizedInvoice, runInvoiceFinalizedHooks } from "./hooks.js";
import { documentFigures, type ResolvedLine, resolveLines } from "./lines.js";
import { documentCode } from "./numbering.js";
import { buildPostingLines } from "./posting.js";
import * as repo from "./repository.js";
import { backwardsDate, type DocumentScope, getDocument, loadDocument, storedLineInputs } from "./service.js";

const SALES_INVOICE: DocumentScope = { direction: "sale", kind: "invoice" };
const PURCHASE_INVOICE: DocumentScope = { direction: "purchase", kind: "invoice" };

/** Simplified invoices (tickets, F2) are limited to 3,000 EUR including VAT (RD 1619/2012 art. 4). */
const SIMPLIFIED_LIMIT = "3000.00";

/** The document's lines resolved again (accounts, kinds) and its figures, for posting. */
async function invoiceFigures(ctx: AuthedCtx, doc: repo.DocumentHeader, settings: SettingsRow) {
  const stored = await repo.linesOf(ctx.db, doc.id);
  if (!stored.length)
    throw new BadRequestError("An invoice without lines cannot be issued", [
      { path: "lines", message: "needs at least one line" },
    ]);
  const rectifying = Boolean(doc.correctsDocumentId);
  const lines = await resolveLines(
    ctx,
    {
      companyId: doc.companyId,
      direction: doc.direction,
      rectifying,
      contactRegime: doc.contactTaxRegime,
      applyRe:
        doc.direction === "sale"
          ? doc.contactTaxRegime === "recargo_equivalencia"
          : settings.taxRegime === "recargo_equivalencia",
      defaultAccount:
        doc.direction === "sale"
          ? rectifying && settings.salesReturnsAccount
            ? settings.salesReturnsAccount
            : settings.salesAccount
          : settings.purchasesAccount,
    },
    await storedLineInputs(ctx.db, stored),
  );
  return { lines, figures: documentFigures(lines, doc) };
}

/**
 * An invoice's entry resolved (subaccounts, journal, year) but not numbered yet: finalizing does
 * this before it takes the invoice's number, so the series' counter is locked for few round trips.
 * Null when no amount moves: a rectification by substitution that only corrects the invoice's data
 * (the customer's tax id, a description) has nothing to post.
 */
async function prepareInvoiceEntry(
  ctx: AuthedCtx,
  doc: repo.DocumentHeader,
  contact: ContactRow,
  lines: ResolvedLine[],
  figures: ReturnType<typeof documentFigures>,
  settings: SettingsRow,
): Promise<PreparedSourceEntry | null> {
  const sale = doc.direction === "sale";
  const date = doc.operationDate ?? doc.issueDate;
  const contactSubaccount = await contactSubaccountCode(ctx, contact, sale ? "430" : "400", date);
  const groupKey = (l: ResolvedLine) => (l.supplied ? null : `${l.taxCode}|${l.vatRate}|${l.reRate}`);
  const entryLines = buildPostingLines({
    direction: doc.direction,
    contactSubaccount,
    lines: lines.map((l, i) => ({
      net: figures.postingNets[i].toString(),
      account: l.postingAccount,
      groupKey: groupKey(l),
    })),
    taxGroups: figures.groups.map((g) => ({
      key: `${g.taxCode}|${g.vatRate}|${g.reRate}`,
      vatRate: g.vatRate,
      reRate: g.reRate,
      base: g.base,
      vat: g.vat,
      re: g.re,
      selfAssessed: g.selfAssessed,
    })),
    irpfGroups: figures.irpfByCode.map((g) => ({ rate: g.rate, kind: g.kind, amount: g.amount })),
    supplied: figures.supplied,
    total: figures.total,
    vatIsCost: !sale && settings.taxRegime === "recargo_equivalencia",
    suppliedAccount: settings.suppliedAccount,
    length: await subaccountLengthOf(ctx, doc.companyId),
  });
  if (!entryLines.length) return null;
  return prepareSourceEntry(ctx, {
    companyId: doc.companyId,
    date,
    journal: sale ? SALES_JOURNAL : PURCHASES_JOURNAL,
    source: { type: sale ? "sales_invoice" : "purchase_invoice", id: doc.id },
    lines: entryLines,
  });
}

/** The entry's concept: what, the invoice's number (the supplier's and ours) and the contact. */
function entryConcept(doc: repo.DocumentHeader & { code: string }): string {
  const sale = doc.direction === "sale";
  const what = sale ? (doc.correctsDocumentId ? "Factura rectificativa" : "Factura") : "Factura recibida";
  const reference = sale ? doc.code : `${doc.supplierNumber ?? doc.code} (${doc.code})`;
  return `${what} ${reference} ${doc.contactName}`.slice(0, 500);
}

/** Numbers and inserts a prepared entry; returns its id. */
async function postInvoiceEntry(
  ctx: AuthedCtx,
  doc: repo.DocumentHeader & { code: string },
  prepared: PreparedSourceEntry,
): Promise<string> {
  return (await postPreparedSourceEntry(ctx, prepared, entryConcept(doc))).id;
}

/** The instalments of a finalized invoice, from its payment term or the contact's payment days. */
async function planDues(ctx: AuthedCtx, doc: repo.DocumentHeader, contact: ContactRow, total: string) {
  if (dec(total).isZero()) return [];
  const term = doc.paymentTermId ? await findPaymentTerm(ctx.db, doc.paymentTermId) : undefined;
  const lines: TermLine[] = term?.lines ?? [{ kind: "balance", days: contact.paymentTermsDays }];
  return instalments(total, doc.issueDate, lines, { paymentDays: contact.paymentDays });
}

async function insertDues(
  ctx: AuthedCtx,
  doc: repo.DocumentHeader & { code: string },
  parts: Awaited<ReturnType<typeof planDues>>,
) {
  await repo.insertDues(
    ctx.db,
    parts.map((p, i) => ({
      id: uuidv7(),
      companyId: doc.companyId,
      documentId: doc.id,
      direction: doc.direction,
      contactId: doc.contactId,
      sequence: i + 1,
      code: `${doc.code}/${i + 1}`,
      dueDate: p.dueDate,
      amount: p.amount,
    })),
  );
}

/** Numbers the invoice in its series and year; `counterDate` must not go backwards in the series. */
async function numberInvoice(
  ctx: AuthedCtx,
  doc: repo.DocumentHeader,
  year: number,
  counterDate: string,
  known?: SeriesRow,
) {
  const series = known ?? (await findSeriesById(ctx.db, doc.seriesId));
  if (!series) throw new Error(`series ${doc.seriesId} vanished`);
  const key = {
    companyId: doc.companyId,
    direction: doc.direction,
    kind: doc.kind,
    seriesId: series.id,
    year,
  };
  const number = await repo.takeNumber(ctx.db, key, counterDate);
  if (number === undefined) throw await backwardsDate(ctx.db, key, series.code, counterDate);
  return { series, year, number, code: documentCode(doc, series.code, year, number) };
}

function contactData(contact: ContactRow) {
  return {
    contactName: contact.legalName || contact.name,
    contactTaxId: contact.taxId,
    contactAddress: contact.address,
    contactPostalCode: contact.postalCode,
    contactCity: contact.city,
    contactProvince: contact.province,
    contactCountry: contact.country,
  };
}

/**
 * Issues a draft sales invoice: takes the next number of its series (dates never go backwards),
 * freezes the customer's data, posts the ledger entry (unless the company posts by hand), creates
 * the receipts, all in one transaction.
 */
export async function issueSalesInvoice(ctx: AuthedCtx, id: string, input: { date?: string } = {}) {
  return inCtxTransaction(ctx, async (tx) => {
    await issueSalesInvoiceInTransaction(tx, id, input);
    return getDocument(tx, SALES_INVOICE, id);
  });
}

/** Issues a draft sales invoice in the caller's transaction (the demo issues hundreds in one). */
export async function issueSalesInvoiceInTransaction(
  tx: AuthedCtx,
  id: string,
  input: { date?: string } = {},
): Promise<void> {
  const draft = await loadDocument(tx, SALES_INVOICE, id, { lock: true });
  assertTransition("sales_invoice", draft.estado as never, "emitida");
  const date = input.date ?? today();
  const contact = await getContact(tx, draft.contactId);
  const series = await findSeriesById(tx.db, draft.seriesId);
  if (series?.kind !== "simplified" && !contact.taxId)
    throw new BadRequestError(
      `${contact.name} has no tax id: a full invoice needs the customer's NIF (or use a simplified series)`,
      [{ path: "client_id", message: "the customer needs a tax id for a full invoice" }],
    );
  if (draft.correctsDocumentId) {
    const corrected = await repo.findDocument(tx.db, draft.correctsDocumentId);
    if (corrected?.estado !== "emitida")
      throw new ConflictError("The corrected invoice must be issued before its rectifying invoice");
    if (date < corrected.issueDate)
      throw new BadRequestError("A rectifying invoice cannot be dated before the invoice it corrects", [
        { path: "date", message: `must not be before ${corrected.issueDate}` },
      ]);
  } else if (dec(draft.total).isNegative()) {
    throw new BadRequestError("An invoice total cannot be negative: issue a rectifying invoice instead", [
      { path: "lines", message: "the total is negative" },
    ]);
  }
  if (series?.kind === "simplified" && dec(draft.total).abs().gt(SIMPLIFIED_LIMIT))
    throw new BadRequestError(`A simplified invoice cannot exceed ${SIMPLIFIED_LIMIT} EUR`, [
      { path: "series", message: "use a full invoice series for this amount" },
    ]);
  const settings = await settingsOf(tx.db, draft.companyId);
  const { lines, figures } = await invoiceFigures(tx, draft, settings);
  const dated = { ...draft, ...contactData(contact), issueDate: date };
  // Everything that does not need the number first: from the number on, the series is locked.
  const entry = settings.autoPosting
    ? await prepareInvoiceEntry(tx, dated, contact, lines, figures, settings)
    : null;
  const dues = await planDues(tx, dated, contact, draft.total);
  const numbering = await numberInvoice(tx, dated, Number(date.slice(0, 4)), date, series);
  const doc = { ...dated, code: numbering.code };
  const entryId = entry ? await postInvoiceEntry(tx, doc, entry) : null;
  const finalized = await repo.updateDocument(tx.db, draft.id, {
    ...contactData(contact),
    estado: "emitida",
    year: numbering.year,
    number: numbering.number,
    code: numbering.code,
    issueDate: date,
    entryId,
    finalizedAt: new Date(),
    finalizedBy: tx.actor.userId,
  });
  await insertDues(tx, doc, dues);
  await runInvoiceFinalizedHooks(tx, { ...finalized, seriesCode: draft.seriesCode } as FinalizedInvoice);
}

/**
 * Approves a pending supplier invoice: our registration number (gapless per series and year of the
 * invoice), the ledger entry and the payments due, in one transaction.
 */
export async function approvePurchaseInvoice(ctx: AuthedCtx, id: string) {
  return inCtxTransaction(ctx, async (tx) => {
    await approvePurchaseInvoiceInTransaction(tx, id);
    return getDocument(tx, PURCHASE_INVOICE, id);
  });
}

/** Approves a pending supplier invoice in the caller's transaction. */
export async function approvePurchaseInvoiceInTransaction(tx: AuthedCtx, id: string): Promise<void> {
  const pending = await loadDocument(tx, PURCHASE_INVOICE, id, { lock: true });
  assertTransition("purchase_invoice", pending.estado as never, "aprobada");
  if (pending.correctsDocumentId) {
    const corrected = await repo.findDocument(tx.db, pending.correctsDocumentId);
    if (corrected?.estado !== "aprobada")
      throw new ConflictError("The corrected supplier invoice must be approved before its rectification");
  }
  const contact = await getContact(tx, pending.contactId);
  const settings = await settingsOf(tx.db, pending.companyId);
  const { lines, figures } = await invoiceFigures(tx, pending, settings);
  const entry = settings.autoPosting
    ? await prepareInvoiceEntry(tx, pending, contact, lines, figures, settings)
    : null;
  const dues = await planDues(tx, pending, contact, pending.total);
  const numbering = await numberInvoice(tx, pending, Number(pending.issueDate.slice(0, 4)), today());
  const doc = { ...pending, code: numbering.code };
  const entryId = entry ? await postInvoiceEntry(tx, doc, entry) : null;
  const finalized = await repo.updateDocument(tx.db, pending.id, {
    estado: "aprobada",
    year: numbering.year,
    number: numbering.number,
    code: numbering.code,
    rejectionReason: null,
    entryId,
    finalizedAt: new Date(),
    finalizedBy: tx.actor.userId,
  });
  await insertDues(tx, doc, dues);
  await runInvoiceFinalizedHooks(tx, { ...finalized, seriesCode: pending.seriesCode } as FinalizedInvoice);
}

export async function rejectPurchaseInvoice(ctx: AuthedCtx, id: string, reason: string) {
  return inCtxTransaction(ctx, async (tx) => {
    const doc = await loadDocument(tx, PURCHASE_INVOICE, id, { lock: true });
    assertTransition("purchase_invoice", doc.estado as never, "rechazada");
    await repo.updateDocument(tx.db, doc.id, { estado: "rechazada", rejectionReason: reason });
    return getDocument(tx, PURCHASE_INVOICE, id);
  });
}

export async function reopenPurchaseInvoice(ctx: AuthedCtx, id: string) {
  return inCtxTransaction(ctx, async (tx) => {
    const doc = await loadDocument(tx, PURCHASE_INVOICE, id, { lock: true });
    assertTransition("purchase_invoice", doc.estado as never, "pendiente");
    await repo.updateDocument(tx.db, doc.id, { estado: "pendiente" });
    return getDocument(tx, PURCHASE_INVOICE, id);
  });
}

/**
 * The seed's generate-accounting-entry: posts the entry of a finalized invoice that has none (its
 * company posts by hand); a second call is a 409 naming the entry.
 */
export async function generateInvoiceEntry(ctx: AuthedCtx, scope: DocumentScope, id: string) {
  return inCtxTransaction(ctx, async (tx) => {
    const doc = await loadDocument(tx, scope, id, { lock: true });
    const finalized = scope.direction === "sale" ? "emitida" : "aprobada";
    if (doc.estado !== finalized)
      throw new ConflictError(
        `Only a ${finalized} invoice has an accounting entry; this one is ${doc.estado}`,
        { estado: doc.estado, allowed: [finalized] },
      );
    if (doc.entryId)
      throw new ConflictError(`Invoice ${doc.code} already has its accounting entry`, {
        entry_id: doc.entryId,
      });
    const settings = await settingsOf(tx.db, doc.companyId);
    const contact = await getContact(tx, doc.contactId);
    const { lines, figures } = await invoiceFigures(tx, doc, settings);
    const prepared = await prepareInvoiceEntry(tx, doc, contact, lines, figures, settings);
    if (!prepared) throw new ConflictError(`Invoice ${doc.code} moves no amount: there is no entry to post`);
    const entryId = await postInvoiceEntry(tx, { ...doc, code: doc.code as string }, prepared);
    await repo.updateDocument(tx.db, doc.id, { entryId });
    return getDocument(tx, scope, id);
  });
}
