import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "../../platform/db/columns.js";

export const users = pgTable(
  "users",
  {
    id: idColumn(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    fullName: text("full_name").notNull().default(""),
    isActive: boolean("is_active").notNull().default(true),
    /** Enterprise API: a user restricted to one company sees only its rows (null = every company). */
    companyId: uuid("company_id"),
    passwordChangedAt: timestamp("password_changed_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(sql`lower(${t.email})`)],
);

export const roles = pgTable(
  "roles",
  {
    id: idColumn(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Built-in roles (admin) cannot be deleted or stripped of permissions. */
    isSystem: boolean("is_system").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("roles_name_key").on(sql`lower(${t.name})`)],
);

export const permissions = pgTable(
  "permissions",
  {
    id: idColumn(),
    modulo: text("modulo").notNull(),
    accion: text("accion").notNull(),
    submenu: text("submenu"),
    view: text("view"),
  },
  (t) => [uniqueIndex("permissions_modulo_accion_key").on(t.modulo, t.accion)],
);

export const rolePermissions = pgTable(
  "role_permissions",
  {
    roleId: uuid("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    permissionId: uuid("permission_id")
      .notNull()
      .references(() => permissions.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

export const userRoles = pgTable(
  "user_roles",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: uuid("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index("user_roles_role_idx").on(t.roleId)],
);

/** A login session: every access and refresh token carries its id (`sid`). */
export const sessions = pgTable(
  "sessions",
  {
    id: idColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    revokedReason: text("revoked_reason"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Refresh tokens, rotated on every use; a spent one presented again revokes its session. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    jti: uuid("jti").primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("refresh_tokens_session_idx").on(t.sessionId)],
);

/** Deny list of access tokens ended by logout before their expiry. */
export const revokedAccessTokens = pgTable("revoked_access_tokens", {
  jti: uuid("jti").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});

export const loginAudit = pgTable(
  "login_audit",
  {
    id: idColumn(),
    email: text("email").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    success: boolean("success").notNull(),
    reason: text("reason").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_audit_email_ip_time_idx").on(t.email, t.ip, t.createdAt),
    index("login_audit_time_idx").on(t.createdAt),
    index("login_audit_ip_time_idx").on(t.ip, t.createdAt),
  ],
);

/**
 * One row per tenant database, bumped in the same transaction as any change to roles, role
 * permissions or role assignments: nodes cache permission sets and reload them when it moves.
 */
export const authzEpoch = pgTable("authz_epoch", {
  id: integer("id").primaryKey().default(1),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});
