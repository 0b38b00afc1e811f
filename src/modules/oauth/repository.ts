import { and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { queryOne, queryRows } from "../../platform/db/sql.js";
import { oauthGrantEvents, oauthGrants } from "./tables.js";

export type GrantRow = typeof oauthGrants.$inferSelect;

/** What authenticating an MCP call with an OAuth access token needs of its grant and user. */
export interface GrantAuthRow {
  id: string;
  user_id: string;
  email: string;
  full_name: string;
  grant_company_id: string | null;
  user_company_id: string | null;
  scopes: string[];
  permissions: string[];
}

/** A live grant of an active user, with the user's permissions now (touching last_used_at). */
export function loadGrantForAuth(db: Db, grantId: string) {
  return queryOne<GrantAuthRow>(
    db,
    sql`with g as (
          select g.id, g.user_id, g.company_id, g.scopes, u.email, u.full_name, u.company_id as user_company_id
            from oauth_grants g join users u on u.id = g.user_id
           where g.id = ${grantId} and g.revoked_at is null and u.is_active),
        touched as (
          update oauth_grants set last_used_at = now()
           where id = (select id from g) and (last_used_at is null or last_used_at < now() - interval '1 minute')
          returning id)
        select g.id, g.user_id, g.email, g.full_name, g.company_id as grant_company_id, g.user_company_id,
               g.scopes,
               array(select distinct p.modulo || ':' || p.accion
                       from user_roles ur
                       join role_permissions rp on rp.role_id = ur.role_id
                       join permissions p on p.id = rp.permission_id
                      where ur.user_id = g.user_id) as permissions,
               (select count(*) from touched) as touched
          from g`,
  );
}

/** The companies a user may hand to an assistant: its own when restricted, else every active one. */
export function companiesForUser(db: Db, userId: string) {
  return queryRows<{ id: string; name: string; restricted: boolean }>(
    db,
    sql`select c.id, c.name, u.company_id is not null as restricted
          from users u join companies c on c.id = coalesce(u.company_id, c.id)
         where u.id = ${userId} and u.is_active and c.is_active
         order by c.created_at, c.id`,
  );
}

export async function insertGrant(db: Db, values: typeof oauthGrants.$inferInsert) {
  await db.insert(oauthGrants).values(values);
}

export async function recordEvent(db: Db, values: typeof oauthGrantEvents.$inferInsert) {
  await db.insert(oauthGrantEvents).values(values);
}

/** Live grants of one user, or of every user (of one company when the reader is restricted to it). */
export async function listGrants(
  db: Db,
  f: { userId?: string; companyId?: string; limit: number; offset: number },
) {
  const where = and(
    isNull(oauthGrants.revokedAt),
    f.userId ? eq(oauthGrants.userId, f.userId) : undefined,
    f.companyId ? eq(oauthGrants.companyId, f.companyId) : undefined,
  );
  const rows = await db
    .select()
    .from(oauthGrants)
    .where(where)
    .orderBy(desc(oauthGrants.createdAt), asc(oauthGrants.id))
    .limit(f.limit)
    .offset(f.offset);
  const [{ total }] = await db.select({ total: count() }).from(oauthGrants).where(where);
  return { rows, total };
}

export async function findLiveGrant(db: Db, id: string) {
  const [row] = await db
    .select()
    .from(oauthGrants)
    .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)));
  return row;
}

/** Marks a grant revoked; false when it was already (or never existed). */
export async function markRevoked(db: Db, id: string, by: string | null) {
  const rows = await db
    .update(oauthGrants)
    .set({ revokedAt: sql`now()`, revokedBy: by })
    .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)))
    .returning({ id: oauthGrants.id });
  return rows.length > 0;
}
