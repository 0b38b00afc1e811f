import { and, count, desc, eq, gte, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { queryOne } from "../../../platform/db/sql.js";
import { likePattern } from "../../../platform/http/pagination.js";
import { loginAudit, refreshTokens, revokedAccessTokens, sessions, users } from "../tables.js";
import { forgetAfterCommit } from "./session-cache.js";

export const LOGIN_WINDOW_MINUTES = 15;
export const MAX_FAILED_LOGINS = 5;
/** Failures from one IP, whatever the e-mails (password spraying), in the window. */
export const MAX_FAILED_LOGINS_PER_IP = 20;
/** Failures for one e-mail, whatever the IPs (a distributed guess of one account), in the window. */
export const MAX_FAILED_LOGINS_PER_ACCOUNT = 10;

export type LoginOutcome =
  | "ok"
  | "unknown_email"
  | "bad_password"
  | "inactive"
  | "rate_limited"
  /** Not a login: an administrator set this user's password (its sessions were revoked). */
  | "password_reset_by_admin";

export interface LoginAttempt {
  email: string;
  userId?: string | null;
  outcome: LoginOutcome;
  ip?: string | null;
  userAgent?: string | null;
}

export async function recordLoginAttempt(db: Db, attempt: LoginAttempt) {
  await db.insert(loginAudit).values({
    email: attempt.email,
    userId: attempt.userId ?? null,
    success: attempt.outcome === "ok",
    reason: attempt.outcome,
    ip: attempt.ip ?? null,
    userAgent: attempt.userAgent?.slice(0, 500) ?? null,
  });
}

/**
 * Seconds until this email may try again from this IP, or 0. Counts failed attempts (not the
 * refused ones) in the last 15 minutes since the last success; database time, so nodes agree.
 */
export async function secondsUntilLoginAllowed(db: Db, email: string, ip: string | null): Promise<number> {
  const pair = await secondsUntilPairAllowed(db, email, ip);
  // Per IP and per account: failed attempts (not refused ones) in the last 15 minutes, whatever
  // the other half of the pair; the oldest counted failure leaving the window lets the next try in.
  const row = await queryOne<{ ip_wait: string | number | null; account_wait: string | number | null }>(
    db,
    sql`with by_ip as (
          select created_at from login_audit
           where ${ip}::text is not null and ip = ${ip} and success = false and reason in ('unknown_email', 'bad_password', 'inactive')
             and created_at > now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})
           order by created_at desc limit ${MAX_FAILED_LOGINS_PER_IP}),
        by_account as (
          select created_at from login_audit
           where email = ${email} and success = false and reason in ('unknown_email', 'bad_password', 'inactive')
             and created_at > now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})
           order by created_at desc limit ${MAX_FAILED_LOGINS_PER_ACCOUNT})
        select (select case when count(*) >= ${MAX_FAILED_LOGINS_PER_IP}
                       then extract(epoch from (min(created_at) + make_interval(mins => ${LOGIN_WINDOW_MINUTES}) - now())) end
                  from by_ip) as ip_wait,
               (select case when count(*) >= ${MAX_FAILED_LOGINS_PER_ACCOUNT}
                       then extract(epoch from (min(created_at) + make_interval(mins => ${LOGIN_WINDOW_MINUTES}) - now())) end
                  from by_account) as account_wait`,
  );
  return Math.max(pair, Number(row?.ip_wait ?? 0), Number(row?.account_wait ?? 0), 0);
}

async function secondsUntilPairAllowed(db: Db, email: string, ip: string | null): Promise<number> {
  const row = await queryOne<{ retry_after: string | number | null }>(
    db,
    sql`with recent as (
          select created_at from login_audit
           where email = ${email} and ip is not distinct from ${ip}
             and success = false and reason not in ('rate_limited', 'password_reset_by_admin')
             and created_at > now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})
             and created_at > coalesce((select max(created_at) from login_audit
                                         where email = ${email} and ip is not distinct from ${ip} and success),
                                       '-infinity'::timestamptz)
           order by created_at desc
           limit ${MAX_FAILED_LOGINS})
        select case when count(*) >= ${MAX_FAILED_LOGINS}
                    then extract(epoch from (min(created_at) + make_interval(mins => ${LOGIN_WINDOW_MINUTES}) - now()))
               end as retry_after
          from recent`,
  );
  const seconds = Number(row?.retry_after ?? 0);
  return Math.max(seconds, 0);
}

export interface AuditFilter {
  email?: string;
  success?: boolean;
  dateFrom?: string;
  dateTo?: string;
  limit: number;
  offset: number;
}

export type LoginAuditRow = typeof loginAudit.$inferSelect;

export async function listLoginAudit(db: Db, filter: AuditFilter) {
  const conditions: (SQL | undefined)[] = [
    filter.email ? sql`${loginAudit.email} ilike ${likePattern(filter.email.toLowerCase())}` : undefined,
    filter.success === undefined ? undefined : eq(loginAudit.success, filter.success),
    filter.dateFrom ? gte(loginAudit.createdAt, new Date(`${filter.dateFrom}T00:00:00Z`)) : undefined,
    filter.dateTo ? lte(loginAudit.createdAt, new Date(`${filter.dateTo}T23:59:59.999Z`)) : undefined,
  ];
  const where = and(...conditions);
  return paginate(
    db,
    () =>
      db
        .select()
        .from(loginAudit)
        .where(where)
        .orderBy(desc(loginAudit.createdAt), desc(loginAudit.id))
        .limit(filter.limit)
        .offset(filter.offset),
    () => db.select({ total: count() }).from(loginAudit).where(where),
  );
}

export async function insertSession(
  db: Db,
  values: { userId: string; ip: string | null; userAgent: string | null | undefined },
) {
  const [session] = await db.insert(sessions).values(values).returning({ id: sessions.id });
  return session;
}

export async function insertRefreshToken(
  db: Db,
  values: { jti: string; sessionId: string; expiresAt: Date },
) {
  await db.insert(refreshTokens).values(values);
}

/** A refresh token with its session and user, row-locked until the transaction ends. */
export async function lockRefreshToken(db: Db, claims: { jti: string; sid: string; sub: string }) {
  const [row] = await db
    .select({
      usedAt: refreshTokens.usedAt,
      expiresAt: refreshTokens.expiresAt,
      sessionId: sessions.id,
      revokedAt: sessions.revokedAt,
      userId: users.id,
      isActive: users.isActive,
    })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(refreshTokens.jti, claims.jti), eq(sessions.id, claims.sid), eq(users.id, claims.sub)))
    .for("update", { of: refreshTokens });
  return row;
}

export async function markRefreshTokenUsed(db: Db, jti: string) {
  await db.update(refreshTokens).set({ usedAt: new Date() }).where(eq(refreshTokens.jti, jti));
}

export async function denyAccessToken(db: Db, jti: string, expiresAt: Date) {
  await db.insert(revokedAccessTokens).values({ jti, expiresAt }).onConflictDoNothing();
  forgetAfterCommit(db, { jti });
}

/** Deny-list entries are useless once their token has expired. */
export async function purgeExpiredDenials(db: Db) {
  await db
    .delete(revokedAccessTokens)
    .where(sql`${revokedAccessTokens.expiresAt} < now() - interval '1 hour'`);
}

export async function revokeUserSessions(db: Db, userId: string, reason: string, exceptSessionId?: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId ? sql`${sessions.id} <> ${exceptSessionId}` : undefined,
      ),
    );
  forgetAfterCommit(db, { userId });
}

export async function revokeSession(db: Db, sessionId: string, reason: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  forgetAfterCommit(db, { sessionId });
}
