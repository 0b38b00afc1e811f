import { sql } from "drizzle-orm";
import type { DatabaseHandle, Db } from "../../../platform/db/client.js";
import { queryOne } from "../../../platform/db/sql.js";
import { authzEpoch } from "../tables.js";
import { forgetAfterCommit } from "./session-cache.js";

export interface Grants {
  roles: { id: string; name: string }[];
  /** Sorted "module:action" strings. */
  permissions: string[];
  /** The same, for the guard's lookups: built once per cache fill, not per request. */
  permissionSet: ReadonlySet<string>;
}

export interface SessionState {
  id: string;
  email: string;
  full_name: string;
  company_id: string | null;
  is_active: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  session_active: boolean;
  denied: boolean;
  epoch: string | number | null;
}

const SESSION_STATE_SQL = `
  select u.id, u.email, u.full_name, u.company_id, u.is_active, u.created_at, u.updated_at,
         (s.revoked_at is null) as session_active,
         exists(select 1 from revoked_access_tokens r where r.jti = $3) as denied,
         (select version from authz_epoch where id = 1) as epoch
    from users u
    join sessions s on s.id = $2 and s.user_id = u.id
   where u.id = $1`;

/** The per-request check: user, session, deny list and authz epoch by primary keys (a prepared statement). */
export async function loadSessionState(
  handle: DatabaseHandle,
  userId: string,
  sessionId: string,
  jti: string,
): Promise<SessionState | undefined> {
  const [row] = await handle.prepared<SessionState>("cuadra_auth_session_state", SESSION_STATE_SQL, [
    userId,
    sessionId,
    jti,
  ]);
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
  const permissions = [...(row?.permissions ?? [])].sort();
  return { roles, permissions, permissionSet: new Set(permissions) };
}

/** Marks every cached permission set of this tenant stale (call inside the changing transaction). */
export async function bumpAuthzEpoch(db: Db) {
  await db
    .insert(authzEpoch)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({ target: authzEpoch.id, set: { version: sql`${authzEpoch.version} + 1` } });
  forgetAfterCommit(db, "all");
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
