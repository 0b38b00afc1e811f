import { and, asc, count, eq, ilike, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { documentSeries, documents, type SeriesKind } from "../tables.js";

export type SeriesRow = typeof documentSeries.$inferSelect;
export type SeriesInsert = typeof documentSeries.$inferInsert;

export interface SeriesListFilter {
  scope?: SQL;
  kind?: SeriesKind;
  search?: string;
  includeInactive: boolean;
  limit: number;
  offset: number;
}

export async function findSeries(db: Db, id: string): Promise<SeriesRow | undefined> {
  const [row] = await db.select().from(documentSeries).where(eq(documentSeries.id, id)).limit(1);
  return row;
}

export async function findSeriesByCode(
  db: Db,
  companyId: string,
  code: string,
): Promise<SeriesRow | undefined> {
  const [row] = await db
    .select()
    .from(documentSeries)
    .where(and(eq(documentSeries.companyId, companyId), eq(documentSeries.code, code)))
    .limit(1);
  return row;
}

export async function seriesCodeTaken(db: Db, companyId: string, code: string, exceptId?: string) {
  const [row] = await db
    .select({ id: documentSeries.id })
    .from(documentSeries)
    .where(
      and(
        eq(documentSeries.companyId, companyId),
        eq(documentSeries.code, code),
        exceptId ? ne(documentSeries.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Whether any document (draft or not) belongs to the series. */
export async function seriesInUse(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(eq(documents.seriesId, id))
    .limit(1);
  return Boolean(row);
}

export function listSeries(db: Db, f: SeriesListFilter) {
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(documentSeries.isActive, true),
    f.kind ? eq(documentSeries.kind, f.kind) : undefined,
    f.search
      ? or(
          ilike(documentSeries.code, likePattern(f.search)),
          ilike(documentSeries.name, likePattern(f.search)),
        )
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(documentSeries)
        .where(where)
        .orderBy(asc(documentSeries.createdAt), asc(documentSeries.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(documentSeries).where(where),
  );
}

export async function insertSeries(db: Db, values: SeriesInsert): Promise<SeriesRow> {
  const [row] = await db.insert(documentSeries).values(values).returning();
  return row;
}

export async function updateSeries(db: Db, id: string, values: Partial<SeriesInsert>): Promise<SeriesRow> {
  const [row] = await db.update(documentSeries).set(values).where(eq(documentSeries.id, id)).returning();
  return row;
}
