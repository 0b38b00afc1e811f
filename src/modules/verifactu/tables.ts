import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "../../platform/db/columns.js";
import { companies, companyRef } from "../companies/tables.js";
import { documents } from "../documents/tables.js";

/**
 * VeriFactu (RD 1007/2023, Orden HAC/1177/2024): per company the mode, the chained registration
 * records of its issued invoices (append-only: a trigger refuses UPDATE and DELETE), the head of
 * each chain (locked FOR UPDATE by the transaction that appends, so one chain per issuer under
 * concurrency), the system's chained event log, and the submission queue with the AEAT's answers.
 */

export const VERIFACTU_MODES = ["off", "verifactu"] as const;
export type VerifactuMode = (typeof VERIFACTU_MODES)[number];

export const RECORD_TYPES = ["alta", "anulacion"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export const CHAINS = ["records", "events"] as const;
export type Chain = (typeof CHAINS)[number];

export const EVENT_KINDS = ["start", "stop", "export", "anomaly", "verification"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const QUEUE_STATES = [
  "pendiente",
  "enviando",
  "aceptado",
  "aceptado_con_errores",
  "rechazado",
] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export const RESPONSE_OUTCOMES = ["accepted", "accepted_with_errors", "rejected", "failed"] as const;
export type ResponseOutcome = (typeof RESPONSE_OUTCOMES)[number];

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

export const verifactuSettings = pgTable(
  "verifactu_settings",
  {
    companyId: uuid("company_id")
      .primaryKey()
      .references(() => companies.id),
    mode: text("mode", { enum: VERIFACTU_MODES }).notNull().default("off"),
    /** The AEAT's TiempoEsperaEnvio: no batch of the company before this (unless 1,000 are waiting). */
    nextSubmissionAt: timestamp("next_submission_at", { withTimezone: true, mode: "date" }),
    updatedAt: updatedAt(),
  },
  () => [check("verifactu_settings_mode_known", inList("mode", VERIFACTU_MODES))],
);

/** The last link of a company's chain of records (or of events); its row lock serialises appends. */
export const verifactuChainHeads = pgTable(
  "verifactu_chain_heads",
  {
    companyId: companyRef(),
    chain: text("chain", { enum: CHAINS }).notNull(),
    lastSequence: integer("last_sequence").notNull().default(0),
    lastId: uuid("last_id"),
    lastHash: text("last_hash").notNull().default(""),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.chain] }),
    check("verifactu_chain_heads_chain_known", inList("chain", CHAINS)),
  ],
);

/** What a record says beyond the hashed fields (kept as written in the XML). */
export interface RecordDetails {
  /** NombreRazonEmisor. */
  issuerName: string;
  description?: string;
  operationDate?: string | null;
  recipient?: { name: string; nif?: string; country?: string; idType?: string; id?: string } | null;
  rectification?: {
    type: "I" | "S";
    corrected: Array<{ number: string; issueDate: string }>;
    base?: string;
    vat?: string;
    re?: string;
  } | null;
  breakdown?: Array<{
    regime: string;
    qualification?: string;
    exemption?: string;
    rate?: string;
    base: string;
    vat?: string;
    reRate?: string;
    re?: string;
  }>;
  /** The previous record's invoice (RegistroAnterior). */
  previous?: { issuerNif: string; invoiceNumber: string; issueDate: string } | null;
  software: {
    producerName: string;
    producerNif: string;
    name: string;
    id: string;
    version: string;
    installation: string;
  };
}

export const verifactuRecords = pgTable(
  "verifactu_records",
  {
    id: idColumn(),
    companyId: companyRef(),
    /** Position in the company's chain, 1, 2, 3... */
    sequence: integer("sequence").notNull(),
    recordType: text("record_type", { enum: RECORD_TYPES }).notNull(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id),
    /** RegistroAnulacion: the alta record it cancels. */
    cancelsRecordId: uuid("cancels_record_id").references((): AnyPgColumn => verifactuRecords.id),
    issuerNif: text("issuer_nif").notNull(),
    /** NumSerieFactura as written. */
    invoiceNumber: text("invoice_number").notNull(),
    invoiceDate: date("invoice_date", { mode: "string" }).notNull(),
    /** F1, F2, R1-R5 (alta only). */
    invoiceType: text("invoice_type"),
    /** CuotaTotal and ImporteTotal exactly as written in the XML and hashed (alta only). */
    cuotaTotal: text("cuota_total"),
    importeTotal: text("importe_total"),
    previousId: uuid("previous_id").references((): AnyPgColumn => verifactuRecords.id),
    previousHash: text("previous_hash").notNull(),
    /** FechaHoraHusoGenRegistro as written and hashed, e.g. 2026-03-10T10:20:30+01:00. */
    generatedAt: text("generated_at").notNull(),
    hash: text("hash").notNull(),
    details: jsonb("details").$type<RecordDetails>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("verifactu_records_sequence_key").on(t.companyId, t.sequence),
    uniqueIndex("verifactu_records_cancels_key")
      .on(t.cancelsRecordId)
      .where(sql`${t.cancelsRecordId} is not null`),
    index("verifactu_records_document_idx").on(t.documentId),
    index("verifactu_records_date_idx").on(t.companyId, t.invoiceDate),
    check("verifactu_records_type_known", inList("record_type", RECORD_TYPES)),
    check(
      "verifactu_records_fields",
      sql`(${t.recordType} = 'alta' and ${t.invoiceType} is not null and ${t.cuotaTotal} is not null
            and ${t.importeTotal} is not null and ${t.cancelsRecordId} is null)
        or (${t.recordType} = 'anulacion' and ${t.invoiceType} is null and ${t.cancelsRecordId} is not null)`,
    ),
    check("verifactu_records_hash_format", sql`${t.hash} ~ '^[0-9A-F]{64}$'`),
  ],
);

export const verifactuEvents = pgTable(
  "verifactu_events",
  {
    id: idColumn(),
    companyId: companyRef(),
    sequence: integer("sequence").notNull(),
    kind: text("kind", { enum: EVENT_KINDS }).notNull(),
    /** TipoEvento of EventosSIF.xsd: 03 verification, 04 anomaly, 08 export, 90 other. */
    eventType: text("event_type").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull(),
    producerNif: text("producer_nif").notNull(),
    systemId: text("system_id").notNull(),
    version: text("version").notNull(),
    installation: text("installation").notNull(),
    issuerNif: text("issuer_nif").notNull(),
    previousHash: text("previous_hash").notNull(),
    generatedAt: text("generated_at").notNull(),
    hash: text("hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("verifactu_events_sequence_key").on(t.companyId, t.sequence),
    check("verifactu_events_kind_known", inList("kind", EVENT_KINDS)),
  ],
);

/**
 * The submission state of each record (mutable, unlike the record): pending until a worker claims
 * it for a batch (lease), then the AEAT's verdict, or back to pending with a later attempt time.
 */
export const verifactuQueue = pgTable(
  "verifactu_queue",
  {
    recordId: uuid("record_id")
      .primaryKey()
      .references(() => verifactuRecords.id),
    companyId: companyRef(),
    sequence: integer("sequence").notNull(),
    estado: text("estado", { enum: QUEUE_STATES }).notNull().default("pendiente"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    batchId: uuid("batch_id"),
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
    code: text("code"),
    message: text("message"),
    csv: text("csv"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("verifactu_queue_due_idx").on(t.estado, t.nextAttemptAt, t.companyId, t.sequence),
    index("verifactu_queue_batch_idx").on(t.batchId),
    check("verifactu_queue_estado_known", inList("estado", QUEUE_STATES)),
  ],
);

/** Every answer the AEAT gave about a record (or the failure of an attempt), in order: append-only. */
export const verifactuResponses = pgTable(
  "verifactu_responses",
  {
    id: idColumn(),
    recordId: uuid("record_id")
      .notNull()
      .references(() => verifactuRecords.id),
    companyId: companyRef(),
    batchId: uuid("batch_id").notNull(),
    attempt: integer("attempt").notNull(),
    outcome: text("outcome", { enum: RESPONSE_OUTCOMES }).notNull(),
    code: text("code"),
    message: text("message"),
    csv: text("csv"),
    createdAt: createdAt(),
  },
  (t) => [
    index("verifactu_responses_record_idx").on(t.recordId, t.createdAt),
    check("verifactu_responses_outcome_known", inList("outcome", RESPONSE_OUTCOMES)),
  ],
);
