import { and, asc, count, eq, gt, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { paginate } from "../../platform/db/paginate.js";
import {
  type Chain,
  type QueueState,
  type RecordType,
  type VerifactuMode,
  verifactuChainHeads,
  verifactuEvents,
  verifactuQueue,
  verifactuRecords,
  verifactuResponses,
  verifactuSettings,
} from "./tables.js";

export type RecordRow = typeof verifactuRecords.$inferSelect;
export type RecordInsert = typeof verifactuRecords.$inferInsert;
export type EventRow = typeof verifactuEvents.$inferSelect;
export type EventInsert = typeof verifactuEvents.$inferInsert;
export type HeadRow = typeof verifactuChainHeads.$inferSelect;
export type QueueRow = typeof verifactuQueue.$inferSelect;
export type ResponseRow = typeof verifactuResponses.$inferSelect;
export type ResponseInsert = typeof verifactuResponses.$inferInsert;

/** A record with its submission state. */
export type RecordWithQueue = RecordRow & { queue: QueueRow | null };

// Settings

export async function findMode(db: Db, companyId: string): Promise<VerifactuMode> {
  const [row] = await db
    .select({ mode: verifactuSettings.mode })
    .from(verifactuSettings)
    .where(eq(verifactuSettings.companyId, companyId))
    .limit(1);
  return row?.mode ?? "off";
}

export async function saveMode(tx: Db, companyId: string, mode: VerifactuMode) {
  await tx
    .insert(verifactuSettings)
    .values({ companyId, mode })
    .onConflictDoUpdate({ target: verifactuSettings.companyId, set: { mode, updatedAt: new Date() } });
}

export async function countRecords(db: Db, companyId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(verifactuRecords)
    .where(eq(verifactuRecords.companyId, companyId));
  return Number(row?.total ?? 0);
}

// Chain heads

/**
 * The head of a company's chain, locked FOR UPDATE until the transaction ends: every append to the
 * chain goes through here, so appends of one company run one after another (one unbroken chain).
 */
export async function lockHead(tx: Db, companyId: string, chain: Chain): Promise<HeadRow> {
  await tx.insert(verifactuChainHeads).values({ companyId, chain }).onConflictDoNothing();
  const [head] = await tx
    .select()
    .from(verifactuChainHeads)
    .where(and(eq(verifactuChainHeads.companyId, companyId), eq(verifactuChainHeads.chain, chain)))
    .for("update");
  return head;
}

export async function findHead(db: Db, companyId: string, chain: Chain): Promise<HeadRow | undefined> {
  const [head] = await db
    .select()
    .from(verifactuChainHeads)
    .where(and(eq(verifactuChainHeads.companyId, companyId), eq(verifactuChainHeads.chain, chain)));
  return head;
}

export async function moveHead(
  tx: Db,
  companyId: string,
  chain: Chain,
  to: { id: string; sequence: number; hash: string },
) {
  await tx
    .update(verifactuChainHeads)
    .set({ lastId: to.id, lastSequence: to.sequence, lastHash: to.hash, updatedAt: new Date() })
    .where(and(eq(verifactuChainHeads.companyId, companyId), eq(verifactuChainHeads.chain, chain)));
}

// Records

/** Stores records and queues each for the AEAT, in chunks (a statement has at most 65,535 parameters). */
export async function insertRecords(tx: Db, values: RecordInsert[]): Promise<RecordRow[]> {
  const stored: RecordRow[] = [];
  for (let i = 0; i < values.length; i += 500) {
    const rows = await tx
      .insert(verifactuRecords)
      .values(values.slice(i, i + 500))
      .returning();
    await tx
      .insert(verifactuQueue)
      .values(rows.map((r) => ({ recordId: r.id, companyId: r.companyId, sequence: r.sequence })));
    stored.push(...rows);
  }
  return stored.sort((a, b) => a.sequence - b.sequence);
}

export async function findRecord(db: Db, id: string): Promise<RecordRow | undefined> {
  const [row] = await db.select().from(verifactuRecords).where(eq(verifactuRecords.id, id)).limit(1);
  return row;
}

export async function findRecordsByIds(db: Db, ids: string[]): Promise<RecordRow[]> {
  if (!ids.length) return [];
  return db.select().from(verifactuRecords).where(inArray(verifactuRecords.id, ids));
}

/** The alta record of an invoice (the last one, should an invoice ever be registered twice). */
export async function findAltaOfDocument(db: Db, documentId: string): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(verifactuRecords)
    .where(and(eq(verifactuRecords.documentId, documentId), eq(verifactuRecords.recordType, "alta")))
    .orderBy(sql`${verifactuRecords.sequence} desc`)
    .limit(1);
  return row;
}

export async function findCancellationOf(db: Db, recordId: string): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(verifactuRecords)
    .where(eq(verifactuRecords.cancelsRecordId, recordId))
    .limit(1);
  return row;
}

export interface RecordListFilter {
  scope?: SQL;
  recordType?: RecordType;
  documentId?: string;
  invoiceNumber?: string;
  from?: string;
  to?: string;
  estado?: QueueState;
  limit: number;
  offset: number;
}

export async function listRecords(db: Db, f: RecordListFilter) {
  const where = and(
    f.scope,
    f.recordType ? eq(verifactuRecords.recordType, f.recordType) : undefined,
    f.documentId ? eq(verifactuRecords.documentId, f.documentId) : undefined,
    f.invoiceNumber ? eq(verifactuRecords.invoiceNumber, f.invoiceNumber) : undefined,
    f.from ? gte(verifactuRecords.invoiceDate, f.from) : undefined,
    f.to ? lte(verifactuRecords.invoiceDate, f.to) : undefined,
    f.estado ? eq(verifactuQueue.estado, f.estado) : undefined,
  );
  const page = await paginate(
    db,
    () =>
      db
        .select({ record: verifactuRecords, queue: verifactuQueue })
        .from(verifactuRecords)
        .leftJoin(verifactuQueue, eq(verifactuQueue.recordId, verifactuRecords.id))
        .where(where)
        .orderBy(asc(verifactuRecords.companyId), asc(verifactuRecords.sequence))
        .limit(f.limit)
        .offset(f.offset),
    () =>
      db
        .select({ total: count() })
        .from(verifactuRecords)
        .leftJoin(verifactuQueue, eq(verifactuQueue.recordId, verifactuRecords.id))
        .where(where),
  );
  return { rows: page.rows.map((r) => ({ ...r.record, queue: r.queue })), total: page.total };
}

/** A page of a company's chain after `afterSequence`, in chain order (verification). */
export function recordsAfter(db: Db, companyId: string, afterSequence: number, limit: number) {
  return db
    .select()
    .from(verifactuRecords)
    .where(and(eq(verifactuRecords.companyId, companyId), gt(verifactuRecords.sequence, afterSequence)))
    .orderBy(asc(verifactuRecords.sequence))
    .limit(limit);
}

/** The records generated on those days (local date of FechaHoraHusoGenRegistro), in chain order. */
export async function recordsGenerated(
  db: Db,
  companyId: string,
  range: { from?: string; to?: string },
  page: { limit: number; offset: number },
) {
  const day = sql`substr(${verifactuRecords.generatedAt}, 1, 10)`;
  const where = and(
    eq(verifactuRecords.companyId, companyId),
    range.from ? sql`${day} >= ${range.from}` : undefined,
    range.to ? sql`${day} <= ${range.to}` : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(verifactuRecords)
        .where(where)
        .orderBy(asc(verifactuRecords.sequence))
        .limit(page.limit)
        .offset(page.offset),
    () => db.select({ total: count() }).from(verifactuRecords).where(where),
  );
}

// Events

export async function insertEvent(tx: Db, values: EventInsert): Promise<EventRow> {
  const [row] = await tx.insert(verifactuEvents).values(values).returning();
  return row;
}

export function eventsAfter(db: Db, companyId: string, afterSequence: number, limit: number) {
  return db
    .select()
    .from(verifactuEvents)
    .where(and(eq(verifactuEvents.companyId, companyId), gt(verifactuEvents.sequence, afterSequence)))
    .orderBy(asc(verifactuEvents.sequence))
    .limit(limit);
}

export async function listEvents(db: Db, f: { scope?: SQL; kind?: string; limit: number; offset: number }) {
  const where = and(f.scope, f.kind ? eq(verifactuEvents.kind, f.kind as EventRow["kind"]) : undefined);
  return paginate(
    db,
    () =>
      db
        .select()
        .from(verifactuEvents)
        .where(where)
        .orderBy(asc(verifactuEvents.companyId), asc(verifactuEvents.sequence))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(verifactuEvents).where(where),
  );
}

// Queue

export async function findQueue(db: Db, recordId: string): Promise<QueueRow | undefined> {
  const [row] = await db.select().from(verifactuQueue).where(eq(verifactuQueue.recordId, recordId)).limit(1);
  return row;
}

export function responsesOf(db: Db, recordId: string): Promise<ResponseRow[]> {
  return db
    .select()
    .from(verifactuResponses)
    .where(eq(verifactuResponses.recordId, recordId))
    .orderBy(asc(verifactuResponses.createdAt), asc(verifactuResponses.id));
}
