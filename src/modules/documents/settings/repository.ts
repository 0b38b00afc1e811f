import { eq } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { forgetLookups } from "../../../platform/db/tx-lookups.js";
import { documentSettings } from "../tables.js";

export type DocumentSettingsRow = typeof documentSettings.$inferSelect;
export type DocumentSettingsInsert = typeof documentSettings.$inferInsert;

export async function findDocumentSettings(
  db: Db,
  companyId: string,
): Promise<DocumentSettingsRow | undefined> {
  const [row] = await db
    .select()
    .from(documentSettings)
    .where(eq(documentSettings.companyId, companyId))
    .limit(1);
  return row;
}

/** Writes the given settings, creating the company's row (with the defaults for the rest) when missing. */
export async function upsertDocumentSettings(
  db: Db,
  companyId: string,
  values: Partial<Omit<DocumentSettingsInsert, "companyId">>,
): Promise<DocumentSettingsRow> {
  const set = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  const [row] = await db
    .insert(documentSettings)
    .values({ ...set, companyId })
    .onConflictDoUpdate({ target: documentSettings.companyId, set: { ...set, updatedAt: new Date() } })
    .returning();
  forgetLookups(db, "document_settings");
  return row;
}
