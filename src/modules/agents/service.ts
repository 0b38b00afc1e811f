import { assertCompanyVisible, companyFilter } from "../../platform/auth/company-scope.js";
import type { AuthedCtx } from "../../platform/http/context.js";
import { ConflictError } from "../../platform/http/errors.js";
import { resolveCompanyForWrite } from "../companies/index.js";
import type { AgentInsert } from "./repository.js";
import * as repo from "./repository.js";
import { agents } from "./tables.js";

export interface AgentListFilters {
  companyId?: string;
  search?: string;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export type AgentValues = Omit<AgentInsert, "id" | "companyId" | "createdAt" | "updatedAt">;

export async function getAgent(ctx: AuthedCtx, id: string) {
  return assertCompanyVisible(ctx.actor, await repo.findAgent(ctx.db, id), "Agent");
}

export function listAgents(ctx: AuthedCtx, f: AgentListFilters) {
  return repo.listAgents(ctx.db, {
    scope: companyFilter(ctx.actor, agents.companyId, f.companyId),
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

/** The agent when it belongs to that company (used by contacts to validate agent_id). */
export function findAgentOfCompany(ctx: AuthedCtx, companyId: string, id: string) {
  return repo.findAgentOfCompany(ctx.db, companyId, id);
}

async function assertCodeFree(ctx: AuthedCtx, companyId: string, code: string, exceptId?: string) {
  if (await repo.agentCodeTaken(ctx.db, companyId, code, exceptId))
    throw new ConflictError(`An agent with code ${code} already exists in this company`);
}

export async function createAgent(
  ctx: AuthedCtx,
  input: AgentValues & { code: string; name: string; companyId?: string },
) {
  const { companyId: requested, ...values } = input;
  const companyId = await resolveCompanyForWrite(ctx, requested);
  await assertCodeFree(ctx, companyId, values.code);
  return repo.insertAgent(ctx.db, { ...values, companyId });
}

export async function updateAgent(ctx: AuthedCtx, id: string, values: Partial<AgentValues>) {
  const current = await getAgent(ctx, id);
  if (values.code !== undefined && values.code !== current.code)
    await assertCodeFree(ctx, current.companyId, values.code, id);
  return repo.updateAgent(ctx.db, id, values);
}

export async function deactivateAgent(ctx: AuthedCtx, id: string) {
  await getAgent(ctx, id);
  await repo.updateAgent(ctx.db, id, { isActive: false });
}
