import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  attachmentOut,
  attachmentParams,
  sendAttachment,
  toAttachmentOut,
} from "../../../platform/attachments.js";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { readSingleUpload } from "../../../platform/http/uploads.js";
import { idParams } from "../../../platform/ids.js";
import type { FileStorage } from "../../../platform/storage.js";
import * as attachments from "./service.js";

const tags = ["accounting"];

export const attachmentRoutes: FastifyPluginAsyncZod<{ storage: FileStorage }> = async (app, { storage }) => {
  app.get(
    "/accounting/:id/attachments",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "listCostEntryAttachments",
        summary: "Attachments of a cost entry",
        params: idParams,
        response: { 200: z.array(attachmentOut), ...errorResponses(404) },
      },
    },
    async (request) =>
      (await attachments.listAttachments(ctxOf(request), request.params.id)).map(toAttachmentOut),
  );

  app.post(
    "/accounting/:id/attachments",
    {
      config: {
        permission: "accounting:crear",
        upload: { file: "The document: pdf, png, jpeg, xml or csv" },
      },
      schema: {
        tags,
        operationId: "uploadCostEntryAttachment",
        summary: "Attach a file to a cost entry",
        description:
          "multipart/form-data with one part `file`: pdf, png, jpeg, xml or csv (extension and content are " +
          "both checked; otherwise 415), at most MAX_UPLOAD_MB (otherwise 413 and nothing is stored).",
        consumes: ["multipart/form-data"],
        params: idParams,
        response: { 201: attachmentOut, ...errorResponses(404, 409, 413, 415, 507) },
      },
    },
    async (request, reply) => {
      const upload = await readSingleUpload(request);
      const row = await attachments.addAttachment(ctxOf(request), storage, request.params.id, upload);
      return reply.code(201).send(toAttachmentOut(row));
    },
  );

  app.get(
    "/accounting/:id/attachments/:attachment_id",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "downloadCostEntryAttachment",
        summary: "Download an attachment (its original name and content type)",
        params: attachmentParams,
        produces: ["application/pdf", "image/png", "image/jpeg", "application/xml", "text/csv"],
        response: { 200: z.any().describe("The file"), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { id, attachment_id } = request.params;
      const download = await attachments.downloadAttachment(ctxOf(request), storage, id, attachment_id);
      return sendAttachment(reply, download);
    },
  );

  app.delete(
    "/accounting/:id/attachments/:attachment_id",
    {
      config: { permission: "accounting:eliminar" },
      schema: {
        tags,
        operationId: "deleteCostEntryAttachment",
        summary: "Delete an attachment and its file",
        params: attachmentParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { id, attachment_id } = request.params;
      await attachments.removeAttachment(ctxOf(request), storage, id, attachment_id);
      return reply.code(204).send(null);
    },
  );
};
