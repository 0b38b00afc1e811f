import { checkedUpload, readAttachment, storedWithRow } from "../../../platform/attachments.js";
import { inTransaction } from "../../../platform/db/sql.js";
import { type AuthedCtx, type Ctx, inCtxTransaction } from "../../../platform/http/context.js";
import { NotFoundError } from "../../../platform/http/errors.js";
import type { FileStorage } from "../../../platform/storage.js";
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
  const { fileName, contentType } = checkedUpload(upload);
  return storedWithRow(storage, upload.content, (store) =>
    inTransaction(ctx.db, async (tx) => {
      await loadBudgetForWrite(tx, entry.budgetId, ctx.actor);
      const stored = await store();
      return repo.insertAttachment(tx, {
        costEntryId,
        fileName,
        contentType,
        sizeBytes: stored.sizeBytes,
        sha256: stored.sha256,
        storageKey: stored.key,
        createdBy: ctx.actor.userId,
      });
    }),
  );
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
  return readAttachment(storage, attachment);
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
