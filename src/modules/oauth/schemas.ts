import { z } from "zod";
import { apiListQuery, apiPage } from "../../platform/http/pagination.js";
import type { GrantRow } from "./repository.js";

export const grantListQuery = apiListQuery.pick({ skip: true, limit: true });

export const grantOut = z
  .object({
    id: z.string().describe("The grant id (DELETE /api/oauth/grants/{id} revokes it)"),
    user_id: z.uuid(),
    company_id: z
      .uuid()
      .nullable()
      .describe("The company the assistant may read; null: every company of its user"),
    client_id: z.string().describe("The assistant's client_id (the URL of its metadata document)"),
    client_name: z.string(),
    redirect_host: z.string(),
    scopes: z.array(z.string()).describe("The mcp:* scopes the user granted"),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
  })
  .describe("An assistant connected by OAuth sign-in");

export const grantPage = apiPage(grantOut);

export const grantIdParams = z.object({
  id: z.string().regex(/^[\w-]{10,64}$/, { message: "is not a grant id" }),
});

export const toGrantOut = (g: GrantRow): z.input<typeof grantOut> => ({
  id: g.id,
  user_id: g.userId,
  company_id: g.companyId,
  client_id: g.clientId,
  client_name: g.clientName,
  redirect_host: g.redirectHost,
  scopes: g.scopes,
  created_at: g.createdAt.toISOString(),
  last_used_at: g.lastUsedAt?.toISOString() ?? null,
});
