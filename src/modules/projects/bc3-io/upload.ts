import type { FastifyRequest } from "fastify";
import { readSingleUpload } from "../../../platform/http/uploads.js";

/**
 * The bytes of the one multipart file in `field`. Over MAX_UPLOAD_MB: 413; no file, another
 * field, two files or a malformed body: 400.
 */
export async function readUploadedFile(request: FastifyRequest, field = "file"): Promise<Buffer> {
  return (await readSingleUpload(request, field)).content;
}

/** The file and the text fields sent beside it. */
export async function readUploadWithFields(
  request: FastifyRequest,
  field = "file",
): Promise<{ file: Buffer; fields: Record<string, string> }> {
  const upload = await readSingleUpload(request, field);
  return { file: upload.content, fields: upload.fields };
}
