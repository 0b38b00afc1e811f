import { and, asc, count, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { forgetAfterCommit } from "../auth/session-cache.js";
import { permissions, rolePermissions, roles, userRoles, users } from "../tables.js";

export type UserRow = typeof users.$inferSelect;
export type UserInsert = typeof users.$inferInsert;

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
  /** Only the users restricted to this company (a company-restricted caller's view). */
  companyId?: string;
  limit: number;
  offset: number;
}

export async function listUsers(db: Db, filter: UserFilter) {
  const conditions = [
    filter.search
      ? or(ilike(users.email, likePattern(filter.search)), ilike(users.fullName, likePattern(filter.search)))
      : undefined,
    filter.isActive === undefined ? undefined : eq(users.isActive, filter.isActive),
    filter.companyId ? eq(users.companyId, filter.companyId) : undefined,
    filter.roleId
      ? inArray(
          users.id,
          db.select({ id: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, filter.roleId)),
        )
      : undefined,
  ];
  const where = and(...conditions);
  return paginate(
    db,
    () =>
      db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(users.createdAt), asc(users.id))
        .limit(filter.limit)
        .offset(filter.offset),
    () => db.select({ total: count() }).from(users).where(where),
  );
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

/** Serialises every change that may shrink the set of active administrators (until the transaction ends). */
export async function lockAdminSet(db: Db) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('cuadra:identity:admin-set'))`);
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

export async function countUsers(db: Db): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  return Number(n);
}

export async function insertUser(db: Db, values: UserInsert): Promise<string> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row.id;
}

export async function updateUserRow(db: Db, id: string, values: Partial<UserInsert>) {
  await db.update(users).set(values).where(eq(users.id, id));
  forgetAfterCommit(db, { userId: id });
}

/** E-mail of each given user that still exists. */
export async function emailsOfUsers(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.email]));
}

export async function holdsRole(db: Db, userId: string, roleId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId)));
  return rows.length > 0;
}

export async function insertUserRoles(db: Db, userId: string, roleIds: string[]) {
  if (roleIds.length === 0) return;
  await db
    .insert(userRoles)
    .values(roleIds.map((roleId) => ({ userId, roleId })))
    .onConflictDoNothing();
}

/** False when the user did not hold the role. */
export async function deleteUserRole(db: Db, userId: string, roleId: string): Promise<boolean> {
  const removed = await db
    .delete(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId)))
    .returning({ userId: userRoles.userId });
  return removed.length > 0;
}
