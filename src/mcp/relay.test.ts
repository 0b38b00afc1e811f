import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { TEST_JWT_SECRET } from "../../test/helpers/constants.js";
import { buildApp } from "../app/build.js";
import { loadConfig } from "../config.js";
import { singleTenant } from "../platform/db/tenancy.js";
import { sessionKey } from "./relay.js";
import { type Books, createApiToken, openRawStream, seedBooks, structured } from "./test-support.js";

const REDIS_URL = "redis://127.0.0.1:6379";

let t: TestApp;
let nodeB: FastifyInstance;
let baseA: string;
let baseB: string;
let books: Books;
let token: { id: string; token: string };
let redis: Redis;

/** A second server node on the same database and Redis. */
async function secondNode(t: TestApp) {
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    JWT_SECRET: TEST_JWT_SECRET,
    REDIS_URL,
  });
  const app = await buildApp({
    config: { ...config, jwtSecret: TEST_JWT_SECRET },
    tenants: singleTenant(t.database.handle),
  });
  return app;
}

beforeAll(async () => {
  t = await createTestApp({ REDIS_URL });
  books = await seedBooks(t);
  nodeB = await secondNode(t);
  baseA = await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseB = await nodeB.listen({ port: 0, host: "127.0.0.1" });
  token = await createApiToken(t, ["mcp"]);
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await redis?.quit();
  await nodeB?.close();
  await t?.close();
});

const post = (base: string, endpoint: string, bearer: string, body: unknown) =>
  fetch(new URL(endpoint, base), {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean) {
  let value = await probe();
  for (let i = 0; i < 100 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await probe();
  }
  return value;
}

describe("Redis relay between server nodes", () => {
  it("delivers a message posted to node B on the stream held by node A", async () => {
    const stream = await openRawStream(baseA, token.token);
    const id = new URL(stream.endpoint, baseA).searchParams.get("sessionId")!;
    const owner = JSON.parse((await redis.get(sessionKey(id)))!);
    expect(owner).toMatchObject({ tokenId: token.id, tenant: "default" });
    const ttl = await redis.ttl(sessionKey(id));
    expect(ttl).toBeGreaterThan(30);
    expect(ttl).toBeLessThanOrEqual(45);

    expect((await post(baseB, stream.endpoint, token.token, INIT)).status).toBe(202);
    expect((await stream.nextMessage()).id).toBe(1);
    const call = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "list_contacts", arguments: {} },
    };
    expect((await post(baseB, stream.endpoint, token.token, call)).status).toBe(202);
    const answer = await stream.nextMessage();
    expect(answer.id).toBe(2);
    expect((answer.result as { structuredContent: { total: number } }).structuredContent.total).toBe(3);
    stream.close();
    expect(
      await until(
        () => redis.exists(sessionKey(id)),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(
      await until(
        async () => (await post(baseB, stream.endpoint, token.token, INIT)).status,
        (s) => s === 404,
      ),
    ).toBe(404);
  });

  it("checks the session's token before relaying: another token 403, an unknown session 404", async () => {
    const stream = await openRawStream(baseA, token.token);
    const other = await createApiToken(t, ["mcp"]);
    const refused = await post(baseB, stream.endpoint, other.token, INIT);
    expect(refused.status).toBe(403);
    const unknown = await post(
      baseB,
      "/api/mcp/messages/?sessionId=00000000-0000-4000-8000-000000000000",
      token.token,
      INIT,
    );
    expect(unknown.status).toBe(404);
    stream.close();
  });

  it("serves the SDK client with its stream on node A and its messages sent to node B", async () => {
    const client = new Client({ name: "two-nodes", version: "1" });
    const transport = new SSEClientTransport(new URL("/api/mcp/sse", baseA), {
      requestInit: { headers: { authorization: `Bearer ${token.token}` } },
      eventSourceInit: { fetch },
      fetch: (url, init) => fetch(String(url).replace(baseA, baseB), init),
    });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(12);
    const contact = structured(
      await client.callTool({ name: "get_contact", arguments: { contact_id: books.customer.id } }),
    );
    expect(contact).toMatchObject({ name: "Construcciones Norte" });
    await client.close();
  });

  it("answers 503 when Redis is unreachable, while streams held locally keep working", async () => {
    const config = loadConfig({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      JWT_SECRET: TEST_JWT_SECRET,
      REDIS_URL: "redis://127.0.0.1:1",
    });
    const nodeD = await buildApp({
      config: { ...config, jwtSecret: TEST_JWT_SECRET },
      tenants: singleTenant(t.database.handle),
    });
    const baseD = await nodeD.listen({ port: 0, host: "127.0.0.1" });
    const stream = await openRawStream(baseD, token.token);
    expect((await post(baseD, stream.endpoint, token.token, INIT)).status).toBe(202);
    expect((await stream.nextMessage()).id).toBe(1);
    const elsewhere = await post(
      baseD,
      "/api/mcp/messages/?sessionId=00000000-0000-4000-8000-000000000000",
      token.token,
      INIT,
    );
    expect(elsewhere.status).toBe(503);
    stream.close();
    await nodeD.close();
  });

  it("closes open streams and releases their sessions when a node shuts down", async () => {
    const nodeC = await secondNode(t);
    const baseC = await nodeC.listen({ port: 0, host: "127.0.0.1" });
    const stream = await openRawStream(baseC, token.token);
    const id = new URL(stream.endpoint, baseC).searchParams.get("sessionId")!;
    expect(await redis.exists(sessionKey(id))).toBe(1);
    await nodeC.close();
    expect(await redis.exists(sessionKey(id))).toBe(0);
    await expect(stream.waitFor(/never/, 2000)).rejects.toThrow(/ended/);
  });
});
