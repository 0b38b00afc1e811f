import { and, asc, count, eq, ilike, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { paginate } from "../../platform/db/paginate.js";
import { preparedRead } from "../../platform/db/prepared.js";
import { likePattern } from "../../platform/http/pagination.js";
import { normalizeTaxIdInput } from "../../platform/tax-id.js";
import { type ContactType, contactCodeCounters, contacts } from "./tables.js";

export type ContactRow = typeof contacts.$inferSelect;
export type ContactInsert = typeof contacts.$inferInsert;

export interface ContactListFilter {
  scope?: SQL;
  contactType?: ContactType;
  search?: string;
  /** undefined: active only unless includeInactive; true/false: exactly that state. */
  isActive?: boolean;
  includeInactive: boolean;
  limit: number;
  offset: number;
}

/** A "both" contact is a customer and a supplier, so it matches either filter. */
const TYPES_MATCHING: Record<ContactType, ContactType[]> = {
  customer: ["customer", "both"],
  supplier: ["supplier", "both"],
  both: ["both"],
};

export function findContactsByIds(db: Db, ids: string[]) {
  if (!ids.length) return Promise.resolve([]);
  return db
    .select()
    .from(contacts)
    .where(inArray(contacts.id, [...new Set(ids)]));
}

const contactById = preparedRead("cuadra_contact_by_id", (db) =>
  db
    .select()
    .from(contacts)
    .where(eq(contacts.id, sql.placeholder("id")))
    .limit(1),
);

export async function findContact(db: Db, id: string) {
  const [row] = await contactById(db, { id });
  return row;
}

function searchCondition(text: string) {
  const pattern = likePattern(text);
  // Tax ids are stored without separators: "B-1234.5674" must find B12345674.
  const bareTaxId = normalizeTaxIdInput(text);
  return or(
    ilike(contacts.code, pattern),
    ilike(contacts.name, pattern),
    ilike(contacts.legalName, pattern),
    ilike(contacts.taxId, pattern),
    bareTaxId && bareTaxId !== text ? ilike(contacts.taxId, likePattern(bareTaxId)) : undefined,
    ilike(contacts.email, pattern),
  );
}

export async function listContacts(db: Db, f: ContactListFilter) {
  const activeRule =
    f.isActive !== undefined
      ? eq(contacts.isActive, f.isActive)
      : f.includeInactive
        ? undefined
        : eq(contacts.isActive, true);
  const where = and(
    f.scope,
    activeRule,
    f.contactType ? inArray(contacts.contactType, TYPES_MATCHING[f.contactType]) : undefined,
    f.search ? searchCondition(f.search) : undefined,
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(contacts)
        .where(where)
        .orderBy(asc(contacts.createdAt), asc(contacts.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(contacts).where(where),
  );
}

/** Which of `code` and `taxId` another contact of the company already uses. */
export async function findDuplicates(
  db: Db,
  companyId: string,
  values: { code?: string; taxId?: string | null },
  exceptId?: string,
) {
  const clash = or(
    values.code !== undefined ? eq(contacts.code, values.code) : undefined,
    values.taxId ? eq(contacts.taxId, values.taxId) : undefined,
  );
  if (!clash) return { code: false, taxId: false };
  const rows = await db
    .select({ code: contacts.code, taxId: contacts.taxId })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), exceptId ? ne(contacts.id, exceptId) : undefined, clash))
    .limit(2);
  return {
    code: values.code !== undefined && rows.some((r) => r.code === values.code),
    taxId: Boolean(values.taxId) && rows.some((r) => r.taxId === values.taxId),
  };
}

export async function insertContact(db: Db, values: ContactInsert) {
  const [row] = await db.insert(contacts).values(values).returning();
  return row;
}

export async function updateContact(db: Db, id: string, values: Partial<ContactInsert>) {
  const [row] = await db.update(contacts).set(values).where(eq(contacts.id, id)).returning();
  return row;
}

/**
 * Next number for a generated code. The counter row stays locked until the transaction ends,
 * so concurrent creations in one company take turns. Requires a transaction.
 */
export async function takeCodeNumber(tx: Db, companyId: string): Promise<number> {
  const [row] = await tx
    .insert(contactCodeCounters)
    .values({ companyId, lastValue: 1 })
    .onConflictDoUpdate({
      target: contactCodeCounters.companyId,
      set: { lastValue: sql`${contactCodeCounters.lastValue} + 1` },
    })
    .returning({ value: contactCodeCounters.lastValue });
  return row.value;
}

/** Moves the counter past every C-number already typed in by hand; returns the next free one. */
export async function skipPastManualCodes(tx: Db, companyId: string): Promise<number> {
  const [{ highest }] = await tx
    .select({
      highest: sql<string>`coalesce(max(substring(${contacts.code} from 2)::integer), 0)`,
    })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), sql`${contacts.code} ~ '^C[0-9]{1,9}$'`));
  const next = Number(highest) + 1;
  await tx
    .update(contactCodeCounters)
    .set({ lastValue: next })
    .where(eq(contactCodeCounters.companyId, companyId));
  return next;
}
