import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";
import type { Actor } from "../../platform/auth/actor.js";
import type { AuthedCtx } from "../../platform/http/context.js";
import { getContact, listContacts } from "./service.js";

let t: TestApp;
let companyA: string;
let companyB: string;
const ids: Record<string, string> = {};

async function createContact(payload: Record<string, unknown>) {
  const res = await t.as(t.adminToken, { method: "POST", url: "/api/clients", payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const list = async (query: string, token = t.adminToken) => {
  const res = await t.as(token, { method: "GET", url: `/api/clients?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    data: { id: string; company_id: string; name: string }[];
    total: number;
    skip: number;
    limit: number;
  };
};

function ctxFor(companyId: string | null): AuthedCtx {
  const actor: Actor = {
    kind: "user",
    userId: "01900000-0000-7000-8000-000000000001",
    email: "service@example.com",
    fullName: "Service caller",
    permissions: new Set(["clients:leer"]),
    roles: [],
    companyId,
  };
  return { db: t.db, tenantId: "default", actor };
}

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("List A", "B12345674");
  companyB = await t.createCompany("List B", "A58818501");
  ids.customer = await createContact({
    company_id: companyA,
    contact_type: "customer",
    name: "Aceros Levante",
    legal_name: "Siderúrgica del Levante, S.A.",
    tax_id: "A28015865",
    email: "compras@aceroslevante.example",
  });
  ids.supplier = await createContact({ company_id: companyA, contact_type: "supplier", name: "Maderas Sur" });
  ids.both = await createContact({ company_id: companyA, contact_type: "both", name: "Vidrios Centro" });
  ids.inactive = await createContact({
    company_id: companyA,
    contact_type: "customer",
    name: "Cerrada",
    is_active: false,
  });
  ids.otherCompany = await createContact({
    company_id: companyB,
    contact_type: "customer",
    name: "Secreto B",
  });
});
afterAll(async () => {
  await t?.close();
});

describe("OpenAPI document", () => {
  it("documents every route with its responses", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const expected: Record<string, string[]> = {
      "/api/clients": ["get", "post"],
      "/api/clients/{id}": ["delete", "get", "put"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(Object.keys(spec.paths[path] ?? {}).sort(), path).toEqual(methods);
      for (const method of methods)
        expect(Object.keys(spec.paths[path][method].responses), path).toContain("403");
    }
  });
});

describe("GET /api/clients", () => {
  it("returns the list envelope with the default and maximum page sizes", async () => {
    const page = await list("");
    expect(page).toMatchObject({ skip: 0, limit: 50, total: 4 });
    expect(page.data).toHaveLength(4);
    expect((await list("limit=10000")).limit).toBe(10000);
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/clients?limit=10001" }), 400);
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/clients?limit=0" }), 400);
    expectProblem(
      await t.as(t.adminToken, { method: "GET", url: "/api/clients?include_inactive=maybe" }),
      400,
    );
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/clients?contact_type=lead" }), 400);
  });

  it("pages with skip in a stable order", async () => {
    const all = await list(`company_id=${companyA}`);
    const pages = [
      await list(`company_id=${companyA}&limit=2`),
      await list(`company_id=${companyA}&skip=2&limit=2`),
    ];
    expect(pages.flatMap((p) => p.data)).toEqual(all.data);
    expect(pages.map((p) => p.total)).toEqual([3, 3]);
    expect((await list(`company_id=${companyA}&skip=3`)).data).toEqual([]);
  });

  it("searches name, legal name, tax id (however typed) and e-mail", async () => {
    const found = async (search: string) =>
      (await list(`search=${encodeURIComponent(search)}`)).data.map((c) => c.id);
    expect(await found("levante")).toEqual([ids.customer]);
    expect(await found("siderúrgica")).toEqual([ids.customer]);
    expect(await found("a-28015865")).toEqual([ids.customer]);
    expect(await found("aceroslevante.example")).toEqual([ids.customer]);
    expect(await found("100%_")).toEqual([]);
  });

  it("filters by contact type (customer and supplier include both) and hides inactive ones", async () => {
    const idsOf = async (query: string) => (await list(query)).data.map((c) => c.id).sort();
    expect(await idsOf(`company_id=${companyA}&contact_type=customer`)).toEqual(
      [ids.customer, ids.both].sort(),
    );
    expect(await idsOf(`company_id=${companyA}&contact_type=supplier`)).toEqual(
      [ids.supplier, ids.both].sort(),
    );
    expect(await idsOf(`company_id=${companyA}&contact_type=both`)).toEqual([ids.both]);
    expect(await idsOf(`company_id=${companyA}&include_inactive=true`)).toContain(ids.inactive);
    expect(await idsOf(`company_id=${companyA}&include_inactive=false`)).not.toContain(ids.inactive);
  });
});

describe("contacts service (used by the MCP server)", () => {
  it("lists by exact active state and applies the caller's company", async () => {
    const inactiveOnly = await listContacts(ctxFor(null), { isActive: false, limit: 50, offset: 0 });
    expect(inactiveOnly.rows.map((r) => r.id)).toEqual([ids.inactive]);
    const restricted = await listContacts(ctxFor(companyB), { includeInactive: true, limit: 50, offset: 0 });
    expect(restricted.rows.map((r) => r.id)).toEqual([ids.otherCompany]);
    expect((await getContact(ctxFor(companyA), ids.customer)).name).toBe("Aceros Levante");
    await expect(getContact(ctxFor(companyB), ids.customer)).rejects.toMatchObject({ status: 404 });
  });
});

describe("/api/clients company restriction and permissions", () => {
  it("makes another company's contacts invisible to a restricted user", async () => {
    const user = await t.userWith(["clients:leer", "clients:crear", "clients:editar", "clients:eliminar"], {
      companyId: companyA,
    });
    const theirs = ids.otherCompany;
    expectProblem(await t.as(user.token, { method: "GET", url: `/api/clients/${theirs}` }), 404);
    expectProblem(
      await t.as(user.token, { method: "PUT", url: `/api/clients/${theirs}`, payload: { name: "Mío" } }),
      404,
    );
    expectProblem(await t.as(user.token, { method: "DELETE", url: `/api/clients/${theirs}` }), 404);

    const visible = await list("include_inactive=true&limit=10000", user.token);
    expect(visible.data.every((c) => c.company_id === companyA)).toBe(true);
    expect(visible.total).toBe((await list(`company_id=${companyA}&include_inactive=true`)).total);
    expect(await list(`company_id=${companyB}`, user.token)).toMatchObject({ data: [], total: 0 });
    expect((await list("search=secreto", user.token)).total).toBe(0);

    const intoB = await t.as(user.token, {
      method: "POST",
      url: "/api/clients",
      payload: { company_id: companyB, contact_type: "customer", name: "Intruso" },
    });
    expectProblem(intoB, 404);
    const own = await t.as(user.token, {
      method: "POST",
      url: "/api/clients",
      payload: { contact_type: "customer", name: "Propio" },
    });
    expect(own.statusCode).toBe(201);
    expect(own.json().company_id).toBe(companyA);
    expect((await list(`company_id=${companyB}&include_inactive=true`)).total).toBe(1);
  });

  it("answers 403 on every route without the permission", async () => {
    const user = await t.userWith(["products:leer", "agents:leer"]);
    const id = ids.customer;
    const calls = [
      { method: "GET" as const, url: "/api/clients" },
      { method: "GET" as const, url: `/api/clients/${id}` },
      { method: "POST" as const, url: "/api/clients", payload: { contact_type: "customer", name: "X" } },
      { method: "PUT" as const, url: `/api/clients/${id}`, payload: { name: "X" } },
      { method: "DELETE" as const, url: `/api/clients/${id}` },
    ];
    for (const call of calls) expectProblem(await t.as(user.token, call), 403);
    const reader = await t.userWith(["clients:leer"]);
    expectProblem(
      await t.as(reader.token, {
        method: "POST",
        url: "/api/clients",
        payload: { contact_type: "customer", name: "X" },
      }),
      403,
    );
    expect((await t.as(reader.token, { method: "GET", url: `/api/clients/${id}` })).statusCode).toBe(200);
  });
});
