import type { FastifyRequest } from "fastify";
import type { Actor } from "../../../platform/auth/actor.js";
import type { Authenticator } from "../../../platform/auth/guard.js";
import { burnPasswordCheck, verifyPassword } from "../../../platform/auth/passwords.js";
import type { TokenService } from "../../../platform/auth/tokens.js";
import type { Db } from "../../../platform/db/client.js";
import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx, Ctx } from "../../../platform/http/context.js";
import { ConflictError, TooManyRequestsError, UnauthorizedError } from "../../../platform/http/errors.js";
import { findUserByEmail } from "../users/repository.js";

/** A refresh token presented again this soon after its rotation is a client's race, not theft. */
export const REFRESH_REUSE_GRACE_MS = 10_000;

import { GrantsCache, loadGrants, loadSessionState } from "./auth-state.js";
import { KeyedQueue } from "./keyed-queue.js";
import * as repo from "./repository.js";
import { sessionCacheOf } from "./session-cache.js";

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

const INVALID_LOGIN = "Incorrect email or password";

export function createAuthService(deps: { tokens: TokenService; sessionCache?: boolean }) {
  const { tokens } = deps;
  const useSessionCache = deps.sessionCache ?? true;

  async function issuePair(db: Db, tenantId: string, userId: string, sessionId: string): Promise<TokenPair> {
    const subject = { userId, tenantId, sessionId };
    const [access, refresh] = await Promise.all([
      tokens.issue("access", subject),
      tokens.issue("refresh", subject),
    ]);
    await repo.insertRefreshToken(db, { jti: refresh.jti, sessionId, expiresAt: refresh.expiresAt });
    return { accessToken: access.token, refreshToken: refresh.token, expiresIn: tokens.accessTokenSeconds };
  }

  const loginQueue = new KeyedQueue();

  /**
   * Attempts for one e-mail from one IP run one at a time, so the brute-force check sees every
   * earlier failure: concurrent guesses can't all slip in before the first one is recorded.
   */
  async function login(ctx: Ctx, email: string, password: string, client: ClientInfo): Promise<TokenPair> {
    const normalized = email.trim().toLowerCase();
    return loginQueue.run(`${ctx.tenantId}\n${normalized}\n${client.ip ?? ""}`, () =>
      attemptLogin(ctx, normalized, password, client),
    );
  }

  /**
   * Signs a user in elsewhere than /auth/login (the MCP OAuth consent page): the same throttling,
   * password check and login audit, without opening a session or issuing tokens.
   */
  async function verifyLogin(ctx: Ctx, email: string, password: string, client: ClientInfo): Promise<string> {
    const normalized = email.trim().toLowerCase();
    return loginQueue.run(`${ctx.tenantId}\n${normalized}\n${client.ip ?? ""}`, async () => {
      const user = await checkPassword(ctx, normalized, password, client);
      await repo.recordLoginAttempt(ctx.db, {
        email: normalized,
        ip: client.ip,
        userAgent: client.userAgent,
        userId: user.id,
        outcome: "ok",
      });
      return user.id;
    });
  }

  /** The user whose password this is, or the same refusal /auth/login gives (audited). */
  async function checkPassword(ctx: Ctx, normalized: string, password: string, client: ClientInfo) {
    const audit = { email: normalized, ip: client.ip, userAgent: client.userAgent };
    const wait = await repo.secondsUntilLoginAllowed(ctx.db, normalized, client.ip);
    if (wait > 0) {
      await repo.recordLoginAttempt(ctx.db, { ...audit, outcome: "rate_limited" });
      throw new TooManyRequestsError("Too many failed logins; try again later", wait);
    }
    const user = await findUserByEmail(ctx.db, normalized);
    if (!user) {
      await burnPasswordCheck(password);
      await repo.recordLoginAttempt(ctx.db, { ...audit, outcome: "unknown_email" });
      throw new UnauthorizedError(INVALID_LOGIN);
    }
    const passwordOk = await verifyPassword(user.passwordHash, password);
    const outcome = !passwordOk ? "bad_password" : !user.isActive ? "inactive" : "ok";
    if (outcome !== "ok") {
      await repo.recordLoginAttempt(ctx.db, { ...audit, userId: user.id, outcome });
      throw new UnauthorizedError(INVALID_LOGIN);
    }
    return user;
  }

  async function attemptLogin(
    ctx: Ctx,
    normalized: string,
    password: string,
    client: ClientInfo,
  ): Promise<TokenPair> {
    const audit = { email: normalized, ip: client.ip, userAgent: client.userAgent };
    const user = await checkPassword(ctx, normalized, password, client);
    return inTransaction(ctx.db, async (tx) => {
      const session = await repo.insertSession(tx, {
        userId: user.id,
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 500),
      });
      await repo.recordLoginAttempt(tx, { ...audit, userId: user.id, outcome: "ok" });
      return issuePair(tx, ctx.tenantId, user.id, session.id);
    });
  }

  /**
   * Rotates a refresh token. A spent token presented again within REFRESH_REUSE_GRACE_MS of its
   * rotation is a 409 (concurrent refreshes of one client); later, it revokes its whole session.
   */
  async function refresh(ctx: Ctx, refreshToken: string): Promise<TokenPair> {
    const claims = await tokens.verify(refreshToken, "refresh", ctx.tenantId);
    if (!claims) throw new UnauthorizedError("Invalid or expired refresh token");
    const result = await inTransaction(ctx.db, async (tx) => {
      const row = await repo.lockRefreshToken(tx, claims);
      if (!row) return null;
      if (row.usedAt) {
        // Within seconds of its rotation it is a race between the client's own requests (two tabs,
        // a retry), not theft: 409, the session lives. Later, it is reuse: the session dies.
        if (Date.now() - row.usedAt.getTime() < REFRESH_REUSE_GRACE_MS) return "race" as const;
        await repo.revokeSession(tx, row.sessionId, "refresh_token_reuse");
        return null;
      }
      if (row.revokedAt || !row.isActive || row.expiresAt.getTime() <= Date.now()) return null;
      await repo.markRefreshTokenUsed(tx, claims.jti);
      return issuePair(tx, ctx.tenantId, row.userId, row.sessionId);
    });
    if (result === "race") {
      throw new ConflictError(
        "This refresh token was rotated a moment ago by a concurrent request; use the pair that request received",
      );
    }
    if (!result) throw new UnauthorizedError("Invalid, spent or revoked refresh token");
    return result;
  }

  /** Ends the caller's session: its access token goes on the deny list, its refresh tokens die. */
  async function logout(ctx: AuthedCtx, refreshToken?: string) {
    const { actor } = ctx;
    const other = refreshToken ? await tokens.verify(refreshToken, "refresh", ctx.tenantId) : null;
    await inTransaction(ctx.db, async (tx) => {
      if (actor.tokenJti && actor.tokenExpiresAt) {
        await repo.denyAccessToken(tx, actor.tokenJti, actor.tokenExpiresAt);
      }
      if (actor.sessionId) await repo.revokeSession(tx, actor.sessionId, "logout");
      if (other && other.sub === actor.userId && other.sid !== actor.sessionId) {
        await repo.revokeSession(tx, other.sid, "logout");
      }
      await repo.purgeExpiredDenials(tx);
    });
  }

  async function revokeAll(ctx: Ctx, userId: string, reason: string) {
    await repo.revokeUserSessions(ctx.db, userId, reason);
  }

  const grantsCache = new GrantsCache();

  /**
   * Authenticator for user JWTs: the user, session, deny list and authz epoch come from this
   * node's session cache (ADR 034) or one prepared query; roles and permissions from the grants
   * cache unless the epoch moved.
   */
  const authenticateJwt: Authenticator = async (request: FastifyRequest, credential: string) => {
    const claims = await tokens.verify(credential, "access", request.tenant.id);
    if (!claims) return null;
    const { handle } = request.tenant;
    const cache = useSessionCache ? sessionCacheOf(handle) : undefined;
    let state = cache?.get(claims);
    if (!state) {
      const version = cache?.version;
      state = await loadSessionState(handle, claims.sub, claims.sid, claims.jti);
      if (!state?.is_active || !state.session_active || state.denied) return null;
      // Only live sessions are remembered: a refusal is final, or undone by a change (reactivation)
      // that must not wait for a notification.
      if (cache && version !== undefined) cache.store(claims, state, version);
    }
    const epoch = String(state.epoch);
    let grants = grantsCache.get(request.tenant.id, state.id, epoch);
    if (!grants) {
      grants = await loadGrants(request.tenant.handle.db, state.id);
      grantsCache.set(request.tenant.id, state.id, epoch, grants);
    }
    const actor: Actor = {
      kind: "user",
      userId: state.id,
      email: state.email,
      fullName: state.full_name,
      permissions: grants.permissionSet,
      sortedPermissions: grants.permissions,
      roles: grants.roles,
      companyId: state.company_id,
      createdAt: new Date(state.created_at),
      updatedAt: new Date(state.updated_at),
      sessionId: claims.sid,
      tokenJti: claims.jti,
      tokenExpiresAt: new Date(claims.exp * 1000),
    };
    return actor;
  };

  return { login, verifyLogin, refresh, logout, revokeAll, authenticateJwt, issuePair };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Login attempts, newest first (the auditor's view). */
export function listLoginAudit(ctx: Ctx, filter: repo.AuditFilter) {
  return repo.listLoginAudit(ctx.db, filter);
}
