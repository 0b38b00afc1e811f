import { eq } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { companyLogos } from "../tables.js";

export type CompanyLogoRow = typeof companyLogos.$inferSelect;
export type CompanyLogoInsert = typeof companyLogos.$inferInsert;

export async function findLogo(db: Db, companyId: string): Promise<CompanyLogoRow | undefined> {
  const [row] = await db.select().from(companyLogos).where(eq(companyLogos.companyId, companyId)).limit(1);
  return row;
}

/** Inserts or replaces the company's logo. */
export async function saveLogo(db: Db, values: CompanyLogoInsert): Promise<CompanyLogoRow> {
  const { companyId, ...rest } = values;
  const [row] = await db
    .insert(companyLogos)
    .values(values)
    .onConflictDoUpdate({ target: companyLogos.companyId, set: { ...rest, updatedAt: new Date() } })
    .returning();
  return row;
}

export async function deleteLogo(db: Db, companyId: string): Promise<boolean> {
  const rows = await db
    .delete(companyLogos)
    .where(eq(companyLogos.companyId, companyId))
    .returning({ companyId: companyLogos.companyId });
  return rows.length > 0;
}
