import { and, eq } from "drizzle-orm";
import { hashPassword, verifyPassword } from "../../../platform/auth/passwords.js";
import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../platform/http/errors.js";
import { companyExists } from "../../companies/service.js";
import { bumpAuthzEpoch } from "../auth/auth-state.js";
import { ADMIN_ROLE_NAME } from "../catalog.js";
import { userRoles, users } from "../tables.js";
import {
  countActiveAdmins,
  findRoleById,
  findRoleByName,
  findUserByEmail,
  findUserById,
  listUsers,
  revokeUserSessions,
  rolesOfUsers,
  type UserFilter,
  type UserRow,
} from "./repository.js";

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
  const roles = (await rolesOfUsers(ctx.db, [row.id])).get(row.id) ?? [];
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
  const user = await findUserById(ctx.db, id);
  if (!user) throw new NotFoundError("User");
  return user;
}

async function assertEmailFree(ctx: Ctx, email: string, exceptId?: string) {
  const existing = await findUserByEmail(ctx.db, email);
  if (existing && existing.id !== exceptId) throw new ConflictError("A user with this email already exists");
}

/** Refuses to leave the tenant without an active administrator. */
async function assertNotLastAdmin(ctx: Ctx, userId: string) {
  const admin = await findRoleByName(ctx.db, ADMIN_ROLE_NAME);
  if (!admin) return;
  const holds = await ctx.db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, admin.id)));
  if (holds.length === 0) return;
  const user = await findUserById(ctx.db, userId);
  if (!user?.isActive) return;
  if ((await countActiveAdmins(ctx.db, admin.id, userId)) === 0) {
    throw new ConflictError("This is the last active administrator; appoint another one first");
  }
}

/** The caller as authentication loaded it: no further query. */
export function me(ctx: AuthedCtx) {
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

export async function list(ctx: Ctx, filter: UserFilter) {
  const { rows, total } = await listUsers(ctx.db, filter);
  const roles = await rolesOfUsers(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((r) => ({ ...r, roles: roles.get(r.id) ?? [] })), total };
}

export async function create(ctx: Ctx, input: CreateUserInput) {
  const email = input.email.trim().toLowerCase();
  await assertEmailFree(ctx, email);
  await assertCompanyExists(ctx, input.companyId);
  const passwordHash = await hashPassword(input.password);
  const id = await inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        email,
        passwordHash,
        fullName: input.fullName ?? "",
        isActive: input.isActive ?? true,
        companyId: input.companyId ?? null,
      })
      .returning({ id: users.id });
    const roleIds = [...new Set(input.roleIds ?? [])];
    for (const roleId of roleIds) {
      if (!(await findRoleById(tx, roleId))) throw new BadRequestError(`Role ${roleId} does not exist`);
    }
    if (roleIds.length)
      await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId: row.id, roleId })));
    return row.id;
  });
  return getUser(ctx, id);
}

export async function update(ctx: Ctx, id: string, input: UpdateUserInput) {
  await requireUser(ctx, id);
  const email = input.email?.trim().toLowerCase();
  if (email) await assertEmailFree(ctx, email, id);
  await assertCompanyExists(ctx, input.companyId);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  await inTransaction(ctx.db, async (tx) => {
    const txCtx = { ...ctx, db: tx };
    if (input.isActive === false) await assertNotLastAdmin(txCtx, id);
    await tx
      .update(users)
      .set({
        email,
        fullName: input.fullName,
        isActive: input.isActive,
        companyId: input.companyId,
        passwordHash,
        passwordChangedAt: passwordHash ? new Date() : undefined,
      })
      .where(eq(users.id, id));
    if (input.isActive === false || passwordHash) {
      await revokeUserSessions(tx, id, input.isActive === false ? "deactivated" : "password_reset");
    }
  });
  return getUser(ctx, id);
}

export async function deactivate(ctx: Ctx, id: string) {
  await requireUser(ctx, id);
  await inTransaction(ctx.db, async (tx) => {
    await assertNotLastAdmin({ ...ctx, db: tx }, id);
    await tx.update(users).set({ isActive: false }).where(eq(users.id, id));
    await revokeUserSessions(tx, id, "deactivated");
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
    await tx.update(users).set({ passwordHash, passwordChangedAt: new Date() }).where(eq(users.id, user.id));
    // Other devices must log in again; the session changing the password stays.
    await revokeUserSessions(tx, user.id, "password_changed", ctx.actor.sessionId);
  });
}

export async function assignRole(ctx: Ctx, userId: string, roleId: string) {
  await requireUser(ctx, userId);
  if (!(await findRoleById(ctx.db, roleId))) throw new NotFoundError("Role");
  await inTransaction(ctx.db, async (tx) => {
    await tx.insert(userRoles).values({ userId, roleId }).onConflictDoNothing();
    await bumpAuthzEpoch(tx);
  });
  return getUser(ctx, userId);
}

export async function removeRole(ctx: Ctx, userId: string, roleId: string) {
  await requireUser(ctx, userId);
  const role = await findRoleById(ctx.db, roleId);
  if (!role) throw new NotFoundError("Role");
  await inTransaction(ctx.db, async (tx) => {
    if (role.name === ADMIN_ROLE_NAME) await assertNotLastAdmin({ ...ctx, db: tx }, userId);
    const removed = await tx
      .delete(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId)))
      .returning({ userId: userRoles.userId });
    if (removed.length === 0) throw new NotFoundError("Role assignment");
    await bumpAuthzEpoch(tx);
  });
}
