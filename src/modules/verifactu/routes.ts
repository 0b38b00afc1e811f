import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { VerifactuConfig } from "../../config.js";
import type { TenantDirectory } from "../../platform/db/tenancy.js";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses } from "../../platform/http/errors.js";
import { idParams } from "../../platform/ids.js";
import { exportRecords, recordXml } from "./export.js";
import { useVerifactuConfig } from "./runtime-config.js";
import {
  eventListQuery,
  eventPage,
  exportQuery,
  recordDetailOut,
  recordListQuery,
  recordPage,
  settingsBody,
  settingsOut,
  settingsQuery,
  toEventOut,
  toRecordDetailOut,
  toRecordOut,
  toSettingsOut,
  toVerifyOut,
  verifyOut,
  verifyQuery,
} from "./schemas.js";
import * as verifactu from "./service.js";
import { queueOut, queueQuery, runBody, runOut, toQueueOut, toRunOut } from "./submission/schemas.js";
import { queueState, runSubmissionNow, startSubmissionWorker } from "./submission/service.js";
import { httpsSoapPost, type SoapPost } from "./submission/transport.js";
import { verifyChains } from "./verify.js";

const tags = ["verifactu"];
const xmlResponse = z.any().describe("application/xml: RegFactuSistemaFacturacion (SuministroLR.xsd)");

export interface VerifactuRoutesOptions {
  verifactu: VerifactuConfig;
  /** The in-process sender needs the database outside requests (single-tenant deployments). */
  tenants?: TenantDirectory;
}

export const verifactuRoutes: FastifyPluginAsyncZod<VerifactuRoutesOptions> = async (app, opts) => {
  useVerifactuConfig(opts.verifactu);
  const submission = opts.verifactu.submission;
  let post: SoapPost | undefined;
  const soapPost = () => {
    post ??= httpsSoapPost(submission);
    return post;
  };
  if (submission.enabled && opts.tenants?.mode === "single") {
    const tenants = opts.tenants;
    let worker: { stop(): Promise<void> } | undefined;
    app.addHook("onReady", async () => {
      const tenant = await tenants.resolve(undefined);
      if (tenant)
        worker = startSubmissionWorker(
          { db: tenant.handle.db, config: submission, post: soapPost() },
          app.log,
        );
    });
    app.addHook("onClose", async () => worker?.stop());
  }

  app.get(
    "/queue",
    {
      config: { permission: "verifactu:leer" },
      schema: {
        operationId: "getVerifactuQueue",
        tags,
        summary: "The AEAT submission queue: records per state and company, next attempt, lease and wait",
        querystring: queueQuery,
        response: {
          200: queueOut.describe("The sender's configuration and the queue of each visible company"),
          ...errorResponses(404),
        },
      },
    },
    async (request) => toQueueOut(await queueState(ctxOf(request), request.query.company_id), submission),
  );

  app.post(
    "/queue/run",
    {
      config: { permission: "verifactu:editar" },
      schema: {
        operationId: "runVerifactuSubmission",
        tags,
        summary:
          "Send the due records to the AEAT now (batches of up to 1,000 per issuer) and store the answers",
        body: runBody,
        response: {
          200: runOut.describe("Each batch sent or failed in this pass"),
          ...errorResponses(404, 409),
        },
      },
    },
    async (request) =>
      toRunOut(await runSubmissionNow(ctxOf(request), submission, soapPost, request.body?.company_id)),
  );

  app.get(
    "/settings",
    {
      config: { permission: "verifactu:leer" },
      schema: {
        tags,
        operationId: "getVerifactuSettings",
        summary: "A company's VeriFactu mode",
        querystring: settingsQuery,
        response: { 200: settingsOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toSettingsOut(await verifactu.getVerifactuSettings(ctxOf(request), request.query.company_id)),
  );

  app.put(
    "/settings",
    {
      config: { permission: "verifactu:editar" },
      schema: {
        tags,
        operationId: "updateVerifactuSettings",
        summary: "Turn VeriFactu on or off for a company (off is refused once it has records)",
        body: settingsBody,
        response: { 200: settingsOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toSettingsOut(
        await verifactu.setVerifactuMode(ctxOf(request), {
          companyId: request.body.company_id,
          mode: request.body.mode,
        }),
      ),
  );

  app.get(
    "/records",
    {
      config: { permission: "verifactu:leer" },
      schema: {
        tags,
        operationId: "listVerifactuRecords",
        summary: "List registration and cancellation records, in chain order",
        querystring: recordListQuery,
        response: { 200: recordPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await verifactu.listRecords(ctxOf(request), {
        companyId: q.company_id,
        recordType: q.record_type,
        documentId: q.document_id,
        invoiceNumber: q.invoice_number,
        from: q.from,
        to: q.to,
        estado: q.estado,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toRecordOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/records/:id",
    {
      config: { permission: "verifactu:leer" },
      schema: {
        tags,
        operationId: "getVerifactuRecord",
        summary: "A record with its hash input string, details and AEAT responses",
        params: idParams,
        response: { 200: recordDetailOut, ...errorResponses(404) },
      },
    },
    async (request) => {
      const record = await verifactu.getRecord(ctxOf(request), request.params.id);
      return toRecordDetailOut(record, verifactu.recordHashInput(record));
    },
  );

  app.get(
    "/records/:id/xml",
    {
      config: { permission: "verifactu:leer" },
      schema: {
        tags,
        operationId: "getVerifactuRecordXml",
        summary: "The record as AEAT XML",
        params: idParams,
        produces: ["application/xml"],
        response: { 200: xmlResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { xml, fileName } = await recordXml(ctxOf(request), request.params.id);
      return reply
        .type("application/xml; charset=utf-8")
        .header("content-disposition", `attachment; filename="${fileName}"`)
        .send(xml);
    },
  );

  app.post(
    "/records/:id/cancel",
    {
      config: { permission: "verifactu:crear" },
      schema: {
        tags,
        operationId: "cancelVerifactuRecord",
        summary: "Cancel a record issued in error (creates a chained RegistroAnulacion)",
        params: idParams,
        response: { 201: recordDetailOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const record = await verifactu.cancelRecord(ctxOf(request), request.params.id);
      return reply.code(201).send(toRecordDetailOut(record, verifactu.recordHashInput(record)));
    },
  );

  app.get(
    "/verify",
    {
      config: { permission: "verifactu:leer" },
      schema: {
        tags,
        operationId: "verifyVerifactuChain",
        summary: "Recompute every hash and link of a company's records and events; report the first break",
        querystring: verifyQuery,
        response: { 200: verifyOut, ...errorResponses(404) },
      },
    },
    async (request) => toVerifyOut(await verifyChains(ctxOf(request), request.query.company_id)),
  );

  app.get(
    "/events",
    {
      config: { permission: "verifactu:leer" },
      schema: {
        tags,
        operationId: "listVerifactuEvents",
        summary: "The system's event log (chained like the records)",
        querystring: eventListQuery,
        response: { 200: eventPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await verifactu.listEvents(ctxOf(request), {
        companyId: q.company_id,
        kind: q.kind,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toEventOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/export",
    {
      config: { permission: "verifactu:leer" },
      schema: {
        tags,
        operationId: "exportVerifactuRecords",
        summary: "The records generated between two dates as AEAT XML (1,000 per file; X-Total-Count)",
        querystring: exportQuery,
        produces: ["application/xml"],
        response: { 200: xmlResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const out = await exportRecords(ctxOf(request), {
        companyId: q.company_id,
        from: q.from,
        to: q.to,
        skip: q.skip,
      });
      return reply
        .type("application/xml; charset=utf-8")
        .header("x-total-count", String(out.total))
        .header("content-disposition", `attachment; filename="${out.fileName}"`)
        .send(out.xml);
    },
  );
};
