import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { cliCommand } from "../../test/helpers/cli-process.js";
import { TEST_ADMIN, TEST_JWT_SECRET } from "../../test/helpers/constants.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../test/helpers/db.js";
import { openDatabase } from "../platform/db/client.js";
import { queryRows } from "../platform/db/sql.js";

const dirs: string[] = [];
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.destroy();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

function cli(env: Record<string, string>, args: string[], options: { viaNpm?: boolean } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const command = cliCommand("cli", args, options);
    const child = spawn(command.command, command.args, {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += String(c);
    });
    child.stderr.on("data", (c) => {
      stderr += String(c);
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("backup and restore of the embedded database", () => {
  it.skipIf(!onPostgres())(
    "PostgreSQL: both point at pg_dump / pg_restore",
    async () => {
      database = await createTestDatabase();
      const env = {
        DATABASE_URL: database.url!,
        JWT_SECRET: TEST_JWT_SECRET,
        DATA_DIR: mkdtempSync(join(tmpdir(), "c-")),
      };
      dirs.push(env.DATA_DIR);
      const backup = await cli(env, ["backup", "--out", join(env.DATA_DIR, "x.tgz")]);
      expect(backup.code).toBe(1);
      expect(backup.stderr).toMatch(/back it up with pg_dump/);
      writeFileSync(join(env.DATA_DIR, "y.tgz"), "");
      const restore = await cli(env, ["restore", "--from", join(env.DATA_DIR, "y.tgz")]);
      expect(restore.code).toBe(1);
      expect(restore.stderr).toMatch(/restore with pg_restore/);
    },
    120_000,
  );

  it.skipIf(onPostgres())(
    "a backup restores the database as it was; a bad file changes nothing",
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "cuadra-backup-"));
      dirs.push(dataDir);
      const dump = new Blob([readFileSync(inject("pgliteDump"))]);
      await (await openDatabase({ dataDir: join(dataDir, "db"), loadDataDir: dump })).close();
      const env = { DATA_DIR: dataDir, ADMIN_EMAIL: TEST_ADMIN.email };
      const file = join(dataDir, "backup.tgz");

      // Through npm: proves the `cli` script itself (the other tests spawn what it runs).
      const backup = await cli(env, ["backup", "--out", file], { viaNpm: true });
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`backup written to ${file}`);
      expect((await cli(env, ["backup", "--out", file])).stderr).toMatch(/exists: choose a new file name/);

      expect((await cli(env, ["admin", "create", "--email", "later@example.com"])).code).toBe(0);
      const bad = join(dataDir, "bad.tgz");
      writeFileSync(bad, "not a backup");
      const refused = await cli(env, ["restore", "--from", bad]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/is not a backup this version can read/);

      const restored = await cli(env, ["restore", "--from", file]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(readdirSync(dataDir).some((name) => name.startsWith("db.before-restore-"))).toBe(true);
      const handle = await openDatabase({ dataDir: join(dataDir, "db") });
      try {
        const users = await queryRows<{ email: string }>(
          handle.db,
          sql`select email from users order by email`,
        );
        expect(users.map((u) => u.email)).toContain(TEST_ADMIN.email);
        expect(users.map((u) => u.email)).not.toContain("later@example.com");
      } finally {
        await handle.close();
      }
      expect(existsSync(join(dataDir, "cuadra.lock"))).toBe(false);
    },
    900_000,
  );
});
