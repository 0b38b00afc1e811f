import { fileURLToPath } from "node:url";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import pg from "pg";
import type { DatabaseHandle } from "./client.js";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/** Key of the session advisory lock that serializes migrations across nodes starting together. */
const MIGRATION_LOCK_KEY = 7_351_220_419;

/**
 * Applies pending migrations. On PostgreSQL it holds an advisory lock on a dedicated
 * connection, so several nodes can start at once and only one migrates.
 */
export async function migrateDatabase(handle: DatabaseHandle, url?: string): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate: migratePglite } = await import("drizzle-orm/pglite/migrator");
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  if (!url) throw new Error("migrateDatabase: the PostgreSQL URL is required");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
