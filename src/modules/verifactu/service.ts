import { assertCompanyVisible, companyFilter } from "../../platform/auth/company-scope.js";
import type { Db } from "../../platform/db/client.js";
import { allQueries } from "../../platform/db/sql.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { BadRequestError, ConflictError } from "../../platform/http/errors.js";
import { uuidv7 } from "../../platform/ids.js";
import { dec, sum, toMoney, toPercent } from "../../platform/money.js";
import { getCompany, resolveCompanyForWrite } from "../companies/index.js";
import {
  type DocumentView,
  type FinalizedInvoice,
  findSeriesOfCompany,
  getDocument,
  listTaxCodes,
} from "../documents/index.js";
import {
  aeatDate,
  aeatTimestamp,
  altaHashInput,
  anulacionHashInput,
  eventHashInput,
  huella,
} from "./hash.js";
import * as repo from "./repository.js";
import { verifactuConfig } from "./runtime-config.js";
import {
  type EventKind,
  type QueueState,
  type RecordDetails,
  type RecordType,
  type VerifactuMode,
  verifactuEvents,
  verifactuRecords,
} from "./tables.js";

const SALES_INVOICE = { direction: "sale", kind: "invoice" } as const;

/** TipoEvento (EventosSIF.xsd) of each kind of event Cuadra logs. */
const EVENT_TYPES: Record<EventKind, string> = {
  start: "90",
  stop: "90",
  verification: "03",
  anomaly: "04",
  export: "08",
};

const EU_COUNTRIES = new Set(
  "AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK".split(" "),
);

/** DetalleDesglose allows 12 lines per record (SuministroInformacion.xsd). */
const MAX_BREAKDOWN = 12;

interface Issuer {
  id: string;
  nif: string;
  name: string;
}

async function issuerOf(ctx: AuthedCtx, companyId: string): Promise<Issuer> {
  const company = await getCompany(ctx, companyId);
  return { id: company.id, nif: company.taxId, name: company.legalName || company.name };
}

function softwareOf(issuer: Issuer): RecordDetails["software"] {
  const c = verifactuConfig();
  return {
    producerName: c.producerName ?? issuer.name,
    producerNif: c.producerNif ?? issuer.nif,
    name: c.softwareName,
    id: c.softwareId,
    version: c.softwareVersion,
    installation: c.installation,
  };
}

const now = () => aeatTimestamp(new Date(), verifactuConfig().timezone);

/** The string a record's huella is computed from, rebuilt from the stored record. */
export function recordHashInput(r: repo.RecordRow): string {
  return r.recordType === "alta"
    ? altaHashInput({
        issuerNif: r.issuerNif,
        invoiceNumber: r.invoiceNumber,
        issueDate: aeatDate(r.invoiceDate),
        invoiceType: r.invoiceType ?? "",
        cuotaTotal: r.cuotaTotal ?? "",
        importeTotal: r.importeTotal ?? "",
        previousHash: r.previousHash,
        generatedAt: r.generatedAt,
      })
    : anulacionHashInput({
        issuerNif: r.issuerNif,
        invoiceNumber: r.invoiceNumber,
        issueDate: aeatDate(r.invoiceDate),
        previousHash: r.previousHash,
        generatedAt: r.generatedAt,
      });
}

export function eventInput(e: repo.EventRow): string {
  return eventHashInput({
    producerNif: e.producerNif,
    systemId: e.systemId,
    version: e.version,
    installation: e.installation,
    issuerNif: e.issuerNif,
    eventType: e.eventType,
    previousHash: e.previousHash,
    generatedAt: e.generatedAt,
  });
}

// ---------------------------------------------------------------------------------------------
// Settings

export async function getVerifactuSettings(ctx: AuthedCtx, requestedCompanyId?: string) {
  const companyId = await resolveCompanyForWrite(ctx, requestedCompanyId);
  const [mode, records] = await allQueries(ctx.db, [
    () => repo.findMode(ctx.db, companyId),
    () => repo.countRecords(ctx.db, companyId),
  ]);
  return { companyId, mode, records };
}

/**
 * Turns VeriFactu on or off for a company. Off is refused once the company has records: the chain
 * and its submission to the AEAT must go on. Each change is an event of the log.
 */
export async function setVerifactuMode(ctx: AuthedCtx, input: { companyId?: string; mode: VerifactuMode }) {
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  await inCtxTransaction(ctx, async (tx) => {
    // The records chain's lock: no invoice of the company is registered while the mode changes.
    await repo.lockHead(tx.db, companyId, "records");
    const current = await repo.findMode(tx.db, companyId);
    if (current === input.mode) return;
    if (input.mode === "off") {
      const records = await repo.countRecords(tx.db, companyId);
      if (records > 0)
        throw new ConflictError(
          `VeriFactu cannot be turned off: the company already has ${records} registration record(s)`,
          { records },
        );
    }
    const issuer = await issuerOf(tx, companyId);
    if (input.mode === "verifactu" && !/^[0-9A-Z]{9}$/.test(issuer.nif))
      throw new BadRequestError("VeriFactu needs the company's Spanish NIF (9 characters)", [
        { path: "company_id", message: `the company's tax id ${issuer.nif} is not a NIF` },
      ]);
    await repo.saveMode(tx.db, companyId, input.mode);
    await appendEvent(tx, issuer, input.mode === "verifactu" ? "start" : "stop", {
      description: input.mode === "verifactu" ? "VeriFactu turned on" : "VeriFactu turned off",
    });
  });
  return getVerifactuSettings(ctx, companyId);
}

// ---------------------------------------------------------------------------------------------
// Event log

/** Appends an event to the company's event chain, in the caller's transaction. */
export async function appendEvent(
  tx: AuthedCtx,
  issuer: Issuer,
  kind: EventKind,
  detail: Record<string, unknown>,
): Promise<repo.EventRow> {
  const head = await repo.lockHead(tx.db, issuer.id, "events");
  const software = softwareOf(issuer);
  const fields = {
    producerNif: software.producerNif,
    systemId: software.id,
    version: software.version,
    installation: software.installation,
    issuerNif: issuer.nif,
    eventType: EVENT_TYPES[kind],
    previousHash: head.lastHash,
    generatedAt: now(),
  };
  const row = await repo.insertEvent(tx.db, {
    companyId: issuer.id,
    sequence: head.lastSequence + 1,
    kind,
    detail,
    ...fields,
    hash: huella(eventHashInput(fields)),
  });
  await repo.moveHead(tx.db, issuer.id, "events", row);
  return row;
}

export async function logEvent(
  ctx: AuthedCtx,
  companyId: string,
  kind: EventKind,
  detail: Record<string, unknown>,
) {
  return inCtxTransaction(ctx, async (tx) => appendEvent(tx, await issuerOf(tx, companyId), kind, detail));
}

export function listEvents(
  ctx: AuthedCtx,
  f: { companyId?: string; kind?: EventKind; limit: number; offset: number },
) {
  return repo.listEvents(ctx.db, {
    scope: companyFilter(ctx.actor, verifactuEvents.companyId, f.companyId),
    kind: f.kind,
    limit: f.limit,
    offset: f.offset,
  });
}

// ---------------------------------------------------------------------------------------------
// Records

type RecordContent = Omit<
  repo.RecordInsert,
  | "id"
  | "companyId"
  | "sequence"
  | "issuerNif"
  | "previousId"
  | "previousHash"
  | "generatedAt"
  | "hash"
  | "details"
  | "createdAt"
> & { details: Omit<RecordDetails, "previous" | "software" | "issuerName"> };

/**
 * Appends records to the issuer's chain in the caller's transaction: locks the chain's head, links
 * each record to the one before, stamps the time (after the lock, so times never go backwards along
 * the chain), hashes, stores the records (multi-row inserts) with their queue rows and moves the
 * head once.
 */
export async function appendRecords(
  tx: AuthedCtx,
  issuer: Issuer,
  contents: RecordContent[],
): Promise<repo.RecordRow[]> {
  const head = await repo.lockHead(tx.db, issuer.id, "records");
  let previous = head.lastId ? await repo.findRecord(tx.db, head.lastId) : undefined;
  const generatedAt = now();
  const software = softwareOf(issuer);
  const rows: repo.RecordInsert[] = [];
  let link = { id: previous?.id ?? null, hash: head.lastHash, sequence: head.lastSequence };
  let previousInvoice = previous
    ? {
        issuerNif: previous.issuerNif,
        invoiceNumber: previous.invoiceNumber,
        issueDate: aeatDate(previous.invoiceDate),
      }
    : null;
  for (const content of contents) {
    const row: repo.RecordInsert = {
      ...content,
      id: uuidv7(),
      companyId: issuer.id,
      sequence: link.sequence + 1,
      issuerNif: issuer.nif,
      previousId: link.id,
      previousHash: link.hash,
      generatedAt,
      hash: "",
      details: { ...content.details, issuerName: issuer.name, previous: previousInvoice, software },
    };
    row.hash = huella(recordHashInput(row as repo.RecordRow));
    rows.push(row);
    link = { id: row.id as string, hash: row.hash, sequence: row.sequence };
    previousInvoice = {
      issuerNif: issuer.nif,
      invoiceNumber: row.invoiceNumber,
      issueDate: aeatDate(row.invoiceDate),
    };
  }
  const stored = await repo.insertRecords(tx.db, rows);
  previous = stored.at(-1);
  if (previous) await repo.moveHead(tx.db, issuer.id, "records", previous);
  return stored;
}

async function appendRecord(tx: AuthedCtx, issuer: Issuer, content: RecordContent): Promise<repo.RecordRow> {
  const [stored] = await appendRecords(tx, issuer, [content]);
  return stored;
}

function recipientOf(d: DocumentView): RecordDetails["recipient"] {
  const taxId = d.contactTaxId?.trim();
  if (!taxId) return null;
  const name = d.contactName.slice(0, 120);
  const country = (d.contactCountry || "ES").toUpperCase();
  if (country === "ES") return { name, nif: taxId.replace(/^ES/i, "").toUpperCase() };
  return { name, country, idType: EU_COUNTRIES.has(country) ? "02" : "04", id: taxId.slice(0, 20) };
}

function descriptionOf(d: DocumentView): string {
  const text =
    d.notes.trim() ||
    d.lines
      .map((l) => l.description.trim())
      .filter(Boolean)
      .join("; ");
  return (text || `Factura ${d.code}`).slice(0, 500);
}

/** The tax breakdown per VAT group: regime key, qualification or exemption, rate, base, VAT, RE. */
async function breakdownOf(
  ctx: AuthedCtx,
  d: DocumentView,
): Promise<NonNullable<RecordDetails["breakdown"]>> {
  const groups = d.taxes.filter((t) => t.kind === "vat");
  const codes = await listTaxCodes(ctx, {
    companyId: d.companyId,
    kind: "vat",
    includeInactive: true,
    limit: 10_000,
    offset: 0,
  });
  const byId = new Map(codes.rows.map((c) => [c.id, c]));
  const lines = groups.map((t) => {
    const code = t.taxCodeId ? byId.get(t.taxCodeId) : undefined;
    const operation = code?.operation ?? "domestic";
    const base = toMoney(t.base);
    const regime = operation === "export" ? "02" : "01";
    if (code?.exemptionReason) return { regime, exemption: code.exemptionReason, base };
    if (operation === "not_subject") return { regime, qualification: "N1", base };
    const withRe = dec(t.reRate).gt(0) || dec(t.reAmount).gt(0);
    return {
      regime,
      qualification: operation === "reverse_charge" ? "S2" : "S1",
      rate: toPercent(t.rate),
      base,
      vat: toMoney(t.amount),
      ...(withRe ? { reRate: toPercent(t.reRate), re: toMoney(t.reAmount) } : {}),
    };
  });
  if (!lines.length) throw new BadRequestError("VeriFactu needs at least one VAT group on the invoice", []);
  if (lines.length > MAX_BREAKDOWN)
    throw new BadRequestError(`VeriFactu allows at most ${MAX_BREAKDOWN} tax groups per invoice`, [
      { path: "lines", message: `the invoice has ${lines.length} VAT groups` },
    ]);
  return lines;
}

async function seriesKindOf(ctx: AuthedCtx, companyId: string, seriesCode: string) {
  return (await findSeriesOfCompany(ctx, companyId, seriesCode))?.kind ?? "general";
}

/**
 * The RegistroAlta of an invoice just issued, in the issuing transaction (documents' finalized
 * hook). Nothing when the company has VeriFactu off, or for purchase invoices.
 */
export async function registerIssuedInvoice(tx: AuthedCtx, invoice: FinalizedInvoice): Promise<void> {
  if (invoice.direction !== "sale" || invoice.kind !== "invoice") return;
  if ((await repo.findMode(tx.db, invoice.companyId)) !== "verifactu") return;
  const issuer = await issuerOf(tx, invoice.companyId);
  const d = await getDocument(tx, SALES_INVOICE, invoice.id);
  const breakdown = await breakdownOf(tx, d);
  const simplified = (await seriesKindOf(tx, d.companyId, d.seriesCode)) === "simplified";
  let invoiceType = simplified ? "F2" : "F1";
  let rectification: RecordDetails["rectification"] = null;
  if (d.correctsDocumentId) {
    const corrected = await getDocument(tx, SALES_INVOICE, d.correctsDocumentId);
    const correctedSimplified = (await seriesKindOf(tx, d.companyId, corrected.seriesCode)) === "simplified";
    invoiceType = correctedSimplified ? "R5" : "R1";
    const type = d.rectificationType ?? "I";
    rectification = {
      type,
      corrected: [{ number: corrected.code ?? "", issueDate: aeatDate(corrected.issueDate) }],
      ...(type === "S"
        ? { base: toMoney(corrected.net), vat: toMoney(corrected.vat), re: toMoney(corrected.re) }
        : {}),
    };
  }
  const cuota = sum(breakdown.flatMap((b) => [b.vat ?? "0", b.re ?? "0"]));
  const bases = sum(breakdown.map((b) => b.base));
  const recipient = invoiceType === "F2" || invoiceType === "R5" ? null : recipientOf(d);
  await appendRecord(tx, issuer, {
    recordType: "alta",
    documentId: d.id,
    invoiceNumber: d.code ?? invoice.code,
    invoiceDate: d.issueDate,
    invoiceType,
    cuotaTotal: toMoney(cuota),
    importeTotal: toMoney(bases.plus(cuota)),
    details: {
      description: descriptionOf(d),
      operationDate: d.operationDate && d.operationDate !== d.issueDate ? aeatDate(d.operationDate) : null,
      recipient,
      rectification,
      breakdown,
    },
  });
}

export async function getRecord(ctx: AuthedCtx, id: string) {
  const record = assertCompanyVisible(ctx.actor, await repo.findRecord(ctx.db, id), "VeriFactu record");
  const [queue, responses, cancellation] = await allQueries(ctx.db, [
    () => repo.findQueue(ctx.db, id),
    () => repo.responsesOf(ctx.db, id),
    async () => (record.recordType === "alta" ? repo.findCancellationOf(ctx.db, id) : undefined),
  ]);
  return { ...record, queue: queue ?? null, responses, cancelledBy: cancellation?.id ?? null };
}

export interface RecordListFilters {
  companyId?: string;
  recordType?: RecordType;
  documentId?: string;
  invoiceNumber?: string;
  from?: string;
  to?: string;
  estado?: QueueState;
  limit: number;
  offset: number;
}

export function listRecords(ctx: AuthedCtx, f: RecordListFilters) {
  return repo.listRecords(ctx.db, {
    ...f,
    scope: companyFilter(ctx.actor, verifactuRecords.companyId, f.companyId),
  });
}

/**
 * Cancels an alta record issued in error (RegistroAnulacion), chained like any record. The invoice
 * itself is not touched: a correct invoice is corrected with a rectifying invoice instead.
 */
export async function cancelRecord(ctx: AuthedCtx, id: string) {
  const created = await inCtxTransaction(ctx, async (tx) => {
    const target = assertCompanyVisible(tx.actor, await repo.findRecord(tx.db, id), "VeriFactu record");
    if (target.recordType !== "alta")
      throw new ConflictError("Only a registration record (alta) can be cancelled; this is a cancellation", {
        record_type: target.recordType,
      });
    const issuer = await issuerOf(tx, target.companyId);
    // Locks the chain first: two cancellations of one record queue up here and the second sees the first.
    await repo.lockHead(tx.db, issuer.id, "records");
    const existing = await repo.findCancellationOf(tx.db, id);
    if (existing)
      throw new ConflictError(`Record ${target.invoiceNumber} is already cancelled`, {
        cancelled_by: existing.id,
      });
    return appendRecord(tx, issuer, {
      recordType: "anulacion",
      documentId: target.documentId,
      cancelsRecordId: target.id,
      invoiceNumber: target.invoiceNumber,
      invoiceDate: target.invoiceDate,
      details: {},
    });
  });
  return getRecord(ctx, created.id);
}

/** The QR data of an issued invoice that has a live alta record, or null. */
export async function qrFieldsOf(db: Db, documentId: string) {
  const alta = await repo.findAltaOfDocument(db, documentId);
  if (!alta || (await repo.findCancellationOf(db, alta.id))) return null;
  return {
    issuerNif: alta.issuerNif,
    invoiceNumber: alta.invoiceNumber,
    invoiceDate: alta.invoiceDate,
    importeTotal: alta.importeTotal ?? "0.00",
  };
}

export { issuerOf };
