import type { FastifyRequest } from "fastify";
import type { Actor } from "../../platform/auth/actor.js";
import type { Authenticator } from "../../platform/auth/guard.js";
import type { Db } from "../../platform/db/client.js";
import { inTransaction } from "../../platform/db/sql.js";
import type { AuthedCtx } from "../../platform/http/context.js";
import { BadRequestError, ForbiddenError, NotFoundError } from "../../platform/http/errors.js";
import { getCompany } from "../companies/index.js";
import {
  deactivateToken,
  findToken,
  insertToken,
  listTokens,
  loadTokenForAuth,
  scopesOf,
} from "./repository.js";
import { canUseRest, hasAnyMcpScope } from "./scopes.js";
import { generateApiToken, hashApiToken } from "./secrets.js";

export interface CreateTokenInput {
  name: string;
  companyId?: string | null;
  expiresAt?: Date | null;
  scopes: string[];
}

/** Creates a token for the calling user; the secret is returned once and never stored. */
export async function createApiToken(ctx: AuthedCtx, input: CreateTokenInput) {
  const restricted = ctx.actor.companyId;
  let companyId = input.companyId ?? restricted ?? null;
  if (restricted && companyId !== restricted) throw new NotFoundError("Company");
  if (companyId) companyId = (await getCompany(ctx, companyId)).id;
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw new BadRequestError("expires_at must be in the future", [
      { path: "body.expires_at", message: "is in the past" },
    ]);
  }
  const secret = generateApiToken();
  const scopes = [...new Set(input.scopes)].sort();
  const row = await inTransaction(ctx.db, (tx) =>
    insertToken(
      tx,
      {
        name: input.name,
        prefix: secret.prefix,
        keyHash: secret.keyHash,
        userId: ctx.actor.userId,
        companyId,
        expiresAt: input.expiresAt ?? null,
      },
      scopes,
    ),
  );
  return { token: secret.token, record: { ...row, scopes } };
}

/** Tokens visible to the caller: a company-restricted caller sees only its company's. */
export async function listApiTokens(
  ctx: AuthedCtx,
  f: { includeInactive?: boolean; limit: number; offset: number },
) {
  const { rows, total } = await listTokens(ctx.db, {
    companyId: ctx.actor.companyId,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
  const scopes = await scopesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((r) => ({ ...r, scopes: scopes.get(r.id) ?? [] })), total };
}

export async function deactivateApiToken(ctx: AuthedCtx, id: string) {
  const row = await findToken(ctx.db, id);
  if (!row || (ctx.actor.companyId && row.companyId !== ctx.actor.companyId))
    throw new NotFoundError("API token");
  await deactivateToken(ctx.db, id);
}

/** The actor an API token acts as, or null when unknown, inactive or expired. */
export async function resolveApiToken(db: Db, token: string): Promise<Actor | null> {
  const row = await loadTokenForAuth(db, hashApiToken(token));
  if (!row) return null;
  // A token can only narrow its creator's company, never widen it.
  if (row.user_company_id && row.token_company_id && row.user_company_id !== row.token_company_id)
    return null;
  return {
    kind: "api_token",
    userId: row.user_id,
    email: row.email,
    fullName: row.full_name,
    permissions: new Set(row.permissions),
    roles: [],
    companyId: row.token_company_id ?? row.user_company_id,
    apiTokenId: row.id,
    scopes: row.scopes,
  };
}

/** REST authenticator: a live token without the api_access (or *) rule is a 403. */
export const authenticateApiToken: Authenticator = async (request: FastifyRequest, credential: string) => {
  const actor = await resolveApiToken(request.tenant.handle.db, credential);
  if (actor && !canUseRest(actor.scopes ?? [])) {
    throw new ForbiddenError("This API token has no api_access rule: it cannot call the REST API");
  }
  return actor;
};

/** MCP authenticator: a live token without any MCP rule (mcp, mcp:<area>, *) is a 403. */
export const authenticateMcpToken: Authenticator = async (request: FastifyRequest, credential: string) => {
  const actor = await resolveApiToken(request.tenant.handle.db, credential);
  if (actor && !hasAnyMcpScope(actor.scopes ?? [])) {
    throw new ForbiddenError("This API token has no MCP rule (mcp, mcp:<area> or *)");
  }
  return actor;
};
