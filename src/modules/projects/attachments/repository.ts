import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { costAttachments } from "../tables.js";

export type AttachmentRow = typeof costAttachments.$inferSelect;
export type AttachmentInsert = typeof costAttachments.$inferInsert;

export async function listAttachments(db: Db, costEntryId: string) {
  return db
    .select()
    .from(costAttachments)
    .where(eq(costAttachments.costEntryId, costEntryId))
    .orderBy(asc(costAttachments.createdAt), asc(costAttachments.id));
}

export async function findAttachment(db: Db, costEntryId: string, attachmentId: string) {
  const [row] = await db
    .select()
    .from(costAttachments)
    .where(and(eq(costAttachments.id, attachmentId), eq(costAttachments.costEntryId, costEntryId)))
    .limit(1);
  return row;
}

export async function insertAttachment(tx: Db, values: AttachmentInsert) {
  const [row] = await tx.insert(costAttachments).values(values).returning();
  return row;
}

export async function deleteAttachment(tx: Db, costEntryId: string, attachmentId: string) {
  const [row] = await tx
    .delete(costAttachments)
    .where(and(eq(costAttachments.id, attachmentId), eq(costAttachments.costEntryId, costEntryId)))
    .returning({ storageKey: costAttachments.storageKey });
  return row?.storageKey;
}
