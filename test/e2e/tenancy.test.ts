import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantSlugFromHost } from "../../src/platform/db/multi-tenant.js";
import { tenants } from "../../src/platform/db/tables.js";
import { TEST_ADMIN } from "../helpers/constants.js";
import { createMultiTenantApp, type MultiTenantApp } from "../helpers/multi-tenant.js";

let m: MultiTenantApp;

async function login(slug: string) {
  const res = await m.app.inject({
    method: "POST",
    url: "/api/auth/login",
    headers: { host: m.host(slug) },
    payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
  });
  expect(res.statusCode).toBe(200);
  return res.json().access_token as string;
}

const get = (slug: string, url: string, token?: string) =>
  m.app.inject({
    method: "GET",
    url,
    headers: { host: m.host(slug), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

beforeAll(async () => {
  m = await createMultiTenantApp([
    { slug: "acme" },
    { slug: "globex" },
    { slug: "dormant", status: "suspended" },
  ]);
});
afterAll(async () => {
  await m?.close();
});

describe("tenant routing by Host", () => {
  it("parses {tenant}.{BASE_DOMAIN} and nothing else", () => {
    expect(tenantSlugFromHost("acme.cuadra.test", "cuadra.test")).toBe("acme");
    expect(tenantSlugFromHost("ACME.cuadra.test:8000", "cuadra.test")).toBe("acme");
    expect(tenantSlugFromHost("cuadra.test", "cuadra.test")).toBeNull();
    expect(tenantSlugFromHost("a.b.cuadra.test", "cuadra.test")).toBeNull();
    expect(tenantSlugFromHost("acme.cuadra.test.evil.com", "cuadra.test")).toBeNull();
    expect(tenantSlugFromHost(undefined, "cuadra.test")).toBeNull();
  });

  it("answers 404 before authentication for an unknown or suspended tenant", async () => {
    for (const host of ["nobody.cuadra.test", "dormant.cuadra.test", "localhost", "cuadra.test"]) {
      const res = await m.app.inject({ method: "GET", url: "/api/companies", headers: { host } });
      expect(res.statusCode, host).toBe(404);
      expect(res.headers["content-type"]).toContain("application/problem+json");
      expect(res.json().detail).toBe("Tenant not found");
    }
  });

  it("keeps each tenant's data apart, even with the same e-mails and ids", async () => {
    const acme = await login("acme");
    const globex = await login("globex");
    const created = await m.app.inject({
      method: "POST",
      url: "/api/companies",
      headers: { host: m.host("acme"), authorization: `Bearer ${acme}` },
      payload: { name: "Acme", tax_id: "B12345674" },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect((await get("acme", `/api/companies/${id}`, acme)).statusCode).toBe(200);
    expect((await get("globex", `/api/companies/${id}`, globex)).statusCode).toBe(404);
    expect((await get("globex", "/api/companies", globex)).json().total).toBe(0);
  });

  it("refuses a token issued by another tenant (401)", async () => {
    const acme = await login("acme");
    const res = await get("globex", "/api/v1/users/me", acme);
    expect(res.statusCode).toBe(401);
    expect((await get("acme", "/api/v1/users/me", acme)).statusCode).toBe(200);
  });

  it("refuses an API token on another tenant (401)", async () => {
    const acme = await login("acme");
    const created = await m.app.inject({
      method: "POST",
      url: "/api/api-tokens",
      headers: { host: m.host("acme"), authorization: `Bearer ${acme}` },
      payload: { name: "integration", scopes: ["api_access"] },
    });
    expect(created.statusCode).toBe(201);
    const token = created.json().token;
    expect((await get("acme", "/api/companies", token)).statusCode).toBe(200);
    expect((await get("globex", "/api/companies", token)).statusCode).toBe(401);
  });

  it("stops serving a tenant once it is suspended", async () => {
    const acme = await login("acme");
    await m.control.db.update(tenants).set({ status: "suspended" }).where(eq(tenants.slug, "acme"));
    expect((await get("acme", "/api/companies", acme)).statusCode).toBe(404);
    await m.control.db.update(tenants).set({ status: "active" }).where(eq(tenants.slug, "acme"));
    expect((await get("acme", "/api/companies", acme)).statusCode).toBe(200);
  });
});
