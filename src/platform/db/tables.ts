import { pgTable, text } from "drizzle-orm/pg-core";
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
