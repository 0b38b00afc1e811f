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
