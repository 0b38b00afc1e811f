import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.js";
import { bootstrapIdentity } from "../modules/identity/index.js";
import { type DatabaseHandle, openDatabase } from "../platform/db/client.js";
import { migrateDatabase } from "../platform/db/migrate.js";

/** The embedded database lives in DATA_DIR/db. */
export function embeddedDbDir(config: Pick<Config, "dataDir">): string {
  return join(config.dataDir, "db");
}

/** JWT_SECRET, or in embedded mode one generated once and kept in DATA_DIR (mode 0600). */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = join(config.dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export async function openMainDatabase(config: Config, onPoolError?: (err: Error) => void) {
  return openDatabase({ url: config.databaseUrl, dataDir: embeddedDbDir(config), onPoolError });
}

/** Migrations, then every module's idempotent bootstrap. */
export async function prepareDatabase(
  handle: DatabaseHandle,
  url: string | undefined,
  config: Pick<Config, "adminEmail" | "adminPassword">,
) {
  await migrateDatabase(handle, url);
  return bootstrapIdentity(handle.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword });
}

/** The generated admin password goes to the terminal once, never through the logger. */
export function announceAdmin(result: Awaited<ReturnType<typeof prepareDatabase>>) {
  if (!result.admin) return;
  const lines = [
    "",
    "  First administrator created",
    `    e-mail:   ${result.admin.email}`,
    result.admin.generated
      ? `    password: ${result.admin.password}   (generated; shown only this once)`
      : "    password: the value of ADMIN_PASSWORD",
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
