import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
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
import { type DocumentRoutesOptions, operationNoun } from "../engine/routes.js";
import * as attachments from "./service.js";

/** /{id}/attachments of one kind of document: list, upload (multipart `file`), download, delete. */
export function registerAttachmentRoutes(
  app: FastifyInstance,
  o: DocumentRoutesOptions & { storage: FileStorage },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const scope = { direction: o.direction, kind: o.kind };
  const tags = [o.tag];

  r.get(
    "/:id/attachments",
    {
      config: { permission: `${o.module}:leer` },
      schema: {
        tags,
        operationId: `list${operationNoun(o)}Attachments`,
        summary: `Files attached to a ${o.noun}`,
        description: "Oldest first, with each file's size and SHA-256.",
        params: idParams,
        response: { 200: z.array(attachmentOut), ...errorResponses(404) },
      },
    },
    async (request) =>
      (await attachments.listAttachments(ctxOf(request), scope, request.params.id)).map(toAttachmentOut),
  );

  r.post(
    "/:id/attachments",
    {
      config: {
        permission: `${o.module}:crear`,
        upload: { file: "The supplier's file: pdf, png, jpeg, xml or csv" },
      },
      schema: {
        tags,
        operationId: `upload${operationNoun(o)}Attachment`,
        summary: `Attach a file (the supplier's PDF or XML) to a ${o.noun}`,
        description:
          "multipart/form-data with one part `file`: pdf, xml (Facturae), png, jpeg or csv; the extension and " +
          "the content are both checked (otherwise 415). At most MAX_UPLOAD_MB (otherwise 413 and nothing is " +
          "stored). The SHA-256 of the content is kept. Any state: a booked invoice may still receive files.",
        consumes: ["multipart/form-data"],
        params: idParams,
        response: { 201: attachmentOut, ...errorResponses(404, 413, 415, 507) },
      },
    },
    async (request, reply) => {
      const upload = await readSingleUpload(request);
      const row = await attachments.addAttachment(
        ctxOf(request),
        o.storage,
        scope,
        request.params.id,
        upload,
      );
      return reply.code(201).send(toAttachmentOut(row));
    },
  );

  r.get(
    "/:id/attachments/:attachment_id",
    {
      config: { permission: `${o.module}:leer` },
      schema: {
        tags,
        operationId: `download${operationNoun(o)}Attachment`,
        summary: "Download an attachment (its original name and content type)",
        params: attachmentParams,
        produces: ["application/pdf", "application/xml", "image/png", "image/jpeg", "text/csv"],
        response: { 200: z.any().describe("The file"), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { id, attachment_id } = request.params;
      const download = await attachments.downloadAttachment(
        ctxOf(request),
        o.storage,
        scope,
        id,
        attachment_id,
      );
      return sendAttachment(reply, download);
    },
  );

  r.delete(
    "/:id/attachments/:attachment_id",
    {
      config: { permission: `${o.module}:eliminar` },
      schema: {
        tags,
        operationId: `delete${operationNoun(o)}Attachment`,
        summary: "Delete an attachment and its file",
        description: "Not once the invoice is booked (approved or issued): 409.",
        params: attachmentParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { id, attachment_id } = request.params;
      await attachments.removeAttachment(ctxOf(request), o.storage, scope, id, attachment_id);
      return reply.code(204).send(null);
    },
  );
}
