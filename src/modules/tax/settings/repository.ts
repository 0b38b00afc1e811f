import { eq } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { taxSettings } from "../tables.js";

export type TaxSettingsRow = typeof taxSettings.$inferSelect;
export type TaxSettingsChanges = Partial<Omit<typeof taxSettings.$inferInsert, "companyId" | "updatedAt">>;

export async function findTaxSettings(db: Db, companyId: string): Promise<TaxSettingsRow | undefined> {
  const [row] = await db.select().from(taxSettings).where(eq(taxSettings.companyId, companyId)).limit(1);
  return row;
}

/** Writes the fields given, creating the company's row when it has none. */
export async function upsertTaxSettings(
  db: Db,
  companyId: string,
  changes: TaxSettingsChanges,
): Promise<TaxSettingsRow> {
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const [row] = await db
    .insert(taxSettings)
    .values({ ...set, companyId })
    .onConflictDoUpdate({ target: taxSettings.companyId, set: { ...set, updatedAt: new Date() } })
    .returning();
  return row;
}
