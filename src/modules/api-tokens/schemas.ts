import { z } from "zod";
import { iso, isoOrNull } from "../../platform/dates.js";
import { apiListQuery, apiPage } from "../../platform/http/pagination.js";
import type { ApiTokenRow } from "./repository.js";
import { SCOPE_PATTERN } from "./scopes.js";
import type { CreateTokenInput } from "./service.js";

export const scopeSchema = z
  .string()
  .regex(SCOPE_PATTERN, { message: "must be api_access, api_tokens, mcp, mcp:<area> or *" })
  .describe(
    "Access rule (resource_name): api_access (REST), mcp, mcp:<area>, * (all of those) or api_tokens " +
      "(may create tokens no wider than itself, which die with it; not included in *)",
  );

export const tokenCreateBody = z.object({
  name: z.string().trim().min(1).max(100),
  company_id: z.uuid().nullable().optional().describe("Restrict the token to one company (null = all)"),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  scopes: z.array(scopeSchema).min(1).max(20),
});

export const tokenOut = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string().describe("First characters of the token, to recognise it"),
  scopes: z.array(z.string()),
  company_id: z.uuid().nullable(),
  user_id: z.uuid(),
  active: z.boolean(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
});
export const tokenCreatedOut = tokenOut.extend({
  token: z.string().describe("The secret, shown only in this response: store it now"),
});
export const tokenListQuery = apiListQuery.omit({ search: true });
export const tokenPage = apiPage(tokenOut);

export function toTokenOut(r: ApiTokenRow & { scopes: string[] }): z.infer<typeof tokenOut> {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes,
    company_id: r.companyId,
    user_id: r.userId,
    active: r.active,
    expires_at: isoOrNull(r.expiresAt),
    last_used_at: isoOrNull(r.lastUsedAt),
    created_at: iso(r.createdAt),
  };
}

export function fromTokenCreateBody(b: z.infer<typeof tokenCreateBody>): CreateTokenInput {
  return {
    name: b.name,
    companyId: b.company_id,
    expiresAt: b.expires_at ? new Date(b.expires_at) : null,
    scopes: b.scopes,
  };
}
