import type { FastifyRequest } from "fastify";
import { BadRequestError } from "../../../platform/http/errors.js";

/**
 * The bytes of the multipart file field `field`. Over MAX_UPLOAD_MB, toBuffer() throws
 * FST_REQ_FILE_TOO_LARGE, which the error handler answers with 413.
 */
export async function readUploadedFile(request: FastifyRequest, field = "file"): Promise<Buffer> {
  const file = await request.file();
  if (!file || file.fieldname !== field) {
    file?.file.resume();
    throw new BadRequestError(`Upload the file in the multipart field "${field}"`, [
      { path: `body.${field}`, message: "is required" },
    ]);
  }
  return file.toBuffer();
}
