/**
 * Who may change whose access (ADR 010). The rules every identity write obeys when a caller makes it
 * (a service called outside HTTP — bootstrap, the CLI, test setup — has no actor and is trusted):
 *
 * - nobody grants a permission they don't hold: giving a role needs every permission in it, adding
 *   a permission to a role needs that permission;
 * - nobody manages a user holding a permission they don't (so a lesser user can't disable, re-address
 *   or strip an administrator), nor removes a role or permission they could not grant;
 * - nobody changes their own roles or company restriction;
 * - a company-restricted caller sees and manages only users of its company (others are 404) and can
 *   only give users its own company, never "all companies";
 * - setting another user's password is for administrators (holders of the built-in admin role):
 *   it revokes every session of that user and is written to the login audit.
 */
import type { Actor } from "../../platform/auth/actor.js";
import { ForbiddenError, NotFoundError } from "../../platform/http/errors.js";
import { ADMIN_ROLE_NAME } from "./catalog.js";

export function isAdministrator(actor: Actor): boolean {
  return actor.roles.some((r) => r.name === ADMIN_ROLE_NAME);
}

/** Refuses granting any permission the caller does not hold itself. */
export function assertHoldsAll(actor: Actor | null, permissions: Iterable<string>, what: string) {
  if (!actor) return;
  const missing = [...permissions].filter((p) => !actor.permissions.has(p)).sort();
  if (missing.length) {
    throw new ForbiddenError(
      `You can't ${what}: it carries permissions you don't hold (${missing.join(", ")})`,
    );
  }
}

/** The caller may see this user: its own company's users when it is company-restricted (else 404). */
export function assertUserVisible(actor: Actor | null, user: { companyId: string | null }) {
  if (actor?.companyId && user.companyId !== actor.companyId) throw new NotFoundError("User");
}

/** The caller may manage this user: visible, and holding nothing the caller doesn't. */
export function assertManageable(
  actor: Actor | null,
  user: { id: string; companyId: string | null },
  userPermissions: Iterable<string>,
) {
  if (!actor) return;
  assertUserVisible(actor, user);
  if (isAdministrator(actor)) return;
  assertHoldsAll(actor, userPermissions, "manage this user");
}

export function assertNotSelf(actor: Actor | null, userId: string, what: string) {
  if (actor && actor.userId === userId) throw new ForbiddenError(`You can't change your own ${what}`);
}

/** A company-restricted caller gives users its own company only (never null = every company). */
export function assertCompanyGrantable(actor: Actor | null, companyId: string | null | undefined) {
  if (!actor?.companyId || companyId === undefined || companyId === actor.companyId) return;
  throw new ForbiddenError(
    "You are restricted to one company: the users you manage must be restricted to the same company",
  );
}

export function assertMaySetPassword(actor: Actor | null) {
  if (actor && !isAdministrator(actor)) {
    throw new ForbiddenError(
      "Only an administrator sets another user's password; change your own with PUT /api/v1/users/me/password",
    );
  }
}
