import { sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { pgArray, queryOne, queryRows } from "../../../platform/db/sql.js";
import { uuidv7 } from "../../../platform/ids.js";
import {
  type QueueState,
  type ResponseOutcome,
  verifactuQueue,
  verifactuResponses,
  verifactuSettings,
} from "../tables.js";

/**
 * The submission queue's state transitions, each one guarded so it happens once: a claim takes
 * rows that are due (pendiente and past next_attempt_at) or whose lease expired (enviando, the
 * worker died) and leases them to a batch; settling and releasing only touch rows still leased to
 * that batch, so the answers of a batch that lost its lease are dropped, never applied twice.
 */

const ts = (d: Date) => d.toISOString();
/** A row is claimable when due, or when the batch holding it let its lease expire. */
const claimable = (now: Date) =>
  sql`((q.estado = 'pendiente' and q.next_attempt_at <= ${ts(now)}::timestamptz)
       or (q.estado = 'enviando' and q.lease_until < ${ts(now)}::timestamptz))`;

export interface ClaimedRow {
  recordId: string;
  sequence: number;
  attempts: number;
}

/**
 * Companies with claimable rows whose AEAT wait (TiempoEsperaEnvio) is over, or that have a full
 * batch waiting (the AEAT accepts 1,000 records at any time), longest waiting first.
 */
export async function companiesToSend(db: Db, now: Date, batchSize: number, companyIds?: string[]) {
  const rows = await queryRows<{ company_id: string }>(
    db,
    sql`select q.company_id from ${verifactuQueue} q
          left join ${verifactuSettings} s on s.company_id = q.company_id
         where ${claimable(now)}
           ${companyIds ? sql`and q.company_id = any(${pgArray(companyIds)}::uuid[])` : sql``}
         group by q.company_id, s.next_submission_at
        having s.next_submission_at is null or s.next_submission_at <= ${ts(now)}::timestamptz
            or count(*) >= ${batchSize}
         order by min(q.next_attempt_at), q.company_id
         limit 100`,
  );
  return rows.map((r) => r.company_id);
}

/**
 * Leases the next records of a company's chain, in sequence order, to a new batch (in the caller's
 * transaction). Nothing when another worker holds the company (advisory lock, or a live lease:
 * one batch per issuer at a time keeps the chain's order) or when its lowest unsent record waits
 * for a retry (later records do not overtake it).
 */
export async function claimBatch(
  tx: Db,
  f: { companyId: string; now: Date; limit: number; leaseSeconds: number },
): Promise<{ batchId: string; rows: ClaimedRow[] } | null> {
  const locked = await queryOne<{ ok: boolean }>(
    tx,
    sql`select pg_try_advisory_xact_lock(hashtextextended(${`cuadra:verifactu_queue:${f.companyId}`}, 0)) as ok`,
  );
  if (!locked?.ok) return null;
  const now = ts(f.now);
  const busy = await queryOne<{ busy: boolean }>(
    tx,
    sql`select exists(select 1 from ${verifactuQueue} q where q.company_id = ${f.companyId}
          and q.estado = 'enviando' and q.lease_until >= ${now}::timestamptz) as busy`,
  );
  if (busy?.busy) return null;
  const batchId = uuidv7();
  const rows = await queryRows<{ record_id: string; sequence: number; attempts: number }>(
    tx,
    sql`update ${verifactuQueue} u
           set estado = 'enviando', batch_id = ${batchId}, attempts = u.attempts + 1,
               lease_until = ${now}::timestamptz + make_interval(secs => ${f.leaseSeconds}), updated_at = now()
         where u.record_id in (
           select q.record_id from ${verifactuQueue} q
            where q.company_id = ${f.companyId} and ${claimable(f.now)}
              and q.sequence < coalesce((select min(w.sequence) from ${verifactuQueue} w
                                          where w.company_id = ${f.companyId} and w.estado = 'pendiente'
                                            and w.next_attempt_at > ${now}::timestamptz), 2147483647)
            order by q.sequence
            limit ${f.limit})
        returning u.record_id, u.sequence, u.attempts`,
  );
  if (!rows.length) return null;
  return {
    batchId,
    rows: rows
      .map((r) => ({ recordId: r.record_id, sequence: Number(r.sequence), attempts: Number(r.attempts) }))
      .sort((a, b) => a.sequence - b.sequence),
  };
}

export interface Verdict {
  recordId: string;
  estado: Extract<QueueState, "aceptado" | "aceptado_con_errores" | "rechazado">;
  outcome: Exclude<ResponseOutcome, "failed">;
  code: string | null;
  message: string | null;
  csv: string | null;
}

/**
 * Applies the AEAT's verdicts to the rows still leased to the batch and appends each answer to
 * verifactu_responses, in the caller's transaction. Returns the records it settled.
 */
export async function settleBatch(tx: Db, batchId: string, verdicts: Verdict[]): Promise<Set<string>> {
  if (!verdicts.length) return new Set();
  const col = (pick: (v: Verdict) => string | null) => pgArray(verdicts.map(pick));
  const settled = await queryRows<{ record_id: string; company_id: string; attempts: number }>(
    tx,
    sql`update ${verifactuQueue} q
           set estado = v.estado, code = v.code, message = v.message, csv = v.csv,
               lease_until = null, updated_at = now()
          from unnest(${col((v) => v.recordId)}::uuid[], ${col((v) => v.estado)}::text[],
                      ${col((v) => v.code)}::text[], ${col((v) => v.message)}::text[], ${col((v) => v.csv)}::text[])
               as v(record_id, estado, code, message, csv)
         where q.record_id = v.record_id and q.batch_id = ${batchId} and q.estado = 'enviando'
        returning q.record_id, q.company_id, q.attempts`,
  );
  const byId = new Map(verdicts.map((v) => [v.recordId, v]));
  if (settled.length)
    await tx.insert(verifactuResponses).values(
      settled.map((s) => {
        const v = byId.get(s.record_id)!;
        return {
          recordId: s.record_id,
          companyId: s.company_id,
          batchId,
          attempt: Number(s.attempts),
          outcome: v.outcome,
          code: v.code,
          message: v.message,
          csv: v.csv,
        };
      }),
    );
  return new Set(settled.map((s) => s.record_id));
}

/**
 * Puts the rows still leased to the batch back to pendiente with the next attempt after an
 * exponential backoff (base x 2^(attempts-1), capped), optionally only some of them, and appends
 * the failure to each one's answers.
 */
export async function releaseBatch(
  tx: Db,
  batchId: string,
  f: {
    now: Date;
    baseSeconds: number;
    maxSeconds: number;
    code: string;
    message: string;
    recordIds?: string[];
  },
): Promise<number> {
  const released = await queryRows<{ record_id: string; company_id: string; attempts: number }>(
    tx,
    sql`update ${verifactuQueue} q
           set estado = 'pendiente', lease_until = null, code = ${f.code}, message = ${f.message.slice(0, 1500)},
               next_attempt_at = ${ts(f.now)}::timestamptz
                 + make_interval(secs => least(${f.maxSeconds}::float8, ${f.baseSeconds}::float8 * power(2, q.attempts - 1))),
               updated_at = now()
         where q.batch_id = ${batchId} and q.estado = 'enviando'
           ${f.recordIds ? sql`and q.record_id = any(${pgArray(f.recordIds)}::uuid[])` : sql``}
        returning q.record_id, q.company_id, q.attempts`,
  );
  if (released.length)
    await tx.insert(verifactuResponses).values(
      released.map((r) => ({
        recordId: r.record_id,
        companyId: r.company_id,
        batchId,
        attempt: Number(r.attempts),
        outcome: "failed" as const,
        code: f.code,
        message: f.message.slice(0, 1500),
        csv: null,
      })),
    );
  return released.length;
}

/** The AEAT's TiempoEsperaEnvio: the company's next batch not before `until`. */
export async function setNextSubmission(tx: Db, companyId: string, until: Date) {
  await tx.execute(
    sql`update ${verifactuSettings} set next_submission_at = ${ts(until)}::timestamptz, updated_at = now()
         where company_id = ${companyId}`,
  );
}

export interface QueueSummaryRow {
  company_id: string;
  pendiente: number;
  enviando: number;
  aceptado: number;
  aceptado_con_errores: number;
  rechazado: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  next_submission_at: string | null;
}

/** Per company: rows per state, the earliest pending attempt, the live lease and the AEAT's wait. */
export function queueSummary(db: Db, companyIds: string[] | null) {
  const n = (estado: QueueState) => sql`(count(*) filter (where q.estado = ${estado}))::int`;
  return queryRows<QueueSummaryRow>(
    db,
    sql`select q.company_id, ${n("pendiente")} as pendiente, ${n("enviando")} as enviando,
               ${n("aceptado")} as aceptado, ${n("aceptado_con_errores")} as aceptado_con_errores,
               ${n("rechazado")} as rechazado,
               min(q.next_attempt_at) filter (where q.estado = 'pendiente') as next_attempt_at,
               max(q.lease_until) filter (where q.estado = 'enviando') as lease_until,
               min(s.next_submission_at) as next_submission_at
          from ${verifactuQueue} q left join ${verifactuSettings} s on s.company_id = q.company_id
         ${companyIds ? sql`where q.company_id = any(${pgArray(companyIds)}::uuid[])` : sql``}
         group by q.company_id
         order by q.company_id`,
  );
}
