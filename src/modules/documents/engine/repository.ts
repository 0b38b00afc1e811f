import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  lte,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { type Page, paginateBoundedByShape } from "../../../platform/db/paginate.js";
import { preparedByShape, preparedRead, shapeOf } from "../../../platform/db/prepared.js";
import { queryOne } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { normalizeTaxIdInput } from "../../../platform/tax-id.js";
import {
  type Direction,
  type DocumentKind,
  type DocumentState,
  documentAttachments,
  documentCounters,
  documentDues,
  documentLineLinks,
  documentLines,
  documentSeries,
  documents,
  documentTaxes,
} from "../tables.js";

export type DocumentRow = typeof documents.$inferSelect;
export type DocumentInsert = typeof documents.$inferInsert;
export type LineRow = typeof documentLines.$inferSelect;
export type LineInsert = typeof documentLines.$inferInsert;
export type TaxRow = typeof documentTaxes.$inferSelect;
export type TaxInsert = typeof documentTaxes.$inferInsert;
export type DueRow = typeof documentDues.$inferSelect;
export type DueInsert = typeof documentDues.$inferInsert;
export type LinkRow = typeof documentLineLinks.$inferSelect;

/** A document header with its series code (what lists and the detail show). */
export type DocumentHeader = DocumentRow & { seriesCode: string };

// Flat, so a header comes out of the row as is (no copy per row; prepared reads map it in one loop).
const headerColumns = { ...getTableColumns(documents), seriesCode: documentSeries.code };

const selectHeaders = (db: Db) =>
  db
    .select(headerColumns)
    .from(documents)
    .innerJoin(documentSeries, eq(documentSeries.id, documents.seriesId));

const documentById = preparedRead("cuadra_document_by_id", (db) =>
  selectHeaders(db)
    .where(eq(documents.id, sql.placeholder("id")))
    .limit(1),
);

export async function findDocument(
  db: Db,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<DocumentHeader | undefined> {
  const [row] = opts.lock
    ? await selectHeaders(db).where(eq(documents.id, id)).limit(1).for("update", { of: documents })
    : await documentById(db, { id });
  return row;
}

/** Several documents locked for update, in id order so concurrent conversions cannot deadlock. */
export function lockDocuments(tx: Db, ids: string[]): Promise<DocumentHeader[]> {
  return selectHeaders(tx)
    .where(inArray(documents.id, ids))
    .orderBy(asc(documents.id))
    .for("update", { of: documents });
}

/** Documents with this code (codes are unique per company, so several companies may share one). */
export function findDocumentsByCode(
  db: Db,
  f: { direction: Direction; kind: DocumentKind; code: string; scope?: SQL },
): Promise<DocumentHeader[]> {
  return selectHeaders(db)
    .where(
      and(
        f.scope,
        eq(documents.direction, f.direction),
        eq(documents.kind, f.kind),
        eq(documents.code, f.code),
      ),
    )
    .orderBy(documents.companyId)
    .limit(10);
}

/** Purchase invoices by the supplier's own number (may match several suppliers). */
export function findPurchaseInvoicesBySupplierNumber(
  db: Db,
  supplierNumber: string,
  scope?: SQL,
): Promise<DocumentHeader[]> {
  return selectHeaders(db)
    .where(
      and(
        scope,
        eq(documents.direction, "purchase"),
        eq(documents.kind, "invoice"),
        eq(documents.supplierNumber, supplierNumber),
      ),
    )
    .orderBy(desc(documents.issueDate))
    .limit(10);
}

const linesOfDocument = preparedRead("cuadra_document_lines", (db) =>
  db
    .select()
    .from(documentLines)
    .where(eq(documentLines.documentId, sql.placeholder("documentId")))
    .orderBy(asc(documentLines.lineNo)),
);

export function linesOf(db: Db, documentId: string): Promise<LineRow[]> {
  return linesOfDocument(db, { documentId });
}

export function linesOfDocuments(db: Db, documentIds: string[]): Promise<LineRow[]> {
  if (!documentIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(documentLines)
    .where(inArray(documentLines.documentId, documentIds))
    .orderBy(asc(documentLines.documentId), asc(documentLines.lineNo));
}

const taxesOfDocument = preparedRead("cuadra_document_taxes", (db) =>
  db
    .select()
    .from(documentTaxes)
    .where(eq(documentTaxes.documentId, sql.placeholder("documentId")))
    .orderBy(asc(documentTaxes.kind), desc(documentTaxes.rate)),
);

export function taxesOf(db: Db, documentId: string): Promise<TaxRow[]> {
  return taxesOfDocument(db, { documentId });
}

export function taxesOfDocuments(db: Db, documentIds: string[]): Promise<TaxRow[]> {
  if (!documentIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(documentTaxes)
    .where(inArray(documentTaxes.documentId, documentIds))
    .orderBy(asc(documentTaxes.documentId), asc(documentTaxes.kind), desc(documentTaxes.rate));
}

const duesOfDocument = preparedRead("cuadra_document_dues", (db) =>
  db
    .select()
    .from(documentDues)
    .where(eq(documentDues.documentId, sql.placeholder("documentId")))
    .orderBy(asc(documentDues.sequence)),
);

export function duesOf(db: Db, documentId: string): Promise<DueRow[]> {
  return duesOfDocument(db, { documentId });
}

export function duesOfDocuments(db: Db, documentIds: string[]): Promise<DueRow[]> {
  if (!documentIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(documentDues)
    .where(inArray(documentDues.documentId, documentIds))
    .orderBy(asc(documentDues.documentId), asc(documentDues.sequence));
}

/** The documents this one was converted from, those converted from it and its rectifications: one query. */
export async function relatedDocuments(db: Db, documentId: string) {
  const rows = await queryRelated(db, documentId);
  return {
    sources: rows.filter((r) => r.relation === "source"),
    targets: rows.filter((r) => r.relation === "target"),
    rectifications: rows.filter((r) => r.relation === "rectification"),
  };
}

interface RelatedRow {
  relation: "source" | "target" | "rectification";
  id: string;
  kind: DocumentKind;
  code: string | null;
  estado: DocumentState;
}

async function queryRelated(db: Db, documentId: string): Promise<RelatedRow[]> {
  const result = (await db.execute(sql`
    select distinct 'source' as relation, d.id, d.kind, d.code, d.estado, d.issue_date
      from ${documentLineLinks} l join ${documents} d on d.id = l.from_document_id
     where l.to_document_id = ${documentId}
    union
    select distinct 'target', d.id, d.kind, d.code, d.estado, d.issue_date
      from ${documentLineLinks} l join ${documents} d on d.id = l.to_document_id
     where l.from_document_id = ${documentId}
    union
    select 'rectification', d.id, d.kind, d.code, d.estado, d.issue_date
      from ${documents} d where d.corrects_document_id = ${documentId}
    order by issue_date, id`)) as unknown as { rows: RelatedRow[] };
  return result.rows;
}

export async function insertDocument(tx: Db, values: DocumentInsert) {
  const [row] = await tx.insert(documents).values(values).returning();
  return row;
}

export async function updateDocument(tx: Db, id: string, values: Partial<DocumentInsert>) {
  const [row] = await tx.update(documents).set(values).where(eq(documents.id, id)).returning();
  return row;
}

export async function deleteDocument(tx: Db, id: string) {
  await tx.delete(documents).where(eq(documents.id, id));
}

export async function insertLines(tx: Db, rows: LineInsert[]) {
  if (!rows.length) return [];
  return tx.insert(documentLines).values(rows).returning();
}

export async function updateLine(tx: Db, id: string, values: Partial<LineInsert>) {
  await tx.update(documentLines).set(values).where(eq(documentLines.id, id));
}

/** Moves every line number of a document out of the way (before lines are renumbered). */
export async function shiftLineNumbers(tx: Db, documentId: string) {
  await tx
    .update(documentLines)
    .set({ lineNo: sql`${documentLines.lineNo} + 100000` })
    .where(eq(documentLines.documentId, documentId));
}

export async function deleteLines(tx: Db, ids: string[]) {
  if (ids.length) await tx.delete(documentLines).where(inArray(documentLines.id, ids));
}

export async function insertTaxes(tx: Db, rows: TaxInsert[]) {
  if (rows.length) await tx.insert(documentTaxes).values(rows);
}

export async function replaceTaxes(tx: Db, documentId: string, rows: TaxInsert[]) {
  await tx.delete(documentTaxes).where(eq(documentTaxes.documentId, documentId));
  if (rows.length) await tx.insert(documentTaxes).values(rows);
}

export async function insertDues(tx: Db, rows: DueInsert[]) {
  if (rows.length) await tx.insert(documentDues).values(rows);
}

export async function insertLinks(tx: Db, rows: (typeof documentLineLinks.$inferInsert)[]) {
  if (rows.length) await tx.insert(documentLineLinks).values(rows);
}

/** Links into the lines of a document (what it was converted from). */
export function linksInto(db: Db, documentId: string): Promise<LinkRow[]> {
  return db.select().from(documentLineLinks).where(eq(documentLineLinks.toDocumentId, documentId));
}

/** Files attached to the document (document_attachments). */
export async function hasAttachments(db: Db, documentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: documentAttachments.id })
    .from(documentAttachments)
    .where(eq(documentAttachments.documentId, documentId))
    .limit(1);
  return Boolean(row);
}

export async function hasTargets(db: Db, documentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: documentLineLinks.id })
    .from(documentLineLinks)
    .where(eq(documentLineLinks.fromDocumentId, documentId))
    .limit(1);
  return Boolean(row);
}

export async function updateLinkQuantity(tx: Db, id: string, quantity: string) {
  await tx.update(documentLineLinks).set({ quantity }).where(eq(documentLineLinks.id, id));
}

export async function deleteLinks(tx: Db, ids: string[]) {
  if (ids.length) await tx.delete(documentLineLinks).where(inArray(documentLineLinks.id, ids));
}

/** Adds `delta` (may be negative) to a line's served quantity. */
export async function addServed(tx: Db, lineId: string, delta: string) {
  await tx
    .update(documentLines)
    .set({ servedQuantity: sql`${documentLines.servedQuantity} + ${delta}::numeric` })
    .where(eq(documentLines.id, lineId));
}

/**
 * Takes the next number of a counter. The row stays locked until the transaction ends, so
 * numbers are gapless and unique; a date earlier than the series' last one takes no number
 * (undefined) and the caller answers 409.
 */
export async function takeNumber(
  tx: Db,
  key: { companyId: string; direction: Direction; kind: DocumentKind; seriesId: string; year: number },
  date: string,
): Promise<number | undefined> {
  const row = await queryOne<{ last_number: number }>(
    tx,
    sql`insert into ${documentCounters} (company_id, direction, kind, series_id, year, last_number, last_date)
        values (${key.companyId}, ${key.direction}, ${key.kind}, ${key.seriesId}, ${key.year}, 1, ${date})
        on conflict (company_id, direction, kind, series_id, year) do update
           set last_number = ${documentCounters}.last_number + 1, last_date = excluded.last_date
         where ${documentCounters}.last_date is null or ${documentCounters}.last_date <= excluded.last_date
        returning last_number`,
  );
  return row ? Number(row.last_number) : undefined;
}

export async function lastNumberedDate(
  db: Db,
  key: { companyId: string; direction: Direction; kind: DocumentKind; seriesId: string; year: number },
) {
  const [row] = await db
    .select({ lastDate: documentCounters.lastDate, lastNumber: documentCounters.lastNumber })
    .from(documentCounters)
    .where(
      and(
        eq(documentCounters.companyId, key.companyId),
        eq(documentCounters.direction, key.direction),
        eq(documentCounters.kind, key.kind),
        eq(documentCounters.seriesId, key.seriesId),
        eq(documentCounters.year, key.year),
      ),
    );
  return row;
}

export interface DocumentListFilter {
  /** The one company listed (companyScopeId: the caller's scope and the company asked for); undefined: all. */
  companyId?: string;
  direction: Direction;
  kind: DocumentKind;
  estado?: DocumentState;
  /** Invoices: pendiente | parcial | pagada | vencida, from paid amount, total and dues. */
  paymentStatus?: "pendiente" | "parcial" | "pagada" | "vencida";
  paid?: boolean;
  today: string;
  dateFrom?: string;
  dateTo?: string;
  contactId?: string;
  seriesCode?: string;
  search?: string;
  limit: number;
  offset: number;
  /** Keyset cursor: the id of the last document of the previous page (one matching the filters). */
  after?: string;
}

const fullyPaid = sql`(case when ${documents.total} >= 0 then ${documents.paidAmount} >= ${documents.total}
  else ${documents.paidAmount} <= ${documents.total} end)`;

/** A list filter's values by name, or their placeholders: the same conditions, run built or prepared. */
type DocumentValues = (key: keyof DocumentListFilter | "pattern" | "taxIdPattern") => unknown;

function paymentCondition(payment: string, value: DocumentValues): SQL | undefined {
  const overdue = sql`exists (select 1 from ${documentDues} d where d.document_id = ${documents.id}
    and d.estado <> 'pagado' and d.due_date < ${value("today")})`;
  switch (payment) {
    case "pagada":
    case "paid":
      return fullyPaid;
    case "vencida":
      return and(sql`not ${fullyPaid}`, overdue);
    case "parcial":
      return and(sql`not ${fullyPaid}`, sql`${documents.paidAmount} <> 0`, sql`not ${overdue}`);
    case "pendiente":
      return and(sql`${documents.paidAmount} = 0`, sql`${documents.total} <> 0`, sql`not ${overdue}`);
    case "unpaid":
      return sql`not ${fullyPaid}`;
    default:
      return undefined;
  }
}

/** The payment condition a filter asks for: a status, else paid / unpaid, else none ("-"). */
const paymentShape = (f: DocumentListFilter) =>
  f.paymentStatus ?? (f.paid === undefined ? "-" : f.paid ? "paid" : "unpaid");

function searchCondition(value: DocumentValues) {
  return or(
    ilike(documents.code, value("pattern") as string),
    ilike(documents.contactName, value("pattern") as string),
    ilike(documents.contactTaxId, value("taxIdPattern") as string),
    ilike(documents.supplierNumber, value("pattern") as string),
  );
}

/** The optional filters that change a document list's SQL (with the payment condition: its shape). */
const DOCUMENT_FILTER_KEYS = [
  "companyId",
  "estado",
  "dateFrom",
  "dateTo",
  "contactId",
  "seriesCode",
  "search",
] as const;

const documentListShape = (f: DocumentListFilter) =>
  `${shapeOf(f as unknown as Record<string, unknown>, DOCUMENT_FILTER_KEYS)}:${paymentShape(f)}:${f.after ? 1 : 0}`;

/** The part of a shape that decides what is counted: the filters, not the cursor. */
const countShapeOf = (shape: string) => shape.slice(0, shape.lastIndexOf(":"));

function documentValues(f: DocumentListFilter): DocumentValues {
  const pattern = f.search ? likePattern(f.search) : undefined;
  const taxIdPattern = f.search ? likePattern(normalizeTaxIdInput(f.search) || f.search) : undefined;
  return (key) => (key === "pattern" ? pattern : key === "taxIdPattern" ? taxIdPattern : f[key]);
}

const placeholders: DocumentValues = (key) => sql.placeholder(key);

/**
 * Conditions on `documents` alone (the series as a subquery), so the count stays a single-table
 * scan; `shape` (documentListShape) says which are present, `value` gives their values or placeholders.
 */
function documentConditions(db: Db, shape: string, value: DocumentValues) {
  const has = (key: (typeof DOCUMENT_FILTER_KEYS)[number]) =>
    shape[DOCUMENT_FILTER_KEYS.indexOf(key)] === "1";
  return and(
    has("companyId") ? eq(documents.companyId, value("companyId") as string) : undefined,
    eq(documents.direction, value("direction") as Direction),
    eq(documents.kind, value("kind") as DocumentKind),
    has("estado") ? eq(documents.estado, value("estado") as DocumentState) : undefined,
    paymentCondition(shape.split(":")[1]!, value),
    has("dateFrom") ? gte(documents.issueDate, value("dateFrom") as string) : undefined,
    has("dateTo") ? lte(documents.issueDate, value("dateTo") as string) : undefined,
    has("contactId") ? eq(documents.contactId, value("contactId") as string) : undefined,
    has("seriesCode")
      ? inArray(
          documents.seriesId,
          db
            .select({ id: documentSeries.id })
            .from(documentSeries)
            .where(eq(documentSeries.code, value("seriesCode") as string)),
        )
      : undefined,
    has("search") ? searchCondition(value) : undefined,
  );
}

const documentCursorOfShape = preparedByShape("cuadra_document_cursor", (db, shape) =>
  db
    .select({ issueDate: documents.issueDate, id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, sql.placeholder("after")), documentConditions(db, shape, placeholders))),
);

/**
 * Newest first: the page continues after the cursor document in (issue date, id) descending, read
 * from the (company, direction, kind, issue date, id) index.
 */
const documentPageOfShape = preparedByShape("cuadra_document_page", (db, shape) =>
  selectHeaders(db)
    .where(
      and(
        documentConditions(db, shape, placeholders),
        shape.endsWith(":1")
          ? sql`(${documents.issueDate}, ${documents.id}) < (${sql.placeholder("cursorDate")}::date, ${sql.placeholder("cursorId")}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(documents.issueDate), desc(documents.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset")),
);

/** The bounded count, prepared per filter shape (the cursor does not change what it counts). */
const documentPageCounted = paginateBoundedByShape("cuadra_document_count", documents, documentConditions);

/**
 * A page of document headers, or null when `after` names no document of the filtered list. The
 * cursor lookup, the page and its bounded count run as statements prepared per filter shape.
 */
export async function listDocuments(db: Db, f: DocumentListFilter): Promise<Page<DocumentHeader> | null> {
  const shape = documentListShape(f);
  const value = documentValues(f);
  const values: Record<string, unknown> = {
    pattern: value("pattern"),
    taxIdPattern: value("taxIdPattern"),
  };
  for (const [key, v] of Object.entries(f)) if (v !== undefined) values[key] = v;
  if (f.after) {
    const [c] = await documentCursorOfShape(db, shape, values);
    if (!c) return null;
    Object.assign(values, { cursorDate: c.issueDate, cursorId: c.id });
  }
  return documentPageCounted(db, () => documentPageOfShape(db, shape, values), countShapeOf(shape), values);
}

const openDuesOf = preparedRead("cuadra_document_open_dues", (db) =>
  db
    .select({
      documentId: documentDues.documentId,
      dueDate: documentDues.dueDate,
      amount: documentDues.amount,
    })
    .from(documentDues)
    .where(
      and(
        sql`${documentDues.documentId} = any(${sql.placeholder("ids")}::uuid[])`,
        sql`${documentDues.estado} <> 'pagado'`,
      ),
    ),
);

/** Dues of documents still open, for the derived payment status of a page of invoices. */
export function openDueDates(db: Db, documentIds: string[]) {
  if (!documentIds.length) return Promise.resolve([]);
  return openDuesOf(db, { ids: documentIds });
}

/**
 * The quantity of each corrected line that rectifying invoices already correct (negative), counting
 * drafts too unless issuedOnly.
 */
export async function rectifiedQuantities(
  db: Db,
  correctedLineIds: string[],
  opts: { issuedOnly?: boolean } = {},
) {
  if (!correctedLineIds.length) return new Map<string, string>();
  const rows = await db
    .select({
      lineId: documentLines.correctsLineId,
      quantity: sql<string>`sum(${documentLines.quantity})`,
    })
    .from(documentLines)
    .innerJoin(documents, eq(documents.id, documentLines.documentId))
    .where(
      and(
        inArray(documentLines.correctsLineId, correctedLineIds),
        opts.issuedOnly ? inArray(documents.estado, ["emitida", "aprobada"]) : undefined,
      ),
    )
    .groupBy(documentLines.correctsLineId);
  return new Map(rows.map((r) => [r.lineId as string, r.quantity]));
}
