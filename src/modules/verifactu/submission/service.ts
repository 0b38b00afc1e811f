import type { VerifactuSubmissionConfig } from "../../../config.js";
import type { Db } from "../../../platform/db/client.js";
import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { ConflictError } from "../../../platform/http/errors.js";
import { getCompany } from "../../companies/index.js";
import { findRecordsByIds, type RecordRow } from "../repository.js";
import * as repo from "./repository.js";
import { lineKey, parseSubmissionAnswer, type ResponseLine, recordKey, submissionEnvelope } from "./soap.js";
import { type SoapPost, TransportError } from "./transport.js";

/**
 * The VeriFactu sender: takes the due records of an issuer in chain order (at most 1,000, the
 * AEAT's limit), leases them, posts them as one RegFactuSistemaFacturacion and stores the AEAT's
 * verdict per record; transport errors, timeouts and SOAP faults put the batch back with an
 * exponential backoff. A worker that dies mid-batch leaves its rows leased: when the lease
 * expires they are claimed again, and the AEAT's "duplicate" answer for the ones it already got
 * is read as accepted — each record ends up registered once, none is lost.
 */

export interface SenderDeps {
  db: Db;
  config: VerifactuSubmissionConfig;
  post: SoapPost;
  /** The clock (tests move it past leases and backoffs). */
  now?: () => Date;
}

export interface BatchReport {
  companyId: string;
  batchId: string;
  records: number;
  /** sent: the AEAT answered (verdicts stored); failed: back to pending with a backoff. */
  result: "sent" | "failed";
  accepted: number;
  acceptedWithErrors: number;
  rejected: number;
  /** The AEAT's EstadoEnvio, or the failure's code. */
  status: string;
  message: string | null;
}

/** AEAT error 3000: "Registro de facturación duplicado" (comes with RegistroDuplicado). */
const DUPLICATE_CODE = "3000";

function verdictOf(recordId: string, line: ResponseLine, csv: string | null): repo.Verdict {
  const base = { recordId, code: line.code, message: line.description, csv };
  if (line.duplicateOf || (line.state === "Incorrecto" && line.code === DUPLICATE_CODE)) {
    // Sent before (a worker died after the AEAT got it): registered then, not again.
    const withErrors = /error/i.test(line.duplicateOf?.state ?? "");
    return {
      ...base,
      estado: withErrors ? "aceptado_con_errores" : "aceptado",
      outcome: withErrors ? "accepted_with_errors" : "accepted",
      message: `already registered by an earlier submission${line.duplicateOf?.requestId ? ` (request ${line.duplicateOf.requestId})` : ""}${line.description ? `: ${line.description}` : ""}`,
    };
  }
  if (line.state === "Correcto") return { ...base, estado: "aceptado", outcome: "accepted" };
  if (line.state === "AceptadoConErrores")
    return { ...base, estado: "aceptado_con_errores", outcome: "accepted_with_errors" };
  return { ...base, estado: "rechazado", outcome: "rejected" };
}

/** Leases the next batch of a company (of these only, none of `skip`): the first that has one. */
export async function claimNextBatch(
  deps: SenderDeps,
  f: { companyIds?: string[]; skip?: Set<string> } = {},
) {
  const now = deps.now?.() ?? new Date();
  for (const companyId of await repo.companiesToSend(deps.db, now, deps.config.batchSize, f.companyIds)) {
    if (f.skip?.has(companyId)) continue;
    const claim = await inTransaction(deps.db, (tx) =>
      repo.claimBatch(tx, {
        companyId,
        now,
        limit: deps.config.batchSize,
        leaseSeconds: deps.config.leaseSeconds,
      }),
    );
    if (claim) return { companyId, ...claim };
  }
  return null;
}

/** Sends a leased batch and stores the outcome; the records are the batch's, in chain order. */
export async function sendBatch(
  deps: SenderDeps,
  batch: { companyId: string; batchId: string; records: RecordRow[] },
): Promise<BatchReport> {
  const report: BatchReport = {
    companyId: batch.companyId,
    batchId: batch.batchId,
    records: batch.records.length,
    result: "failed",
    accepted: 0,
    acceptedWithErrors: 0,
    rejected: 0,
    status: "",
    message: null,
  };
  const release = (code: string, message: string, recordIds?: string[]) =>
    inTransaction(deps.db, (tx) =>
      repo.releaseBatch(tx, batch.batchId, {
        now: deps.now?.() ?? new Date(),
        baseSeconds: deps.config.retryBaseSeconds,
        maxSeconds: deps.config.retryMaxSeconds,
        code,
        message,
        recordIds,
      }),
    );
  let answer: ReturnType<typeof parseSubmissionAnswer>;
  try {
    const { body } = await deps.post(submissionEnvelope(batch.records));
    answer = parseSubmissionAnswer(body);
  } catch (err) {
    const code = err instanceof TransportError ? err.code : "bad_answer";
    await release(code, (err as Error).message);
    return { ...report, status: code, message: (err as Error).message };
  }
  if (answer.kind === "fault") {
    await release(`fault:${answer.code}`, answer.message);
    return { ...report, status: `fault:${answer.code}`, message: answer.message };
  }
  const lines = new Map(answer.lines.map((l) => [lineKey(l.invoiceNumber, l.issueDate, l.operation), l]));
  const verdicts: repo.Verdict[] = [];
  const unanswered: string[] = [];
  for (const record of batch.records) {
    const line = lines.get(recordKey(record));
    if (line) verdicts.push(verdictOf(record.id, line, answer.csv));
    else unanswered.push(record.id);
  }
  const now = deps.now?.() ?? new Date();
  const settled = await inTransaction(deps.db, async (tx) => {
    const done = await repo.settleBatch(tx, batch.batchId, verdicts);
    if (answer.waitSeconds > 0)
      await repo.setNextSubmission(tx, batch.companyId, new Date(now.getTime() + answer.waitSeconds * 1000));
    return done;
  });
  if (unanswered.length)
    await release("no_answer", "the AEAT's answer has no line for this record", unanswered);
  for (const v of verdicts) {
    if (!settled.has(v.recordId)) continue;
    if (v.outcome === "accepted") report.accepted++;
    else if (v.outcome === "accepted_with_errors") report.acceptedWithErrors++;
    else report.rejected++;
  }
  return { ...report, result: "sent", status: answer.state };
}

/**
 * One pass: batch after batch until nothing is due (or maxBatches), each claimed, sent and
 * settled before the next. Only these companies when given.
 */
export async function runSubmission(
  deps: SenderDeps,
  opts: { companyIds?: string[]; maxBatches?: number } = {},
): Promise<BatchReport[]> {
  const reports: BatchReport[] = [];
  const failedCompanies = new Set<string>();
  for (let n = 0; n < (opts.maxBatches ?? 100); n++) {
    // A company whose batch just failed waits for its backoff, even when it is shorter than a pass.
    const claim = await claimNextBatch(deps, { companyIds: opts.companyIds, skip: failedCompanies });
    if (!claim) break;
    const records = await findRecordsByIds(
      deps.db,
      claim.rows.map((r) => r.recordId),
    );
    records.sort((a, b) => a.sequence - b.sequence);
    const report = await sendBatch(deps, { companyId: claim.companyId, batchId: claim.batchId, records });
    reports.push(report);
    if (report.result === "failed") failedCompanies.add(claim.companyId);
  }
  return reports;
}

/**
 * The in-process sender: a pass every intervalSeconds, never two at once; stop() waits for the
 * pass under way. Errors of a pass are logged and the next one tries again.
 */
export function startSubmissionWorker(
  deps: SenderDeps,
  log: { error(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void },
) {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runSubmission(deps)
      .then((reports) => {
        if (reports.length) log.info({ batches: reports }, "verifactu submission pass");
      })
      .catch((err) => log.error({ err }, "verifactu submission pass failed"))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, deps.config.intervalSeconds * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** The companies a caller's queue view or run covers: one (visible, else 404), its own, or all (null). */
async function scopeOf(ctx: AuthedCtx, companyId?: string): Promise<string[] | null> {
  if (companyId) return [(await getCompany(ctx, companyId)).id];
  return ctx.actor.companyId ? [ctx.actor.companyId] : null;
}

/** GET /api/verifactu/queue: rows per state and company, the next attempt, live lease and AEAT wait. */
export async function queueState(ctx: AuthedCtx, companyId?: string) {
  return repo.queueSummary(ctx.db, await scopeOf(ctx, companyId));
}

/**
 * POST /api/verifactu/queue/run: one pass now for the caller's companies (or one of them). Refused
 * (409) while no client certificate is configured: the AEAT would refuse the connection anyway.
 */
export async function runSubmissionNow(
  ctx: AuthedCtx,
  config: VerifactuSubmissionConfig,
  post: () => SoapPost,
  companyId?: string,
): Promise<BatchReport[]> {
  if (!config.certPath)
    throw new ConflictError(
      "VeriFactu submission is not configured: set VERIFACTU_CERT_PATH (and VERIFACTU_CERT_PASSWORD) to the company's certificate",
    );
  const companyIds = await scopeOf(ctx, companyId);
  return runSubmission({ db: ctx.db, config, post: post() }, { companyIds: companyIds ?? undefined });
}
