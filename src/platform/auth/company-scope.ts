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
  if (actor.companyId) {
    if (requested && requested !== actor.companyId) return eq(column, "00000000-0000-0000-0000-000000000000");
    return eq(column, actor.companyId);
  }
  return requested ? eq(column, requested) : undefined;
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
