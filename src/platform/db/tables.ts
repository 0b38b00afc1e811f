import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";

/**
 * Tenant registry, kept in the main (control) database when BASE_DOMAIN is set. Each tenant has a
 * database of its own: DATA_DIR/tenants/{slug} (PGlite), cuadra_{slug} on the main server, or
 * database_url on another PostgreSQL cluster.
 */
export const tenants = pgTable("tenants", {
  slug: text("slug").primaryKey(),
  databaseUrl: text("database_url"),
  status: text("status").notNull().default("active"),
  createdAt: createdAt(),
});

/**
 * Idempotency-Key records (platform/http/idempotency.ts), in every tenant's database: the first
 * answer to a POST sent with a key, replayed for 24 h to the same tenant and user sending the same
 * key and body. `status` null = the first request is still running.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    tenantId: text("tenant_id").notNull(),
    userId: uuid("user_id").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.key] }),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
  ],
);
