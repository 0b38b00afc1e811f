import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import { certificationPdfFileName, renderCertificationPdf } from "./pdf.js";
import {
  certificationCreateBody,
  certificationDocumentBody,
  certificationEstadoBody,
  certificationListQuery,
  certificationOut,
  certificationPage,
  certificationUpdateBody,
  fromCertificationBody,
  fromCertificationCreateBody,
  fromCertificationDocumentBody,
  toCertificationOut,
  toCertificationSummaryOut,
} from "./schemas.js";
import * as certifications from "./service.js";

const tags = ["certifications"];

export const certificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/certifications",
    {
      config: { permission: "certifications:leer" },
      schema: {
        tags,
        operationId: "listCertifications",
        summary: "List certifications",
        querystring: certificationListQuery,
        response: { 200: certificationPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await certifications.listCertifications(ctxOf(request), {
        budgetId: q.budget_id,
        estado: q.estado,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toCertificationSummaryOut), total, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    "/certifications/:id",
    {
      config: { permission: "certifications:leer" },
      schema: {
        tags,
        operationId: "getCertification",
        summary: "Certification with its lines (to origin, previous, this period) and totals",
        params: idParams,
        response: { 200: certificationOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toCertificationOut(await certifications.getCertification(ctxOf(request), request.params.id)),
  );

  app.post(
    "/certifications",
    {
      config: { permission: "certifications:crear" },
      schema: {
        tags,
        operationId: "createCertification",
        summary: "Create the next certification of a budget in en_ejecucion",
        body: certificationCreateBody,
        response: { 201: certificationOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const view = await certifications.createCertification(
        ctxOf(request),
        fromCertificationCreateBody(request.body),
      );
      return reply.code(201).send(toCertificationOut(view));
    },
  );

  app.put(
    "/certifications/:id",
    {
      config: { permission: "certifications:editar" },
      schema: {
        tags,
        operationId: "updateCertification",
        summary: "Update a certification in borrador (its lines are replaced)",
        params: idParams,
        body: certificationUpdateBody,
        response: { 200: certificationOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toCertificationOut(
        await certifications.updateCertification(
          ctxOf(request),
          request.params.id,
          fromCertificationBody(request.body),
        ),
      ),
  );

  app.patch(
    "/certifications/:id",
    {
      config: { permission: "certifications:editar" },
      schema: {
        tags,
        operationId: "updateCertificationDocument",
        summary: "Set the issue place and date, and the retention, printed on the certification",
        description:
          "Fields left out are not changed. Any state but validada (409); retention_pct only in borrador " +
          "(409). issue_date must not be before period_start (400).",
        params: idParams,
        body: certificationDocumentBody,
        response: { 200: certificationOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toCertificationOut(
        await certifications.updateCertificationDocument(
          ctxOf(request),
          request.params.id,
          fromCertificationDocumentBody(request.body),
        ),
      ),
  );

  app.delete(
    "/certifications/:id",
    {
      config: { permission: "certifications:eliminar" },
      schema: {
        tags,
        operationId: "deleteCertification",
        summary: "Delete the newest certification of its budget, while in borrador",
        params: idParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await certifications.deleteCertification(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/certifications/:id/estado",
    {
      config: { permission: "certifications:editar" },
      schema: {
        tags,
        operationId: "setCertificationState",
        summary: "Change the state: borrador -> emitida -> validada | rechazada; rechazada -> borrador",
        description: "Setting validada or rechazada also requires certifications:validar.",
        params: idParams,
        body: certificationEstadoBody,
        response: { 200: certificationOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toCertificationOut(
        await certifications.changeCertificationEstado(
          ctxOf(request),
          request.params.id,
          request.body.estado,
        ),
      ),
  );

  app.get(
    "/certifications/:id/pdf",
    {
      config: { permission: "certifications:leer" },
      schema: {
        tags,
        operationId: "getCertificationPdf",
        summary: "The certification as a PDF document to sign",
        description:
          "Page 1: the contractor (company, logo), the work and the owner, the chapter summary, the settlement " +
          "(overheads, profit, VAT, retention, net payable), the payments-on-account clause and the signature " +
          "blocks; then the relación valorada of the chapters with work this period. Fonts embedded.",
        params: idParams,
        produces: ["application/pdf"],
        response: {
          200: z.any().describe("application/pdf document"),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { view, contractor } = await certifications.getCertificationDocument(
        ctxOf(request),
        request.params.id,
      );
      const pdf = await renderCertificationPdf(view, contractor);
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="${certificationPdfFileName(view)}"`)
        .send(pdf);
    },
  );
};
