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
import { canUseRest, coversScope, hasAnyMcpScope, TOKENS_SCOPE } from "./scopes.js";
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
  const scopes = [...new Set(input.scopes)].sort();
  const expiresAt = await boundByCreatingToken(ctx, scopes, input.expiresAt ?? null);
  const secret = generateApiToken();
  const row = await inTransaction(ctx.db, (tx) =>
    insertToken(
      tx,
      {
        name: input.name,
        prefix: secret.prefix,
        keyHash: secret.keyHash,
        userId: ctx.actor.userId,
        companyId,
        expiresAt,
        parentTokenId: ctx.actor.kind === "api_token" ? (ctx.actor.apiTokenId ?? null) : null,
      },
      scopes,
    ),
  );
  return { token: secret.token, record: { ...row, scopes } };
}

/**
 * A token creating a token (ADR 010): only with the explicit api_tokens rule, never a rule it does
 * not hold itself, never outliving it (no expiry given = its own). Its company restriction already
 * bounds the new token's (the caller's companyId). The new token dies with it.
 */
async function boundByCreatingToken(ctx: AuthedCtx, scopes: string[], expiresAt: Date | null) {
  const actor = ctx.actor;
  if (actor.kind !== "api_token") return expiresAt;
  const held = actor.scopes ?? [];
  if (!held.includes(TOKENS_SCOPE)) {
    throw new ForbiddenError(
      "This API token may not create tokens: that needs the api_tokens rule, or a user's login",
    );
  }
  const wider = scopes.filter((s) => !coversScope(held, s));
  if (wider.length) {
    throw new ForbiddenError(`A token can't give rules it does not hold: ${wider.join(", ")}`);
  }
  const parent = actor.apiTokenId ? await findToken(ctx.db, actor.apiTokenId) : undefined;
  const limit = parent?.expiresAt ?? null;
  if (!limit) return expiresAt;
  if (!expiresAt) return limit;
  if (expiresAt.getTime() > limit.getTime()) {
    throw new BadRequestError("expires_at is later than the expiry of the token creating it", [
      { path: "body.expires_at", message: `must be at most ${limit.toISOString()}` },
    ]);
  }
  return expiresAt;
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
