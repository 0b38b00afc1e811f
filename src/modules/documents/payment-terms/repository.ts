import { and, asc, count, eq, ilike, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { paymentTerms } from "../tables.js";

export type PaymentTermRow = typeof paymentTerms.$inferSelect;
export type PaymentTermInsert = typeof paymentTerms.$inferInsert;

export interface PaymentTermListFilter {
  scope?: SQL;
  search?: string;
  includeInactive: boolean;
  limit: number;
  offset: number;
}

export async function findPaymentTerm(db: Db, id: string): Promise<PaymentTermRow | undefined> {
  const [row] = await db.select().from(paymentTerms).where(eq(paymentTerms.id, id)).limit(1);
  return row;
}

export async function findPaymentTermOfCompany(db: Db, companyId: string, id: string) {
  const [row] = await db
    .select()
    .from(paymentTerms)
    .where(and(eq(paymentTerms.id, id), eq(paymentTerms.companyId, companyId)))
    .limit(1);
  return row;
}

export async function paymentTermCodeTaken(db: Db, companyId: string, code: string, exceptId?: string) {
  const [row] = await db
    .select({ id: paymentTerms.id })
    .from(paymentTerms)
    .where(
      and(
        eq(paymentTerms.companyId, companyId),
        eq(paymentTerms.code, code),
        exceptId ? ne(paymentTerms.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export function listPaymentTerms(db: Db, f: PaymentTermListFilter) {
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(paymentTerms.isActive, true),
    f.search
      ? or(ilike(paymentTerms.code, likePattern(f.search)), ilike(paymentTerms.name, likePattern(f.search)))
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(paymentTerms)
        .where(where)
        .orderBy(asc(paymentTerms.createdAt), asc(paymentTerms.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(paymentTerms).where(where),
  );
}

export async function insertPaymentTerm(db: Db, values: PaymentTermInsert): Promise<PaymentTermRow> {
  const [row] = await db.insert(paymentTerms).values(values).returning();
  return row;
}

export async function updatePaymentTerm(
  db: Db,
  id: string,
  values: Partial<PaymentTermInsert>,
): Promise<PaymentTermRow> {
  const [row] = await db.update(paymentTerms).set(values).where(eq(paymentTerms.id, id)).returning();
  return row;
}
