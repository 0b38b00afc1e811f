import { and, asc, count, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { paginate } from "../../platform/db/paginate.js";
import { preparedRead } from "../../platform/db/prepared.js";
import { forgetLookups, txLookup } from "../../platform/db/tx-lookups.js";
import { likePattern } from "../../platform/http/pagination.js";
import { companies } from "./tables.js";

export type CompanyRow = typeof companies.$inferSelect;
export type CompanyInsert = typeof companies.$inferInsert;

const companyById = preparedRead("cuadra_company_by_id", (db) =>
  db
    .select()
    .from(companies)
    .where(eq(companies.id, sql.placeholder("id")))
    .limit(1),
);

/** The company's row, read once per transaction (ADR 047). */
export function findCompany(db: Db, id: string) {
  return txLookup(db, "companies", id, async () => {
    const [row] = await companyById(db, { id });
    return row;
  });
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

// Asked by every route that defaults to the tenant's only company (entries, balances, ...).
const activeCompanies = preparedRead("cuadra_active_company_ids", (db) =>
  db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.isActive, true))
    .limit(sql.placeholder("limit")),
);

export async function activeCompanyIds(db: Db, limit: number) {
  const rows = await activeCompanies(db, { limit });
  return rows.map((r) => r.id);
}

export async function insertCompany(db: Db, values: CompanyInsert) {
  const [row] = await db.insert(companies).values(values).returning();
  forgetLookups(db, "companies");
  return row;
}

export async function updateCompany(db: Db, id: string, values: Partial<CompanyInsert>) {
  const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning();
  forgetLookups(db, "companies");
  return row;
}
