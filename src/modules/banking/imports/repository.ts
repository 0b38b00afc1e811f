import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { bankImports, bankMovements } from "../tables.js";

export type ImportRow = typeof bankImports.$inferSelect;
export type ImportInsert = typeof bankImports.$inferInsert;
export type MovementInsert = typeof bankMovements.$inferInsert;

/** Rows per INSERT: 18 columns x 1,000 stays far under PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 1_000;
/** Keys per IN list. */
const LOOKUP_CHUNK = 5_000;

export async function findImportBySha(db: Db, bankAccountId: string, sha256: string) {
  const [row] = await db
    .select()
    .from(bankImports)
    .where(and(eq(bankImports.bankAccountId, bankAccountId), eq(bankImports.sha256, sha256)))
    .limit(1);
  return row;
}

/** Which of these dedupe keys the bank account already has (one query per 5,000 keys). */
export async function existingDedupeKeys(
  db: Db,
  bankAccountId: string,
  keys: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .select({ key: bankMovements.dedupeKey })
      .from(bankMovements)
      .where(
        and(
          eq(bankMovements.bankAccountId, bankAccountId),
          inArray(bankMovements.dedupeKey, keys.slice(i, i + LOOKUP_CHUNK)),
        ),
      );
    for (const r of rows) found.add(r.key);
  }
  return found;
}

export async function insertImport(db: Db, row: ImportInsert): Promise<ImportRow> {
  const [created] = await db.insert(bankImports).values(row).returning();
  return created!;
}

export async function insertMovements(db: Db, rows: MovementInsert[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db.insert(bankMovements).values(rows.slice(i, i + INSERT_CHUNK));
  }
}

export async function companyHasImports(db: Db, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bankImports.id })
    .from(bankImports)
    .where(eq(bankImports.companyId, companyId))
    .limit(1);
  return Boolean(row);
}
