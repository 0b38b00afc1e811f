import type { Actor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { inTransaction } from "../../platform/db/sql.js";
import type { AuthedCtx } from "../../platform/http/context.js";
import { BadRequestError, NotFoundError } from "../../platform/http/errors.js";
import { revokeGrantArtifacts } from "./adapter.js";
import type { TenantOAuth } from "./provider.js";
import * as repo from "./repository.js";

/** Who sees every user's grants, and who may revoke them (the API tokens' permissions). */
export const READ_ALL_GRANTS = "api_tokens:leer";
export const REVOKE_ANY_GRANT = "api_tokens:eliminar";

/**
 * The actor an OAuth access token acts as, or null when it is unknown, expired, bound to another
 * resource, or its grant or user is gone: the same shape an API token gives (user, company
 * restriction, scopes), so every MCP tool applies its checks unchanged.
 */
export async function resolveAccessToken(db: Db, server: TenantOAuth, token: string): Promise<Actor | null> {
  const found = await server.provider.AccessToken.find(token);
  if (!found || found.isExpired) return null;
  const audiences = [found.aud ?? []].flat();
  if (audiences.length !== 1 || audiences[0] !== server.resource) return null;
  const row = await repo.loadGrantForAuth(db, found.grantId);
  if (!row || row.user_id !== found.accountId) return null;
  if (row.user_company_id && row.grant_company_id && row.user_company_id !== row.grant_company_id)
    return null;
  const granted = new Set(row.scopes);
  return {
    kind: "oauth",
    userId: row.user_id,
    email: row.email,
    fullName: row.full_name,
    permissions: new Set(row.permissions),
    roles: [],
    companyId: row.grant_company_id ?? row.user_company_id,
    oauthGrantId: row.id,
    scopes: (found.scope ?? "").split(" ").filter((s) => granted.has(s)),
  };
}

export interface ConsentInput {
  userId: string;
  clientId: string;
  clientName: string;
  redirectHost: string;
  /** A company id, or "all". */
  company: string;
  scopes: string[];
  /** OpenID scopes the request asked for besides the MCP ones (offline_access: a refresh token). */
  oidcScopes: string[];
  ip: string | null;
}

/**
 * Records what the user agreed to (one oidc-provider Grant plus its company and scopes) and audits
 * it, in one transaction; returns the grant id the authorization then refers to.
 */
export async function consent(
  db: Db,
  server: TenantOAuth,
  input: ConsentInput,
  offered: readonly string[],
): Promise<string> {
  const errors = [];
  const companies = await repo.companiesForUser(db, input.userId);
  const restricted = companies[0]?.restricted ?? false;
  const companyId = input.company === "all" ? null : input.company;
  if (companyId === null ? restricted : !companies.some((c) => c.id === companyId)) {
    errors.push({ path: "company", message: "is not a company this user may give access to" });
  }
  const unknown = input.scopes.filter((s) => !offered.includes(s));
  if (!input.scopes.length) errors.push({ path: "scope", message: "choose at least one area" });
  if (unknown.length) errors.push({ path: "scope", message: `${unknown.join(", ")} was not asked for` });
  if (errors.length) throw new BadRequestError("The consent form is not valid", errors);

  const grant = new server.provider.Grant({ accountId: input.userId, clientId: input.clientId });
  if (input.oidcScopes.length) grant.addOIDCScope(input.oidcScopes.join(" "));
  grant.addResourceScope(server.resource, input.scopes.join(" "));
  const declined = offered.filter((s) => !input.scopes.includes(s));
  if (declined.length) grant.rejectResourceScope(server.resource, declined.join(" "));
  const grantId = await grant.save();
  await inTransaction(db, async (tx) => {
    await repo.insertGrant(tx, {
      id: grantId,
      userId: input.userId,
      companyId: companyId ?? (restricted ? companies[0].id : null),
      clientId: input.clientId,
      clientName: input.clientName,
      redirectHost: input.redirectHost,
      scopes: input.scopes,
    });
    await repo.recordEvent(tx, { grantId, event: "granted", userId: input.userId, ip: input.ip });
  });
  return grantId;
}

export async function listGrants(ctx: AuthedCtx, page: { limit: number; offset: number }) {
  const all = ctx.actor.permissions.has(READ_ALL_GRANTS);
  return repo.listGrants(ctx.db, {
    ...page,
    userId: all ? undefined : ctx.actor.userId,
    companyId: all ? (ctx.actor.companyId ?? undefined) : undefined,
  });
}

/**
 * Revokes a grant at once: every token and code of it is deleted (the assistant's next call is a
 * 401) and the revocation is audited. Another user's grant is a 404 unless the caller may revoke
 * API tokens (and, when restricted to a company, only that company's grants).
 */
export async function revokeGrant(ctx: AuthedCtx, id: string, ip: string | null) {
  const grant = await repo.findLiveGrant(ctx.db, id);
  const visible =
    grant &&
    (grant.userId === ctx.actor.userId ||
      (ctx.actor.permissions.has(REVOKE_ANY_GRANT) &&
        (!ctx.actor.companyId || grant.companyId === ctx.actor.companyId)));
  if (!visible) throw new NotFoundError("Grant");
  await inTransaction(ctx.db, async (tx) => {
    if (!(await repo.markRevoked(tx, id, ctx.actor.userId))) throw new NotFoundError("Grant");
    await revokeGrantArtifacts(tx, id);
    await repo.recordEvent(tx, { grantId: id, event: "revoked", userId: ctx.actor.userId, ip });
  });
}

/**
 * oidc-provider revoked a grant itself: at the token endpoint, a spent refresh token presented again
 * (reuse detection); at the revocation endpoint, the client giving its token up. Mirrored and audited.
 */
export async function grantRevokedByServer(db: Db, grantId: string, route: string) {
  const event = route === "token" ? "refresh_token_reused" : "revoked_by_client";
  await inTransaction(db, async (tx) => {
    if (await repo.markRevoked(tx, grantId, null)) {
      await revokeGrantArtifacts(tx, grantId);
      await repo.recordEvent(tx, { grantId, event, userId: null, ip: null });
    }
  });
}
