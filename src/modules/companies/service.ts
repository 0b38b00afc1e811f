import { canSeeCompany, companyFilter } from "../../platform/auth/company-scope.js";
import type { Db } from "../../platform/db/client.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { BadRequestError, ForbiddenError, NotFoundError } from "../../platform/http/errors.js";
import { runCompanyCreatedHooks } from "./hooks.js";
import type { CompanyInsert } from "./repository.js";
import * as repo from "./repository.js";
import { companies } from "./tables.js";

export { type CompanyCreatedHook, onCompanyCreated } from "./hooks.js";

export async function getCompany(ctx: AuthedCtx, id: string) {
  const row = await repo.findCompany(ctx.db, id);
  if (!row || !canSeeCompany(ctx.actor, row.id)) throw new NotFoundError("Company");
  return row;
}

export interface CompanyListFilters {
  search?: string;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export function listCompanies(ctx: AuthedCtx, f: CompanyListFilters) {
  return repo.listCompanies(ctx.db, {
    scope: companyFilter(ctx.actor, companies.id),
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

export async function createCompany(ctx: AuthedCtx, values: CompanyInsert) {
  if (ctx.actor.companyId)
    throw new ForbiddenError("A caller restricted to one company cannot create companies");
  return inCtxTransaction(ctx, async (tx) => {
    const row = await repo.insertCompany(tx.db, values);
    await runCompanyCreatedHooks(tx.db, row.id);
    return row;
  });
}

export async function updateCompany(ctx: AuthedCtx, id: string, values: Partial<CompanyInsert>) {
  await getCompany(ctx, id);
  return repo.updateCompany(ctx.db, id, values);
}

/**
 * The company a new business record belongs to: the caller's own when restricted; otherwise the
 * requested one, or the only active company when the tenant has just one. 404 for an invisible one.
 */
export async function resolveCompanyForWrite(ctx: AuthedCtx, requested?: string | null): Promise<string> {
  if (ctx.actor.companyId) {
    if (requested && requested !== ctx.actor.companyId) throw new NotFoundError("Company");
    return ctx.actor.companyId;
  }
  if (requested) return (await getCompany(ctx, requested)).id;
  const ids = await repo.activeCompanyIds(ctx.db, 2);
  if (ids.length === 1) return ids[0];
  throw new BadRequestError(
    ids.length === 0 ? "Create a company first" : "company_id is required: this tenant has several companies",
    [{ path: "company_id", message: "is required" }],
  );
}

/** Whether the tenant has any active company (a tenant may use /api/v1 without ever creating one). */
export async function hasActiveCompany(db: Db): Promise<boolean> {
  return (await repo.activeCompanyIds(db, 1)).length > 0;
}

/** The company row for other modules' documents (the caller has checked it may see it). */
export async function findCompany(db: Db, id: string) {
  return (await repo.findCompany(db, id)) ?? null;
}

/** For other modules that reference a company (e.g. a user restricted to one). */
export async function companyExists(db: Db, id: string): Promise<boolean> {
  return Boolean(await repo.findCompany(db, id));
}
