import { and, asc, count, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { permissions, rolePermissions, roles, sessions, userRoles, users } from "../tables.js";

export type UserRow = typeof users.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export type PermissionRow = typeof permissions.$inferSelect;

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export interface UserFilter {
  search?: string;
  isActive?: boolean;
  roleId?: string;
  limit: number;
  offset: number;
}

export async function listUsers(db: Db, filter: UserFilter) {
  const conditions = [
    filter.search
      ? or(ilike(users.email, likePattern(filter.search)), ilike(users.fullName, likePattern(filter.search)))
      : undefined,
    filter.isActive === undefined ? undefined : eq(users.isActive, filter.isActive),
    filter.roleId
      ? inArray(
          users.id,
          db.select({ id: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, filter.roleId)),
        )
      : undefined,
  ];
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: Number(total) };
}

/** Roles of several users at once (no query per user). */
export async function rolesOfUsers(db: Db, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, { id: string; name: string }[]>();
  const rows = await db
    .select({ userId: userRoles.userId, id: roles.id, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(userRoles.userId, userIds))
    .orderBy(asc(roles.name));
  const byUser = new Map<string, { id: string; name: string }[]>();
  for (const r of rows) {
    const list = byUser.get(r.userId) ?? [];
    list.push({ id: r.id, name: r.name });
    byUser.set(r.userId, list);
  }
  return byUser;
}

export async function permissionsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ modulo: permissions.modulo, accion: permissions.accion })
    .from(userRoles)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(userRoles.userId, userId));
  return rows.map((r) => `${r.modulo}:${r.accion}`).sort();
}

/** Active users holding the admin role, locked so two concurrent deactivations can't both pass. */
export async function countActiveAdmins(db: Db, adminRoleId: string, excludingUserId?: string) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.roleId, adminRoleId)))
    .where(
      and(eq(users.isActive, true), excludingUserId ? sql`${users.id} <> ${excludingUserId}` : undefined),
    )
    .for("update", { of: users });
  return rows.length;
}

export async function revokeUserSessions(db: Db, userId: string, reason: string, exceptSessionId?: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId ? sql`${sessions.id} <> ${exceptSessionId}` : undefined,
      ),
    );
}

export async function revokeSession(db: Db, sessionId: string, reason: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

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
