import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { paginate } from "../../platform/db/paginate.js";
import { queryOne } from "../../platform/db/sql.js";
import { apiAccess, apiTokens } from "./tables.js";

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export interface ApiTokenAuthRow {
  id: string;
  user_id: string;
  email: string;
  full_name: string;
  token_company_id: string | null;
  user_company_id: string | null;
  scopes: string[];
  permissions: string[];
}

/**
 * One round trip: the live token (active, unexpired, its creator active), its rules and the
 * creator's permissions; refreshes last_used_at at most once a minute.
 */
export function loadTokenForAuth(db: Db, keyHash: string) {
  return queryOne<ApiTokenAuthRow>(
    db,
    sql`with t as (
          select at.id, at.user_id, at.company_id, u.email, u.full_name, u.company_id as user_company_id
            from api_tokens at join users u on u.id = at.user_id
           where at.key_hash = ${keyHash} and at.active and u.is_active
             and (at.expires_at is null or at.expires_at > now())),
        touched as (
          update api_tokens set last_used_at = now()
           where id = (select id from t) and (last_used_at is null or last_used_at < now() - interval '1 minute')
          returning id)
        select t.id, t.user_id, t.email, t.full_name, t.company_id as token_company_id, t.user_company_id,
               array(select resource_name from api_access where token_id = t.id) as scopes,
               array(select distinct p.modulo || ':' || p.accion
                       from user_roles ur
                       join role_permissions rp on rp.role_id = ur.role_id
                       join permissions p on p.id = rp.permission_id
                      where ur.user_id = t.user_id) as permissions,
               (select count(*) from touched) as touched
          from t`,
  );
}

export async function insertToken(
  db: Db,
  values: typeof apiTokens.$inferInsert,
  scopes: string[],
): Promise<ApiTokenRow> {
  const [row] = await db.insert(apiTokens).values(values).returning();
  await db.insert(apiAccess).values(scopes.map((resourceName) => ({ tokenId: row.id, resourceName })));
  return row;
}

/** Tokens of one company (null: of every company), active ones only unless includeInactive. */
export function listTokens(
  db: Db,
  f: { companyId: string | null; includeInactive: boolean; limit: number; offset: number },
) {
  const where = and(
    f.companyId ? eq(apiTokens.companyId, f.companyId) : undefined,
    f.includeInactive ? undefined : eq(apiTokens.active, true),
  );
  return paginate(
    db,
    () =>
      db
        .select()
        .from(apiTokens)
        .where(where)
        .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id))
        .limit(f.limit)
        .offset(f.offset),
    () => db.select({ total: count() }).from(apiTokens).where(where),
  );
}

export async function scopesOf(db: Db, tokenIds: string[]) {
  const map = new Map<string, string[]>();
  if (tokenIds.length === 0) return map;
  const rows = await db
    .select()
    .from(apiAccess)
    .where(inArray(apiAccess.tokenId, tokenIds))
    .orderBy(asc(apiAccess.resourceName));
  for (const r of rows) map.set(r.tokenId, [...(map.get(r.tokenId) ?? []), r.resourceName]);
  return map;
}

export async function findToken(db: Db, id: string) {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id)).limit(1);
  return row;
}

/** Deactivates the token and every token created through it, at any depth. */
export async function deactivateToken(db: Db, id: string) {
  await db.execute(sql`with recursive family as (
                         select id from api_tokens where id = ${id}
                         union
                         select c.id from api_tokens c join family f on c.parent_token_id = f.id)
                       update api_tokens set active = false where id in (select id from family)`);
}
