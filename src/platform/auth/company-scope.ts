import type { SQL } from "drizzle-orm";
import { eq } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { NotFoundError } from "../http/errors.js";
import type { Actor } from "./actor.js";

/**
 * Company restriction (enterprise API): an actor with companyId sees only that company's rows;
 * another company's record does not exist for it (404, never 403).
 */
export function companyFilter(actor: Actor, column: PgColumn, requested?: string): SQL | undefined {
  const id = companyScopeId(actor, requested);
  return id === undefined ? undefined : eq(column, id);
}

/** The one company companyFilter restricts to (a nil id, matching nothing, for another company's), or undefined: all. */
export function companyScopeId(actor: Actor, requested?: string): string | undefined {
  if (actor.companyId) {
    return requested && requested !== actor.companyId
      ? "00000000-0000-0000-0000-000000000000"
      : actor.companyId;
  }
  return requested || undefined;
}

export function canSeeCompany(actor: Actor, companyId: string): boolean {
  return !actor.companyId || actor.companyId === companyId;
}

/** Throws 404 when the row belongs to a company the actor may not see. */
export function assertCompanyVisible<T extends { companyId: string }>(
  actor: Actor,
  row: T | undefined,
  what: string,
): T {
  if (!row || !canSeeCompany(actor, row.companyId)) throw new NotFoundError(what);
  return row;
}
