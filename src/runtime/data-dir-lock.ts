import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * PGlite admits one process per data directory: a second one corrupts it. Whoever opens the
 * embedded database (the server, a CLI command, `npm run mcp`) first takes DATA_DIR/cuadra.lock.
 */
export const LOCK_FILE = "cuadra.lock";

export interface LockHolder {
  pid: number;
  /** "server", "cli demo", "mcp"... */
  role: string;
  /** Set once a server listens. */
  port: number | null;
  url: string | null;
  startedAt: string;
  hostname: string;
  /** Linux: the process start time (/proc/<pid>/stat field 22), so a reused pid is not taken for the holder. */
  processStart: string | null;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`The data directory ${dataDir} is in use by ${describeHolder(holder)}`);
  }
}

export function describeHolder(holder: LockHolder): string {
  const where = holder.port ? `, listening on port ${holder.port}` : "";
  return `${holder.role} (pid ${holder.pid}${where}, started ${holder.startedAt})`;
}

export interface DataDirLock {
  holder: LockHolder;
  /** The previous holder ended without releasing the lock (crash, kill -9, power loss). */
  recovered: LockHolder | null;
  /** A server records where it listens once it does. */
  setListening(port: number, url: string): void;
  release(): void;
}

function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the holder still runs. A lock from another machine (shared disk) counts as alive. */
export function holderAlive(holder: LockHolder): boolean {
  if (holder.hostname !== hostname()) return true;
  // Our own pid in a lock we do not hold: a restarted container reusing the crashed process's pid.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const start = processStart(holder.pid);
  return !(holder.processStart && start && start !== holder.processStart);
}

function parseHolder(text: string): LockHolder | null {
  try {
    const holder = JSON.parse(text) as LockHolder;
    return Number.isInteger(holder.pid) && typeof holder.role === "string" ? holder : null;
  } catch {
    return null;
  }
}

function readRaw(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** The lock's holder when one holds it and runs; null when the directory is free (or the lock stale). */
export function readDataDirLock(dataDir: string): LockHolder | null {
  const raw = readRaw(join(dataDir, LOCK_FILE));
  const holder = raw === null ? null : parseHolder(raw);
  return holder && holderAlive(holder) ? holder : null;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Removes a stale lock under a mkdir guard: only the guard's owner unlinks, and only the exact
 * content it judged stale, so a lock a live process has just taken is never removed.
 */
function removeStale(file: string, staleText: string) {
  const guard = `${file}.recovering`;
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      mkdirSync(guard);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      // Its owner died while recovering: the guard is old.
      try {
        if (Date.now() - statSync(guard).mtimeMs > 10_000) rmdirSync(guard);
      } catch {}
      pause(25);
      continue;
    }
    try {
      if (readRaw(file) === staleText) unlinkSync(file);
    } finally {
      rmdirSync(guard);
    }
    return;
  }
}

function writeAtomically(file: string, text: string) {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}

/**
 * Takes the data directory's lock or throws DataDirBusyError naming the live holder. Atomic: the
 * complete lock file is hard-linked into place (link fails when the name exists), so two processes
 * can never both believe they hold it, and no reader ever sees a half-written lock.
 */
export function acquireDataDirLock(dataDir: string, role: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  const holder: LockHolder = {
    pid: process.pid,
    role,
    port: null,
    url: null,
    startedAt: new Date().toISOString(),
    hostname: hostname(),
    processStart: processStart(process.pid),
  };
  let recovered: LockHolder | null = null;
  for (let attempt = 0; ; attempt++) {
    const temp = `${file}.${process.pid}.new`;
    writeFileSync(temp, `${JSON.stringify(holder, null, 2)}\n`, { mode: 0o600 });
    try {
      linkSync(temp, file);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    } finally {
      unlinkSync(temp);
    }
    const raw = readRaw(file);
    if (raw === null) continue;
    const current = parseHolder(raw);
    if (current && holderAlive(current)) throw new DataDirBusyError(dataDir, current);
    if (attempt > 20) throw new Error(`Could not take the lock ${file}: it keeps changing`);
    recovered = current ?? recovered;
    removeStale(file, raw);
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    const now = parseHolder(readRaw(file) ?? "");
    if (now?.pid === holder.pid && now.startedAt === holder.startedAt) unlinkSync(file);
  };
  // process.exit() anywhere (a CLI error, the shutdown timer) still frees the directory.
  process.on("exit", release);
  return {
    holder,
    recovered,
    setListening(port, url) {
      holder.port = port;
      holder.url = url;
      if (!released) writeAtomically(file, `${JSON.stringify(holder, null, 2)}\n`);
    },
    release,
  };
}
