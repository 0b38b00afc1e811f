import { generatePassword, hashPassword } from "../../platform/auth/passwords.js";
import type { Db } from "../../platform/db/client.js";
import { inTransaction } from "../../platform/db/sql.js";
import { bumpAuthzEpoch } from "./auth/auth-state.js";
import { revokeUserSessions } from "./auth/repository.js";
import { ADMIN_ROLE_NAME, permissionCatalog } from "./catalog.js";
import * as roles from "./roles/repository.js";
import * as users from "./users/repository.js";

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
    await roles.insertPermissions(tx, permissionCatalog());
    await roles.insertSystemRoleIfMissing(tx, {
      name: ADMIN_ROLE_NAME,
      description: "Administrator: every permission",
    });
    const admin = await roles.findRoleByName(tx, ADMIN_ROLE_NAME);
    if (!admin) throw new Error("bootstrap: the admin role could not be created");
    await roles.grantEveryPermission(tx, admin.id);
    await bumpAuthzEpoch(tx);
    if ((await users.countUsers(tx)) > 0) return {};
    const generated = !options.adminPassword;
    const password = options.adminPassword ?? generatePassword();
    await createAdministrator(tx, options.adminEmail, password);
    return { admin: { email: options.adminEmail, password, generated } };
  });
}

/** Creates (or promotes and re-activates) an administrator. */
export async function createAdministrator(db: Db, email: string, password: string) {
  const normalized = email.trim().toLowerCase();
  const admin = await roles.findRoleByName(db, ADMIN_ROLE_NAME);
  if (!admin) throw new Error("The admin role is missing: run migrations first");
  const passwordHash = await hashPassword(password);
  const existing = await users.findUserByEmail(db, normalized);
  const userId = existing
    ? existing.id
    : await users.insertUser(db, { email: normalized, passwordHash, fullName: "Administrator" });
  if (existing) {
    await users.updateUserRow(db, userId, { passwordHash, isActive: true, passwordChangedAt: new Date() });
  }
  await users.insertUserRoles(db, userId, [admin.id]);
  await bumpAuthzEpoch(db);
  return { userId, created: !existing };
}

export async function resetPassword(db: Db, email: string, password: string) {
  const user = await users.findUserByEmail(db, email);
  if (!user) return false;
  await inTransaction(db, async (tx) => {
    await users.updateUserRow(tx, user.id, {
      passwordHash: await hashPassword(password),
      passwordChangedAt: new Date(),
    });
    await revokeUserSessions(tx, user.id, "password_reset");
  });
  return true;
}
