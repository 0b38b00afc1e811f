import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { apiTokens } from "./tables.js";

let t: TestApp;
let companyA: string;
let companyB: string;

async function createToken(token: string, payload: Record<string, unknown>) {
  return t.as(token, { method: "POST", url: "/api/api-tokens", payload });
}

beforeAll(async () => {
  t = await createTestApp();
  const a = await t.as(t.adminToken, {
    method: "POST",
    url: "/api/companies",
    payload: { name: "A", tax_id: "B12345674" },
  });
  const b = await t.as(t.adminToken, {
    method: "POST",
    url: "/api/companies",
    payload: { name: "B", tax_id: "A58818501" },
  });
  companyA = a.json().id;
  companyB = b.json().id;
});
afterAll(async () => {
  await t?.close();
});

describe("/api/api-tokens", () => {
  it("shows the secret once and stores only its SHA-256", async () => {
    const res = await createToken(t.adminToken, { name: "erp", scopes: ["api_access", "mcp:contacts"] });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token).toMatch(/^cdr_[A-Za-z0-9_-]{43}$/);
    expect(body.scopes).toEqual(["api_access", "mcp:contacts"]);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, body.id));
    expect(row.keyHash).toBe(createHash("sha256").update(body.token).digest("hex"));
    const list = await t.as(t.adminToken, { method: "GET", url: "/api/api-tokens" });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(body.token);
    expect(list.json().data.find((r: { id: string }) => r.id === body.id).prefix).toBe(
      body.token.slice(0, 12),
    );
  });

  it("authenticates REST calls with api_access or *, records last use, and refuses other rules with 403", async () => {
    const full = (await createToken(t.adminToken, { name: "full", scopes: ["*"] })).json();
    const rest = (await createToken(t.adminToken, { name: "rest", scopes: ["api_access"] })).json();
    const mcpOnly = (await createToken(t.adminToken, { name: "mcp", scopes: ["mcp"] })).json();
    expect((await t.as(full.token, { method: "GET", url: "/api/companies" })).statusCode).toBe(200);
    expect((await t.as(rest.token, { method: "GET", url: "/api/companies" })).statusCode).toBe(200);
    const refused = await t.as(mcpOnly.token, { method: "GET", url: "/api/companies" });
    expect(refused.statusCode).toBe(403);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, rest.id));
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("refuses unknown, deactivated and expired tokens (401) and is refused by /api/v1", async () => {
    const token = (await createToken(t.adminToken, { name: "short", scopes: ["api_access"] })).json();
    expect((await t.as(`cdr_${"x".repeat(43)}`, { method: "GET", url: "/api/companies" })).statusCode).toBe(
      401,
    );
    expect((await t.as(token.token, { method: "GET", url: "/api/v1/users/me" })).statusCode).toBe(401);
    await t.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, token.id));
    expect((await t.as(token.token, { method: "GET", url: "/api/companies" })).statusCode).toBe(401);
    const other = (await createToken(t.adminToken, { name: "gone", scopes: ["api_access"] })).json();
    const del = await t.as(t.adminToken, { method: "DELETE", url: `/api/api-tokens/${other.id}` });
    expect(del.statusCode).toBe(204);
    expect((await t.as(other.token, { method: "GET", url: "/api/companies" })).statusCode).toBe(401);
  });

  it("rejects bad input: past expiry, unknown scope, no scope", async () => {
    for (const payload of [
      { name: "x", scopes: ["api_access"], expires_at: "2001-01-01T00:00:00Z" },
      { name: "x", scopes: ["root"] },
      { name: "x", scopes: [] },
    ]) {
      const res = await createToken(t.adminToken, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("acts with its creator's permissions, narrowed to its company", async () => {
    const reader = await t.userWith(["companies:leer", "api_tokens:crear"]);
    const token = (
      await createToken(reader.token, { name: "a-only", scopes: ["api_access"], company_id: companyA })
    ).json();
    const list = await t.as(token.token, { method: "GET", url: "/api/companies" });
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([companyA]);
    expect((await t.as(token.token, { method: "GET", url: `/api/companies/${companyB}` })).statusCode).toBe(
      404,
    );
    expect((await t.as(token.token, { method: "GET", url: "/api/api-tokens" })).statusCode).toBe(403);
    await t.db.execute(sql`update users set is_active = false where id = ${reader.id}`);
    expect((await t.as(token.token, { method: "GET", url: "/api/companies" })).statusCode).toBe(401);
  });

  it("does not let a company-restricted user mint a token for another company", async () => {
    const restricted = await t.userWith(["api_tokens:crear", "api_tokens:leer"], { companyId: companyA });
    const res = await createToken(restricted.token, {
      name: "b",
      scopes: ["api_access"],
      company_id: companyB,
    });
    expect(res.statusCode).toBe(404);
    const own = await createToken(restricted.token, { name: "a", scopes: ["api_access"] });
    expect(own.json().company_id).toBe(companyA);
  });

  it("requires the api_tokens permissions", async () => {
    const nobody = await t.userWith([]);
    expect((await createToken(nobody.token, { name: "x", scopes: ["api_access"] })).statusCode).toBe(403);
    expect((await t.as(nobody.token, { method: "GET", url: "/api/api-tokens" })).statusCode).toBe(403);
    expect(
      (
        await t.as(nobody.token, {
          method: "DELETE",
          url: "/api/api-tokens/01900000-0000-7000-8000-000000000000",
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe("tokens creating tokens", () => {
  async function mint(payload: Record<string, unknown>, token = t.adminToken) {
    const res = await createToken(token, { name: "minted", ...payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; token: string; expires_at: string | null; scopes: string[] };
  }
  const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();

  it("a token without the api_tokens rule can't create tokens (the audit's api_access -> *)", async () => {
    const parent = await mint({ scopes: ["api_access"], expires_at: inOneHour() });
    const res = await createToken(parent.token, { name: "child", scopes: ["*"] });
    expect(res.statusCode).toBe(403);
    const wildcard = await mint({ scopes: ["*"] });
    expect((await createToken(wildcard.token, { name: "child", scopes: ["api_access"] })).statusCode).toBe(
      403,
    );
  });

  it("never gives rules it lacks, nor a later expiry; no expiry given = its own", async () => {
    const expires = inOneHour();
    const parent = await mint({ scopes: ["api_access", "api_tokens", "mcp"], expires_at: expires });
    expect((await createToken(parent.token, { name: "c", scopes: ["*"] })).statusCode).toBe(403);
    const later = new Date(Date.now() + 7200_000).toISOString();
    const tooLong = await createToken(parent.token, { name: "c", scopes: ["api_access"], expires_at: later });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors[0].path).toBe("body.expires_at");
    const child = await mint({ scopes: ["api_access", "mcp:contacts"] }, parent.token);
    expect(new Date(child.expires_at as string).getTime()).toBe(new Date(expires).getTime());
  });

  it("never widens the company: a company-restricted token creates tokens of that company only", async () => {
    const parent = await mint({ scopes: ["api_access", "api_tokens"], company_id: companyA });
    expect(
      (await createToken(parent.token, { name: "c", scopes: ["api_access"], company_id: companyB }))
        .statusCode,
    ).toBe(404);
    const child = await mint({ scopes: ["api_access"] }, parent.token);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, child.id));
    expect(row.companyId).toBe(companyA);
  });

  it("children and grandchildren die with their parent, on REST and MCP", async () => {
    const parent = await mint({ scopes: ["api_access", "api_tokens", "mcp"] });
    const child = await mint({ scopes: ["api_access", "api_tokens", "mcp"] }, parent.token);
    const grandchild = await mint({ scopes: ["api_access", "mcp"] }, child.token);
    const rest = (token: string) => t.as(token, { method: "GET", url: "/api/companies" });
    expect((await rest(grandchild.token)).statusCode).toBe(200);
    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/api-tokens/${parent.id}` })).statusCode,
    ).toBe(204);
    for (const token of [parent.token, child.token, grandchild.token]) {
      expect((await rest(token)).statusCode).toBe(401);
      const mcp = await t.as(token, {
        method: "POST",
        url: "/api/mcp",
        headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
        payload: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      });
      expect(mcp.statusCode).toBe(401);
    }
  });
});
