import { inTransaction } from "../../../platform/db/sql.js";
import { cleanFileName, detectAttachmentType } from "../../../platform/file-types.js";
import { type AuthedCtx, type Ctx, inCtxTransaction } from "../../../platform/http/context.js";
import {
  BadRequestError,
  MissingStoredFileError,
  NotFoundError,
  UnsupportedMediaTypeError,
} from "../../../platform/http/errors.js";
import { type FileStorage, type StoredFile, StoredFileNotFoundError } from "../../../platform/storage.js";
import { loadBudgetForWrite } from "../budget-access.js";
import { getCostEntry } from "../costs/service.js";
import * as repo from "./repository.js";

export async function listAttachments(ctx: Ctx, costEntryId: string) {
  await getCostEntry(ctx, costEntryId);
  return repo.listAttachments(ctx.db, costEntryId);
}

export async function addAttachment(
  ctx: AuthedCtx,
  storage: FileStorage,
  costEntryId: string,
  upload: { fileName: string; content: Buffer },
) {
  const entry = await getCostEntry(ctx, costEntryId);
  const fileName = cleanFileName(upload.fileName);
  if (!fileName) throw new BadRequestError("The uploaded file has no name");
  if (upload.content.length === 0) throw new BadRequestError("The uploaded file is empty");
  const type = detectAttachmentType(fileName, upload.content);
  if (!type.ok) throw new UnsupportedMediaTypeError(type.reason);

  let stored: StoredFile | undefined;
  try {
    return await inTransaction(ctx.db, async (tx) => {
      await loadBudgetForWrite(tx, entry.budgetId, ctx.actor);
      stored = await storage.save(upload.content);
      return repo.insertAttachment(tx, {
        costEntryId,
        fileName,
        contentType: type.contentType,
        sizeBytes: stored.sizeBytes,
        sha256: stored.sha256,
        storageKey: stored.key,
        createdBy: ctx.actor.userId,
      });
    });
  } catch (err) {
    // The row was not committed: the file must not outlive it.
    if (stored) await storage.remove(stored.key);
    throw err;
  }
}

export async function downloadAttachment(
  ctx: Ctx,
  storage: FileStorage,
  costEntryId: string,
  attachmentId: string,
) {
  await getCostEntry(ctx, costEntryId);
  const attachment = await repo.findAttachment(ctx.db, costEntryId, attachmentId);
  if (!attachment) throw new NotFoundError("Attachment");
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

export async function removeAttachment(
  ctx: AuthedCtx,
  storage: FileStorage,
  costEntryId: string,
  attachmentId: string,
) {
  const key = await inCtxTransaction(ctx, async (txCtx) => {
    const entry = await getCostEntry(txCtx, costEntryId);
    await loadBudgetForWrite(txCtx.db, entry.budgetId, ctx.actor);
    const storageKey = await repo.deleteAttachment(txCtx.db, costEntryId, attachmentId);
    if (!storageKey) throw new NotFoundError("Attachment");
    return storageKey;
  });
  await storage.remove(key);
}
