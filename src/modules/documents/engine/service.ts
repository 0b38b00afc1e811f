import { sql } from "drizzle-orm";
import { assertCompanyVisible, companyFilter, companyScopeId } from "../../../platform/auth/company-scope.js";
import { groupBy } from "../../../platform/collections.js";
import { today } from "../../../platform/dates.js";
import type { Db } from "../../../platform/db/client.js";
import { violatedConstraint } from "../../../platform/db/sql.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { unknownCursorError } from "../../../platform/http/pagination.js";
import { uuidv7 } from "../../../platform/ids.js";
import { dec } from "../../../platform/money.js";
import { findAgentOfCompany } from "../../agents/index.js";
import type { ContactRow } from "../../clients/index.js";
import { getContact } from "../../clients/index.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import {
  type Direction,
  type DocumentKind,
  type DocumentState,
  documentLines,
  documents,
} from "../tables.js";
import { assertTransition, isEditable, type TransitionKind } from "../transitions.js";
import {
  findPaymentTerm,
  findSeriesByCode,
  findSeriesOfKind,
  findTaxCodesByIds,
  type SeriesRow,
  settingsOf,
} from "./config.js";
import { documentFigures, type LineInput, type ResolvedLine, resolveLines } from "./lines.js";
import { documentCode } from "./numbering.js";
import * as repo from "./repository.js";
import { type DocumentView, loadDocumentView, paymentStatusOf } from "./view.js";

/** Which documents a call is about: sales or purchases, and the kind. */
export interface DocumentScope {
  direction: Direction;
  kind: DocumentKind;
}

export interface DocumentInput {
  companyId?: string;
  contactId: string;
  seriesCode?: string;
  date?: string;
  operationDate?: string | null;
  validUntil?: string | null;
  paymentTermId?: string | null;
  agentId?: string | null;
  discount1?: string;
  discount2?: string;
  notes?: string;
  supplierNumber?: string | null;
  lines: LineInput[];
}

/** What only the engine sets: rectification data. */
export interface DocumentOrigin {
  correctsDocumentId?: string;
  rectificationType?: "I" | "S";
  rectificationReason?: string;
}

export const transitionKind = (s: DocumentScope): TransitionKind =>
  s.kind === "invoice" ? (s.direction === "sale" ? "sales_invoice" : "purchase_invoice") : s.kind;

const KIND_NAMES: Record<DocumentKind, string> = {
  estimate: "Estimate",
  order: "Order",
  delivery_note: "Delivery note",
  invoice: "Invoice",
};

export function initialState(scope: DocumentScope): DocumentState {
  return scope.kind === "invoice" && scope.direction === "purchase" ? "pendiente" : "borrador";
}

/** Invoices take their number when issued (sales) or approved (purchases); other documents at once. */
const numberedAtCreation = (scope: DocumentScope) => scope.kind !== "invoice";

/** The document when it exists, is of this scope and its company is visible to the caller; else 404. */
export async function loadDocument(
  ctx: AuthedCtx,
  scope: DocumentScope,
  id: string,
  opts: { lock?: boolean } = {},
) {
  const doc = await repo.findDocument(ctx.db, id, opts);
  if (!doc || doc.direction !== scope.direction || doc.kind !== scope.kind)
    throw new NotFoundError(KIND_NAMES[scope.kind]);
  return assertCompanyVisible(ctx.actor, doc, KIND_NAMES[scope.kind]);
}

export async function getDocument(ctx: AuthedCtx, scope: DocumentScope, id: string): Promise<DocumentView> {
  return loadDocumentView(ctx.db, await loadDocument(ctx, scope, id));
}

/**
 * By code (FV2026-000123); purchase invoices also by the supplier's own number. Codes repeat across
 * companies: when the caller sees several companies and the code matches in more than one, a 400
 * asks for company_id.
 */
export async function getDocumentByCode(
  ctx: AuthedCtx,
  scope: DocumentScope,
  code: string,
  companyId?: string,
) {
  const companyScope = companyFilter(ctx.actor, documents.companyId, companyId);
  const ambiguous = (matches: repo.DocumentHeader[], what: string) =>
    new BadRequestError(
      `Several ${what} match ${code} (${matches.map((m) => `${m.code ?? m.supplierNumber} of ${m.contactName}`).join(", ")}): give company_id or use the invoice id`,
      [{ path: "document_number", message: "matches several documents" }],
    );
  const byCode = await repo.findDocumentsByCode(ctx.db, { ...scope, code, scope: companyScope });
  if (byCode.length === 1) return loadDocumentView(ctx.db, byCode[0]);
  if (byCode.length > 1) throw ambiguous(byCode, "documents of different companies");
  if (scope.direction === "purchase" && scope.kind === "invoice") {
    const matches = await repo.findPurchaseInvoicesBySupplierNumber(ctx.db, code, companyScope);
    if (matches.length === 1) return loadDocumentView(ctx.db, matches[0]);
    if (matches.length > 1) throw ambiguous(matches, "supplier invoices");
  }
  throw new NotFoundError(KIND_NAMES[scope.kind]);
}

export interface DocumentListFilters {
  companyId?: string;
  estado?: DocumentState;
  paymentStatus?: "pendiente" | "parcial" | "pagada" | "vencida";
  paid?: boolean;
  dateFrom?: string;
  dateTo?: string;
  contactId?: string;
  seriesCode?: string;
  search?: string;
  limit: number;
  offset: number;
  /** Keyset cursor: the id of the last document of the previous page. */
  after?: string;
}

/** A page of documents (headers) with the payment status of invoices. */
export async function listDocuments(ctx: AuthedCtx, scope: DocumentScope, f: DocumentListFilters) {
  const asOf = today();
  const page = await repo.listDocuments(ctx.db, {
    ...scope,
    companyId: companyScopeId(ctx.actor, f.companyId),
    estado: f.estado,
    paymentStatus: f.paymentStatus,
    paid: f.paid,
    today: asOf,
    dateFrom: f.dateFrom,
    dateTo: f.dateTo,
    contactId: f.contactId,
    seriesCode: f.seriesCode,
    search: f.search,
    limit: f.limit,
    offset: f.offset,
    after: f.after,
  });
  if (!page) throw unknownCursorError(KIND_NAMES[scope.kind].toLowerCase());
  const totals = { total: page.total, totalIsEstimate: page.totalIsEstimate ?? false };
  // The page's rows are its own fresh objects: the status is added to them, not to 49-field copies.
  if (scope.kind !== "invoice")
    return { rows: page.rows.map((r) => Object.assign(r, { paymentStatus: null })), ...totals };
  const openDues = groupBy(
    await repo.openDueDates(
      ctx.db,
      page.rows.map((r) => r.id),
    ),
    (due) => due.documentId,
  );
  return {
    rows: page.rows.map((r) =>
      Object.assign(r, { paymentStatus: paymentStatusOf(r, openDues.get(r.id) ?? [], false, asOf) }),
    ),
    ...totals,
  };
}

function contactSnapshot(contact: ContactRow) {
  return {
    contactId: contact.id,
    contactName: contact.legalName || contact.name,
    contactTaxId: contact.taxId,
    contactAddress: contact.address,
    contactPostalCode: contact.postalCode,
    contactCity: contact.city,
    contactProvince: contact.province,
    contactCountry: contact.country,
    contactTaxRegime: contact.taxRegime,
  };
}

async function loadContact(ctx: AuthedCtx, companyId: string, direction: Direction, contactId: string) {
  const contact = await getContact(ctx, contactId).catch((err) => {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  });
  const role = direction === "sale" ? "customer" : "supplier";
  // The wire names the contact client_id (sales) or supplier_id (purchases).
  const field = direction === "sale" ? "client_id" : "supplier_id";
  if (!contact || contact.companyId !== companyId)
    throw new BadRequestError(`${field} is not a ${role} of the company`, [
      { path: field, message: `is not a ${role} of the document's company` },
    ]);
  if (contact.contactType !== role && contact.contactType !== "both")
    throw new BadRequestError(`${contact.name} is not a ${role}`, [
      { path: field, message: `must be a ${role} (or both)` },
    ]);
  return contact;
}

async function loadSeries(
  db: Db,
  companyId: string,
  scope: DocumentScope,
  code: string | undefined,
  rectifying: boolean,
): Promise<SeriesRow> {
  const series = code
    ? await findSeriesByCode(db, companyId, code)
    : await findSeriesOfKind(db, companyId, rectifying ? "rectifying" : "general");
  if (!series?.isActive)
    throw new BadRequestError(`Unknown or inactive series ${code ?? ""}`.trim(), [
      { path: "series", message: "no active series of the company has this code (see GET /api/series)" },
    ]);
  if (scope.kind === "invoice" && rectifying !== (series.kind === "rectifying"))
    throw new BadRequestError(
      rectifying
        ? `Series ${series.code} is not for rectifying invoices`
        : `Series ${series.code} is for rectifying invoices only`,
      [{ path: "series", message: rectifying ? "must be a rectifying series" : "is a rectifying series" }],
    );
  return series;
}

async function checkReferences(ctx: AuthedCtx, companyId: string, input: Partial<DocumentInput>) {
  if (input.paymentTermId) {
    const term = await findPaymentTerm(ctx.db, input.paymentTermId);
    if (!term || term.companyId !== companyId || !term.isActive)
      throw new BadRequestError("payment_term_id is not an active payment term of the company", [
        { path: "payment_term_id", message: "is not an active payment term of the company" },
      ]);
  }
  if (input.agentId) {
    const agent = await findAgentOfCompany(ctx, companyId, input.agentId);
    if (!agent?.isActive)
      throw new BadRequestError("agent_id is not an active agent of the company", [
        { path: "agent_id", message: "is not an active agent of the company" },
      ]);
  }
}

function checkDates(input: Partial<DocumentInput>, date: string) {
  if (input.validUntil && input.validUntil < date)
    throw new BadRequestError("valid_until is before the document date", [
      { path: "valid_until", message: "must not be before date" },
    ]);
}

/** Lines, figures and tax rows of a document, computed from resolved lines. */
function lineRows(companyId: string, documentId: string, lines: ResolvedLine[], nets: string[]) {
  return lines.map((l, i) => ({
    id: l.id ?? uuidv7(),
    companyId,
    documentId,
    lineNo: i + 1,
    productId: l.productId,
    reference: l.reference,
    description: l.description,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    discount1: l.discount1,
    discount2: l.discount2,
    taxCodeId: l.taxCodeId,
    vatRate: l.vatRate,
    reRate: l.reRate,
    irpfCodeId: l.irpfCodeId,
    irpfRate: l.irpfRate,
    supplied: l.supplied,
    accountCode: l.accountCode,
    net: dec(nets[i]).toFixed(6),
    correctsLineId: l.correctsLineId,
  }));
}

function figureColumns(figures: ReturnType<typeof documentFigures>) {
  return {
    grossNet: figures.grossNet,
    net: figures.net,
    vat: figures.vat,
    re: figures.re,
    irpf: figures.irpf,
    supplied: figures.supplied,
    total: figures.total,
    importeTotal: figures.importeTotal,
  };
}

function taxRows(companyId: string, documentId: string, figures: ReturnType<typeof documentFigures>) {
  return [
    ...figures.groups.map((g) => ({
      companyId,
      documentId,
      kind: "vat" as const,
      taxCodeId: g.taxCodeId,
      rate: g.vatRate,
      reRate: g.reRate,
      base: g.base,
      amount: g.vat,
      reAmount: g.re,
      selfAssessed: g.selfAssessed,
    })),
    ...figures.irpfByCode.map((g) => ({
      companyId,
      documentId,
      kind: "irpf" as const,
      taxCodeId: g.irpfCodeId,
      rate: g.rate,
      base: g.base,
      amount: g.amount,
    })),
  ];
}

/** The context lines are resolved in: the contact's regime decides RE and default codes. */
async function lineContext(
  ctx: AuthedCtx,
  companyId: string,
  scope: DocumentScope,
  regime: ContactRow["taxRegime"],
  rectifying: boolean,
) {
  const settings = await settingsOf(ctx.db, companyId);
  return {
    settings,
    lineCtx: {
      companyId,
      direction: scope.direction,
      rectifying,
      contactRegime: regime,
      applyRe:
        scope.direction === "sale"
          ? regime === "recargo_equivalencia"
          : settings.taxRegime === "recargo_equivalencia",
      defaultAccount:
        scope.direction === "sale"
          ? rectifying && settings.salesReturnsAccount
            ? settings.salesReturnsAccount
            : settings.salesAccount
          : settings.purchasesAccount,
    },
  };
}

function supplierNumberConflict(err: unknown, input: { supplierNumber?: string | null }): never {
  if (violatedConstraint(err) === "documents_supplier_number_key")
    throw new ConflictError(
      `This supplier already has an invoice numbered ${input.supplierNumber} in the same year`,
    );
  throw err;
}

/**
 * Creates a document in the caller's transaction (conversions and rectifications call it with
 * their own lines) and returns its id.
 */
export async function insertDocumentInTransaction(
  ctx: AuthedCtx,
  scope: DocumentScope,
  input: DocumentInput & { companyId: string },
  origin: DocumentOrigin = {},
): Promise<{ id: string; lines: Array<{ id: string; lineNo: number }> }> {
  const rectifying = Boolean(origin.correctsDocumentId);
  const contact = await loadContact(ctx, input.companyId, scope.direction, input.contactId);
  const series = await loadSeries(ctx.db, input.companyId, scope, input.seriesCode, rectifying);
  await checkReferences(ctx, input.companyId, input);
  const date = input.date ?? today();
  checkDates(input, date);
  if (scope.direction === "purchase" && scope.kind === "invoice" && !input.supplierNumber && !rectifying)
    throw new BadRequestError("A supplier invoice needs the supplier's own number", [
      { path: "supplier_number", message: "is required: the number printed on the supplier's invoice" },
    ]);
  const { lineCtx } = await lineContext(ctx, input.companyId, scope, contact.taxRegime, rectifying);
  const lines = await resolveLines(ctx, lineCtx, input.lines);
  const discounts = { discount1: input.discount1 ?? "0", discount2: input.discount2 ?? "0" };
  const figures = documentFigures(lines, discounts);
  const id = uuidv7();
  let numbering = {};
  if (numberedAtCreation(scope)) {
    const year = Number(date.slice(0, 4));
    const key = { companyId: input.companyId, ...scope, seriesId: series.id, year };
    const number = await repo.takeNumber(ctx.db, key, date);
    if (number === undefined) throw await backwardsDate(ctx.db, key, series.code, date);
    numbering = { year, number, code: documentCode(scope, series.code, year, number) };
  }
  try {
    await repo.insertDocument(ctx.db, {
      id,
      companyId: input.companyId,
      direction: scope.direction,
      kind: scope.kind,
      seriesId: series.id,
      ...numbering,
      estado: initialState(scope),
      ...contactSnapshot(contact),
      agentId: scope.direction === "sale" ? (input.agentId ?? contact.agentId ?? null) : null,
      issueDate: date,
      operationDate: input.operationDate ?? null,
      validUntil: input.validUntil ?? null,
      paymentTermId: input.paymentTermId ?? null,
      ...discounts,
      notes: input.notes ?? "",
      supplierNumber: input.supplierNumber ?? null,
      correctsDocumentId: origin.correctsDocumentId ?? null,
      rectificationType: origin.rectificationType ?? null,
      rectificationReason: origin.rectificationReason ?? null,
      ...figureColumns(figures),
      createdBy: ctx.actor.userId,
    });
  } catch (err) {
    supplierNumberConflict(err, input);
  }
  const inserted = await repo.insertLines(ctx.db, lineRows(input.companyId, id, lines, figures.lineNets));
  await repo.insertTaxes(ctx.db, taxRows(input.companyId, id, figures));
  return {
    id,
    lines: inserted.map((l) => ({ id: l.id, lineNo: l.lineNo })).sort((a, b) => a.lineNo - b.lineNo),
  };
}

/** The 409 for a date earlier than the series' last numbered one. */
export async function backwardsDate(
  db: Db,
  key: Parameters<typeof repo.lastNumberedDate>[1],
  seriesCode: string,
  date: string,
) {
  const last = await repo.lastNumberedDate(db, key);
  return new ConflictError(
    `The date ${date} is earlier than ${last?.lastDate} of number ${last?.lastNumber} in series ${seriesCode}: ` +
      "numbers of a series follow the order of their dates",
    { last_date: last?.lastDate ?? null },
  );
}

export async function createDocument(ctx: AuthedCtx, scope: DocumentScope, input: DocumentInput) {
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  // Read back in the same transaction: once committed, the answer needs no other connection.
  return inCtxTransaction(ctx, async (tx) => {
    const { id } = await insertDocumentInTransaction(tx, scope, { ...input, companyId });
    return getDocument(tx, scope, id);
  });
}

/** 409 unless the document can still be edited (borrador/abierto, draft invoices, pending supplier invoices). */
export function assertEditable(scope: DocumentScope, doc: repo.DocumentHeader) {
  const kind = transitionKind(scope);
  if (!isEditable(kind, doc.estado as never))
    throw new ConflictError(
      doc.kind === "invoice"
        ? `Invoice ${doc.code ?? ""} is ${doc.estado}: it can no longer change (correct it with a rectifying invoice)`.replace(
            "  ",
            " ",
          )
        : `${KIND_NAMES[doc.kind]} ${doc.code ?? ""} is ${doc.estado} and can no longer be edited`,
      { estado: doc.estado },
    );
}

/**
 * The new lines against the old ones: kept lines (by id) may change, missing ones go. A line
 * that came from a conversion gives back to its source what it no longer takes.
 */
async function reconcileLines(ctx: AuthedCtx, doc: repo.DocumentHeader, inputs: LineInput[]) {
  const existing = new Map((await repo.linesOf(ctx.db, doc.id)).map((l) => [l.id, l]));
  inputs.forEach((l, i) => {
    if (l.id && !existing.has(l.id))
      throw new BadRequestError("A line id is not a line of this document", [
        { path: `lines.${i}.id`, message: "is not a line of this document" },
      ]);
  });
  const kept = new Map(inputs.filter((l) => l.id).map((l) => [l.id as string, l]));
  const links = await repo.linksInto(ctx.db, doc.id);
  const removedLinks: string[] = [];
  const touchedSources = new Set<string>();
  for (const link of links) {
    const line = kept.get(link.toLineId);
    const newQuantity = line ? dec(line.quantity) : dec(0);
    const taken = dec(link.quantity);
    if (newQuantity.gte(taken)) continue;
    const keep = newQuantity.gt(0) ? newQuantity : dec(0);
    await repo.addServed(ctx.db, link.fromLineId, keep.minus(taken).toFixed(4));
    if (keep.isZero()) removedLinks.push(link.id);
    else await repo.updateLinkQuantity(ctx.db, link.id, keep.toFixed(4));
    touchedSources.add(link.fromDocumentId);
  }
  await repo.deleteLinks(ctx.db, removedLinks);
  const removed = [...existing.keys()].filter((id) => !kept.has(id));
  await repo.deleteLines(ctx.db, removed);
  await recomputeConversionStates(ctx.db, [...touchedSources]);
  return existing;
}

export async function updateDocument(
  ctx: AuthedCtx,
  scope: DocumentScope,
  id: string,
  patch: Partial<DocumentInput>,
): Promise<DocumentView> {
  return inCtxTransaction(ctx, async (tx) => {
    const doc = await loadDocument(tx, scope, id, { lock: true });
    assertEditable(scope, doc);
    if (patch.companyId && patch.companyId !== doc.companyId)
      throw new BadRequestError("A document cannot move to another company", [
        { path: "company_id", message: "cannot change" },
      ]);
    const rectifying = Boolean(doc.correctsDocumentId);
    let contact: ContactRow | undefined;
    if (patch.contactId && patch.contactId !== doc.contactId) {
      if (doc.correctsDocumentId || (await repo.linksInto(tx.db, doc.id)).length)
        throw new ConflictError("The contact of a converted or rectifying document cannot change", {
          estado: doc.estado,
        });
      contact = await loadContact(tx, doc.companyId, scope.direction, patch.contactId);
    }
    let seriesId = doc.seriesId;
    if (patch.seriesCode && patch.seriesCode !== doc.seriesCode) {
      if (doc.number !== null)
        throw new ConflictError(`${KIND_NAMES[doc.kind]} ${doc.code} is numbered: its series cannot change`);
      seriesId = (await loadSeries(tx.db, doc.companyId, scope, patch.seriesCode, rectifying)).id;
    }
    await checkReferences(tx, doc.companyId, patch);
    const date = patch.date ?? doc.issueDate;
    if (doc.number !== null && date.slice(0, 4) !== String(doc.year))
      throw new BadRequestError(`${doc.code} is numbered in ${doc.year}: its date must stay in that year`, [
        { path: "date", message: `must be in ${doc.year}` },
      ]);
    checkDates({ validUntil: patch.validUntil === undefined ? doc.validUntil : patch.validUntil }, date);
    const regime = contact?.taxRegime ?? doc.contactTaxRegime;
    const { lineCtx } = await lineContext(tx, doc.companyId, scope, regime, rectifying);
    let lines: ResolvedLine[];
    const discounts = {
      discount1: patch.discount1 ?? doc.discount1,
      discount2: patch.discount2 ?? doc.discount2,
    };
    if (patch.lines) {
      await reconcileLines(tx, doc, patch.lines);
      lines = await resolveLines(tx, lineCtx, patch.lines);
    } else {
      lines = await resolveLines(
        tx,
        lineCtx,
        await storedLineInputs(tx.db, await repo.linesOf(tx.db, doc.id)),
      );
    }
    const figures = documentFigures(lines, discounts);
    const rows = lineRows(doc.companyId, doc.id, lines, figures.lineNets);
    const kept = new Set(rows.filter((r) => lines.some((l) => l.id === r.id)).map((r) => r.id));
    // Kept lines move out of the way first, so line_no stays unique while they are renumbered.
    await repo.shiftLineNumbers(tx.db, doc.id);
    for (const { id: lineId, ...values } of rows.filter((r) => kept.has(r.id)))
      await repo.updateLine(tx.db, lineId, values);
    await repo.insertLines(
      tx.db,
      rows.filter((r) => !kept.has(r.id)),
    );
    await repo.replaceTaxes(tx.db, doc.id, taxRows(doc.companyId, doc.id, figures));
    try {
      await repo.updateDocument(tx.db, doc.id, {
        ...(contact ? contactSnapshot(contact) : {}),
        seriesId,
        issueDate: date,
        operationDate: patch.operationDate === undefined ? undefined : patch.operationDate,
        validUntil: patch.validUntil === undefined ? undefined : patch.validUntil,
        paymentTermId: patch.paymentTermId === undefined ? undefined : patch.paymentTermId,
        agentId: patch.agentId === undefined || scope.direction !== "sale" ? undefined : patch.agentId,
        ...discounts,
        notes: patch.notes,
        supplierNumber: patch.supplierNumber === undefined ? undefined : patch.supplierNumber,
        ...figureColumns(figures),
      });
    } catch (err) {
      supplierNumberConflict(err, patch);
    }
    return getDocument(tx, scope, id);
  });
}

/** Stored lines as input again (recomputing a document, copying lines into another one). */
export async function storedLineInputs(db: Db, lines: repo.LineRow[]): Promise<LineInput[]> {
  const codes = await findTaxCodesByIds(
    db,
    lines.flatMap((l) => [l.taxCodeId, l.irpfCodeId].filter((x): x is string => Boolean(x))),
  );
  return lines.map((l) => ({
    id: l.id,
    productId: l.productId,
    reference: l.reference,
    description: l.description,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    discount1: l.discount1,
    discount2: l.discount2,
    taxCode: l.taxCodeId ? codes.get(l.taxCodeId)?.code : undefined,
    irpfCode: l.irpfCodeId ? codes.get(l.irpfCodeId)?.code : undefined,
    supplied: l.supplied,
    accountCode: l.accountCode,
    correctsLineId: l.correctsLineId,
  }));
}

/**
 * A document's source documents after their served quantities changed: every line fully served
 * -> convertido, some -> parcial, none -> back to abierto. One statement for all of them.
 */
export async function recomputeConversionStates(db: Db, documentIds: string[]) {
  if (!documentIds.length) return;
  await db.execute(sql`
    update ${documents} d set estado = case
        when not exists (select 1 from ${documentLines} l where l.document_id = d.id and l.served_quantity < l.quantity)
          then 'convertido'
        when exists (select 1 from ${documentLines} l where l.document_id = d.id and l.served_quantity > 0)
          then 'parcial'
        when d.estado in ('parcial', 'convertido') then 'abierto'
        else d.estado end,
      updated_at = now()
    where d.id in (${sql.join(
      documentIds.map((x) => sql`${x}`),
      sql`, `,
    )}) and d.estado in ('borrador', 'abierto', 'parcial', 'convertido')`);
}

/** Deletes an editable document without later documents; its sources get back what it took. */
export async function deleteDocument(ctx: AuthedCtx, scope: DocumentScope, id: string): Promise<void> {
  await inCtxTransaction(ctx, async (tx) => {
    const doc = await loadDocument(tx, scope, id, { lock: true });
    assertEditable(scope, doc);
    if (await repo.hasTargets(tx.db, doc.id))
      throw new ConflictError(
        `${KIND_NAMES[doc.kind]} ${doc.code ?? ""} was converted into later documents: delete those first`,
      );
    if (await repo.hasAttachments(tx.db, doc.id))
      throw new ConflictError(
        `${KIND_NAMES[doc.kind]} ${doc.code ?? doc.supplierNumber ?? ""} has attached files: delete them first`,
      );
    const links = await repo.linksInto(tx.db, doc.id);
    for (const link of links)
      await repo.addServed(tx.db, link.fromLineId, dec(link.quantity).neg().toFixed(4));
    await repo.deleteDocument(tx.db, doc.id);
    await recomputeConversionStates(tx.db, [...new Set(links.map((l) => l.fromDocumentId))]);
  });
}

/** A state change asked by a user (estimates, orders, delivery notes): only the table's transitions. */
export async function setDocumentState(
  ctx: AuthedCtx,
  scope: DocumentScope,
  id: string,
  estado: DocumentState,
) {
  return inCtxTransaction(ctx, async (tx) => {
    const doc = await loadDocument(tx, scope, id, { lock: true });
    assertTransition(transitionKind(scope), doc.estado as never, estado as never);
    if (estado === "abierto" && doc.kind === "estimate" && doc.validUntil && doc.validUntil < today())
      throw new BadRequestError("The estimate's valid_until has passed: set a new one first", [
        { path: "valid_until", message: "is in the past" },
      ]);
    await repo.updateDocument(tx.db, doc.id, { estado });
    return getDocument(tx, scope, id);
  });
}

/** What a document would total, computed exactly as create does; nothing is written. */
export interface DocumentPreview {
  figures: ReturnType<typeof documentFigures>;
  lines: ResolvedLine[];
}

/**
 * The figures a create (or a PATCH of a non-rectifying draft with these fields) would store, for
 * an editor's live totals: same contact, series-free checks, line resolution and rounding.
 */
export async function previewDocument(
  ctx: AuthedCtx,
  scope: DocumentScope,
  input: Pick<DocumentInput, "companyId" | "contactId" | "discount1" | "discount2" | "lines">,
): Promise<DocumentPreview> {
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  const contact = await loadContact(ctx, companyId, scope.direction, input.contactId);
  const { lineCtx } = await lineContext(ctx, companyId, scope, contact.taxRegime, false);
  const lines = await resolveLines(ctx, lineCtx, input.lines);
  const figures = documentFigures(lines, {
    discount1: input.discount1 ?? "0",
    discount2: input.discount2 ?? "0",
  });
  return { figures, lines };
}
