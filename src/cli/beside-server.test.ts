import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cliCommand } from "../../test/helpers/cli-process.js";
import { TEST_ADMIN, TEST_JWT_SECRET } from "../../test/helpers/constants.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../test/helpers/db.js";
import { freePort } from "../../test/helpers/net.js";
import { type DatabaseHandle, openDatabase } from "../platform/db/client.js";
import { queryRows } from "../platform/db/sql.js";
import { LOCK_FILE } from "../runtime/data-dir-lock.js";

/**
 * Issue 15: every CLI command while `npm start` holds the data directory. On PGlite the commands run
 * inside the server (or refuse); on PostgreSQL they open the database themselves. Either way nothing
 * is lost and nothing hangs.
 */
let dataDir: string;
let database: TestDatabase | undefined;
let server: ChildProcess;
let serverLog = "";
let base: string;
let env: Record<string, string>;
/** PostgreSQL: the tenant's database is cuadra_<slug> on the shared test server, so the slug is unique. */
const slug = `ops-${randomBytes(4).toString("hex")}`;

const SQL_OR_STACK = /Failed query|select |insert into|\n\s+at /i;

function cli(
  args: string[],
  timeoutMs = 240_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const command = cliCommand("cli", args);
    const child = spawn(command.command, command.args, { cwd: process.cwd(), env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += String(c);
    });
    child.stderr.on("data", (c) => {
      stderr += String(c);
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`cli ${args.join(" ")} hung; stderr: ${stderr}`));
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function until(check: () => Promise<boolean>, what: string, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen; server log:\n${serverLog}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function api(path: string, bearer: string, init: RequestInit = {}) {
  return fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
  });
}

async function login(email: string, password: string) {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "cuadra-cli-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NODE_ENV: "test",
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    ADMIN_EMAIL: TEST_ADMIN.email,
  };
  if (onPostgres()) {
    database = await createTestDatabase();
    env.DATABASE_URL = database.url!;
    env.JWT_SECRET = TEST_JWT_SECRET;
  } else {
    // The suite's migrated template, so the server starts in seconds.
    const dump = new Blob([readFileSync(inject("pgliteDump"))]);
    await (await openDatabase({ dataDir: join(dataDir, "db"), loadDataDir: dump })).close();
  }
  server = spawn("npm", ["start", "--silent"], { cwd: process.cwd(), env, detached: true });
  server.stdout?.on("data", (c) => {
    serverLog += String(c);
  });
  server.stderr?.on("data", (c) => {
    serverLog += String(c);
  });
  await until(async () => (await fetch(`${base}/api/health`)).ok, "the server start");
}, 180_000);

afterAll(async () => {
  // Already gone when the last test stopped it.
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {}
  }
  if (database) {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(`drop database if exists cuadra_${slug.replace(/-/g, "_")} with (force)`);
    await admin.end();
  }
  await database?.destroy();
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
});

describe("every CLI command while the server holds the data directory", () => {
  let token: string;

  it("api-token create: the token works on the running server at once", async () => {
    const result = await cli(["api-token", "create", "--name", "beside", "--scope", "api_access"]);
    expect(result.code, result.stderr).toBe(0);
    token = result.stdout.trim();
    expect(token).toMatch(/^cdr_/);
    expect((await api("/api/companies", token)).status).toBe(200);
  }, 300_000);

  it("api-token create --company not-a-uuid: a plain message, no SQL, no stack", async () => {
    const result = await cli([
      "api-token",
      "create",
      "--name",
      "x",
      "--scope",
      "mcp",
      "--company",
      "not-a-uuid",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--company must be an id/);
    expect(result.stderr).not.toMatch(SQL_OR_STACK);
    const unknown = await cli([
      "api-token",
      "create",
      "--name",
      "x",
      "--scope",
      "mcp",
      "--company",
      "0190a5c2-7b1e-7c3d-9f00-1234567890ab",
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Company not found/);
    expect(unknown.stderr).not.toMatch(SQL_OR_STACK);
  }, 300_000);

  it("admin create and user reset-password: the server accepts the new password", async () => {
    const created = await cli(["admin", "create", "--email", "ops@example.com"]);
    expect(created.code, created.stderr).toBe(0);
    const password = /password: (\S+)/.exec(created.stdout)?.[1];
    expect(password).toBeTruthy();
    expect(await login("ops@example.com", password!)).toBe(200);
    const reset = await cli([
      "user",
      "reset-password",
      "--email",
      "ops@example.com",
      "--password",
      "a-new-password-9",
    ]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(await login("ops@example.com", "a-new-password-9")).toBe(200);
    expect(await login("ops@example.com", password!)).toBe(401);
    const missing = await cli(["user", "reset-password", "--email", "nobody@example.com"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No user nobody@example.com/);
  }, 300_000);

  it("demo: shows progress, and the running server sees the company and its ledger", async () => {
    const result = await cli(["demo"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/demo: ledger \(3\/8\)/);
    expect(result.stdout).toMatch(/ledger demo: 500 entries created/);
    const companyId = /company ([0-9a-f-]{36})/.exec(result.stdout)![1];
    const company = await api(`/api/companies/${companyId}`, token);
    expect(company.status).toBe(200);
  }, 600_000);

  it("tenant create, list, suspend, activate (warning that BASE_DOMAIN is not set)", async () => {
    const acme = slug;
    const created = await cli(["tenant", "create", acme]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(/BASE_DOMAIN is not set/);
    expect(created.stdout).toMatch(/password: \S+/);
    expect((await cli(["tenant", "suspend", acme])).stdout).toContain(`${acme} suspended`);
    expect((await cli(["tenant", "list"])).stdout).toContain(`${acme}\tsuspended`);
    expect((await cli(["tenant", "activate", acme])).stdout).toContain(`${acme} active`);
    const unknown = await cli(["tenant", "suspend", "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Unknown tenant nope/);
  }, 600_000);

  it("migrate: refused beside the embedded server, naming its pid and port; runs on PostgreSQL", async () => {
    const result = await cli(["migrate"], 240_000);
    if (onPostgres()) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/migrations applied/);
      return;
    }
    expect(result.code).toBe(1);
    const lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), "utf8"));
    expect(result.stderr).toContain(`pid ${lock.pid}, port ${new URL(base).port}`);
    expect(result.stderr).toMatch(/stop it/);
  }, 300_000);

  it.skipIf(onPostgres())(
    "a second npm start on the same directory refuses, naming the first",
    async () => {
      const second = spawn("npm", ["start", "--silent"], { cwd: process.cwd(), env: { ...env, PORT: "0" } });
      let stderr = "";
      second.stderr.on("data", (c) => {
        stderr += String(c);
      });
      const code = await new Promise<number | null>((resolve) => second.on("close", resolve));
      expect(code).toBe(1);
      const lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), "utf8"));
      expect(stderr).toContain(`in use by server (pid ${lock.pid}, listening on port ${new URL(base).port}`);
      expect((await fetch(`${base}/api/health`)).ok).toBe(true);
    },
    300_000,
  );

  it("backup: a consistent copy through the server (PGlite); restore refuses beside it", async () => {
    const file = join(dataDir, "online.tgz");
    const backup = await cli(["backup", "--out", file]);
    if (onPostgres()) {
      expect(backup.code).toBe(1);
      expect(backup.stderr).toMatch(/pg_dump/);
      return;
    }
    expect(backup.code, backup.stderr).toBe(0);
    expect(readFileSync(file).length).toBeGreaterThan(1_000_000);
    const restore = await cli(["restore", "--from", file]);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/restore cannot run beside it/);
  }, 600_000);

  it("after the server stops, nothing was lost and the lock is gone", async () => {
    process.kill(-server.pid!, "SIGTERM");
    await until(async () => {
      await fetch(`${base}/api/health`).then(
        () => Promise.reject(new Error("still up")),
        () => undefined,
      );
      return !existsSync(join(dataDir, LOCK_FILE)) && !existsSync(join(dataDir, "server.json"));
    }, "a clean shutdown");
    const handle: DatabaseHandle = onPostgres()
      ? await openDatabase({ url: database!.url! })
      : await openDatabase({ dataDir: join(dataDir, "db") });
    try {
      const count = async (query: ReturnType<typeof sql>) =>
        Number((await queryRows<{ n: string }>(handle.db, query))[0].n);
      expect(await count(sql`select count(*) as n from entries`)).toBeGreaterThanOrEqual(500);
      expect(await count(sql`select count(*) as n from companies where tax_id = 'B12345674'`)).toBe(1);
      expect(await count(sql`select count(*) as n from api_tokens where name = 'beside'`)).toBe(1);
      expect(
        await count(sql`select count(*) as n from tenants where slug = ${slug} and status = 'active'`),
      ).toBe(1);
    } finally {
      await handle.close();
    }
  }, 120_000);
});
