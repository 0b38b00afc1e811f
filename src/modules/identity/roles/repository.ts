import { and, asc, count, eq, ilike, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { permissions, rolePermissions, roles, userRoles } from "../tables.js";

export type RoleRow = typeof roles.$inferSelect;
export type PermissionRow = typeof permissions.$inferSelect;

export async function findRoleByName(db: Db, name: string) {
  const [row] = await db
    .select()
    .from(roles)
    .where(sql`lower(${roles.name}) = ${name.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findRoleById(db: Db, id: string) {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
  return row;
}

export function listRoles(db: Db, filter: { search?: string; limit: number; offset: number }) {
  const where = filter.search ? ilike(roles.name, likePattern(filter.search)) : undefined;
  return paginate(
    db,
    () =>
      db
        .select()
        .from(roles)
        .where(where)
        .orderBy(asc(roles.createdAt), asc(roles.id))
        .limit(filter.limit)
        .offset(filter.offset),
    () => db.select({ total: count() }).from(roles).where(where),
  );
}

export async function insertRole(db: Db, values: { name: string; description: string }) {
  const [row] = await db.insert(roles).values(values).returning();
  return row;
}

/** The built-in role, unless a role of that name exists already. */
export async function insertSystemRoleIfMissing(db: Db, values: { name: string; description: string }) {
  await db
    .insert(roles)
    .values({ ...values, isSystem: true })
    .onConflictDoNothing();
}

export async function updateRoleRow(db: Db, id: string, values: { name?: string; description?: string }) {
  await db.update(roles).set(values).where(eq(roles.id, id));
}

export async function deleteRoleRow(db: Db, id: string) {
  await db.delete(roles).where(eq(roles.id, id));
}

/** How many users hold the role. */
export async function countRoleHolders(db: Db, roleId: string): Promise<number> {
  const [{ holders }] = await db
    .select({ holders: count() })
    .from(userRoles)
    .where(eq(userRoles.roleId, roleId));
  return Number(holders);
}

export function permissionsOfRole(db: Db, roleId: string) {
  return db
    .select({
      id: permissions.id,
      modulo: permissions.modulo,
      accion: permissions.accion,
      submenu: permissions.submenu,
      view: permissions.view,
    })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roleId))
    .orderBy(asc(permissions.modulo), asc(permissions.accion));
}

export async function findPermission(
  db: Db,
  ref: { permissionId: string } | { modulo: string; accion: string },
) {
  const where =
    "permissionId" in ref
      ? eq(permissions.id, ref.permissionId)
      : and(eq(permissions.modulo, ref.modulo), eq(permissions.accion, ref.accion));
  const [row] = await db.select().from(permissions).where(where).limit(1);
  return row;
}

export async function grantPermission(db: Db, roleId: string, permissionId: string) {
  await db.insert(rolePermissions).values({ roleId, permissionId }).onConflictDoNothing();
}

/** False when the role did not hold the permission. */
export async function revokePermission(db: Db, roleId: string, permissionId: string): Promise<boolean> {
  const removed = await db
    .delete(rolePermissions)
    .where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, permissionId)))
    .returning({ roleId: rolePermissions.roleId });
  return removed.length > 0;
}

/** Every permission of the catalog to the role (the built-in admin role). */
export async function grantEveryPermission(db: Db, roleId: string) {
  await db.execute(sql`insert into role_permissions (role_id, permission_id)
                       select ${roleId}, id from permissions on conflict do nothing`);
}

export function listPermissions(db: Db) {
  return db.select().from(permissions).orderBy(asc(permissions.modulo), asc(permissions.accion));
}

/** Loads the permission catalog; rows already there stay as they are. */
export async function insertPermissions(
  db: Db,
  rows: { modulo: string; accion: string; submenu: string; view: string }[],
) {
  await db.insert(permissions).values(rows).onConflictDoNothing();
}
