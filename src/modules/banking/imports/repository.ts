import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { pgArray, queryRows } from "../../../platform/db/sql.js";
import { bankImports, bankMovements } from "../tables.js";

export type ImportRow = typeof bankImports.$inferSelect;
export type ImportInsert = typeof bankImports.$inferInsert;
export type MovementInsert = typeof bankMovements.$inferInsert;

/** Rows per INSERT ... SELECT FROM unnest: one array parameter per column, whatever the rows. */
const INSERT_CHUNK = 10_000;

export async function findImportBySha(db: Db, bankAccountId: string, sha256: string) {
  const [row] = await db
    .select()
    .from(bankImports)
    .where(and(eq(bankImports.bankAccountId, bankAccountId), eq(bankImports.sha256, sha256)))
    .limit(1);
  return row;
}

/** Which of these dedupe keys the bank account already has: one query, the keys as one array. */
export async function existingDedupeKeys(
  db: Db,
  bankAccountId: string,
  keys: string[],
): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select m.dedupe_key as key from ${bankMovements} m
         where m.bank_account_id = ${bankAccountId} and m.dedupe_key = any(${pgArray(keys)}::text[])`,
  );
  return new Set(rows.map((r) => r.key));
}

export async function insertImport(db: Db, row: ImportInsert): Promise<ImportRow> {
  const [created] = await db.insert(bankImports).values(row).returning();
  return created!;
}

const column = (rows: MovementInsert[], pick: (r: MovementInsert) => string | null | undefined) =>
  pgArray(rows.map((r) => pick(r) ?? null));

/**
 * The movements of one import (one company, bank account and import: the first row's), 10,000 per INSERT ... SELECT FROM unnest(...): each column is one
 * array parameter, so 100,000 movements are ten statements and no per-row SQL is built.
 */
export async function insertMovements(db: Db, rows: MovementInsert[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const first = chunk[0]!;
    const now = (first.createdAt ?? new Date()).toISOString();
    await db.execute(sql`
      insert into ${bankMovements} (id, company_id, bank_account_id, import_id, position, operation_date,
        value_date, amount, common_concept, own_concept, document, reference_1, reference_2, concepts,
        foreign_currency, foreign_amount, dedupe_key, estado, created_at, updated_at)
      select u.id, ${first.companyId}, ${first.bankAccountId}, ${first.importId}, u.position, u.operation_date,
        u.value_date, u.amount, u.common_concept, u.own_concept, u.document, u.reference_1, u.reference_2,
        u.concepts, u.foreign_currency, u.foreign_amount, u.dedupe_key, u.estado, ${now}::timestamptz, ${now}::timestamptz
        from unnest(
          ${column(chunk, (r) => r.id)}::uuid[], ${column(chunk, (r) => r.position)}::text[],
          ${column(chunk, (r) => r.operationDate)}::date[], ${column(chunk, (r) => r.valueDate)}::date[],
          ${column(chunk, (r) => r.amount)}::numeric[], ${column(chunk, (r) => r.commonConcept)}::text[],
          ${column(chunk, (r) => r.ownConcept)}::text[], ${column(chunk, (r) => r.document)}::text[],
          ${column(chunk, (r) => r.reference1)}::text[], ${column(chunk, (r) => r.reference2)}::text[],
          ${column(chunk, (r) => JSON.stringify(r.concepts ?? []))}::jsonb[],
          ${column(chunk, (r) => r.foreignCurrency)}::text[], ${column(chunk, (r) => r.foreignAmount)}::numeric[],
          ${column(chunk, (r) => r.dedupeKey)}::text[], ${column(chunk, (r) => r.estado)}::text[]
        ) as u(id, position, operation_date, value_date, amount, common_concept, own_concept, document,
               reference_1, reference_2, concepts, foreign_currency, foreign_amount, dedupe_key, estado)`);
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
