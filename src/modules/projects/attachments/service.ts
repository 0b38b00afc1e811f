import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError } from "../../../platform/http/errors.js";
import type { FileStorage, StoredFile } from "../../../platform/storage.js";
import { loadBudgetForWrite } from "../budget-access.js";
import * as repo from "../costs/repository.js";
import { get as getEntry } from "../costs/service.js";
import { cleanFileName, detectAttachmentType } from "./file-types.js";

export async function list(ctx: Ctx, costEntryId: string) {
  await getEntry(ctx, costEntryId);
  return repo.listAttachments(ctx.db, costEntryId);
}

export async function add(
  ctx: AuthedCtx,
  storage: FileStorage,
  costEntryId: string,
  upload: { fileName: string; content: Buffer },
) {
  const entry = await getEntry(ctx, costEntryId);
  const fileName = cleanFileName(upload.fileName);
  if (!fileName) throw new BadRequestError("The uploaded file has no name");
  if (upload.content.length === 0) throw new BadRequestError("The uploaded file is empty");
  const type = detectAttachmentType(fileName, upload.content);
  if (!type.ok) throw new UnsupportedMediaTypeError(type.reason);

  let stored: StoredFile | undefined;
  try {
    return await inTransaction(ctx.db, async (tx) => {
      await loadBudgetForWrite(tx, entry.budgetId);
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

export async function download(ctx: Ctx, storage: FileStorage, costEntryId: string, attachmentId: string) {
  await getEntry(ctx, costEntryId);
  const attachment = await repo.findAttachment(ctx.db, costEntryId, attachmentId);
  if (!attachment) throw new NotFoundError("Attachment");
  return { attachment, content: await storage.read(attachment.storageKey) };
}

export async function remove(
  ctx: AuthedCtx,
  storage: FileStorage,
  costEntryId: string,
  attachmentId: string,
) {
  const key = await inTransaction(ctx.db, async (tx) => {
    const entry = await getEntry({ ...ctx, db: tx }, costEntryId);
    await loadBudgetForWrite(tx, entry.budgetId);
    const storageKey = await repo.deleteAttachment(tx, costEntryId, attachmentId);
    if (!storageKey) throw new NotFoundError("Attachment");
    return storageKey;
  });
  await storage.remove(key);
}
