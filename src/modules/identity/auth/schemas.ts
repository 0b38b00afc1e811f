import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { queryBoolean, queryDate, v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import type { LoginAuditRow } from "./repository.js";
import type { TokenPair } from "./service.js";

export const loginBody = z.object({
  email: z.string().trim().min(1).max(254).describe("E-mail address"),
  password: z.string().min(1).max(1024),
});
export const refreshBody = z.object({ refresh_token: z.string().min(1).max(4096) });
/** Optional: a POST with no body at all reaches validation as null. */
export const logoutBody = z.object({ refresh_token: z.string().min(1).max(4096).optional() }).nullish();

/** /api/v1 token pair. */
export const tokenPairV1 = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("bearer"),
});

/** /api/auth token pair (the enterprise API's shape). */
export const tokenPairOut = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int().describe("Seconds until the access token expires"),
});

export const loginAuditOut = z.object({
  id: z.uuid(),
  email: z.string(),
  user_id: z.uuid().nullable(),
  success: z.boolean(),
  reason: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
});
export const loginAuditQuery = v1ListQuery.extend({
  email: z.string().trim().max(254).optional(),
  success: queryBoolean.optional(),
  date_from: queryDate.optional(),
  date_to: queryDate.optional(),
});
export const loginAuditPage = v1Page(loginAuditOut);

export function toTokenPairV1(
  t: Pick<TokenPair, "accessToken" | "refreshToken">,
): z.infer<typeof tokenPairV1> {
  return { access_token: t.accessToken, refresh_token: t.refreshToken, token_type: "bearer" };
}

export function toTokenPairOut(t: TokenPair): z.infer<typeof tokenPairOut> {
  return { access_token: t.accessToken, refresh_token: t.refreshToken, expires_in: t.expiresIn };
}

export function toLoginAuditOut(r: LoginAuditRow): z.infer<typeof loginAuditOut> {
  return {
    id: r.id,
    email: r.email,
    user_id: r.userId,
    success: r.success,
    reason: r.reason,
    ip: r.ip,
    user_agent: r.userAgent,
    created_at: iso(r.createdAt),
  };
}
