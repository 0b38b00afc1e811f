import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { type DatabaseHandle, openDatabase } from "../platform/db/client.js";
import { currentTemplate, isEmptyDir } from "../platform/db/template.js";

/** pg_control's DBState (src/include/catalog/pg_control.h): 1 is "shut down". */
const DB_SHUTDOWNED = 1;
const STATE_OFFSET = 16;

/** Whether the database in `dir` was closed cleanly; null when there is no database there yet. */
export function closedCleanly(dir: string): boolean | null {
  let control: Buffer;
  try {
    control = readFileSync(join(dir, "global", "pg_control"));
  } catch {
    return null;
  }
  // PGlite writes it from WebAssembly, which is little-endian on every host.
  return control.length > STATE_OFFSET + 4 && control.readInt32LE(STATE_OFFSET) === DB_SHUTDOWNED;
}

export class DamagedDatabaseError extends Error {
  constructor(dir: string, reason: string) {
    super(
      `Cuadra could not open the embedded database in ${dir}: ${reason}.\n` +
        "It is damaged (two processes used it at once before the data-directory lock existed, or the disk failed).\n" +
        `Recovery: keep Cuadra stopped, move the directory aside (mv ${dir} ${dir}.damaged) and restore it from\n` +
        "your last backup (docs/operations.md, Backup and restore). Without a backup, the next start creates an\n" +
        "empty database there.",
    );
  }
}

/**
 * PGlite runs Postgres synchronously in WebAssembly: a damaged directory can spin the thread forever,
 * where no timer of ours would fire. A worker thread keeps time and ends the process with the recovery
 * step instead of letting it hang.
 */
function startWatchdog(ms: number, message: string): { stop(): void } {
  const worker = new Worker(
    `const { workerData } = require("node:worker_threads");
     setTimeout(() => {
       require("node:fs").writeSync(2, workerData.message + "\\n");
       process.kill(workerData.pid, "SIGKILL");
     }, workerData.ms);`,
    { eval: true, workerData: { ms, message, pid: process.pid } },
  );
  worker.unref();
  return { stop: () => void worker.terminate() };
}

export interface EmbeddedOpenOptions {
  /** Lines for the operator (stderr or the start log). */
  notice(line: string): void;
  /** How long opening may take before it counts as hung (default 5 minutes: replaying a long journal). */
  timeoutMs?: number;
  /** Where the migrated template of a new database is (default TEMPLATE_DIR; tests point elsewhere). */
  templateDir?: string;
}

/** Opens a PGlite directory, saying so when its last user did not close it and never hanging. */
export async function openEmbedded(dir: string, options: EmbeddedOpenOptions): Promise<DatabaseHandle> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  if (closedCleanly(dir) === false) {
    options.notice(
      `${dir} was not closed cleanly (the process using it crashed or was killed): replaying its journal before opening`,
    );
  }
  const hung = new DamagedDatabaseError(
    dir,
    `opening it did not finish in ${Math.round(timeoutMs / 1000)} s`,
  );
  const watchdog = startWatchdog(timeoutMs, hung.message);
  try {
    // A new database starts from the migrated template when `npm run build:server` made one for
    // these migrations (src/platform/db/template.ts): no initdb, no migrations to replay.
    const template = isEmptyDir(dir) ? currentTemplate(options.templateDir) : null;
    const handle = await openDatabase({ dataDir: dir, loadDataDir: template ?? undefined });
    await handle.ping();
    return handle;
  } catch (err) {
    throw new DamagedDatabaseError(dir, err instanceof Error ? err.message : String(err));
  } finally {
    watchdog.stop();
  }
}
