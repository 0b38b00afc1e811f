import { z } from "zod";
import { iso } from "../../platform/dates.js";
import { apiPage, queryDate } from "../../platform/http/pagination.js";
import type { EventRow, QueueRow, RecordRow, ResponseRow } from "./repository.js";
import { EVENT_KINDS, QUEUE_STATES, RECORD_TYPES, type RecordDetails, VERIFACTU_MODES } from "./tables.js";
import type { ChainBreak, ChainReport } from "./verify.js";

const companyQuery = z
  .uuid()
  .optional()
  .describe("The company; defaults to the caller's, or the tenant's only one");

const listPaging = {
  skip: z.coerce.number().int().min(0).default(0).describe("Rows to skip"),
  limit: z.coerce.number().int().min(1).max(10000).default(50).describe("Page size, 1..10000"),
};

export const settingsQuery = z.object({ company_id: companyQuery });
export const settingsBody = z.object({
  company_id: companyQuery,
  mode: z
    .enum(VERIFACTU_MODES)
    .describe("off, or verifactu: every issued sales invoice gets a chained record"),
});
export const settingsOut = z.object({
  company_id: z.uuid(),
  mode: z.enum(VERIFACTU_MODES),
  records: z.number().int().describe("Registration records of the company (off is refused when > 0)"),
});

export function toSettingsOut(s: {
  companyId: string;
  mode: (typeof VERIFACTU_MODES)[number];
  records: number;
}) {
  return { company_id: s.companyId, mode: s.mode, records: s.records };
}

const queueOut = z
  .object({
    estado: z.enum(QUEUE_STATES),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    code: z.string().nullable().describe("The AEAT's error code (CodigoErrorRegistro)"),
    message: z.string().nullable(),
    csv: z.string().nullable().describe("The AEAT's secure verification code of the accepted submission"),
  })
  .nullable();

function toQueueOut(q: QueueRow | null) {
  if (!q) return null;
  return {
    estado: q.estado,
    attempts: q.attempts,
    next_attempt_at: q.estado === "pendiente" ? iso(q.nextAttemptAt) : null,
    code: q.code,
    message: q.message,
    csv: q.csv,
  };
}

export const recordListQuery = z.object({
  ...listPaging,
  company_id: z.uuid().optional().describe("Only this company's records"),
  record_type: z.enum(RECORD_TYPES).optional(),
  document_id: z.uuid().optional().describe("Only the records of this invoice"),
  invoice_number: z.string().trim().min(1).max(60).optional().describe("NumSerieFactura, exact"),
  from: queryDate.optional().describe("Invoice date from (inclusive)"),
  to: queryDate.optional().describe("Invoice date to (inclusive)"),
  estado: z.enum(QUEUE_STATES).optional().describe("Submission state"),
});

export const recordOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  sequence: z.number().int().describe("Position in the company's chain"),
  record_type: z.enum(RECORD_TYPES).describe("alta (RegistroAlta) or anulacion (RegistroAnulacion)"),
  document_id: z.uuid(),
  cancels_record_id: z.uuid().nullable(),
  issuer_nif: z.string(),
  invoice_number: z.string(),
  invoice_date: z.string(),
  invoice_type: z.string().nullable().describe("F1, F2, R1-R5"),
  cuota_total: z.string().nullable().describe("As written in the XML and hashed"),
  importe_total: z.string().nullable().describe("As written in the XML and hashed"),
  previous_id: z.uuid().nullable(),
  previous_hash: z.string().describe("Huella of the previous record; empty for the first"),
  generated_at: z.string().describe("FechaHoraHusoGenRegistro, ISO 8601 with offset"),
  hash: z.string().describe("Huella: SHA-256, uppercase hex"),
  submission: queueOut,
  created_at: z.string(),
});

export const recordPage = apiPage(recordOut);

const detailsOut = z.object({
  issuer_name: z.string(),
  description: z.string().nullable(),
  operation_date: z.string().nullable(),
  recipient: z
    .object({
      name: z.string(),
      nif: z.string().nullable(),
      country: z.string().nullable(),
      id_type: z.string().nullable(),
      id: z.string().nullable(),
    })
    .nullable(),
  rectification: z
    .object({
      type: z.enum(["I", "S"]),
      corrected: z.array(z.object({ number: z.string(), issue_date: z.string() })),
      base: z.string().nullable(),
      vat: z.string().nullable(),
      re: z.string().nullable(),
    })
    .nullable(),
  breakdown: z.array(
    z.object({
      regime: z.string().describe("ClaveRegimen"),
      qualification: z.string().nullable().describe("S1, S2, N1, N2"),
      exemption: z.string().nullable().describe("E1-E6"),
      rate: z.string().nullable(),
      base: z.string(),
      vat: z.string().nullable(),
      re_rate: z.string().nullable(),
      re: z.string().nullable(),
    }),
  ),
  previous: z
    .object({ issuer_nif: z.string(), invoice_number: z.string(), issue_date: z.string() })
    .nullable(),
  software: z.object({
    producer_name: z.string(),
    producer_nif: z.string(),
    name: z.string(),
    id: z.string(),
    version: z.string(),
    installation: z.string(),
  }),
});

export const recordDetailOut = recordOut.extend({
  hash_input: z.string().describe("The exact string whose SHA-256 is the hash"),
  details: detailsOut,
  cancelled_by: z.uuid().nullable().describe("The RegistroAnulacion that cancels this record"),
  responses: z.array(
    z.object({
      batch_id: z.uuid(),
      attempt: z.number().int(),
      outcome: z.string(),
      code: z.string().nullable(),
      message: z.string().nullable(),
      csv: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
});

export function toRecordOut(r: RecordRow & { queue: QueueRow | null }): z.infer<typeof recordOut> {
  return {
    id: r.id,
    company_id: r.companyId,
    sequence: r.sequence,
    record_type: r.recordType,
    document_id: r.documentId,
    cancels_record_id: r.cancelsRecordId,
    issuer_nif: r.issuerNif,
    invoice_number: r.invoiceNumber,
    invoice_date: r.invoiceDate,
    invoice_type: r.invoiceType,
    cuota_total: r.cuotaTotal,
    importe_total: r.importeTotal,
    previous_id: r.previousId,
    previous_hash: r.previousHash,
    generated_at: r.generatedAt,
    hash: r.hash,
    submission: toQueueOut(r.queue),
    created_at: iso(r.createdAt),
  };
}

function toDetailsOut(d: RecordDetails): z.infer<typeof detailsOut> {
  return {
    issuer_name: d.issuerName,
    description: d.description ?? null,
    operation_date: d.operationDate ?? null,
    recipient: d.recipient
      ? {
          name: d.recipient.name,
          nif: d.recipient.nif ?? null,
          country: d.recipient.country ?? null,
          id_type: d.recipient.idType ?? null,
          id: d.recipient.id ?? null,
        }
      : null,
    rectification: d.rectification
      ? {
          type: d.rectification.type,
          corrected: d.rectification.corrected.map((c) => ({ number: c.number, issue_date: c.issueDate })),
          base: d.rectification.base ?? null,
          vat: d.rectification.vat ?? null,
          re: d.rectification.re ?? null,
        }
      : null,
    breakdown: (d.breakdown ?? []).map((b) => ({
      regime: b.regime,
      qualification: b.qualification ?? null,
      exemption: b.exemption ?? null,
      rate: b.rate ?? null,
      base: b.base,
      vat: b.vat ?? null,
      re_rate: b.reRate ?? null,
      re: b.re ?? null,
    })),
    previous: d.previous
      ? {
          issuer_nif: d.previous.issuerNif,
          invoice_number: d.previous.invoiceNumber,
          issue_date: d.previous.issueDate,
        }
      : null,
    software: {
      producer_name: d.software.producerName,
      producer_nif: d.software.producerNif,
      name: d.software.name,
      id: d.software.id,
      version: d.software.version,
      installation: d.software.installation,
    },
  };
}

export function toRecordDetailOut(
  r: RecordRow & { queue: QueueRow | null; responses: ResponseRow[]; cancelledBy: string | null },
  hashInput: string,
): z.infer<typeof recordDetailOut> {
  return {
    ...toRecordOut(r),
    hash_input: hashInput,
    details: toDetailsOut(r.details),
    cancelled_by: r.cancelledBy,
    responses: r.responses.map((x) => ({
      batch_id: x.batchId,
      attempt: x.attempt,
      outcome: x.outcome,
      code: x.code,
      message: x.message,
      csv: x.csv,
      created_at: iso(x.createdAt),
    })),
  };
}

export const verifyQuery = z.object({ company_id: companyQuery });

const breakOut = z
  .object({
    chain: z.enum(["records", "events"]),
    sequence: z.number().int(),
    id: z.uuid().nullable(),
    problem: z.enum(["hash_mismatch", "broken_link", "sequence_gap", "head_mismatch"]),
    detail: z.string(),
  })
  .nullable();

const chainOut = z.object({ checked: z.number().int(), last_hash: z.string(), first_break: breakOut });

export const verifyOut = z.object({
  company_id: z.uuid(),
  ok: z.boolean().describe("Every hash and link of both chains holds"),
  records: chainOut,
  events: chainOut,
});

const toBreak = (b: ChainBreak | null) => (b ? { ...b } : null);
const toChain = (c: ChainReport) => ({
  checked: c.checked,
  last_hash: c.lastHash,
  first_break: toBreak(c.firstBreak),
});

export function toVerifyOut(v: {
  companyId: string;
  ok: boolean;
  records: ChainReport;
  events: ChainReport;
}) {
  return { company_id: v.companyId, ok: v.ok, records: toChain(v.records), events: toChain(v.events) };
}

export const eventListQuery = z.object({
  ...listPaging,
  company_id: z.uuid().optional(),
  kind: z.enum(EVENT_KINDS).optional(),
});

export const eventOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  sequence: z.number().int(),
  kind: z.enum(EVENT_KINDS),
  event_type: z.string().describe("TipoEvento (EventosSIF.xsd)"),
  detail: z.record(z.string(), z.unknown()),
  previous_hash: z.string(),
  generated_at: z.string(),
  hash: z.string(),
  created_at: z.string(),
});
export const eventPage = apiPage(eventOut);

export function toEventOut(e: EventRow): z.infer<typeof eventOut> {
  return {
    id: e.id,
    company_id: e.companyId,
    sequence: e.sequence,
    kind: e.kind,
    event_type: e.eventType,
    detail: e.detail,
    previous_hash: e.previousHash,
    generated_at: e.generatedAt,
    hash: e.hash,
    created_at: iso(e.createdAt),
  };
}

export const exportQuery = z.object({
  company_id: companyQuery,
  from: queryDate.describe("First day the records were generated (local date of FechaHoraHusoGenRegistro)"),
  to: queryDate.describe("Last day (inclusive)"),
  skip: z.coerce.number().int().min(0).default(0).describe("Records to skip: one file holds at most 1,000"),
});
