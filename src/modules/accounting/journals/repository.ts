import { and, asc, count, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { forgetLookups, txLookup } from "../../../platform/db/tx-lookups.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { type JournalType, journals } from "../tables.js";

export type JournalRow = typeof journals.$inferSelect;

export async function findJournal(db: Db, id: string) {
  const [row] = await db.select().from(journals).where(eq(journals.id, id)).limit(1);
  return row;
}

/** The company's journal with this code, read once per transaction (ADR 047). */
export function findJournalByCode(db: Db, companyId: string, code: string) {
  return txLookup(db, "journals", `${companyId}:${code}`, async () => {
    const [row] = await db
      .select()
      .from(journals)
      .where(and(eq(journals.companyId, companyId), eq(journals.code, code)))
      .limit(1);
    return row;
  });
}

export async function listJournals(
  db: Db,
  f: {
    scope?: SQL;
    type?: JournalType;
    search?: string;
    includeInactive: boolean;
    limit: number;
    offset: number;
  },
) {
  const where = and(
    f.scope,
    f.includeInactive ? undefined : eq(journals.isActive, true),
    f.type ? eq(journals.type, f.type) : undefined,
    f.search
      ? or(ilike(journals.code, likePattern(f.search)), ilike(journals.name, likePattern(f.search)))
      : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(journals)
        .where(where)
        .orderBy(asc(journals.createdAt), asc(journals.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(journals).where(where),
  );
}

export async function insertJournal(db: Db, values: typeof journals.$inferInsert) {
  const [row] = await db.insert(journals).values(values).returning();
  forgetLookups(db, "journals");
  return row;
}

/** Inserts the journal unless the company already has one with its code (concurrent callers agree). */
export async function insertJournalIfMissing(tx: Db, values: typeof journals.$inferInsert) {
  // Journals are never deleted: one this transaction has seen is still there.
  const known = await findJournalByCode(tx, values.companyId, values.code);
  if (known) return known;
  await tx
    .insert(journals)
    .values(values)
    .onConflictDoNothing({ target: [journals.companyId, journals.code] });
  forgetLookups(tx, "journals");
  return findJournalByCode(tx, values.companyId, values.code);
}
