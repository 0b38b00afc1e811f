import { checkedUpload, readAttachment, storedWithRow } from "../../../platform/attachments.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import type { FileStorage } from "../../../platform/storage.js";
import { type DocumentScope, loadDocument } from "../engine/service.js";
import * as repo from "./repository.js";

/**
 * Files attached to a document (the supplier's PDF or XML on a purchase invoice), under the same
 * rules as cost-entry attachments: extension and content both checked (415), MAX_UPLOAD_MB (413,
 * enforced by the multipart parser before anything is stored), SHA-256 kept. The document's
 * company scope applies (another company's document is a 404). A booked (approved or issued)
 * invoice keeps its files: removing one is a 409.
 */

const BOOKED = new Set(["aprobada", "emitida"]);

export async function listAttachments(ctx: AuthedCtx, scope: DocumentScope, documentId: string) {
  const doc = await loadDocument(ctx, scope, documentId);
  return repo.listAttachments(ctx.db, doc.id);
}

export async function addAttachment(
  ctx: AuthedCtx,
  storage: FileStorage,
  scope: DocumentScope,
  documentId: string,
  upload: { fileName: string; content: Buffer },
) {
  await loadDocument(ctx, scope, documentId);
  const { fileName, contentType } = checkedUpload(upload);
  return storedWithRow(storage, upload.content, (store) =>
    inCtxTransaction(ctx, async (tx) => {
      const doc = await loadDocument(tx, scope, documentId, { lock: true });
      const stored = await store();
      return repo.insertAttachment(tx.db, {
        companyId: doc.companyId,
        documentId: doc.id,
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
  ctx: AuthedCtx,
  storage: FileStorage,
  scope: DocumentScope,
  documentId: string,
  attachmentId: string,
) {
  const doc = await loadDocument(ctx, scope, documentId);
  const attachment = await repo.findAttachment(ctx.db, doc.id, attachmentId);
  if (!attachment) throw new NotFoundError("Attachment");
  return readAttachment(storage, attachment);
}

export async function removeAttachment(
  ctx: AuthedCtx,
  storage: FileStorage,
  scope: DocumentScope,
  documentId: string,
  attachmentId: string,
) {
  const key = await inCtxTransaction(ctx, async (tx) => {
    const doc = await loadDocument(tx, scope, documentId, { lock: true });
    if (!(await repo.findAttachment(tx.db, doc.id, attachmentId))) throw new NotFoundError("Attachment");
    if (BOOKED.has(doc.estado))
      throw new ConflictError(
        `${doc.code} is ${doc.estado}: the files it was booked with are kept (attach a corrected one instead)`,
        { estado: doc.estado },
      );
    return (await repo.deleteAttachment(tx.db, doc.id, attachmentId)) as string;
  });
  await storage.remove(key);
}
