import type { FastifyRequest } from "fastify";
import { AppError, BadRequestError } from "./errors.js";

/** One uploaded file: its name as the client sent it and its bytes. */
export interface UploadedFile {
  fileName: string;
  content: Buffer;
  /** The form's text parts, sent before or after the file. */
  fields: Record<string, string>;
}

/**
 * The one file of a multipart/form-data request, in the part `field`. A request with no file, a
 * file in another part or a second file is a 400 naming `body.<field>`; a file over MAX_UPLOAD_MB a
 * 413 (FST_REQ_FILE_TOO_LARGE); a malformed or truncated body a 400 (error handler). Text parts
 * come back in `fields`.
 */
export async function readSingleUpload(request: FastifyRequest, field = "file"): Promise<UploadedFile> {
  const problem = (message: string) =>
    new BadRequestError(`${message}; send one file in the multipart part \`${field}\``, [
      { path: `body.${field}`, message },
    ]);
  let found: Omit<UploadedFile, "fields"> | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type !== "file") {
        if (typeof part.value === "string") fields[part.fieldname] = part.value;
        continue;
      }
      if (found) {
        part.file.resume();
        throw problem("the upload carries more than one file");
      }
      if (part.fieldname !== field) {
        part.file.resume();
        throw problem(`the file was sent in the part \`${part.fieldname}\``);
      }
      found = { fileName: part.filename, content: await part.toBuffer() };
    }
  } catch (err) {
    // busboy stops at its file limit (1) when a second file arrives
    if ((err as { code?: string }).code === "FST_FILES_LIMIT" && !(err instanceof AppError)) {
      throw problem("the upload carries more than one file");
    }
    throw err;
  }
  if (!found) throw problem("the request carries no file");
  return { ...found, fields };
}

/**
 * Errors of the multipart parser caused by the body sent (no boundary, truncated or malformed
 * body): a 400 message, or undefined for anything else.
 */
export function malformedMultipart(
  error: Error & { code?: string },
  isMultipart: boolean,
): string | undefined {
  if (!isMultipart) return undefined;
  if (error.message === "Multipart: Boundary not found") {
    return "The multipart/form-data Content-Type has no boundary";
  }
  if (
    error.code === "ERR_STREAM_PREMATURE_CLOSE" ||
    /^(Unexpected end of (form|multipart data)|Malformed|Part terminated early)/.test(error.message)
  ) {
    return "The multipart/form-data body is malformed or truncated";
  }
  return undefined;
}
