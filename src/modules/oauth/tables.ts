import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn } from "../../platform/db/columns.js";
import { companies } from "../companies/tables.js";
import { users } from "../identity/tables.js";

/**
 * Every artifact of the OAuth authorization server (oidc-provider's models: AccessToken,
 * AuthorizationCode, RefreshToken, Grant, Interaction, Session, Client...), one row each, keyed by
 * model and id, as its adapter interface stores them.
 */
export const oauthModels = pgTable(
  "oauth_models",
  {
    kind: text("kind").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    grantId: text("grant_id"),
    uid: text("uid"),
    userCode: text("user_code"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    consumedAt: timestamp("consumed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index("oauth_models_grant_idx").on(t.grantId),
    index("oauth_models_uid_idx").on(t.uid),
    index("oauth_models_expires_idx").on(t.expiresAt),
  ],
);

/**
 * What a user consented to for one assistant (one oidc-provider Grant): the company it may read
 * (null: every company its user may) and the mcp:* scopes. Revoking it ends every token at once.
 */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    /** oidc-provider's grant id. */
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    clientName: text("client_name").notNull(),
    redirectHost: text("redirect_host").notNull(),
    scopes: text("scopes").array().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    revokedBy: uuid("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("oauth_grants_user_idx").on(t.userId, t.createdAt)],
);

/** Audit of the assistants' grants: granted, revoked, refresh token reused (grant revoked). */
export const oauthGrantEvents = pgTable(
  "oauth_grant_events",
  {
    id: idColumn(),
    grantId: text("grant_id").notNull(),
    event: text("event").notNull(),
    /** Who did it (the user consenting or revoking); null when the server did (reuse detection). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_grant_events_grant_idx").on(t.grantId, t.createdAt)],
);
