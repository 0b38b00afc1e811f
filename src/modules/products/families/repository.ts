import { and, asc, count, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { productFamilies } from "../tables.js";

export type FamilyRow = typeof productFamilies.$inferSelect;
export type FamilyInsert = typeof productFamilies.$inferInsert;

export async function findFamily(db: Db, id: string) {
  const [row] = await db.select().from(productFamilies).where(eq(productFamilies.id, id)).limit(1);
  return row;
}

export async function findFamilyByCode(db: Db, companyId: string, code: string) {
  const [row] = await db
    .select()
    .from(productFamilies)
    .where(and(eq(productFamilies.companyId, companyId), eq(productFamilies.code, code)))
    .limit(1);
  return row;
}

export async function listFamilies(
  db: Db,
  f: { scope?: SQL; search?: string; includeInactive: boolean; limit: number; offset: number },
) {
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(productFamilies.isActive, true),
    f.search
      ? or(
          ilike(productFamilies.code, likePattern(f.search)),
          ilike(productFamilies.name, likePattern(f.search)),
        )
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(productFamilies)
        .where(where)
        .orderBy(asc(productFamilies.createdAt), asc(productFamilies.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(productFamilies).where(where),
  );
}

export async function insertFamily(db: Db, values: FamilyInsert) {
  const [row] = await db.insert(productFamilies).values(values).returning();
  return row;
}

export async function updateFamily(db: Db, id: string, values: Partial<FamilyInsert>) {
  const [row] = await db.update(productFamilies).set(values).where(eq(productFamilies.id, id)).returning();
  return row;
}
