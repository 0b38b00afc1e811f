import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.js";
import { bootstrapIdentity } from "../modules/identity/index.js";
import { type DatabaseHandle, openDatabase } from "../platform/db/client.js";
import { migrateDatabase } from "../platform/db/migrate.js";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.js";
import { openEmbedded } from "./embedded-open.js";

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

export interface OpenMainOptions {
  onPoolError?: (err: Error) => void;
  /** What the operator should know while opening (an embedded directory not closed cleanly). */
  notice?: (line: string) => void;
}

const stderrNotice = (line: string) => process.stderr.write(`${line}\n`);

/**
 * PostgreSQL (DATABASE_URL), or the embedded database in DATA_DIR/db. Embedded: the caller holds
 * the data directory's lock (claimDataDir).
 */
export async function openMainDatabase(config: Config, options: OpenMainOptions = {}) {
  if (config.databaseUrl) return openDatabase({ url: config.databaseUrl, onPoolError: options.onPoolError });
  return openEmbedded(embeddedDbDir(config), { notice: options.notice ?? stderrNotice });
}

/**
 * Whether this process runs PGlite's WebAssembly on V8's baseline code (`runWasmOnBaselineCode`):
 * every process that opens the embedded database — the server, a CLI command, `npm run mcp` — unless
 * PGLITE_WASM_OPTIMIZE is set (ADR 038, ADR 045). A short process pays the optimizing tier-up's
 * compile time and gets little of its speed back.
 */
export function wasmOnBaselineCode(config: Pick<Config, "databaseUrl" | "pgliteWasmOptimize">): boolean {
  return !config.databaseUrl && !config.pgliteWasmOptimize;
}

/** Embedded mode: takes DATA_DIR's lock for this process (throws DataDirBusyError); null with PostgreSQL. */
export function claimDataDir(
  config: Pick<Config, "databaseUrl" | "dataDir">,
  role: string,
): DataDirLock | null {
  return config.databaseUrl ? null : acquireDataDirLock(config.dataDir, role);
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

/** What to tell whoever created the first administrator: its password, once, never through the logger. */
export function adminLines(result: Awaited<ReturnType<typeof prepareDatabase>>): string[] {
  if (!result.admin) return [];
  return [
    "",
    "  First administrator created",
    `    e-mail:   ${result.admin.email}`,
    result.admin.generated
      ? `    password: ${result.admin.password}   (generated; shown only this once)`
      : "    password: the value of ADMIN_PASSWORD",
    "",
  ];
}

export function announceAdmin(result: Awaited<ReturnType<typeof prepareDatabase>>) {
  const lines = adminLines(result);
  if (lines.length) process.stdout.write(`${lines.join("\n")}\n`);
}
