import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { cliCommand } from "../../test/helpers/cli-process.js";
import { TEST_JWT_SECRET } from "../../test/helpers/constants.js";
import { onPostgres } from "../../test/helpers/db.js";
import { buildApp } from "../app/build.js";
import { loadConfig } from "../config.js";
import { openDatabase } from "../platform/db/client.js";
import { singleTenant, type TenantDirectory } from "../platform/db/tenancy.js";
import { LOCAL_SERVER_FILE, publishLocalServer } from "./local-server-file.js";
import {
  type Books,
  createApiToken,
  errorText,
  seedBooks,
  structured,
  withAnyTokenTools,
} from "./test-support.js";
import { TOOLS } from "./tools/index.js";

let t: TestApp;
let books: Books;
const dirs: string[] = [];
/** DATA_DIR of the direct mode: on PGlite it holds a copy of the seeded database. */
let directDir: string;

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "cuadra-mcp-"));
  dirs.push(dir);
  return dir;
};

/** The stdio process reads the test database itself (PGlite: its copy; PostgreSQL: the same database). */
const directEnv = (): Record<string, string> =>
  onPostgres()
    ? { DATA_DIR: directDir, DATABASE_URL: t.database.url!, JWT_SECRET: TEST_JWT_SECRET }
    : { DATA_DIR: directDir };

beforeAll(async () => {
  t = await createTestApp();
  books = await seedBooks(t);
  directDir = tempDir();
  if (!onPostgres()) {
    const dump = await (t.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
    const copy = await openDatabase({ dataDir: join(directDir, "db"), loadDataDir: dump });
    await copy.close();
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `npm run mcp`, spoken to by the SDK's stdio client; every stdout line must be a JSON-RPC message. */
async function stdioClient(env: Record<string, string>, options: { viaNpm?: boolean } = {}) {
  const transport = new StdioClientTransport({
    ...cliCommand("mcp", [], options),
    cwd: process.cwd(),
    env: { NODE_ENV: "test", LOG_LEVEL: "info", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const client = new Client({ name: "stdio-test", version: "1" });
  const errors: unknown[] = [];
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async close() {
      await client.close();
      expect(errors).toEqual([]);
    },
  };
}

/** `npm run mcp` spoken to by an SDK v2 client: pinned to 2026-07-28, or probing (auto). */
async function stdioClientV2(env: Record<string, string>, mode: "auto" | { pin: "2026-07-28" }) {
  const transport = new StdioClientTransportV2({
    ...cliCommand("mcp"),
    cwd: process.cwd(),
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...env,
    },
    stderr: "ignore",
  });
  const client = new ClientV2({ name: "stdio-test-v2", version: "1" }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return client;
}

/** Runs `npm run mcp` expecting it to refuse to start. */
function failingStart(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const { command, args } = cliCommand("mcp");
    const child = spawn(command, args, {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", ...env },
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (c) => {
      stderr += String(c);
    });
    child.stdout.on("data", (c) => {
      stdout += String(c);
    });
    child.on("close", (code) => resolve({ code, stderr, stdout }));
  });
}

describe("stdio, reading the database itself", () => {
  it("without MCP_AUTH_TOKEN: every tool and every company", async () => {
    // Through npm: proves the `mcp` script itself (the other tests spawn what it runs).
    const mcp = await stdioClient(directEnv(), { viaNpm: true });
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toHaveLength(TOOLS.length);
    const contacts = structured<{ total: number }>(
      await mcp.client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(contacts.total).toBe(3);
    const balance = structured(
      await mcp.client.callTool({
        name: "get_account_balance",
        arguments: { account_code: books.codes.bank, fiscal_year_code: "2026", company_id: books.companyId },
      }),
    );
    expect(balance).toMatchObject({ debit: "1210.00", credit: "500.25", balance: "709.75" });
    expect(mcp.stderr()).toMatch(/local, unrestricted/);
    await mcp.close();
  }, 60_000);

  it("with MCP_AUTH_TOKEN: the token's scopes and company apply", async () => {
    const { token } = await createApiToken(t, ["mcp:contacts"], { companyId: books.otherCompanyId });
    if (!onPostgres()) await refreshCopy();
    const mcp = await stdioClient({ ...directEnv(), MCP_AUTH_TOKEN: token });
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      withAnyTokenTools(["get_contact", "list_contacts"]),
    );
    const contacts = structured<{ items: { id: string }[] }>(
      await mcp.client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(contacts.items.map((c) => c.id)).toEqual([books.otherContact.id]);
    expect(errorText(await mcp.client.callTool({ name: "list_products", arguments: {} }))).toMatch(
      /mcp:products/,
    );
    await mcp.close();
  }, 60_000);

  it("refuses to start with an invalid MCP_AUTH_TOKEN, saying why on stderr only", async () => {
    const result = await failingStart({ ...directEnv(), MCP_AUTH_TOKEN: `cdr_${"x".repeat(43)}` });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/MCP_AUTH_TOKEN is not a valid API token/);
    expect(result.stdout).toBe("");
  }, 60_000);

  it("refuses to start on a data directory without a database, and creates none", async () => {
    const empty = tempDir();
    const result = await failingStart({ DATA_DIR: empty });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/has no Cuadra tables yet/);
    expect(existsSync(join(empty, "db"))).toBe(false);
  }, 60_000);

  it("ignores a stale server.json (no server answers there)", async () => {
    const file = join(directDir, LOCAL_SERVER_FILE);
    writeFileSync(
      file,
      JSON.stringify({ pid: process.pid, url: "http://127.0.0.1:9", key: "stale", startedAt: "" }),
    );
    const mcp = await stdioClient(directEnv());
    expect(
      structured<{ total: number }>(await mcp.client.callTool({ name: "list_products", arguments: {} }))
        .total,
    ).toBe(2);
    await mcp.close();
    rmSync(file);
  }, 60_000);
});

/** PGlite: the stdio process reads a copy, so a token created after the copy needs a fresh one. */
async function refreshCopy() {
  rmSync(join(directDir, "db"), { recursive: true, force: true });
  const dump = await (t.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
  const copy = await openDatabase({ dataDir: join(directDir, "db"), loadDataDir: dump });
  await copy.close();
}

describe("stdio next to a running server (PGlite admits one process per data directory)", () => {
  let server: FastifyInstance;
  let tenants: TenantDirectory;
  let published: { remove(): void };
  let serverDir: string;

  beforeAll(async () => {
    serverDir = tempDir();
    const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", JWT_SECRET: TEST_JWT_SECRET });
    tenants = singleTenant(t.database.handle);
    server = await buildApp({ config: { ...config, jwtSecret: TEST_JWT_SECRET }, tenants });
    await server.listen({ port: 0, host: "127.0.0.1" });
    published = publishLocalServer({ dataDir: serverDir }, tenants, server.server.address());
  });
  afterAll(async () => {
    await server?.close();
  });

  it("publishes DATA_DIR/server.json readable by its owner only", () => {
    const file = join(serverDir, LOCAL_SERVER_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("relays to the server: live data, unrestricted without MCP_AUTH_TOKEN", async () => {
    const mcp = await stdioClient({ DATA_DIR: serverDir });
    const created = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/clients",
      payload: { company_id: books.companyId, contact_type: "customer", name: "Recien llegado" },
    });
    expect(created.statusCode).toBe(201);
    const found = structured<{ items: { name: string }[] }>(
      await mcp.client.callTool({ name: "list_contacts", arguments: { search: "Recien" } }),
    );
    expect(found.items.map((c) => c.name)).toEqual(["Recien llegado"]);
    expect((await mcp.client.listTools()).tools).toHaveLength(TOOLS.length);
    expect(mcp.stderr()).toMatch(/relaying to the server/);
    await mcp.close();
  }, 60_000);

  it("relays with MCP_AUTH_TOKEN: its scopes and company apply; a bad token stops the start", async () => {
    const { token } = await createApiToken(t, ["mcp:accounting"], { companyId: books.companyId });
    const mcp = await stdioClient({ DATA_DIR: serverDir, MCP_AUTH_TOKEN: token });
    expect((await mcp.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      withAnyTokenTools(["get_account_balance", "list_accounts", "list_journal_entries"]),
    );
    const entries = structured<{ total: number }>(
      await mcp.client.callTool({ name: "list_journal_entries", arguments: {} }),
    );
    expect(entries.total).toBe(2);
    await mcp.close();
    const refused = await failingStart({ DATA_DIR: serverDir, MCP_AUTH_TOKEN: `cdr_${"y".repeat(43)}` });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/HTTP 401/);
    expect(refused.stdout).toBe("");
  }, 60_000);

  it("relays 2026-07-28 clients too, pinned or probing", async () => {
    const { token } = await createApiToken(t, ["mcp:contacts"], { companyId: books.companyId });
    for (const mode of [{ pin: "2026-07-28" as const }, "auto" as const]) {
      const client = await stdioClientV2({ DATA_DIR: serverDir, MCP_AUTH_TOKEN: token }, mode);
      expect(client.getProtocolEra()).toBe("modern");
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
        withAnyTokenTools(["get_contact", "list_contacts"]),
      );
      const contacts = structured<{ items: { id: string }[] }>(
        await client.callTool({ name: "list_contacts", arguments: {} }),
      );
      expect(contacts.items.length).toBeGreaterThan(0);
      await client.close();
    }
  }, 120_000);

  it("acts as the SSE proxy of a desktop assistant with SSE_URL and MCP_AUTHORIZATION", async () => {
    const address = server.server.address() as { port: number };
    const sseUrl = `http://127.0.0.1:${address.port}/api/mcp/sse`;
    const { token } = await createApiToken(t, ["mcp:contacts"], { companyId: books.companyId });
    const mcp = await stdioClient({
      DATA_DIR: tempDir(),
      SSE_URL: sseUrl,
      MCP_AUTHORIZATION: `Bearer ${token}`,
    });
    expect((await mcp.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      withAnyTokenTools(["get_contact", "list_contacts"]),
    );
    const contacts = structured<{ total: number }>(
      await mcp.client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(contacts.total).toBeGreaterThan(0);
    expect(mcp.stderr()).toMatch(/proxying to/);
    await mcp.close();
    // SSE speaks only the 2025 protocol: a probing v2 client falls back to it through the proxy.
    const v2 = await stdioClientV2(
      { DATA_DIR: tempDir(), SSE_URL: sseUrl, MCP_AUTHORIZATION: `Bearer ${token}` },
      "auto",
    );
    expect(v2.getProtocolEra()).toBe("legacy");
    expect(
      structured<{ total: number }>(await v2.callTool({ name: "list_contacts", arguments: {} })).total,
    ).toBe(contacts.total);
    await v2.close();
    const refused = await failingStart({ DATA_DIR: tempDir(), SSE_URL: sseUrl });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/MCP_AUTHORIZATION/);
  }, 120_000);

  it("accepts the local key only from loopback, unproxied, and only the key it published", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const { key } = JSON.parse(readFileSync(join(serverDir, LOCAL_SERVER_FILE), "utf8")) as { key: string };
    const send = (headers: Record<string, string>, remoteAddress = "127.0.0.1") =>
      server.inject({
        method: "POST",
        url: "/api/mcp/local",
        remoteAddress,
        headers: { accept: "application/json, text/event-stream", ...headers },
        payload: init,
      });
    expect((await send({ authorization: `Bearer ${key}` })).statusCode).toBe(200);
    expect((await send({})).statusCode).toBe(401);
    expect((await send({ authorization: "Bearer wrong" })).statusCode).toBe(401);
    expect((await send({ authorization: `Bearer ${key}` }, "10.0.0.7")).statusCode).toBe(403);
    expect(
      (await send({ authorization: `Bearer ${key}`, "x-forwarded-for": "203.0.113.9" })).statusCode,
    ).toBe(403);
    const otherApp = await t.app.inject({
      method: "POST",
      url: "/api/mcp/local",
      headers: { accept: "application/json, text/event-stream", authorization: `Bearer ${key}` },
      payload: init,
    });
    expect(otherApp.statusCode).toBe(401);
  });

  it("removes server.json at shutdown", () => {
    published.remove();
    expect(existsSync(join(serverDir, LOCAL_SERVER_FILE))).toBe(false);
  });
});
