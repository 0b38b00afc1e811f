import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import * as identity from "../modules/identity/index.js";
import {
  type Books,
  createApiToken,
  errorText,
  outOfScope,
  seedBooks,
  sseClient,
  streamableClient,
  structured,
  withAnyTokenTools,
} from "./test-support.js";
import { TOOLS } from "./tools/index.js";

let t: TestApp;
let books: Books;
let base: string;
let mcpToken: string;

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
};
const ACCEPT = "application/json, text/event-stream";

beforeAll(async () => {
  t = await createTestApp();
  books = await seedBooks(t);
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  mcpToken = (await createApiToken(t, ["mcp"])).token;
});
afterAll(async () => {
  await t?.close();
});

const post = (headers: Record<string, string>, url = "/api/mcp", payload: unknown = INIT) =>
  t.app.inject({ method: "POST", url, headers: { accept: ACCEPT, ...headers }, payload: payload as object });

function expectProblem(res: LightMyRequestResponse, status: number, detail?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  if (detail) expect(res.json().detail).toMatch(detail);
  return res;
}

describe("HTTP authentication", () => {
  it("answers 401 with WWW-Authenticate: Bearer without a token, with a bad one or with a user JWT", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer cdr_${"x".repeat(43)}` },
      { authorization: `Bearer ${t.adminToken}` },
    ]) {
      for (const url of ["/api/mcp", "/api/mcp/messages/?sessionId=x"]) {
        const res = expectProblem(await post(headers, url), 401);
        expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
      }
      expectProblem(await t.app.inject({ method: "GET", url: "/api/mcp/sse", headers }), 401);
    }
  });

  it("refuses a token in the query string (401), even alongside a valid header", async () => {
    const auth = { authorization: `Bearer ${mcpToken}` };
    for (const url of [
      `/api/mcp?token=${mcpToken}`,
      `/api/mcp?access_token=${mcpToken}`,
      `/api/mcp/messages/?sessionId=x&api_key=${mcpToken}`,
    ]) {
      expectProblem(await post(auth, url), 401, /Authorization: Bearer/);
      expectProblem(await post({}, url), 401);
    }
    expectProblem(
      await t.app.inject({ method: "GET", url: `/api/mcp/sse?token=${mcpToken}`, headers: auth }),
      401,
    );
  });

  it("answers 403 to a live token without any MCP rule", async () => {
    const rest = await createApiToken(t, ["api_access"]);
    expectProblem(await post({ authorization: `Bearer ${rest.token}` }), 403, /no MCP rule/);
    expectProblem(
      await t.app.inject({
        method: "GET",
        url: "/api/mcp/sse",
        headers: { authorization: `Bearer ${rest.token}` },
      }),
      403,
    );
  });

  it("refuses a foreign Origin with 403 and accepts one from CORS_ORIGINS", async () => {
    const auth = { authorization: `Bearer ${mcpToken}` };
    expectProblem(await post({ ...auth, origin: "http://evil.example" }), 403, /Origin/);
    expectProblem(
      await t.app.inject({
        method: "GET",
        url: "/api/mcp/sse",
        headers: { ...auth, origin: "http://evil.example" },
      }),
      403,
    );
    const ok = await post({ ...auth, origin: "http://localhost:5173" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    expect(ok.json().result.serverInfo.name).toBe("cuadra");
  });
});

describe("API docs", () => {
  it("document the MCP routes under /api and hide the local relay", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(expect.arrayContaining(["/api/mcp/sse", "/api/mcp/messages", "/api/mcp"]));
    expect(paths.filter((p) => p.includes("/local"))).toEqual([]);
  });
});

describe("Streamable HTTP endpoint", () => {
  const auth = () => ({ authorization: `Bearer ${mcpToken}` });

  it("answers a stateless POST with JSON and issues no session", async () => {
    const res = await post(auth());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["mcp-session-id"]).toBeUndefined();
    expect(res.json().result.capabilities.tools).toBeDefined();
  });

  it("answers GET and DELETE with 405 and Allow: POST, even an empty DELETE with a JSON content type", async () => {
    const get = expectProblem(
      await t.app.inject({
        method: "GET",
        url: "/api/mcp",
        headers: { ...auth(), accept: "text/event-stream" },
      }),
      405,
    );
    expect(get.headers.allow).toBe("POST");
    const del = expectProblem(
      await t.app.inject({
        method: "DELETE",
        url: "/api/mcp",
        headers: { ...auth(), "content-type": "application/json" },
      }),
      405,
    );
    expect(del.headers.allow).toBe("POST");
  });

  it("refuses an empty or malformed POST body with 400", async () => {
    const empty = await t.app.inject({
      method: "POST",
      url: "/api/mcp",
      headers: { ...auth(), accept: ACCEPT, "content-type": "application/json" },
    });
    expectProblem(empty, 400, /JSON-RPC/);
    const broken = await t.app.inject({
      method: "POST",
      url: "/api/mcp",
      headers: { ...auth(), accept: ACCEPT, "content-type": "application/json" },
      payload: "{not json",
    });
    expectProblem(broken, 400);
  });

  it("stops answering once the token is revoked", async () => {
    const { id, token } = await createApiToken(t, ["mcp"]);
    const client = await streamableClient(base, token);
    structured(await client.callTool({ name: "list_contacts", arguments: {} }));
    await t.as(t.adminToken, { method: "DELETE", url: `/api/api-tokens/${id}` });
    await expect(client.callTool({ name: "list_contacts", arguments: {} })).rejects.toThrow(/401/);
    await client.close();
  });
});

describe("scopes", () => {
  const names = async (token: string) => {
    const client = await streamableClient(base, token);
    const { tools } = await client.listTools();
    return { client, names: tools.map((tool) => tool.name).sort() };
  };

  it("mcp:contacts sees and calls only the contact tools; another tool names the scope it needs (403)", async () => {
    const { client, names: listed } = await names((await createApiToken(t, ["mcp:contacts"])).token);
    expect(listed).toEqual(withAnyTokenTools(["get_contact", "list_contacts"]));
    structured(await client.callTool({ name: "list_contacts", arguments: {} }));
    await expect(client.callTool({ name: "list_accounts", arguments: { limit: 5000 } })).rejects.toThrow(
      outOfScope("mcp:accounting"),
    );
    await expect(client.callTool({ name: "get_product", arguments: {} })).rejects.toThrow(
      outOfScope("mcp:products"),
    );
    await client.close();
  });

  it("several area rules add up; mcp and * see every tool", async () => {
    const areas = await names((await createApiToken(t, ["mcp:products", "mcp:accounting"])).token);
    expect(areas.names).toEqual(
      withAnyTokenTools([
        "get_account_balance",
        "get_product",
        "list_accounts",
        "list_journal_entries",
        "list_products",
      ]),
    );
    await areas.client.close();
    for (const scope of ["mcp", "*"]) {
      const all = await names((await createApiToken(t, [scope])).token);
      expect(all.names).toHaveLength(TOOLS.length);
      await all.client.close();
    }
  });

  it("a token never reads more than its user may: tools need the user's read permission", async () => {
    const user = await t.userWith(["clients:leer", "api_tokens:crear"]);
    const { client, names: listed } = await names(
      (await createApiToken(t, ["mcp"], { as: user.token })).token,
    );
    expect(listed).toEqual(["get_contact", "list_contacts"]);
    expect(errorText(await client.callTool({ name: "list_products", arguments: {} }))).toMatch(
      /products:leer/,
    );
    await client.close();
  });

  it("the same filtering applies over SSE", async () => {
    const { client } = await sseClient(base, (await createApiToken(t, ["mcp:accounting"])).token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      withAnyTokenTools(["get_account_balance", "list_accounts", "list_journal_entries"]),
    );
    expect(errorText(await client.callTool({ name: "list_contacts", arguments: {} }))).toMatch(
      /mcp:contacts/,
    );
    await client.close();
  });
});

describe("per-request servers (what a request is served with never outlives it)", () => {
  it("a permission removed between two calls of the same token is refused on the second call", async () => {
    const user = await t.userWith(["clients:leer", "products:leer", "api_tokens:crear"]);
    const { token } = await createApiToken(t, ["mcp"], { as: user.token });
    const client = await streamableClient(base, token);
    structured(await client.callTool({ name: "list_products", arguments: {} }));
    const read = (await identity.listPermissionsOfRole(t.ctx, user.roleId)).find(
      (p) => p.modulo === "products",
    )!;
    await identity.removePermission(t.ctx, user.roleId, read.id);
    expect(errorText(await client.callTool({ name: "list_products", arguments: {} }))).toMatch(
      /products:leer/,
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["get_contact", "list_contacts"]);
    await client.close();
  });

  it("two principals calling at once never share tools or results", async () => {
    const user = await t.userWith(["clients:leer", "api_tokens:crear"]);
    const narrow = await streamableClient(
      base,
      (await createApiToken(t, ["mcp"], { as: user.token, companyId: books.otherCompanyId })).token,
    );
    const wide = await streamableClient(base, mcpToken);
    for (let round = 0; round < 3; round++) {
      const [narrowList, wideList, narrowProducts, wideProducts, narrowContacts, wideContacts] =
        await Promise.all([
          narrow.listTools(),
          wide.listTools(),
          narrow.callTool({ name: "list_products", arguments: {} }),
          wide.callTool({ name: "list_products", arguments: {} }),
          narrow.callTool({ name: "list_contacts", arguments: {} }),
          wide.callTool({ name: "list_contacts", arguments: {} }),
        ]);
      expect(narrowList.tools.map((tool) => tool.name).sort()).toEqual(["get_contact", "list_contacts"]);
      expect(wideList.tools).toHaveLength(TOOLS.length);
      expect(errorText(narrowProducts)).toMatch(/products:leer/);
      expect(structured<{ total: number }>(wideProducts).total).toBeGreaterThan(0);
      expect(structured<{ total: number }>(narrowContacts).total).toBe(1);
      expect(structured<{ total: number }>(wideContacts).total).toBeGreaterThan(1);
    }
    await Promise.all([narrow.close(), wide.close()]);
  });

  it("a tool that does not exist is unknown whatever the request names", async () => {
    const client = await streamableClient(base, mcpToken);
    await expect(client.callTool({ name: "drop_everything", arguments: {} })).rejects.toThrow(/not found/);
    const listed = await post({ authorization: `Bearer ${mcpToken}` }, "/api/mcp", {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: {},
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().result.tools).toHaveLength(TOOLS.length);
    await client.close();
  });
});

describe("company restriction", () => {
  it("a token with company_id sees only that company", async () => {
    const { token } = await createApiToken(t, ["mcp"], { companyId: books.otherCompanyId });
    const client = await streamableClient(base, token);
    const contacts = structured<{ items: { id: string; company_id: string }[]; total: number }>(
      await client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(contacts.items.map((c) => c.id)).toEqual([books.otherContact.id]);
    expect(contacts.total).toBe(1);
    expect(
      errorText(await client.callTool({ name: "get_contact", arguments: { contact_id: books.customer.id } })),
    ).toMatch(/not found/);
    expect(
      structured<{ total: number }>(await client.callTool({ name: "list_products", arguments: {} })).total,
    ).toBe(0);
    expect(
      errorText(await client.callTool({ name: "get_product", arguments: { product_id: books.product.id } })),
    ).toMatch(/not found/);
    expect(
      structured<{ total: number }>(await client.callTool({ name: "list_journal_entries", arguments: {} }))
        .total,
    ).toBe(0);
    const balance = await client.callTool({
      name: "get_account_balance",
      arguments: { account_code: "572", fiscal_year_code: "2026", company_id: books.companyId },
    });
    expect(errorText(balance)).toMatch(/not found/);
    await client.close();
  });

  it("a token for all companies sees both", async () => {
    const client = await streamableClient(base, mcpToken);
    const contacts = structured<{ items: { company_id: string }[] }>(
      await client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(new Set(contacts.items.map((c) => c.company_id))).toEqual(
      new Set([books.companyId, books.otherCompanyId]),
    );
    await client.close();
  });
});
