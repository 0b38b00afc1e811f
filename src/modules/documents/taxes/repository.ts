import { and, asc, count, eq, ilike, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { documentLines, documentTaxes, type TaxKind, taxCodes } from "../tables.js";

export type TaxCodeRow = typeof taxCodes.$inferSelect;
export type TaxCodeInsert = typeof taxCodes.$inferInsert;

export interface TaxCodeListFilter {
  scope?: SQL;
  kind?: TaxKind;
  search?: string;
  includeInactive: boolean;
  limit: number;
  offset: number;
}

export async function findTaxCode(db: Db, id: string): Promise<TaxCodeRow | undefined> {
  const [row] = await db.select().from(taxCodes).where(eq(taxCodes.id, id)).limit(1);
  return row;
}

export async function findTaxCodeOfCompany(db: Db, companyId: string, id: string) {
  const [row] = await db
    .select()
    .from(taxCodes)
    .where(and(eq(taxCodes.id, id), eq(taxCodes.companyId, companyId)))
    .limit(1);
  return row;
}

export async function findTaxCodeByCode(db: Db, companyId: string, code: string) {
  const [row] = await db
    .select()
    .from(taxCodes)
    .where(and(eq(taxCodes.companyId, companyId), eq(taxCodes.code, code)))
    .limit(1);
  return row;
}

export async function taxCodeTaken(db: Db, companyId: string, code: string, exceptId?: string) {
  const [row] = await db
    .select({ id: taxCodes.id })
    .from(taxCodes)
    .where(
      and(
        eq(taxCodes.companyId, companyId),
        eq(taxCodes.code, code),
        exceptId ? ne(taxCodes.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Whether any document line (as its VAT or IRPF code) or tax breakdown refers to the code. */
export async function taxCodeInUse(db: Db, id: string): Promise<boolean> {
  const [line] = await db
    .select({ id: documentLines.id })
    .from(documentLines)
    .where(or(eq(documentLines.taxCodeId, id), eq(documentLines.irpfCodeId, id)))
    .limit(1);
  if (line) return true;
  const [tax] = await db
    .select({ id: documentTaxes.id })
    .from(documentTaxes)
    .where(eq(documentTaxes.taxCodeId, id))
    .limit(1);
  return Boolean(tax);
}

export function listTaxCodes(db: Db, f: TaxCodeListFilter) {
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(taxCodes.isActive, true),
    f.kind ? eq(taxCodes.kind, f.kind) : undefined,
    f.search
      ? or(ilike(taxCodes.code, likePattern(f.search)), ilike(taxCodes.name, likePattern(f.search)))
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(taxCodes)
        .where(where)
        .orderBy(asc(taxCodes.createdAt), asc(taxCodes.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(taxCodes).where(where),
  );
}

export async function insertTaxCode(db: Db, values: TaxCodeInsert): Promise<TaxCodeRow> {
  const [row] = await db.insert(taxCodes).values(values).returning();
  return row;
}

export async function updateTaxCode(db: Db, id: string, values: Partial<TaxCodeInsert>): Promise<TaxCodeRow> {
  const [row] = await db.update(taxCodes).set(values).where(eq(taxCodes.id, id)).returning();
  return row;
}
