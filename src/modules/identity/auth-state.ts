import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { queryOne } from "../../platform/db/sql.js";
import { authzEpoch, sessions, users } from "./tables.js";

export interface Grants {
  roles: { id: string; name: string }[];
  permissions: string[];
}

function prepareSessionState(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      companyId: users.companyId,
      isActive: users.isActive,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      sessionActive: sql<boolean>`(${sessions.revokedAt} is null)`,
      denied: sql<boolean>`exists(select 1 from revoked_access_tokens r where r.jti = ${sql.placeholder("jti")})`,
      epoch: sql<string>`(select ${authzEpoch.version} from ${authzEpoch} where ${authzEpoch.id} = 1)`,
    })
    .from(users)
    .innerJoin(sessions, and(eq(sessions.id, sql.placeholder("sid")), eq(sessions.userId, users.id)))
    .where(eq(users.id, sql.placeholder("uid")))
    .prepare("auth_session_state");
}

const statements = new WeakMap<Db, ReturnType<typeof prepareSessionState>>();

/** The per-request check: user, session, deny list and authz epoch by primary keys (a prepared statement). */
export async function loadSessionState(db: Db, userId: string, sessionId: string, jti: string) {
  let stmt = statements.get(db);
  if (!stmt) {
    stmt = prepareSessionState(db);
    statements.set(db, stmt);
  }
  const [row] = await stmt.execute({ uid: userId, sid: sessionId, jti });
  return row;
}

export async function loadGrants(db: Db, userId: string): Promise<Grants> {
  const row = await queryOne<{ roles: Grants["roles"] | string; permissions: string[] }>(
    db,
    sql`select coalesce((select json_agg(json_build_object('id', ro.id, 'name', ro.name) order by ro.name)
                           from user_roles ur join roles ro on ro.id = ur.role_id
                          where ur.user_id = ${userId}), '[]'::json) as roles,
               array(select distinct p.modulo || ':' || p.accion
                       from user_roles ur
                       join role_permissions rp on rp.role_id = ur.role_id
                       join permissions p on p.id = rp.permission_id
                      where ur.user_id = ${userId}) as permissions`,
  );
  const roles = typeof row?.roles === "string" ? JSON.parse(row.roles) : (row?.roles ?? []);
  return { roles, permissions: row?.permissions ?? [] };
}

/** Marks every cached permission set of this tenant stale (call inside the changing transaction). */
export async function bumpAuthzEpoch(db: Db) {
  await db
    .insert(authzEpoch)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({ target: authzEpoch.id, set: { version: sql`${authzEpoch.version} + 1` } });
}

/** Permission sets by tenant and user, valid while the tenant's authz epoch has not moved. */
export class GrantsCache {
  private readonly entries = new Map<string, { epoch: string; grants: Grants }>();
  constructor(private readonly maxEntries = 10_000) {}

  get(tenantId: string, userId: string, epoch: string): Grants | undefined {
    const hit = this.entries.get(`${tenantId}:${userId}`);
    return hit && hit.epoch === epoch ? hit.grants : undefined;
  }

  set(tenantId: string, userId: string, epoch: string, grants: Grants) {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(`${tenantId}:${userId}`, { epoch, grants });
  }
}
