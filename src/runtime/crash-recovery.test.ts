import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { cliCommand } from "../../test/helpers/cli-process.js";
import { TEST_ADMIN } from "../../test/helpers/constants.js";
import { onPostgres } from "../../test/helpers/db.js";
import { openDatabase } from "../platform/db/client.js";
import { queryRows } from "../platform/db/sql.js";
import { LOCK_FILE } from "./data-dir-lock.js";
import { closedCleanly } from "./embedded-open.js";

/**
 * A process killed (SIGKILL) while writing the embedded database: the next process reports it,
 * recovers the lock, replays the journal and finds every committed transaction whole. PostgreSQL
 * recovers its own crashes; the lock and this check are the embedded mode's.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function cli(dataDir: string, args: string[]) {
  const command = cliCommand("cli", args);
  return spawn(command.command, command.args, {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      ADMIN_EMAIL: TEST_ADMIN.email,
    },
    detached: true,
  });
}

function finished(child: ReturnType<typeof cli>) {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (c) => {
    stdout += String(c);
  });
  child.stderr?.on("data", (c) => {
    stderr += String(c);
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

describe.skipIf(onPostgres())("a crash while writing the embedded database", () => {
  it("is reported at the next start, which recovers and finds whole transactions", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cuadra-crash-"));
    dirs.push(dataDir);
    const dump = new Blob([readFileSync(inject("pgliteDump"))]);
    await (await openDatabase({ dataDir: join(dataDir, "db"), loadDataDir: dump })).close();
    expect(closedCleanly(join(dataDir, "db"))).toBe(true);

    // The demo writes for many seconds: kill it in the middle of the ledger.
    const demo = cli(dataDir, ["demo"]);
    const killed = new Promise<void>((resolve) => {
      demo.stderr?.on("data", (chunk) => {
        if (String(chunk).includes("demo: ledger")) {
          setTimeout(() => {
            process.kill(-demo.pid!, "SIGKILL");
            resolve();
          }, 1500);
        }
      });
    });
    await killed;
    await new Promise((resolve) => demo.on("close", resolve));
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);
    expect(closedCleanly(join(dataDir, "db"))).toBe(false);

    const next = await finished(cli(dataDir, ["admin", "create", "--email", "after-crash@example.com"]));
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/cli demo \(pid \d+.*ended without closing it/);
    expect(next.stderr).toMatch(/was not closed cleanly .* replaying its journal/);
    expect(next.stdout).toMatch(/administrator after-crash@example.com created/);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    expect(closedCleanly(join(dataDir, "db"))).toBe(true);

    // The enterprise demo is one transaction: whole or absent, never half.
    const handle = await openDatabase({ dataDir: join(dataDir, "db") });
    try {
      const [counts] = await queryRows<{ companies: string; products: string; contacts: string }>(
        handle.db,
        sql`select (select count(*) from companies where tax_id = 'B12345674') as companies,
                   (select count(*) from products) as products,
                   (select count(*) from contacts) as contacts`,
      );
      expect([
        ["0", "0", "0"],
        ["1", "100", "50"],
      ]).toContainEqual([counts.companies, counts.products, counts.contacts].map(String));
    } finally {
      await handle.close();
    }
  }, 600_000);
});
