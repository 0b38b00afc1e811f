import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { documentAttachments } from "../tables.js";

export type AttachmentRow = typeof documentAttachments.$inferSelect;
export type AttachmentInsert = typeof documentAttachments.$inferInsert;

export async function listAttachments(db: Db, documentId: string) {
  return db
    .select()
    .from(documentAttachments)
    .where(eq(documentAttachments.documentId, documentId))
    .orderBy(asc(documentAttachments.createdAt), asc(documentAttachments.id));
}

export async function findAttachment(db: Db, documentId: string, attachmentId: string) {
  const [row] = await db
    .select()
    .from(documentAttachments)
    .where(and(eq(documentAttachments.id, attachmentId), eq(documentAttachments.documentId, documentId)))
    .limit(1);
  return row;
}

export async function insertAttachment(tx: Db, values: AttachmentInsert) {
  const [row] = await tx.insert(documentAttachments).values(values).returning();
  return row;
}

export async function deleteAttachment(tx: Db, documentId: string, attachmentId: string) {
  const [row] = await tx
    .delete(documentAttachments)
    .where(and(eq(documentAttachments.id, attachmentId), eq(documentAttachments.documentId, documentId)))
    .returning({ storageKey: documentAttachments.storageKey });
  return row?.storageKey;
}
