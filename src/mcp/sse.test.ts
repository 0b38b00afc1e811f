import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import * as identity from "../modules/identity/index.js";
import { MAX_SESSIONS_PER_TOKEN } from "./sse.js";
import {
  type Books,
  createApiToken,
  errorText,
  openRawStream,
  seedBooks,
  sseClient,
  structured,
} from "./test-support.js";

let t: TestApp;
let books: Books;
let base: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  books = await seedBooks(t);
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  token = (await createApiToken(t, ["mcp"])).token;
});
afterAll(async () => {
  await t?.close();
});

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

const postMessage = (url: string, bearer: string, body: unknown = INIT) =>
  fetch(new URL(url, base), {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("legacy SSE transport", () => {
  it("streams uncompressed, unbuffered events and announces the messages endpoint", async () => {
    const stream = await openRawStream(base, token, { "accept-encoding": "gzip, br" });
    expect(stream.response.status).toBe(200);
    const h = stream.response.headers;
    expect(h.get("content-type")).toMatch(/^text\/event-stream/);
    expect(h.get("cache-control")).toBe("no-cache, no-transform");
    expect(h.get("x-accel-buffering")).toBe("no");
    expect(h.get("content-encoding")).toBeNull();
    expect(h.get("x-request-id")).toBeTruthy();
    expect(stream.endpoint).toMatch(/^\/api\/mcp\/messages\/\?sessionId=[0-9a-f-]{36}$/);
    stream.close();
  });

  it("accepts messages with and without the trailing slash and answers on the stream", async () => {
    const stream = await openRawStream(base, token);
    const sessionId = new URL(stream.endpoint, base).searchParams.get("sessionId");
    const accepted = await postMessage(stream.endpoint, token);
    expect(accepted.status).toBe(202);
    expect((await stream.nextMessage()).id).toBe(1);
    const noSlash = await postMessage(`/api/mcp/messages?sessionId=${sessionId}`, token, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
    });
    expect(noSlash.status).toBe(202);
    const listed = await stream.nextMessage();
    expect(listed.id).toBe(2);
    expect((listed.result as { tools: unknown[] }).tools).toHaveLength(12);
    const garbage = await postMessage(stream.endpoint, token, { hello: "world" });
    expect(garbage.status).toBe(400);
    stream.close();
  });

  it("binds a session to its token: another token gets 403, an unknown session 404", async () => {
    const stream = await openRawStream(base, token);
    const other = (await createApiToken(t, ["mcp"])).token;
    const refused = await postMessage(stream.endpoint, other);
    expect(refused.status).toBe(403);
    expect((await refused.json()).detail).toMatch(/another API token/);
    const unknown = await postMessage(
      "/api/mcp/messages/?sessionId=00000000-0000-4000-8000-000000000000",
      token,
    );
    expect(unknown.status).toBe(404);
    const missing = await postMessage("/api/mcp/messages/", token);
    expect(missing.status).toBe(400);
    stream.close();
  });

  it("forgets the session when the client goes", async () => {
    const stream = await openRawStream(base, token);
    expect((await postMessage(stream.endpoint, token)).status).toBe(202);
    await stream.nextMessage();
    stream.close();
    let status = 202;
    for (let i = 0; i < 50 && status !== 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await postMessage(stream.endpoint, token)).status;
    }
    expect(status).toBe(404);
  });

  it("serves the SDK client: tools, results and errors", async () => {
    const { client } = await sseClient(base, token);
    const contact = structured(
      await client.callTool({ name: "get_contact", arguments: { contact_id: books.customer.id } }),
    );
    expect(contact).toMatchObject({ id: books.customer.id, name: "Construcciones Norte" });
    const balance = structured(
      await client.callTool({
        name: "get_account_balance",
        arguments: { account_code: books.codes.bank, fiscal_year_code: "2026", company_id: books.companyId },
      }),
    );
    expect(balance).toMatchObject({ balance: "709.75" });
    await client.close();
  });

  it("applies a permission change or a company restriction of the token's user to the very next call", async () => {
    const user = await t.userWith(["clients:leer", "api_tokens:crear"]);
    const { token: userToken } = await createApiToken(t, ["mcp"], { as: user.token });
    const { client } = await sseClient(base, userToken);
    const before = structured<{ total: number }>(
      await client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(before.total).toBe(3);
    await identity.updateUser(t.ctx, user.id, { companyId: books.otherCompanyId });
    const narrowed = structured<{ total: number }>(
      await client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(narrowed.total).toBe(1);
    const read = (await identity.listPermissionsOfRole(t.ctx, user.roleId)).find(
      (p) => p.modulo === "clients",
    )!;
    await identity.removePermission(t.ctx, user.roleId, read.id);
    expect(errorText(await client.callTool({ name: "list_contacts", arguments: {} }))).toMatch(
      /clients:leer/,
    );
    await client.close();
  });

  it("bounds the sessions one token holds open (429)", async () => {
    const own = (await createApiToken(t, ["mcp"])).token;
    const streams = [];
    for (let i = 0; i < MAX_SESSIONS_PER_TOKEN; i++) streams.push(await openRawStream(base, own));
    const refused = await openRawStream(base, own);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toBeTruthy();
    for (const stream of streams) stream.close();
    let status = 429;
    for (let i = 0; i < 50 && status === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = await openRawStream(base, own);
      status = again.response.status;
      again.close();
    }
    expect(status).toBe(200);
  });

  it("writes a keep-alive comment every 15 s", async () => {
    const stream = await openRawStream(base, token);
    const started = Date.now();
    await stream.waitFor(/: keepalive\n\n/, 17_000);
    expect(Date.now() - started).toBeGreaterThan(13_000);
    stream.close();
  }, 25_000);
});
