import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliCommand } from "../../test/helpers/cli-process.js";
import { TEST_ADMIN, TEST_JWT_SECRET } from "../../test/helpers/constants.js";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/db.js";
import { buildApp } from "../app/build.js";
import { loadConfig } from "../config.js";
import { multiTenant } from "../platform/db/multi-tenant.js";
import { tenants as tenantTable } from "../platform/db/tables.js";
import { publishLocalServer } from "./local-server-file.js";
import { hostFetch } from "./stdio-relay.js";
import { openRawStream, structured } from "./test-support.js";

const BASE_DOMAIN = "cuadra.test";
const SLUGS = ["acme", "globex"] as const;
const host = (slug: string) => `${slug}.${BASE_DOMAIN}`;

let control: TestDatabase;
const databases = new Map<string, TestDatabase>();
let app: FastifyInstance;
let base: string;
let dataDir: string;
let published: { remove(): void };
const tokens = new Map<string, string>();

beforeAll(async () => {
  control = await createTestDatabase();
  for (const slug of SLUGS) {
    databases.set(slug, await createTestDatabase());
    await control.handle.db.insert(tenantTable).values({ slug });
  }
  const directory = multiTenant({
    main: control.handle,
    baseDomain: BASE_DOMAIN,
    registryTtlMs: 0,
    open: async (record) => ({ ...databases.get(record.slug)!.handle, close: async () => undefined }),
  });
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    JWT_SECRET: TEST_JWT_SECRET,
    BASE_DOMAIN,
  });
  app = await buildApp({ config: { ...config, jwtSecret: TEST_JWT_SECRET }, tenants: directory });
  base = await app.listen({ port: 0, host: "127.0.0.1" });
  dataDir = mkdtempSync(join(tmpdir(), "cuadra-mcp-tenants-"));
  published = publishLocalServer({ dataDir }, directory, app.server.address());
  for (const slug of SLUGS) {
    const headers = { host: host(slug) };
    const login = await app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      headers,
      payload: TEST_ADMIN,
    });
    const jwt = login.json().access_token as string;
    const auth = { ...headers, authorization: `Bearer ${jwt}` };
    const company = await app.inject({
      method: "POST",
      url: "/api/companies",
      headers: auth,
      payload: { name: `${slug} SL`, tax_id: slug === "acme" ? "B12345674" : "A58818501" },
    });
    await app.inject({
      method: "POST",
      url: "/api/clients",
      headers: auth,
      payload: { company_id: company.json().id, contact_type: "customer", name: `Cliente de ${slug}` },
    });
    const token = await app.inject({
      method: "POST",
      url: "/api/api-tokens",
      headers: auth,
      payload: { name: "mcp", scopes: ["mcp"] },
    });
    tokens.set(slug, token.json().token);
  }
});
afterAll(async () => {
  published?.remove();
  await app?.close();
  for (const db of databases.values()) await db.destroy();
  await control?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function clientFor(slug: string, token: string) {
  const client = new Client({ name: "tenants", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/api/mcp", base), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: hostFetch(host(slug)),
    }),
  );
  return client;
}

describe("MCP with BASE_DOMAIN: the Host names the tenant", () => {
  it("each tenant's token reads its own books and is unknown on another tenant", async () => {
    for (const slug of SLUGS) {
      const client = await clientFor(slug, tokens.get(slug)!);
      const page = structured<{ items: { name: string }[] }>(
        await client.callTool({ name: "list_contacts", arguments: {} }),
      );
      expect(page.items.map((c) => c.name)).toEqual([`Cliente de ${slug}`]);
      await client.close();
    }
    await expect(clientFor("globex", tokens.get("acme")!)).rejects.toThrow(/401/);
  });

  it("each tenant's resource metadata and 401 challenge name its own host", async () => {
    for (const slug of SLUGS) {
      const own = `http://${host(slug)}:8000`;
      const metadata = await app.inject({
        method: "GET",
        url: "/.well-known/oauth-protected-resource/api/mcp",
        headers: { host: host(slug) },
      });
      expect(metadata.json()).toMatchObject({ resource: `${own}/api/mcp`, authorization_servers: [own] });
      const refused = await app.inject({ method: "POST", url: "/api/mcp", headers: { host: host(slug) } });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers["www-authenticate"]).toContain(
        `resource_metadata="${own}/.well-known/oauth-protected-resource/api/mcp"`,
      );
    }
    const unknown = await app.inject({
      method: "GET",
      url: "/.well-known/oauth-protected-resource",
      headers: { host: host("initech") },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("a session opened on one tenant does not exist on another", async () => {
    const stream = await openRawStream(base, tokens.get("acme")!, {}, hostFetch(host("acme")));
    const init = { jsonrpc: "2.0", id: 1, method: "ping" };
    const post = (slug: string) =>
      hostFetch(host(slug))(new URL(stream.endpoint, base), {
        method: "POST",
        headers: { authorization: `Bearer ${tokens.get(slug)}`, "content-type": "application/json" },
        body: JSON.stringify(init),
      });
    expect((await post("globex")).status).toBe(404);
    expect((await post("acme")).status).toBe(202);
    expect((await stream.nextMessage()).id).toBe(1);
    stream.close();
  });

  it("npm run mcp with MCP_TENANT relays to the running server for that tenant", async () => {
    const transport = new StdioClientTransport({
      ...cliCommand("mcp"),
      cwd: process.cwd(),
      env: { NODE_ENV: "test", DATA_DIR: dataDir, BASE_DOMAIN, MCP_TENANT: "globex" },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-tenant", version: "1" });
    await client.connect(transport);
    const page = structured<{ items: { name: string }[] }>(
      await client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(page.items.map((c) => c.name)).toEqual(["Cliente de globex"]);
    await client.close();
  }, 60_000);
});
