import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  acquireDataDirLock,
  DataDirBusyError,
  LOCK_FILE,
  type LockHolder,
  readDataDirLock,
} from "./data-dir-lock.js";

const dirs: string[] = [];
const children: ChildProcess[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "cuadra-lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function procStart(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

function holder(pid: number, extra: Partial<LockHolder> = {}): LockHolder {
  return {
    pid,
    role: "server",
    port: 8123,
    url: "http://localhost:8123",
    startedAt: "2026-11-24T02:00:00.000Z",
    hostname: hostname(),
    processStart: "processStart" in extra ? null : procStart(pid),
    ...extra,
  };
}

/** Another live process (the lock of our own pid would count as stale: a reused pid). */
function liveProcess() {
  const child = spawn("sleep", ["60"]);
  children.push(child);
  return child.pid!;
}

async function deadPid() {
  const child = spawn("true");
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid!;
}

describe("the data directory lock", () => {
  it("is a file with the holder's pid, role and start time; setListening adds the port; release removes it", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, "server");
    const file = join(dir, LOCK_FILE);
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect(written).toMatchObject({ pid: process.pid, role: "server", port: null, hostname: hostname() });
    expect(Date.parse(written.startedAt)).toBeGreaterThan(Date.now() - 60_000);
    lock.setListening(8123, "http://localhost:8123");
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      port: 8123,
      url: "http://localhost:8123",
    });
    lock.release();
    expect(existsSync(file)).toBe(false);
  });

  it("refuses while a live process holds it, naming the pid and port", () => {
    const dir = tempDir();
    const pid = liveProcess();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder(pid)));
    let error: unknown;
    try {
      acquireDataDirLock(dir, "cli demo");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirBusyError);
    expect((error as Error).message).toContain(`server (pid ${pid}, listening on port 8123`);
    expect(readDataDirLock(dir)?.pid).toBe(pid);
    // The holder's file is untouched.
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(pid);
  });

  it("recovers the lock of a dead process and reports it", async () => {
    const dir = tempDir();
    const pid = await deadPid();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder(pid, { processStart: null })));
    expect(readDataDirLock(dir)).toBeNull();
    const lock = acquireDataDirLock(dir, "cli demo");
    expect(lock.recovered?.pid).toBe(pid);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("takes a reused pid (another start time, or our own pid) for a dead holder", () => {
    const dir = tempDir();
    const pid = liveProcess();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder(pid, { processStart: "1" })));
    const lock = acquireDataDirLock(dir, "server");
    expect(lock.recovered?.pid).toBe(pid);
    lock.release();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder(process.pid)));
    const again = acquireDataDirLock(dir, "server");
    expect(again.recovered?.pid).toBe(process.pid);
    again.release();
  });

  it("replaces an unreadable lock file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), "{half a lo");
    const lock = acquireDataDirLock(dir, "server");
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("never removes a lock another process took since (release checks it is ours)", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, "server");
    const pid = liveProcess();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder(pid)));
    lock.release();
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(pid);
  });

  it("admits exactly one of several processes racing for a stale lock", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder(await deadPid(), { processStart: null })));
    const script = `
      import { acquireDataDirLock } from ${JSON.stringify(new URL("./data-dir-lock.ts", import.meta.url).pathname)};
      try { acquireDataDirLock(process.argv[1], "racer"); console.log("won"); setTimeout(() => {}, 3000); }
      catch (err) { console.log(err.constructor.name); }`;
    const racers = Array.from(
      { length: 4 },
      () =>
        new Promise<string>((resolve) => {
          const child = spawn(process.execPath, [
            "--import",
            "tsx",
            "--input-type=module",
            "-e",
            script,
            dir,
          ]);
          children.push(child);
          let out = "";
          child.stdout.on("data", (c) => {
            out += String(c);
            if (out.includes("\n")) resolve(out.trim());
          });
          child.on("exit", () => resolve(out.trim()));
        }),
    );
    const results = await Promise.all(racers);
    expect(results.filter((r) => r === "won")).toHaveLength(1);
    expect(results.filter((r) => r === "DataDirBusyError")).toHaveLength(3);
  }, 60_000);
});
