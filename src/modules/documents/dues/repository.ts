import { and, asc, desc, eq, exists, gte, ilike, inArray, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { type Page, paginateBounded } from "../../../platform/db/paginate.js";
import { pgArray, queryRows } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { Dec } from "../../../platform/money.js";
import { normalizeTaxIdInput } from "../../../platform/tax-id.js";
import { type Direction, documentDues, documents } from "../tables.js";

export type DueInsert = typeof documentDues.$inferInsert;

/** What a due is open for: its amount minus what was paid (negative on a credit note). */
const openAmount = sql<string>`(${documentDues.amount} - ${documentDues.paidAmount})`;

/** A due with its invoice's code and contact snapshot, as treasury shows it. */
export const dueColumns = {
  id: documentDues.id,
  companyId: documentDues.companyId,
  documentId: documentDues.documentId,
  direction: documentDues.direction,
  contactId: documentDues.contactId,
  sequence: documentDues.sequence,
  code: documentDues.code,
  dueDate: documentDues.dueDate,
  amount: documentDues.amount,
  paidAmount: documentDues.paidAmount,
  openAmount: sql<string>`${openAmount}::numeric(18,2)::text`,
  estado: documentDues.estado,
  documentCode: documents.code,
  documentIssueDate: documents.issueDate,
  documentTotal: documents.total,
  contactName: documents.contactName,
  contactTaxId: documents.contactTaxId,
  supplierNumber: documents.supplierNumber,
  createdAt: documentDues.createdAt,
  updatedAt: documentDues.updatedAt,
};

export interface DueView {
  id: string;
  companyId: string;
  documentId: string;
  direction: Direction;
  contactId: string;
  sequence: number;
  code: string;
  dueDate: string;
  amount: string;
  paidAmount: string;
  openAmount: string;
  estado: (typeof documentDues.$inferSelect)["estado"];
  /** Always set: only numbered invoices have dues. */
  documentCode: string;
  documentIssueDate: string;
  documentTotal: string;
  contactName: string;
  contactTaxId: string | null;
  supplierNumber: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The statuses treasury filters by: vencido = not fully paid and due before `today`. */
export type DueStatusFilter = "pendiente" | "parcial" | "pagado" | "vencido" | "abierto";

export interface DueListFilter {
  scope?: SQL;
  direction: Direction;
  status?: DueStatusFilter;
  today: string;
  dateFrom?: string;
  dateTo?: string;
  contactId?: string;
  documentId?: string;
  ids?: string[];
  search?: string;
  limit: number;
  offset: number;
  /** Keyset cursor: the id of the last due of the previous page (one matching the filters). */
  after?: string;
}

function statusCondition(status: DueStatusFilter | undefined, today: string): SQL | undefined {
  const notPaid = sql`${documentDues.estado} <> 'pagado'`;
  switch (status) {
    case "vencido":
      return and(notPaid, lt(documentDues.dueDate, today));
    case "abierto":
      return notPaid;
    case "pendiente":
    case "parcial":
      return and(eq(documentDues.estado, status), gte(documentDues.dueDate, today));
    case "pagado":
      return eq(documentDues.estado, "pagado");
    default:
      return undefined;
  }
}

/** The invoice's columns through a correlated EXISTS, so the count needs no join. */
function searchCondition(db: Db, text: string) {
  const pattern = likePattern(text);
  return or(
    ilike(documentDues.code, pattern),
    exists(
      db
        .select({ one: sql`1` })
        .from(documents)
        .where(
          and(
            eq(documents.id, documentDues.documentId),
            or(
              ilike(documents.contactName, pattern),
              ilike(documents.contactTaxId, likePattern(normalizeTaxIdInput(text) || text)),
              ilike(documents.supplierNumber, pattern),
            ),
          ),
        ),
    ),
  );
}

function dueWhere(db: Db, f: Omit<DueListFilter, "limit" | "offset" | "after">) {
  return and(
    f.scope,
    eq(documentDues.direction, f.direction),
    statusCondition(f.status, f.today),
    f.dateFrom ? gte(documentDues.dueDate, f.dateFrom) : undefined,
    f.dateTo ? lte(documentDues.dueDate, f.dateTo) : undefined,
    f.contactId ? eq(documentDues.contactId, f.contactId) : undefined,
    f.documentId ? eq(documentDues.documentId, f.documentId) : undefined,
    f.ids
      ? inArray(documentDues.id, f.ids.length ? f.ids : ["00000000-0000-0000-0000-000000000000"])
      : undefined,
    f.search ? searchCondition(db, f.search) : undefined,
  );
}

/** The page continues after the cursor due in (due date, code, id); null when it is not in the list. */
async function dueCursor(db: Db, f: DueListFilter, where: SQL | undefined) {
  if (!f.after) return undefined;
  const [c] = await db
    .select({ dueDate: documentDues.dueDate, code: documentDues.code, id: documentDues.id })
    .from(documentDues)
    .where(and(eq(documentDues.id, f.after), where));
  if (!c) return null;
  return sql`(${documentDues.dueDate}, ${documentDues.code}, ${documentDues.id}) > (${c.dueDate}::date, ${c.code}::text, ${c.id}::uuid)`;
}

/**
 * A page of dues by due date (oldest first), with their invoice's code and contact; null when
 * `after` names no due of the filtered list.
 */
export async function listDues(db: Db, f: DueListFilter): Promise<Page<DueView> | null> {
  const where = dueWhere(db, f);
  const cursor = await dueCursor(db, f, where);
  if (cursor === null) return null;
  return paginateBounded(
    db,
    () =>
      db
        .select(dueColumns)
        .from(documentDues)
        .innerJoin(documents, eq(documents.id, documentDues.documentId))
        .where(and(where, cursor))
        .orderBy(asc(documentDues.dueDate), asc(documentDues.code), asc(documentDues.id))
        .limit(f.limit)
        .offset(f.offset) as unknown as Promise<DueView[]>,
    documentDues,
    where,
  );
}

/** An open due as bank matching reads it: only what the matcher scores, as plain strings. */
export interface DueForMatching {
  id: string;
  direction: Direction;
  documentCode: string;
  code: string;
  supplierNumber: string | null;
  dueDate: string;
  openAmount: string;
  contactName: string;
  contactTaxId: string | null;
}

/**
 * Every open due of a company (by due date, code, id) in one raw query: no count, no timestamps,
 * no row mapping beyond renaming, for matching 100,000 bank movements against 100,000 dues.
 */
export async function openDuesForMatching(db: Db, companyId: string): Promise<DueForMatching[]> {
  const rows = await queryRows<{
    id: string;
    direction: Direction;
    document_code: string;
    code: string;
    supplier_number: string | null;
    due_date: string;
    open_amount: string;
    contact_name: string;
    contact_tax_id: string | null;
  }>(
    db,
    sql`select d.id, d.direction, doc.code as document_code, d.code, doc.supplier_number,
               d.due_date::text as due_date, (d.amount - d.paid_amount)::numeric(18,2)::text as open_amount,
               doc.contact_name, doc.contact_tax_id
          from ${documentDues} d join ${documents} doc on doc.id = d.document_id
         where d.company_id = ${companyId} and d.estado <> 'pagado'
         order by d.due_date, d.code, d.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    direction: r.direction,
    documentCode: r.document_code,
    code: r.code,
    supplierNumber: r.supplier_number,
    dueDate: r.due_date,
    openAmount: r.open_amount,
    contactName: r.contact_name,
    contactTaxId: r.contact_tax_id,
  }));
}

/** One due with its invoice; `lock` takes the row (FOR UPDATE) for a payment or a change. */
export async function findDue(db: Db, id: string, lock = false): Promise<DueView | undefined> {
  const query = db
    .select(dueColumns)
    .from(documentDues)
    .innerJoin(documents, eq(documents.id, documentDues.documentId))
    .where(eq(documentDues.id, id))
    .limit(1);
  const [row] = (await (lock ? query.for("update", { of: documentDues }) : query)) as unknown as DueView[];
  return row;
}

/** Several dues with their invoices; `lock` takes them (FOR UPDATE) in id order, so concurrent batches queue. */
export async function findDues(db: Db, ids: string[], lock = false): Promise<DueView[]> {
  if (!ids.length) return [];
  const query = db
    .select(dueColumns)
    .from(documentDues)
    .innerJoin(documents, eq(documents.id, documentDues.documentId))
    .where(sql`${documentDues.id} = any(${pgArray([...new Set(ids)])}::uuid[])`)
    .orderBy(asc(documentDues.id));
  return (await (lock ? query.for("update", { of: documentDues }) : query)) as unknown as DueView[];
}

/** addToPaid for many dues at once: one UPDATE of the dues and one of their invoices, summed per row. */
export async function addToPaidMany(
  tx: Db,
  items: Array<{ dueId: string; documentId: string; delta: string }>,
) {
  if (!items.length) return;
  // Summed per row; a row paid once keeps its delta string (no Decimal for 100,000 single payments).
  const byDue = new Map<string, string>();
  const byDocument = new Map<string, string>();
  const add = (map: Map<string, string>, key: string, delta: string) => {
    const before = map.get(key);
    map.set(key, before === undefined ? delta : new Dec(before).plus(delta).toString());
  };
  for (const { dueId, documentId, delta } of items) {
    add(byDue, dueId, delta);
    add(byDocument, documentId, delta);
  }
  const paid = sql`(d.paid_amount + v.delta)`;
  await tx.execute(sql`
    update ${documentDues} d set paid_amount = ${paid},
      estado = case when sign(d.amount) * ${paid} >= abs(d.amount) then 'pagado'
                    when ${paid} <> 0 then 'parcial' else 'pendiente' end,
      updated_at = now()
      from (select unnest(${pgArray([...byDue.keys()])}::uuid[]) as id,
                   unnest(${pgArray([...byDue.values()])}::numeric[]) as delta) v
     where d.id = v.id`);
  await tx.execute(sql`
    update ${documents} doc set paid_amount = doc.paid_amount + v.delta, updated_at = now()
      from (select unnest(${pgArray([...byDocument.keys()])}::uuid[]) as id,
                   unnest(${pgArray([...byDocument.values()])}::numeric[]) as delta) v
     where doc.id = v.id`);
}

/**
 * Adds `delta` to what was paid of a due and of its invoice, and derives the due's state: pagado
 * when nothing is left open (on the due's side of zero), parcial when something was paid.
 */
export async function addToPaid(tx: Db, dueId: string, documentId: string, delta: string) {
  const paid = sql`(${documentDues.paidAmount} + ${delta}::numeric)`;
  await tx
    .update(documentDues)
    .set({
      paidAmount: sql`${paid}`,
      estado: sql`case
        when sign(${documentDues.amount}) * ${paid} >= abs(${documentDues.amount}) then 'pagado'
        when ${paid} <> 0 then 'parcial' else 'pendiente' end`,
      updatedAt: new Date(),
    })
    .where(eq(documentDues.id, dueId));
  await tx
    .update(documents)
    .set({ paidAmount: sql`${documents.paidAmount} + ${delta}::numeric`, updatedAt: new Date() })
    .where(eq(documents.id, documentId));
}

export async function updateDue(tx: Db, id: string, values: { dueDate?: string; amount?: string }) {
  await tx
    .update(documentDues)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(documentDues.id, id));
}

export async function insertDues(tx: Db, rows: DueInsert[]) {
  if (rows.length) await tx.insert(documentDues).values(rows);
}

/** The invoice of a due, locked: its total, state and the sum and last sequence of its dues. */
export async function invoiceForDues(tx: Db, documentId: string) {
  const [doc] = await tx
    .select({
      id: documents.id,
      companyId: documents.companyId,
      direction: documents.direction,
      kind: documents.kind,
      estado: documents.estado,
      code: documents.code,
      contactId: documents.contactId,
      total: documents.total,
    })
    .from(documents)
    .where(eq(documents.id, documentId))
    .for("update")
    .limit(1);
  if (!doc) return undefined;
  const [sums] = await tx
    .select({
      dueTotal: sql<string>`coalesce(sum(${documentDues.amount}), 0)::text`,
      lastSequence: sql<number>`coalesce(max(${documentDues.sequence}), 0)::int`,
    })
    .from(documentDues)
    .where(eq(documentDues.documentId, documentId));
  return { ...doc, dueTotal: sums.dueTotal, lastSequence: Number(sums.lastSequence) };
}

/** The invoice's unpaid dues (nothing paid yet), latest first. */
export function unpaidDuesOf(tx: Db, documentId: string) {
  return tx
    .select({ id: documentDues.id, amount: documentDues.amount, sequence: documentDues.sequence })
    .from(documentDues)
    .where(and(eq(documentDues.documentId, documentId), eq(documentDues.paidAmount, "0")))
    .orderBy(desc(documentDues.sequence));
}

/** Open amounts summed per direction and due date (cash-flow inflows and outflows). */
export function openDueSumsByDate(
  db: Db,
  f: { companyId: string; from?: string; to?: string; before?: string },
) {
  return queryRows<{ direction: Direction; due_date: string; open: string; dues: number }>(
    db,
    sql`select d.direction, d.due_date::text as due_date,
               sum(d.amount - d.paid_amount)::numeric(18,2)::text as open, count(*)::int as dues
          from ${documentDues} d
         where d.company_id = ${f.companyId} and d.estado <> 'pagado'
           ${f.from ? sql`and d.due_date >= ${f.from}` : sql``}
           ${f.to ? sql`and d.due_date <= ${f.to}` : sql``}
           ${f.before ? sql`and d.due_date < ${f.before}` : sql``}
         group by d.direction, d.due_date
         order by d.direction, d.due_date`,
  );
}

export interface AgingRow {
  direction: Direction;
  contact_id: string;
  contact_name: string;
  contact_tax_id: string | null;
  not_due: string;
  d0_30: string;
  d31_60: string;
  d61_90: string;
  over_90: string;
  total: string;
}

/**
 * Open amounts per contact in aging buckets by days past due at `asOf` (0-30, 31-60, 61-90, >90;
 * not yet due apart), of the invoices issued by then.
 */
export function agingByContact(db: Db, f: { companyId: string; asOf: string }) {
  const days = sql`(${f.asOf}::date - d.due_date)`;
  const bucket = (cond: SQL) =>
    sql`coalesce(sum(d.amount - d.paid_amount) filter (where ${cond}), 0)::numeric(18,2)::text`;
  return queryRows<AgingRow>(
    db,
    sql`select d.direction, d.contact_id, min(doc.contact_name) as contact_name,
               min(doc.contact_tax_id) as contact_tax_id,
               ${bucket(sql`${days} < 0`)} as not_due,
               ${bucket(sql`${days} between 0 and 30`)} as d0_30,
               ${bucket(sql`${days} between 31 and 60`)} as d31_60,
               ${bucket(sql`${days} between 61 and 90`)} as d61_90,
               ${bucket(sql`${days} > 90`)} as over_90,
               sum(d.amount - d.paid_amount)::numeric(18,2)::text as total
          from ${documentDues} d join ${documents} doc on doc.id = d.document_id
         where d.company_id = ${f.companyId} and d.estado <> 'pagado' and doc.issue_date <= ${f.asOf}
         group by d.direction, d.contact_id
         order by d.direction, min(doc.contact_name), d.contact_id`,
  );
}
