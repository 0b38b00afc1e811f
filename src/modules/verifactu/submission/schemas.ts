import { z } from "zod";
import type { QueueSummaryRow } from "./repository.js";
import type { BatchReport } from "./service.js";

export const queueQuery = z.object({
  company_id: z.uuid().optional().describe("Only this company's queue"),
});

export const runBody = z
  .object({ company_id: z.uuid().optional().describe("Only this company's records") })
  .default({});

const timestamp = z.string().nullable();
const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v as string).toISOString();

export const queueOut = z.object({
  submission: z.object({
    enabled: z.boolean().describe("The in-process sender runs on its interval"),
    configured: z.boolean().describe("A client certificate is configured"),
    endpoint: z.string(),
    interval_seconds: z.number().int(),
    batch_size: z.number().int(),
  }),
  data: z.array(
    z.object({
      company_id: z.uuid(),
      pendiente: z.number().int(),
      enviando: z.number().int(),
      aceptado: z.number().int(),
      aceptado_con_errores: z.number().int(),
      rechazado: z.number().int(),
      next_attempt_at: timestamp.describe("The earliest attempt of a pending record"),
      lease_until: timestamp.describe("A batch being sent holds its records until then"),
      next_submission_at: timestamp.describe("The AEAT's wait (TiempoEsperaEnvio): no batch before"),
    }),
  ),
});

export function toQueueOut(
  rows: QueueSummaryRow[],
  config: {
    enabled: boolean;
    certPath?: string;
    endpoint: string;
    intervalSeconds: number;
    batchSize: number;
  },
) {
  return {
    submission: {
      enabled: config.enabled,
      configured: Boolean(config.certPath),
      endpoint: config.endpoint,
      interval_seconds: config.intervalSeconds,
      batch_size: config.batchSize,
    },
    data: rows.map((r) => ({
      company_id: r.company_id,
      pendiente: Number(r.pendiente),
      enviando: Number(r.enviando),
      aceptado: Number(r.aceptado),
      aceptado_con_errores: Number(r.aceptado_con_errores),
      rechazado: Number(r.rechazado),
      next_attempt_at: iso(r.next_attempt_at),
      lease_until: iso(r.lease_until),
      next_submission_at: iso(r.next_submission_at),
    })),
  };
}

export const runOut = z.object({
  batches: z.array(
    z.object({
      company_id: z.uuid(),
      batch_id: z.uuid(),
      records: z.number().int(),
      result: z.enum(["sent", "failed"]),
      accepted: z.number().int(),
      accepted_with_errors: z.number().int(),
      rejected: z.number().int(),
      status: z
        .string()
        .describe("The AEAT's EstadoEnvio, or the failure's code (timeout, http_503, fault:...)"),
      message: z.string().nullable(),
    }),
  ),
});

export const toRunOut = (reports: BatchReport[]) => ({
  batches: reports.map((r) => ({
    company_id: r.companyId,
    batch_id: r.batchId,
    records: r.records,
    result: r.result,
    accepted: r.accepted,
    accepted_with_errors: r.acceptedWithErrors,
    rejected: r.rejected,
    status: r.status,
    message: r.message,
  })),
});
