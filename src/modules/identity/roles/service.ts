import { inTransaction } from "../../../platform/db/sql.js";
import type { Ctx } from "../../../platform/http/context.js";
import { ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { bumpAuthzEpoch } from "../auth/auth-state.js";
import { assertHoldsAll } from "../grants.js";
import type { RoleRow } from "./repository.js";
import * as repo from "./repository.js";

export type PermissionRef = { permissionId: string } | { modulo: string; accion: string };

async function requireRole(ctx: Ctx, id: string) {
  const role = await repo.findRoleById(ctx.db, id);
  if (!role) throw new NotFoundError("Role");
  return role;
}

function assertEditable(role: RoleRow) {
  if (role.isSystem) throw new ConflictError(`The built-in role "${role.name}" cannot be changed`);
}

export async function listPermissionsOfRole(ctx: Ctx, roleId: string) {
  return repo.permissionsOfRole(ctx.db, roleId);
}

export async function getRole(ctx: Ctx, id: string) {
  const role = await requireRole(ctx, id);
  return { ...role, permissions: await listPermissionsOfRole(ctx, id) };
}

export function listRoles(ctx: Ctx, filter: { search?: string; limit: number; offset: number }) {
  return repo.listRoles(ctx.db, filter);
}

export async function createRole(ctx: Ctx, input: { name: string; description?: string }) {
  if (await repo.findRoleByName(ctx.db, input.name))
    throw new ConflictError("A role with this name already exists");
  const row = await repo.insertRole(ctx.db, {
    name: input.name.trim(),
    description: input.description ?? "",
  });
  return { ...row, permissions: [] };
}

export async function updateRole(ctx: Ctx, id: string, input: { name?: string; description?: string }) {
  const role = await requireRole(ctx, id);
  // A built-in role keeps its exact name (not even its case changes); others may re-case theirs.
  if (input.name !== undefined && input.name.trim() !== role.name) assertEditable(role);
  if (input.name !== undefined && input.name.trim().toLowerCase() !== role.name.toLowerCase()) {
    const clash = await repo.findRoleByName(ctx.db, input.name);
    if (clash && clash.id !== id) throw new ConflictError("A role with this name already exists");
  }
  await inTransaction(ctx.db, async (tx) => {
    await repo.updateRoleRow(tx, id, { name: input.name?.trim(), description: input.description });
    await bumpAuthzEpoch(tx);
  });
  return getRole(ctx, id);
}

export async function deleteRole(ctx: Ctx, id: string) {
  const role = await requireRole(ctx, id);
  assertEditable(role);
  const held = await repo.permissionsOfRole(ctx.db, id);
  assertHoldsAll(
    ctx.actor,
    held.map((p) => `${p.modulo}:${p.accion}`),
    `delete the role "${role.name}"`,
  );
  await inTransaction(ctx.db, async (tx) => {
    const holders = await repo.countRoleHolders(tx, id);
    if (holders > 0) {
      throw new ConflictError(`The role is held by ${holders} user(s); remove it from them first`, {
        holders,
      });
    }
    await repo.deleteRoleRow(tx, id);
    await bumpAuthzEpoch(tx);
  });
}

async function resolvePermission(ctx: Ctx, ref: PermissionRef) {
  const row = await repo.findPermission(ctx.db, ref);
  if (!row) throw new NotFoundError("Permission");
  return row;
}

export async function addPermission(ctx: Ctx, roleId: string, ref: PermissionRef) {
  const role = await requireRole(ctx, roleId);
  assertEditable(role);
  const permission = await resolvePermission(ctx, ref);
  assertHoldsAll(ctx.actor, [`${permission.modulo}:${permission.accion}`], "add this permission");
  await inTransaction(ctx.db, async (tx) => {
    await repo.grantPermission(tx, roleId, permission.id);
    await bumpAuthzEpoch(tx);
  });
  return getRole(ctx, roleId);
}

export async function removePermission(ctx: Ctx, roleId: string, permissionId: string) {
  const role = await requireRole(ctx, roleId);
  assertEditable(role);
  const permission = await repo.findPermission(ctx.db, { permissionId });
  if (permission)
    assertHoldsAll(ctx.actor, [`${permission.modulo}:${permission.accion}`], "remove this permission");
  await inTransaction(ctx.db, async (tx) => {
    if (!(await repo.revokePermission(tx, roleId, permissionId)))
      throw new NotFoundError("Permission on this role");
    await bumpAuthzEpoch(tx);
  });
}

export async function listPermissionCatalog(ctx: Ctx) {
  return repo.listPermissions(ctx.db);
}
