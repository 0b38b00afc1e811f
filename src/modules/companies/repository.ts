import { and, asc, count, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { paginate } from "../../platform/db/paginate.js";
import { likePattern } from "../../platform/http/pagination.js";
import { companies } from "./tables.js";

export type CompanyRow = typeof companies.$inferSelect;
export type CompanyInsert = typeof companies.$inferInsert;

export async function findCompany(db: Db, id: string) {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

export async function listCompanies(
  db: Db,
  f: { scope?: SQL; search?: string; includeInactive: boolean; limit: number; offset: number },
) {
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(companies.isActive, true),
    f.search
      ? or(
          ilike(companies.name, likePattern(f.search)),
          ilike(companies.legalName, likePattern(f.search)),
          ilike(companies.taxId, likePattern(f.search)),
        )
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(companies)
        .where(where)
        .orderBy(asc(companies.createdAt), asc(companies.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(companies).where(where),
  );
}

export async function activeCompanyIds(db: Db, limit: number) {
  const rows = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.isActive, true))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function insertCompany(db: Db, values: CompanyInsert) {
  const [row] = await db.insert(companies).values(values).returning();
  return row;
}

export async function updateCompany(db: Db, id: string, values: Partial<CompanyInsert>) {
  const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning();
  return row;
}
