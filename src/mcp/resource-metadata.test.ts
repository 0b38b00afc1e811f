import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { MCP_SCOPES, tenantBaseUrl } from "./resource-metadata.js";
import { createApiToken, seedBooks, streamableClient, structured } from "./test-support.js";

let t: TestApp;
let base: string;

const PUBLIC_URL = "https://books.example.es";
const METADATA = `${PUBLIC_URL}/.well-known/oauth-protected-resource/api/mcp`;
const ACCEPT = "application/json, text/event-stream";

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL });
  await seedBooks(t);
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await t?.close();
});

const callTool = (token: string, name: string, id = 1) => ({
  method: "POST" as const,
  url: "/api/mcp",
  headers: { accept: ACCEPT, authorization: `Bearer ${token}` },
  payload: {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: {} },
  },
});

describe("protected resource metadata (RFC 9728)", () => {
  it("is served at the root and at the path-suffixed location of /api/mcp, without credentials", async () => {
    for (const url of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/api/mcp",
    ]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        resource: `${PUBLIC_URL}/api/mcp`,
        authorization_servers: [PUBLIC_URL],
        scopes_supported: MCP_SCOPES,
        bearer_methods_supported: ["header"],
        resource_name: "Cuadra MCP server",
      });
    }
  });

  it("lists plain mcp and one scope per tool area, and never the REST or wildcard rules", () => {
    expect(MCP_SCOPES).toContain("mcp");
    for (const scope of ["mcp:contacts", "mcp:accounting", "mcp:invoices", "mcp:projects", "mcp:tax"]) {
      expect(MCP_SCOPES).toContain(scope);
    }
    expect(MCP_SCOPES).not.toContain("*");
    expect(MCP_SCOPES).not.toContain("api_access");
  });

  it("takes each tenant's host from BASE_DOMAIN and the scheme and port from PUBLIC_URL, never from Host", async () => {
    expect(tenantBaseUrl({ publicUrl: "https://cuadra.es" }, "default")).toBe("https://cuadra.es");
    expect(tenantBaseUrl({ publicUrl: "https://cuadra.es/", baseDomain: "cuadra.es" }, "acme")).toBe(
      "https://acme.cuadra.es",
    );
    expect(tenantBaseUrl({ publicUrl: "http://localhost:8000", baseDomain: "cuadra.test" }, "acme")).toBe(
      "http://acme.cuadra.test:8000",
    );
    const res = await t.app.inject({
      method: "GET",
      url: "/.well-known/oauth-protected-resource/api/mcp",
      headers: { host: "evil.example.com", "x-forwarded-host": "evil.example.com" },
    });
    expect(res.json().resource).toBe(`${PUBLIC_URL}/api/mcp`);
  });
});

describe("the 401 challenge", () => {
  it("points at the metadata from every MCP route, adding invalid_token when a credential was sent", async () => {
    const requests = [
      { method: "POST" as const, url: "/api/mcp", payload: {} },
      { method: "GET" as const, url: "/api/mcp/sse" },
      { method: "POST" as const, url: "/api/mcp/messages/?sessionId=x", payload: {} },
    ];
    for (const request of requests) {
      const anonymous = await t.app.inject(request);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.headers["www-authenticate"]).toBe(
        `Bearer realm="cuadra", resource_metadata="${METADATA}"`,
      );
      const forged = await t.app.inject({
        ...request,
        headers: { authorization: `Bearer cdr_${"x".repeat(43)}` },
      });
      expect(forged.statusCode).toBe(401);
      expect(forged.headers["www-authenticate"]).toBe(
        `Bearer realm="cuadra", error="invalid_token", resource_metadata="${METADATA}"`,
      );
      expect(forged.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
  });

  it("leaves the challenge of the REST routes as it was", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/companies" });
    expect(res.statusCode).toBe(401);
    expect(res.headers["www-authenticate"]).toBe('Bearer realm="cuadra"');
  });
});

describe("insufficient_scope", () => {
  it("refuses a tool call outside the token's scopes with 403 naming the scope", async () => {
    const { token } = await createApiToken(t, ["mcp:contacts"]);
    const res = await t.app.inject(callTool(token, "list_accounts"));
    expect(res.statusCode, res.body).toBe(403);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.headers["www-authenticate"]).toBe(
      `Bearer realm="cuadra", error="insufficient_scope", scope="mcp:accounting", ` +
        `resource_metadata="${METADATA}", error_description="The tool list_accounts needs the scope mcp:accounting"`,
    );
    const body = res.json();
    expect(body.type).toBe("urn:cuadra:problem:insufficient-scope");
    expect(body.scope).toBe("mcp:accounting");
    expect(body.detail).toMatch(/list_accounts needs the scope mcp:accounting/);
  });

  it("refuses a batch holding one such call, and serves calls the scopes cover", async () => {
    const { token } = await createApiToken(t, ["mcp:contacts"]);
    const one = callTool(token, "list_contacts").payload;
    const other = callTool(token, "get_invoice", 2).payload;
    const batch = await t.app.inject({ ...callTool(token, "list_contacts"), payload: [one, other] });
    expect(batch.statusCode).toBe(403);
    expect(batch.json().scope).toBe("mcp:invoices");

    const client = await streamableClient(base, token);
    structured(await client.callTool({ name: "list_contacts", arguments: {} }));
    structured(await client.callTool({ name: "list_companies", arguments: {} }));
    await expect(client.callTool({ name: "list_products", arguments: {} })).rejects.toThrow(
      /403[\s\S]*needs the scope mcp:products/,
    );
    await client.close();
  });

  it("lets plain mcp and * call every tool, and an unknown tool is answered in-band", async () => {
    for (const scopes of [["mcp"], ["*"]]) {
      const { token } = await createApiToken(t, scopes);
      const res = await t.app.inject(callTool(token, "list_accounts"));
      expect(res.statusCode, res.body).toBe(200);
    }
    const { token } = await createApiToken(t, ["mcp:contacts"]);
    const unknown = await t.app.inject(callTool(token, "drop_tables"));
    expect(unknown.statusCode).toBe(200);
    expect(JSON.stringify(unknown.json())).toMatch(/drop_tables/);
  });
});
