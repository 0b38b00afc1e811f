import type { FastifyReply } from "fastify";
import { z } from "zod";
import { iso } from "./dates.js";
import { attachmentDisposition, cleanFileName, detectAttachmentType } from "./file-types.js";
import { BadRequestError, MissingStoredFileError, UnsupportedMediaTypeError } from "./http/errors.js";
import { uuidParam } from "./ids.js";
import { type FileStorage, type StoredFile, StoredFileNotFoundError } from "./storage.js";

/**
 * What every attached file shares, whatever it is attached to (a cost entry, a commercial
 * document): the upload's checks, the stored file kept only with its committed row, the download
 * and the API shape. Each module keeps its own table, scope and rules on who may add or remove.
 */
export interface AttachmentRecord {
  id: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  storageKey: string;
  createdAt: Date;
}

export const attachmentOut = z.object({
  id: z.uuid(),
  file_name: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string().describe("SHA-256 of the content, hex"),
  created_at: z.string(),
});
export const attachmentParams = z.object({ id: uuidParam, attachment_id: uuidParam });

export function toAttachmentOut(a: AttachmentRecord): z.infer<typeof attachmentOut> {
  return {
    id: a.id,
    file_name: a.fileName,
    content_type: a.contentType,
    size_bytes: a.sizeBytes,
    sha256: a.sha256,
    created_at: iso(a.createdAt),
  };
}

/** The upload's name and type, both checked (400 without a name or content, 415 for a type not accepted). */
export function checkedUpload(upload: { fileName: string; content: Buffer }): {
  fileName: string;
  contentType: string;
} {
  const fileName = cleanFileName(upload.fileName);
  if (!fileName) throw new BadRequestError("The uploaded file has no name");
  if (upload.content.length === 0) throw new BadRequestError("The uploaded file is empty");
  const type = detectAttachmentType(fileName, upload.content);
  if (!type.ok) throw new UnsupportedMediaTypeError(type.reason);
  return { fileName, contentType: type.contentType };
}

/**
 * Runs the transaction that writes an attachment's row; `store` saves the content (call it once,
 * inside, after the locks). When the transaction fails, the stored file is removed: it must not
 * outlive a row that was never committed.
 */
export async function storedWithRow<T>(
  storage: FileStorage,
  content: Buffer,
  transaction: (store: () => Promise<StoredFile>) => Promise<T>,
): Promise<T> {
  let stored: StoredFile | undefined;
  try {
    return await transaction(async () => {
      stored = await storage.save(content);
      return stored;
    });
  } catch (err) {
    if (stored) await storage.remove(stored.key);
    throw err;
  }
}

/** An attachment's content; a file missing from the storage is a 404 naming it. */
export async function readAttachment<A extends AttachmentRecord>(
  storage: FileStorage,
  attachment: A,
): Promise<{ attachment: A; content: Buffer }> {
  try {
    return { attachment, content: await storage.read(attachment.storageKey) };
  } catch (err) {
    if (!(err instanceof StoredFileNotFoundError)) throw err;
    throw new MissingStoredFileError(
      `The file "${attachment.fileName}" of attachment ${attachment.id} is missing from the file storage`,
      attachment.storageKey,
    );
  }
}

/** Sends an attachment with its original name and type, never sniffed by the browser. */
export function sendAttachment(
  reply: FastifyReply,
  download: { attachment: AttachmentRecord; content: Buffer },
) {
  return reply
    .type(download.attachment.contentType)
    .header("content-disposition", attachmentDisposition(download.attachment.fileName))
    .header("x-content-type-options", "nosniff")
    .send(download.content);
}
