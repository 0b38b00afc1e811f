import type { Actor } from "../../../platform/auth/actor.js";
import { hashPassword, verifyPassword } from "../../../platform/auth/passwords.js";
import type { Db } from "../../../platform/db/client.js";
import { inTransaction } from "../../../platform/db/sql.js";
import { type AuthedCtx, type Ctx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { companyExists } from "../../companies/index.js";
import { bumpAuthzEpoch } from "../auth/auth-state.js";
import { recordLoginAttempt, revokeUserSessions } from "../auth/repository.js";
import { ADMIN_ROLE_NAME } from "../catalog.js";
import {
  assertCompanyGrantable,
  assertHoldsAll,
  assertManageable,
  assertMaySetPassword,
  assertNotSelf,
  assertUserVisible,
  isAdministrator,
} from "../grants.js";
import { findRoleById, findRoleByName, permissionsOfRole } from "../roles/repository.js";
import type { UserFilter, UserRow } from "./repository.js";
import * as repo from "./repository.js";

export interface UserView extends UserRow {
  roles: { id: string; name: string }[];
}

export interface CreateUserInput {
  email: string;
  password: string;
  fullName?: string;
  isActive?: boolean;
  companyId?: string | null;
  roleIds?: string[];
}

export interface UpdateUserInput {
  email?: string;
  fullName?: string;
  isActive?: boolean;
  password?: string;
  companyId?: string | null;
}

async function withRoles(ctx: Ctx, row: UserRow): Promise<UserView> {
  const roles = (await repo.rolesOfUsers(ctx.db, [row.id])).get(row.id) ?? [];
  return { ...row, roles };
}

async function assertCompanyExists(ctx: Ctx, companyId: string | null | undefined) {
  if (companyId && !(await companyExists(ctx.db, companyId))) {
    throw new BadRequestError("company_id is not a company of this tenant", [
      { path: "body.company_id", message: "does not exist" },
    ]);
  }
}

async function requireUser(ctx: Ctx, id: string) {
  const user = await repo.findUserById(ctx.db, id);
  if (!user) throw new NotFoundError("User");
  assertUserVisible(ctx.actor, user);
  return user;
}

/** The user, when the caller may manage it (grants.ts): visible and holding nothing the caller doesn't. */
export async function requireManageableUser(ctx: Ctx, id: string) {
  const user = await requireUser(ctx, id);
  if (ctx.actor) assertManageable(ctx.actor, user, await repo.permissionsOfUser(ctx.db, id));
  return user;
}

/** The role's permissions, refused unless the caller holds every one of them. */
async function requireGrantableRole(ctx: Ctx, roleId: string, notFound: () => Error) {
  const role = await findRoleById(ctx.db, roleId);
  if (!role) throw notFound();
  if (ctx.actor) {
    const held = await permissionsOfRole(ctx.db, roleId);
    assertHoldsAll(
      ctx.actor,
      held.map((p) => `${p.modulo}:${p.accion}`),
      `give or take the role "${role.name}"`,
    );
  }
  return role;
}

async function assertEmailFree(ctx: Ctx, email: string, exceptId?: string) {
  const existing = await repo.findUserByEmail(ctx.db, email);
  if (existing && existing.id !== exceptId) throw new ConflictError("A user with this email already exists");
}

/** Refuses to leave the tenant without an active administrator. */
async function assertNotLastAdmin(ctx: Ctx, userId: string) {
  const admin = await findRoleByName(ctx.db, ADMIN_ROLE_NAME);
  if (!admin) return;
  if (!(await repo.holdsRole(ctx.db, userId, admin.id))) return;
  const user = await repo.findUserById(ctx.db, userId);
  if (!user?.isActive) return;
  if ((await repo.countActiveAdmins(ctx.db, admin.id, userId)) === 0) {
    throw new ConflictError("This is the last active administrator; appoint another one first");
  }
}

/** The caller as authentication loaded it: no further query. */
export function getCurrentUser(ctx: AuthedCtx) {
  const a = ctx.actor;
  if (a.kind !== "user" || !a.createdAt || !a.updatedAt) throw new NotFoundError("User");
  return {
    id: a.userId,
    email: a.email,
    fullName: a.fullName,
    isActive: true,
    companyId: a.companyId,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    roles: a.roles,
    permissions: a.sortedPermissions ? [...a.sortedPermissions] : [...a.permissions].sort(),
  };
}

export async function getUser(ctx: Ctx, id: string) {
  return withRoles(ctx, await requireUser(ctx, id));
}

/** For other modules that reference a user (e.g. an activity's responsible). */
export async function userExists(db: Db, id: string): Promise<boolean> {
  return Boolean(await repo.findUserById(db, id));
}

/** E-mail of each given user that still exists (e.g. who changed a budget's state). */
export function emailsOfUsers(db: Db, ids: string[]): Promise<Map<string, string>> {
  return repo.emailsOfUsers(db, [...new Set(ids)]);
}

/**
 * The actor an active user acts as outside HTTP (the CLI): its permissions, and its company when it
 * is restricted to one; undefined when there is no active user with that e-mail.
 */
export async function actorOfActiveUser(db: Db, email: string): Promise<Actor | undefined> {
  const user = await repo.findUserByEmail(db, email);
  if (!user?.isActive) return undefined;
  return {
    kind: "user",
    userId: user.id,
    email: user.email,
    fullName: user.fullName,
    permissions: new Set(await repo.permissionsOfUser(db, user.id)),
    roles: [],
    companyId: user.companyId,
  };
}

export async function listUsers(ctx: Ctx, filter: UserFilter) {
  const { rows, total } = await repo.listUsers(ctx.db, {
    ...filter,
    companyId: ctx.actor?.companyId ?? undefined,
  });
  const roles = await repo.rolesOfUsers(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((r) => ({ ...r, roles: roles.get(r.id) ?? [] })), total };
}

export async function createUser(ctx: Ctx, input: CreateUserInput) {
  const email = input.email.trim().toLowerCase();
  assertCompanyGrantable(ctx.actor, input.companyId);
  // A company-restricted caller's users belong to its company.
  const companyId = input.companyId === undefined ? (ctx.actor?.companyId ?? null) : input.companyId;
  const roleIds = [...new Set(input.roleIds ?? [])];
  for (const roleId of roleIds) {
    await requireGrantableRole(ctx, roleId, () => new BadRequestError(`Role ${roleId} does not exist`));
  }
  await assertEmailFree(ctx, email);
  await assertCompanyExists(ctx, companyId);
  const passwordHash = await hashPassword(input.password);
  const id = await inTransaction(ctx.db, async (tx) => {
    const userId = await repo.insertUser(tx, {
      email,
      passwordHash,
      fullName: input.fullName ?? "",
      isActive: input.isActive ?? true,
      companyId,
    });
    for (const roleId of roleIds) {
      if (!(await findRoleById(tx, roleId))) throw new BadRequestError(`Role ${roleId} does not exist`);
    }
    await repo.insertUserRoles(tx, userId, roleIds);
    return userId;
  });
  return getUser(ctx, id);
}

export async function updateUser(ctx: Ctx, id: string, input: UpdateUserInput) {
  const target = await requireManageableUser(ctx, id);
  if (input.companyId !== undefined && input.companyId !== target.companyId) {
    assertNotSelf(ctx.actor, id, "company restriction");
    assertCompanyGrantable(ctx.actor, input.companyId);
  }
  if (input.password) assertMaySetPassword(ctx.actor);
  const email = input.email?.trim().toLowerCase();
  if (email) await assertEmailFree(ctx, email, id);
  await assertCompanyExists(ctx, input.companyId);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  await inCtxTransaction(ctx, async (txCtx) => {
    if (input.isActive === false) await assertNotLastAdmin(txCtx, id);
    await repo.updateUserRow(txCtx.db, id, {
      email,
      fullName: input.fullName,
      isActive: input.isActive,
      companyId: input.companyId,
      passwordHash,
      passwordChangedAt: passwordHash ? new Date() : undefined,
    });
    if (input.isActive === false || passwordHash) {
      await revokeUserSessions(txCtx.db, id, input.isActive === false ? "deactivated" : "password_reset");
    }
    if (passwordHash && ctx.actor) {
      // Audited: who set whose password, beside the logins it affects.
      await recordLoginAttempt(txCtx.db, {
        email: email ?? target.email,
        userId: id,
        outcome: "password_reset_by_admin",
        userAgent: `by ${ctx.actor.email} (${ctx.actor.userId})`,
      });
    }
  });
  return getUser(ctx, id);
}

export async function deactivateUser(ctx: Ctx, id: string) {
  await requireManageableUser(ctx, id);
  await inCtxTransaction(ctx, async (txCtx) => {
    await assertNotLastAdmin(txCtx, id);
    await repo.updateUserRow(txCtx.db, id, { isActive: false });
    await revokeUserSessions(txCtx.db, id, "deactivated");
  });
}

export async function changeOwnPassword(ctx: AuthedCtx, currentPassword: string, newPassword: string) {
  const user = await requireUser(ctx, ctx.actor.userId);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new BadRequestError("The current password is not correct", [
      { path: "body.current_password", message: "is not correct" },
    ]);
  }
  if (currentPassword === newPassword) {
    throw new BadRequestError("The new password must differ from the current one", [
      { path: "body.new_password", message: "must differ from the current password" },
    ]);
  }
  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx.db, async (tx) => {
    await repo.updateUserRow(tx, user.id, { passwordHash, passwordChangedAt: new Date() });
    // Other devices must log in again; the session changing the password stays.
    await revokeUserSessions(tx, user.id, "password_changed", ctx.actor.sessionId);
  });
}

export async function assignRole(ctx: Ctx, userId: string, roleId: string) {
  await requireManageableUser(ctx, userId);
  await requireGrantableRole(ctx, roleId, () => new NotFoundError("Role"));
  assertNotSelf(ctx.actor, userId, "roles");
  await inTransaction(ctx.db, async (tx) => {
    await repo.insertUserRoles(tx, userId, [roleId]);
    await bumpAuthzEpoch(tx);
  });
  return getUser(ctx, userId);
}

export async function removeRole(ctx: Ctx, userId: string, roleId: string) {
  await requireManageableUser(ctx, userId);
  const role = await requireGrantableRole(ctx, roleId, () => new NotFoundError("Role"));
  // An administrator may step down (unless it is the last one); nobody else changes their own roles.
  if (!(ctx.actor && isAdministrator(ctx.actor))) assertNotSelf(ctx.actor, userId, "roles");
  await inCtxTransaction(ctx, async (txCtx) => {
    if (role.name === ADMIN_ROLE_NAME) await assertNotLastAdmin(txCtx, userId);
    if (!(await repo.deleteUserRole(txCtx.db, userId, roleId))) throw new NotFoundError("Role assignment");
    await bumpAuthzEpoch(txCtx.db);
  });
}
