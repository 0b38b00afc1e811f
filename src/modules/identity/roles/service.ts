import { and, asc, count, eq, ilike } from "drizzle-orm";
import { inTransaction } from "../../../platform/db/sql.js";
import type { Ctx } from "../../../platform/http/context.js";
import { ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { bumpAuthzEpoch } from "../auth/auth-state.js";
import { permissions, rolePermissions, roles, userRoles } from "../tables.js";
import { findRoleById, findRoleByName, type RoleRow } from "../users/repository.js";

export type PermissionRef = { permissionId: string } | { modulo: string; accion: string };

async function requireRole(ctx: Ctx, id: string) {
  const role = await findRoleById(ctx.db, id);
  if (!role) throw new NotFoundError("Role");
  return role;
}

function assertEditable(role: RoleRow) {
  if (role.isSystem) throw new ConflictError(`The built-in role "${role.name}" cannot be changed`);
}

export async function listPermissionsOfRole(ctx: Ctx, roleId: string) {
  return ctx.db
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

export async function getRole(ctx: Ctx, id: string) {
  const role = await requireRole(ctx, id);
  return { ...role, permissions: await listPermissionsOfRole(ctx, id) };
}

export async function listRoles(ctx: Ctx, filter: { search?: string; limit: number; offset: number }) {
  const where = filter.search ? ilike(roles.name, likePattern(filter.search)) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(roles)
      .where(where)
      .orderBy(asc(roles.createdAt), asc(roles.id))
      .limit(filter.limit)
      .offset(filter.offset),
    ctx.db.select({ total: count() }).from(roles).where(where),
  ]);
  return { rows, total: Number(total) };
}

export async function createRole(ctx: Ctx, input: { name: string; description?: string }) {
  if (await findRoleByName(ctx.db, input.name))
    throw new ConflictError("A role with this name already exists");
  const [row] = await ctx.db
    .insert(roles)
    .values({ name: input.name.trim(), description: input.description ?? "" })
    .returning();
  return { ...row, permissions: [] };
}

export async function updateRole(ctx: Ctx, id: string, input: { name?: string; description?: string }) {
  const role = await requireRole(ctx, id);
  // A built-in role keeps its exact name (not even its case changes); others may re-case theirs.
  if (input.name !== undefined && input.name.trim() !== role.name) assertEditable(role);
  if (input.name !== undefined && input.name.trim().toLowerCase() !== role.name.toLowerCase()) {
    const clash = await findRoleByName(ctx.db, input.name);
    if (clash && clash.id !== id) throw new ConflictError("A role with this name already exists");
  }
  await inTransaction(ctx.db, async (tx) => {
    await tx
      .update(roles)
      .set({ name: input.name?.trim(), description: input.description })
      .where(eq(roles.id, id));
    await bumpAuthzEpoch(tx);
  });
  return getRole(ctx, id);
}

export async function deleteRole(ctx: Ctx, id: string) {
  const role = await requireRole(ctx, id);
  assertEditable(role);
  await inTransaction(ctx.db, async (tx) => {
    const [{ holders }] = await tx
      .select({ holders: count() })
      .from(userRoles)
      .where(eq(userRoles.roleId, id));
    if (Number(holders) > 0) {
      throw new ConflictError(`The role is held by ${holders} user(s); remove it from them first`, {
        holders: Number(holders),
      });
    }
    await tx.delete(roles).where(eq(roles.id, id));
    await bumpAuthzEpoch(tx);
  });
}

async function resolvePermission(ctx: Ctx, ref: PermissionRef) {
  const where =
    "permissionId" in ref
      ? eq(permissions.id, ref.permissionId)
      : and(eq(permissions.modulo, ref.modulo), eq(permissions.accion, ref.accion));
  const [row] = await ctx.db.select().from(permissions).where(where).limit(1);
  if (!row) throw new NotFoundError("Permission");
  return row;
}

export async function addPermission(ctx: Ctx, roleId: string, ref: PermissionRef) {
  const role = await requireRole(ctx, roleId);
  assertEditable(role);
  const permission = await resolvePermission(ctx, ref);
  await inTransaction(ctx.db, async (tx) => {
    await tx.insert(rolePermissions).values({ roleId, permissionId: permission.id }).onConflictDoNothing();
    await bumpAuthzEpoch(tx);
  });
  return getRole(ctx, roleId);
}

export async function removePermission(ctx: Ctx, roleId: string, permissionId: string) {
  const role = await requireRole(ctx, roleId);
  assertEditable(role);
  await inTransaction(ctx.db, async (tx) => {
    const removed = await tx
      .delete(rolePermissions)
      .where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, permissionId)))
      .returning({ roleId: rolePermissions.roleId });
    if (removed.length === 0) throw new NotFoundError("Permission on this role");
    await bumpAuthzEpoch(tx);
  });
}

export async function listPermissionCatalog(ctx: Ctx) {
  return ctx.db.select().from(permissions).orderBy(asc(permissions.modulo), asc(permissions.accion));
}
