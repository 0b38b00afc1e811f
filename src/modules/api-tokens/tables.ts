import {
  type AnyPgColumn,
  boolean,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, idColumn } from "../../platform/db/columns.js";
import { companies } from "../companies/tables.js";
import { users } from "../identity/tables.js";

/** API tokens: the secret is shown once (cdr_...) and stored only as its SHA-256 (key_hash). */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: idColumn(),
    name: text("name").notNull(),
    /** First characters of the token, to recognise it in lists. */
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "cascade" }),
    /** The token that created this one through the API (null: created by a user); it dies with it. */
    parentTokenId: uuid("parent_token_id").references((): AnyPgColumn => apiTokens.id, {
      onDelete: "cascade",
    }),
    active: boolean("active").notNull().default(true),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("api_tokens_key_hash_key").on(t.keyHash),
    index("api_tokens_user_idx").on(t.userId),
    index("api_tokens_parent_idx").on(t.parentTokenId),
  ],
);

/** Access rules of a token: resource_name is api_access, mcp, mcp:<area> or *. */
export const apiAccess = pgTable(
  "api_access",
  {
    tokenId: uuid("token_id")
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    resourceName: text("resource_name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.resourceName] })],
);
