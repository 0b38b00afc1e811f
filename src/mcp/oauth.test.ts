import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { TEST_ADMIN } from "../../test/helpers/constants.js";
import { freePort } from "../../test/helpers/net.js";
import {
  authorize,
  Browser,
  clientMetadata,
  MemoryOAuthProvider,
  REDIRECT_URI,
  startMetadataHost,
} from "../modules/oauth/test-support.js";
import { queryOne } from "../platform/db/sql.js";
import { type Books, seedBooks, structured } from "./test-support.js";

let t: TestApp;
let base: string;
let books: Books;
let host: Awaited<ReturnType<typeof startMetadataHost>>;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: base, OAUTH_CIMD_ALLOW_HTTP_LOOPBACK: "true" });
  books = await seedBooks(t);
  await t.app.listen({ port, host: "127.0.0.1" });
  host = await startMetadataHost();
});
afterAll(async () => {
  await host?.close();
  await t?.close();
});

const clientInfo = { name: "oauth-test", version: "1.0.0" };
const ACCEPT = "application/json, text/event-stream";

/** One tools/call sent raw (2025 era, stateless) with a bearer token. */
const callWith = (token: string, name: string, args: Record<string, unknown> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/mcp",
    headers: { accept: ACCEPT, authorization: `Bearer ${token}` },
    payload: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
  });

const tokenRequest = (fields: Record<string, string>) =>
  fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });

const grantsAs = async (token: string) =>
  (await t.as(token, { method: "GET", url: "/api/oauth/grants" })).json() as {
    data: { id: string; client_id: string; company_id: string | null; scopes: string[] }[];
    total: number;
  };

async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("condition not met in 5 s");
}

/** A hand-built authorization request (S256 challenge of a fixed verifier). */
function authorizationUrl(clientId: string, overrides: Record<string, string | null> = {}) {
  const params: Record<string, string | null> = {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "mcp:contacts",
    state: "s1",
    resource: `${base}/api/mcp`,
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    ...overrides,
  };
  const url = new URL("/oauth/authorize", base);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url;
}

/** An SDK v2 client signed in through the whole OAuth flow; returns it with its provider. */
async function signedInClient(path: string, consent: { company?: string; scopes?: string[] } = {}) {
  const provider = new MemoryOAuthProvider(host.publish(path));
  const url = new URL("/api/mcp", base);
  const first = new Client(clientInfo);
  await expect(
    first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })),
  ).rejects.toThrow();
  expect(provider.authorizationUrl, "the client was sent to the authorization endpoint").toBeDefined();
  const callback = await authorize(new Browser(base), provider.authorizationUrl!, {
    ...TEST_ADMIN,
    ...consent,
  });
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await transport.finishAuth(callback.searchParams);
  const client = new Client(clientInfo);
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider, callback };
}

describe("an assistant connects by OAuth sign-in", () => {
  it("discovers the server, signs in with a metadata-document client and PKCE, and calls a tool", async () => {
    const { client, provider, callback } = await signedInClient("/assistant.json");
    expect(callback.searchParams.get("iss")).toBe(base);
    expect(provider.authorizationUrl!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(provider.authorizationUrl!.searchParams.get("resource")).toBe(`${base}/api/mcp`);
    expect(provider.authorizationUrl!.searchParams.get("client_id")).toBe(
      `${host.publish("/assistant.json")}`,
    );
    const contacts = structured<{ items: { name: string }[] }>(
      await client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(contacts.items.map((c) => c.name)).toContain("Construcciones Norte");
    const grant = await queryOne<{ event: string }>(t.db, sql`select event from oauth_grant_events limit 1`);
    expect(grant?.event).toBe("granted");
    await client.close();
  });
});

describe("tokens", () => {
  it("rotates the refresh token at every use; a spent one presented again revokes the whole grant", async () => {
    const { client, provider } = await signedInClient("/refresh.json");
    await client.close();
    const clientId = host.publish("/refresh.json");
    const first = provider.saved!;
    expect(first.refresh_token).toBeTruthy();
    const rotated = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as {
      access_token: string;
      refresh_token: string;
      expires_in: number;
    };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.expires_in).toBeLessThanOrEqual(600);
    expect((await callWith(second.access_token, "list_contacts")).statusCode).toBe(200);

    const reused = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: string }).error).toBe("invalid_grant");
    const refused = await callWith(second.access_token, "list_contacts");
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["www-authenticate"]).toContain('error="invalid_token"');
    const afterReuse = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: second.refresh_token,
      client_id: clientId,
    });
    expect(afterReuse.status).toBe(400);
    const event = await eventually(() =>
      queryOne<{ event: string }>(
        t.db,
        sql`select event from oauth_grant_events where event = 'refresh_token_reused'`,
      ),
    );
    expect(event.event).toBe("refresh_token_reused");
    expect((await grantsAs(t.adminToken)).data.map((g) => g.client_id)).not.toContain(clientId);
  });

  it("a token restricted to one company never reads another", async () => {
    const { client } = await signedInClient("/company.json", { company: books.otherCompanyId });
    const companies = structured<{ items: { id: string }[] }>(
      await client.callTool({ name: "list_companies", arguments: {} }),
    );
    expect(companies.items.map((c) => c.id)).toEqual([books.otherCompanyId]);
    const contacts = structured<{ items: { name: string }[] }>(
      await client.callTool({ name: "list_contacts", arguments: {} }),
    );
    expect(contacts.items.map((c) => c.name)).toEqual(["Cliente de la otra empresa"]);
    const other = await client.callTool({
      name: "get_contact",
      arguments: { contact_id: books.customer.id },
    });
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toMatch(/not found/i);
    const grant = (await grantsAs(t.adminToken)).data.find(
      (g) => g.client_id === host.publish("/company.json"),
    );
    expect(grant?.company_id).toBe(books.otherCompanyId);
    await client.close();
  });

  it("refuses a token bound to another resource, an expired one and a revoked one (401)", async () => {
    const { client, provider } = await signedInClient("/lifecycle.json");
    await client.close();
    const token = provider.saved!.access_token;
    expect((await callWith(token, "list_contacts")).statusCode).toBe(200);
    const where = sql`kind = 'AccessToken' and id = ${token}`;
    await t.db.execute(
      sql`update oauth_models set payload = jsonb_set(payload, '{aud}', '"https://elsewhere.example/api/mcp"') where ${where}`,
    );
    expect((await callWith(token, "list_contacts")).statusCode).toBe(401);
    await t.db.execute(
      sql`update oauth_models set payload = jsonb_set(payload, '{aud}', to_jsonb(${`${base}/api/mcp`}::text)) where ${where}`,
    );
    expect((await callWith(token, "list_contacts")).statusCode).toBe(200);
    await t.db.execute(sql`update oauth_models set expires_at = now() - interval '1 second' where ${where}`);
    expect((await callWith(token, "list_contacts")).statusCode).toBe(401);

    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: provider.saved!.refresh_token!,
      client_id: host.publish("/lifecycle.json"),
    });
    const fresh = ((await refreshed.json()) as { access_token: string }).access_token;
    expect((await callWith(fresh, "list_contacts")).statusCode).toBe(200);
    const grant = (await grantsAs(t.adminToken)).data.find(
      (g) => g.client_id === host.publish("/lifecycle.json"),
    )!;
    const revoked = await t.as(t.adminToken, { method: "DELETE", url: `/api/oauth/grants/${grant.id}` });
    expect(revoked.statusCode).toBe(204);
    expect((await callWith(fresh, "list_contacts")).statusCode).toBe(401);
    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/oauth/grants/${grant.id}` })).statusCode,
    ).toBe(404);
    const audit = await queryOne<{ event: string; user_id: string }>(
      t.db,
      sql`select event, user_id from oauth_grant_events where grant_id = ${grant.id} and event = 'revoked'`,
    );
    expect(audit?.event).toBe("revoked");
  });

  it("a tool outside the granted scopes is a 403 insufficient_scope naming the scope", async () => {
    const { client, provider } = await signedInClient("/narrow.json", { scopes: ["mcp:contacts"] });
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(["get_contact", "list_companies", "list_contacts", "list_fiscal_years"]);
    const res = await callWith(provider.saved!.access_token, "list_accounts");
    expect(res.statusCode).toBe(403);
    expect(res.headers["www-authenticate"]).toContain('error="insufficient_scope", scope="mcp:accounting"');
    await client.close();
  });

  it("API tokens keep working beside OAuth tokens, and a user JWT is still refused", async () => {
    const created = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/api-tokens",
      payload: { name: "script", scopes: ["mcp"] },
    });
    expect((await callWith(created.json().token, "list_contacts")).statusCode).toBe(200);
    expect((await callWith(t.adminToken, "list_contacts")).statusCode).toBe(401);
  });
});

describe("authorization requests", () => {
  it("refuses a redirect_uri the client's metadata does not list, without redirecting", async () => {
    const clientId = host.publish("/redirects.json");
    const res = await new Browser(base).request(
      authorizationUrl(clientId, { redirect_uri: "http://127.0.0.1:9/steal" }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toMatch(/redirect_uri/);
  });

  it("requires PKCE with S256 and only the MCP resource", async () => {
    const clientId = host.publish("/pkce.json");
    const browser = new Browser(base);
    for (const [overrides, error] of [
      [{ code_challenge: null, code_challenge_method: null }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ resource: "https://elsewhere.example/api" }, "invalid_target"],
    ] as const) {
      const res = await browser.request(authorizationUrl(clientId, overrides));
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get("location")!);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
      expect(back.searchParams.get("error")).toBe(error);
      expect(back.searchParams.get("iss")).toBe(base);
    }
  });

  it("fetches metadata documents with a size and a time limit, and never from private addresses", async () => {
    const browser = new Browser(base);
    const big = host.publish("/big.json", (id) => clientMetadata(id, { client_name: "x".repeat(6000) }));
    // oidc-provider aborts each fetch after 2.5 s; a failed authorization looks the client up twice.
    const slow = host.publish("/slow.json", clientMetadata, 8000);
    for (const clientId of [big, slow, "https://10.1.2.3/client.json", "https://192.168.1.1/client.json"]) {
      const started = Date.now();
      const res = await browser.request(authorizationUrl(clientId));
      expect(res.status, clientId).toBe(400);
      expect(await res.text()).toMatch(/invalid_client/);
      expect(Date.now() - started, clientId).toBeLessThan(6000);
    }
    const http = await browser.request(authorizationUrl(`http://127.0.0.1:9/client.json`));
    expect(http.status).toBe(400);
  });

  it("offers no dynamic registration unless OAUTH_DYNAMIC_REGISTRATION is set", async () => {
    const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.issuer).toBe(base);
    expect(metadata.registration_endpoint).toBeUndefined();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    const res = await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe("the sign-in and consent pages", () => {
  it("speaks Spanish and English, sets a strict CSP, and audits a wrong password like /auth/login", async () => {
    const clientId = host.publish("/pages.json");
    const browser = new Browser(base);
    browser.lang = "es-ES,es;q=0.9";
    const page = await browser.follow(authorizationUrl(clientId));
    const html = await page.res.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<label for="password">Contraseña</label>');
    expect(html).toContain("Test Assistant");
    const csp = page.res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self' http://127.0.0.1:53682");
    expect(csp).not.toContain("unsafe-inline");

    const wrong = await browser.submit(
      { html, url: page.url },
      { email: TEST_ADMIN.email, password: "not-the-password" },
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/role="alert"/);
    const audit = await queryOne<{ success: boolean; reason: string }>(
      t.db,
      sql`select success, reason from login_audit where email = ${TEST_ADMIN.email} order by created_at desc limit 1`,
    );
    expect(audit).toEqual({ success: false, reason: "bad_password" });

    const forged = await browser.submit(
      { html: html.replace(/name="csrf" value="[^"]*"/, 'name="csrf" value="forged"'), url: page.url },
      TEST_ADMIN,
    );
    expect(forged.status).toBe(403);

    const english = new Browser(base);
    const en = await (await english.follow(`${authorizationUrl(clientId).href}`)).res.text();
    expect(en).toContain('<label for="email">E-mail</label>');
  });

  it("re-asks when no area is chosen, and a denial goes back to the assistant as access_denied", async () => {
    const clientId = host.publish("/deny.json");
    const browser = new Browser(base);
    const login = await browser.follow(authorizationUrl(clientId));
    const signedIn = await browser.submit({ html: await login.res.text(), url: login.url }, TEST_ADMIN);
    const page = await browser.follow(new URL(signedIn.headers.get("location")!, login.url));
    const html = await page.res.text();
    expect(html).toContain("Customers and suppliers");
    const empty = await browser.submit({ html, url: page.url }, { company: "all", decision: "allow" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toMatch(/role="alert"[^<]*choose at least one area/);
    const foreign = await browser.submit(
      { html, url: page.url },
      { company: "00000000-0000-7000-8000-000000000000", scope: "mcp:contacts", decision: "allow" },
    );
    expect(foreign.status).toBe(400);
    const denied = await browser.submit({ html, url: page.url }, { company: "all", decision: "deny" });
    const back = await browser.follow(new URL(denied.headers.get("location")!, page.url));
    expect(back.url.searchParams.get("error")).toBe("access_denied");
    expect(back.url.searchParams.get("state")).toBe("s1");
    expect((await grantsAs(t.adminToken)).data.map((g) => g.client_id)).not.toContain(clientId);
  });

  it("a user sees only their own grants unless they may read API tokens; another's grant is a 404", async () => {
    (await signedInClient("/grants.json")).client.close();
    const user = await t.userWith(["clients:leer"]);
    const mine = await grantsAs(user.token);
    expect(mine.total).toBe(0);
    const admin = await grantsAs(t.adminToken);
    expect(admin.data.map((g) => g.client_id)).toContain(host.publish("/grants.json"));
    const res = await t.as(user.token, { method: "DELETE", url: `/api/oauth/grants/${admin.data[0].id}` });
    expect(res.statusCode).toBe(404);
    expect((await t.as(user.token, { method: "DELETE", url: "/api/oauth/grants/x" })).statusCode).toBe(400);
  });
});
