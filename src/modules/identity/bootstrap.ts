import { count, eq, sql } from "drizzle-orm";
import { generatePassword, hashPassword } from "../../platform/auth/passwords.js";
import type { Db } from "../../platform/db/client.js";
import { inTransaction } from "../../platform/db/sql.js";
import { bumpAuthzEpoch } from "./auth/auth-state.js";
import { ADMIN_ROLE_NAME, permissionCatalog } from "./catalog.js";
import { permissions, roles, userRoles, users } from "./tables.js";
import { findRoleByName, findUserByEmail, revokeUserSessions } from "./users/repository.js";

export interface BootstrapResult {
  /** Set when this run created the first administrator. */
  admin?: { email: string; password: string; generated: boolean };
}

/**
 * Idempotent: loads the permission catalog, the built-in admin role holding every permission,
 * and — on a database with no users — the first administrator.
 */
export async function bootstrapIdentity(
  db: Db,
  options: { adminEmail: string; adminPassword?: string },
): Promise<BootstrapResult> {
  return inTransaction(db, async (tx) => {
    await tx.insert(permissions).values(permissionCatalog()).onConflictDoNothing();
    await tx
      .insert(roles)
      .values({ name: ADMIN_ROLE_NAME, description: "Administrator: every permission", isSystem: true })
      .onConflictDoNothing();
    const admin = await findRoleByName(tx, ADMIN_ROLE_NAME);
    if (!admin) throw new Error("bootstrap: the admin role could not be created");
    await tx.execute(sql`insert into role_permissions (role_id, permission_id)
                         select ${admin.id}, id from permissions on conflict do nothing`);
    await bumpAuthzEpoch(tx);
    const [{ n }] = await tx.select({ n: count() }).from(users);
    if (Number(n) > 0) return {};
    const generated = !options.adminPassword;
    const password = options.adminPassword ?? generatePassword();
    await createAdministrator(tx, options.adminEmail, password);
    return { admin: { email: options.adminEmail, password, generated } };
  });
}

/** Creates (or promotes and re-activates) an administrator. */
export async function createAdministrator(db: Db, email: string, password: string) {
  const normalized = email.trim().toLowerCase();
  const admin = await findRoleByName(db, ADMIN_ROLE_NAME);
  if (!admin) throw new Error("The admin role is missing: run migrations first");
  const passwordHash = await hashPassword(password);
  const existing = await findUserByEmail(db, normalized);
  const userId = existing
    ? existing.id
    : (
        await db
          .insert(users)
          .values({ email: normalized, passwordHash, fullName: "Administrator" })
          .returning({ id: users.id })
      )[0].id;
  if (existing) {
    await db
      .update(users)
      .set({ passwordHash, isActive: true, passwordChangedAt: new Date() })
      .where(eq(users.id, userId));
  }
  await db.insert(userRoles).values({ userId, roleId: admin.id }).onConflictDoNothing();
  await bumpAuthzEpoch(db);
  return { userId, created: !existing };
}

export async function resetPassword(db: Db, email: string, password: string) {
  const user = await findUserByEmail(db, email);
  if (!user) return false;
  await inTransaction(db, async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash: await hashPassword(password), passwordChangedAt: new Date() })
      .where(eq(users.id, user.id));
    await revokeUserSessions(tx, user.id, "password_reset");
  });
  return true;
}
