import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { cliCommand } from "../../test/helpers/cli-process.js";
import { TEST_JWT_SECRET } from "../../test/helpers/constants.js";
import { onPostgres } from "../../test/helpers/db.js";
import { openDatabase } from "../platform/db/client.js";
import { TOOL_LIST_TTL_MS } from "./server.js";
import { type Books, createApiToken, seedBooks, structured } from "./test-support.js";
import { TOOLS } from "./tools/index.js";

/**
 * The same tool calls from the three kinds of client the server answers: a v2 client pinned to
 * 2026-07-28, a v2 client in auto mode (probes with server/discover) and a 1.x client (initialize),
 * over HTTP and over stdio. Each must list every tool and get identical results.
 */
let t: TestApp;
let books: Books;
let base: string;
let token: string;
let dataDir: string;

const info = { name: "era-test", version: "1.0.0" };
type Kind = "pinned" | "auto" | "v1";
const KINDS: Kind[] = ["pinned", "auto", "v1"];

interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

const v2 = (kind: "pinned" | "auto") =>
  new Client(info, {
    versionNegotiation: { mode: kind === "pinned" ? { pin: "2026-07-28" } : "auto" },
  });

async function httpClient(kind: Kind): Promise<{ client: AnyClient; era: string | undefined }> {
  const url = new URL("/api/mcp", base);
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  if (kind === "v1") {
    const client = new ClientV1(info);
    await client.connect(new StreamableHTTPClientTransportV1(url, { requestInit }));
    return { client, era: "legacy" };
  }
  const client = v2(kind);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
  return { client, era: client.getProtocolEra() };
}

async function stdioClient(kind: Kind): Promise<{ client: AnyClient; era: string | undefined }> {
  const params = {
    ...cliCommand("mcp"),
    cwd: process.cwd(),
    env: {
      NODE_ENV: "test",
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: dataDir,
      MCP_AUTH_TOKEN: token,
      ...(onPostgres() ? { DATABASE_URL: t.database.url!, JWT_SECRET: TEST_JWT_SECRET } : {}),
    },
    stderr: "ignore" as const,
  };
  if (kind === "v1") {
    const client = new ClientV1(info);
    await client.connect(new StdioClientTransportV1(params));
    return { client, era: "legacy" };
  }
  const client = v2(kind);
  await client.connect(new StdioClientTransport(params));
  return { client, era: client.getProtocolEra() };
}

/** Every tool listed, and the same answers to the same calls. */
async function exercise(client: AnyClient) {
  const { tools } = await client.listTools();
  const contacts = structured<{ items: { id: string }[]; total: number }>(
    await client.callTool({ name: "list_contacts", arguments: {} }),
  );
  const contact = structured(
    await client.callTool({ name: "get_contact", arguments: { contact_id: books.customer.id } }),
  );
  const balance = structured(
    await client.callTool({
      name: "get_account_balance",
      arguments: { account_code: books.codes.bank, fiscal_year_code: "2026", company_id: books.companyId },
    }),
  );
  const refused = (await client.callTool({ name: "get_contact", arguments: { contact_id: "nope" } })) as {
    isError?: boolean;
  };
  return {
    names: tools.map((tool) => tool.name).sort(),
    contacts,
    contact,
    balance,
    refused: refused.isError,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  books = await seedBooks(t);
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  ({ token } = await createApiToken(t, ["mcp"]));
  dataDir = mkdtempSync(join(tmpdir(), "cuadra-mcp-eras-"));
  if (!onPostgres()) {
    const dump = await (t.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
    const copy = await openDatabase({ dataDir: join(dataDir, "db"), loadDataDir: dump });
    await copy.close();
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const expected = { pinned: "modern", auto: "modern", v1: "legacy" };

describe.each([
  ["HTTP", httpClient],
  ["stdio", stdioClient],
])("protocol eras over %s", (_transport, connect) => {
  const answers = new Map<Kind, Awaited<ReturnType<typeof exercise>>>();

  // One test per client: a stdio client spawns `npm run mcp` (twice when it probes first).
  it.each(KINDS)(
    "the %s client lists every tool and calls them",
    async (kind) => {
      const { client, era } = await connect(kind);
      expect(era).toBe(expected[kind]);
      const answer = await exercise(client);
      await client.close();
      expect(answer.names).toEqual(TOOLS.map((tool) => tool.name).sort());
      expect(answer.contacts.total).toBe(3);
      expect(answer.refused).toBe(true);
      answers.set(kind, answer);
    },
    180_000,
  );

  it("every client got the same answers", () => {
    expect(answers.get("auto")).toEqual(answers.get("pinned"));
    expect(answers.get("v1")).toEqual(answers.get("pinned"));
  });
});

interface Answer {
  jsonrpc: string;
  result: {
    supportedVersions: string[];
    capabilities: { tools?: object };
    ttlMs: number;
    cacheScope: string;
    tools: unknown[];
    structuredContent: { total: number };
  };
  error: { code: number; message: string };
}

/** One 2026-07-28 request by hand: the headers the revision requires, and what the server answers. */
async function modernPost(
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(new URL("/api/mcp", base), {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": info,
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    body: (await res.json()) as Answer,
  };
}

describe("2026-07-28 over HTTP, by hand", () => {
  it("server/discover advertises 2026-07-28, the tools capability and the instructions", async () => {
    const res = await modernPost("server/discover", {});
    expect(res.status).toBe(200);
    expect(res.body.result.supportedVersions).toContain("2026-07-28");
    expect(res.body.result.capabilities.tools).toBeDefined();
    expect(JSON.stringify(res.body.result)).toMatch(/"cuadra"/);
  });

  it("tools/list carries a private cache hint: the list depends on the token", async () => {
    const res = await modernPost("tools/list", {});
    expect(res.body.result.ttlMs).toBe(TOOL_LIST_TTL_MS);
    expect(res.body.result.cacheScope).toBe("private");
    expect(res.body.result.tools).toHaveLength(TOOLS.length);
  });

  it("refuses a tools/call whose Mcp-Name header is missing or disagrees with the body", async () => {
    const params = { name: "list_contacts", arguments: {} };
    const missing = await modernPost("tools/call", params);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/Mcp-Name/);
    const wrong = await modernPost("tools/call", params, { "mcp-name": "list_products" });
    expect(wrong.status).toBe(400);
    const right = await modernPost("tools/call", params, { "mcp-name": "list_contacts" });
    expect(right.status).toBe(200);
    expect(right.body.result.structuredContent.total).toBe(3);
  });

  it("delivers errors in-band: an unknown method is a JSON-RPC error, not a problem+json", async () => {
    const res = await modernPost("tools/nonexistent", {});
    expect(res.type).toMatch(/application\/json/);
    expect(res.body.jsonrpc).toBe("2.0");
    expect(res.body.error.code).toBe(-32601);
  });
});
