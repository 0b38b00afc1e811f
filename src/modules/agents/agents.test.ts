import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";

let t: TestApp;
let companyA: string;
let companyB: string;

function createAgent(token: string, payload: Record<string, unknown>) {
  return t.as(token, { method: "POST", url: "/api/agents", payload });
}

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Agents A", "B12345674");
  companyB = await t.createCompany("Agents B", "A58818501");
});
afterAll(async () => {
  await t?.close();
});

describe("/api/agents CRUD", () => {
  it("creates, reads, updates and deactivates an agent", async () => {
    const created = await createAgent(t.adminToken, {
      company_id: companyA,
      code: "AG1",
      name: "Lucía Martín",
      tax_id: "12345678-z",
      email: "lucia@example.com",
      commission_pct: "5.5",
    });
    expect(created.statusCode, created.body).toBe(201);
    const agent = created.json();
    expect(agent).toMatchObject({
      company_id: companyA,
      code: "AG1",
      tax_id: "12345678Z",
      commission_pct: "5.50",
      is_active: true,
    });

    const read = await t.as(t.adminToken, { method: "GET", url: `/api/agents/${agent.id}` });
    expect(read.json()).toEqual(agent);

    const updated = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/agents/${agent.id}`,
      payload: { name: "Lucía Martín Ruiz", commission_pct: "7", tax_id: null },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: "Lucía Martín Ruiz", commission_pct: "7.00", tax_id: null });

    const removed = await t.as(t.adminToken, { method: "DELETE", url: `/api/agents/${agent.id}` });
    expect(removed.statusCode).toBe(204);
    const after = await t.as(t.adminToken, { method: "GET", url: `/api/agents/${agent.id}` });
    expect(after.json().is_active).toBe(false);
    const list = await t.as(t.adminToken, { method: "GET", url: `/api/agents?company_id=${companyA}` });
    expect(list.json().data.map((a: { id: string }) => a.id)).not.toContain(agent.id);
    const all = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/agents?company_id=${companyA}&include_inactive=true`,
    });
    expect(all.json().data.map((a: { id: string }) => a.id)).toContain(agent.id);
  });

  it("refuses a duplicate code in the company with 409 but allows it in another company", async () => {
    expect(
      (await createAgent(t.adminToken, { company_id: companyA, code: "DUP", name: "One" })).statusCode,
    ).toBe(201);
    expectProblem(await createAgent(t.adminToken, { company_id: companyA, code: "DUP", name: "Two" }), 409);
    expect(
      (await createAgent(t.adminToken, { company_id: companyB, code: "DUP", name: "Three" })).statusCode,
    ).toBe(201);
    const other = (
      await createAgent(t.adminToken, { company_id: companyA, code: "OTHER", name: "Four" })
    ).json();
    const clash = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/agents/${other.id}`,
      payload: { code: "DUP" },
    });
    expectProblem(clash, 409);
  });

  it("validates commission_pct and tax_id", async () => {
    for (const commission_pct of ["100.01", "-1", "abc", "1.234", 5]) {
      const res = await createAgent(t.adminToken, {
        company_id: companyA,
        code: "BAD",
        name: "X",
        commission_pct,
      });
      const problem = expectProblem(res, 400);
      expect(problem.errors?.some((e) => e.path.includes("commission_pct"))).toBe(true);
    }
    const badTaxId = await createAgent(t.adminToken, {
      company_id: companyA,
      code: "BAD",
      name: "X",
      tax_id: "12345678A",
    });
    expect(expectProblem(badTaxId, 400).errors?.some((e) => e.path.includes("tax_id"))).toBe(true);
    const full = await createAgent(t.adminToken, {
      company_id: companyA,
      code: "FULL",
      name: "Full",
      commission_pct: "100",
    });
    expect(full.json().commission_pct).toBe("100.00");
  });

  it("answers 400 for a non-UUID id, 404 for an unknown one and 400 for an unknown company", async () => {
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/agents/not-a-uuid" }), 400);
    const unknown = "01900000-0000-7000-8000-000000000000";
    expectProblem(await t.as(t.adminToken, { method: "GET", url: `/api/agents/${unknown}` }), 404);
    expectProblem(
      await t.as(t.adminToken, { method: "PUT", url: `/api/agents/${unknown}`, payload: { name: "x" } }),
      404,
    );
    expectProblem(await t.as(t.adminToken, { method: "DELETE", url: `/api/agents/${unknown}` }), 404);
    expectProblem(await createAgent(t.adminToken, { company_id: unknown, code: "Z", name: "Z" }), 404);
    expectProblem(await createAgent(t.adminToken, { code: "Z", name: "Z" }), 400);
  });
});

describe("OpenAPI document", () => {
  it("documents every route with its responses", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const expected: Record<string, string[]> = {
      "/api/agents": ["get", "post"],
      "/api/agents/{id}": ["delete", "get", "put"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(Object.keys(spec.paths[path] ?? {}).sort(), path).toEqual(methods);
      for (const method of methods)
        expect(Object.keys(spec.paths[path][method].responses), path).toContain("403");
    }
  });
});

describe("/api/agents list", () => {
  it("follows the list conventions", async () => {
    for (let i = 1; i <= 3; i++)
      await createAgent(t.adminToken, { company_id: companyB, code: `P${i}`, name: `Paged agent ${i}` });
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/agents?company_id=${companyB}` });
    const page = res.json();
    expect(page).toMatchObject({ skip: 0, limit: 50 });
    expect(page.total).toBe(page.data.length);
    const second = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/agents?company_id=${companyB}&skip=1&limit=1`,
    });
    expect(second.json()).toMatchObject({ skip: 1, limit: 1, total: page.total });
    expect(second.json().data).toEqual([page.data[1]]);
    expect((await t.as(t.adminToken, { method: "GET", url: "/api/agents?limit=10000" })).statusCode).toBe(
      200,
    );
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/agents?limit=10001" }), 400);
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/agents?skip=-1" }), 400);
    const search = await t.as(t.adminToken, { method: "GET", url: "/api/agents?search=paged%20agent%202" });
    expect(search.json().data.map((a: { code: string }) => a.code)).toEqual(["P2"]);
  });
});

describe("/api/agents company restriction and permissions", () => {
  it("hides another company's agents from a restricted user", async () => {
    const mine = (
      await createAgent(t.adminToken, { company_id: companyA, code: "MINE", name: "Mine" })
    ).json();
    const theirs = (
      await createAgent(t.adminToken, { company_id: companyB, code: "THEIRS", name: "Theirs" })
    ).json();
    const user = await t.userWith(["agents:leer", "agents:crear", "agents:editar", "agents:eliminar"], {
      companyId: companyA,
    });
    expectProblem(await t.as(user.token, { method: "GET", url: `/api/agents/${theirs.id}` }), 404);
    expectProblem(
      await t.as(user.token, { method: "PUT", url: `/api/agents/${theirs.id}`, payload: { name: "x" } }),
      404,
    );
    expectProblem(await t.as(user.token, { method: "DELETE", url: `/api/agents/${theirs.id}` }), 404);
    expect((await t.as(user.token, { method: "GET", url: `/api/agents/${mine.id}` })).statusCode).toBe(200);

    const list = (await t.as(user.token, { method: "GET", url: "/api/agents?limit=10000" })).json();
    expect(list.data.every((a: { company_id: string }) => a.company_id === companyA)).toBe(true);
    const adminList = (
      await t.as(t.adminToken, { method: "GET", url: `/api/agents?company_id=${companyA}&limit=10000` })
    ).json();
    expect(list.total).toBe(adminList.total);
    const asked = (
      await t.as(user.token, { method: "GET", url: `/api/agents?company_id=${companyB}` })
    ).json();
    expect(asked).toMatchObject({ data: [], total: 0 });

    expectProblem(await createAgent(user.token, { company_id: companyB, code: "X", name: "X" }), 404);
    const implicit = await createAgent(user.token, { code: "IMPLICIT", name: "Implicit" });
    expect(implicit.statusCode).toBe(201);
    expect(implicit.json().company_id).toBe(companyA);
  });

  it("answers 403 on every route without the permission", async () => {
    const user = await t.userWith(["products:leer"]);
    const id = "01900000-0000-7000-8000-000000000000";
    const calls = [
      { method: "GET" as const, url: "/api/agents" },
      { method: "GET" as const, url: `/api/agents/${id}` },
      { method: "POST" as const, url: "/api/agents", payload: { code: "X", name: "X" } },
      { method: "PUT" as const, url: `/api/agents/${id}`, payload: { name: "X" } },
      { method: "DELETE" as const, url: `/api/agents/${id}` },
    ];
    for (const call of calls) expectProblem(await t.as(user.token, call), 403);
  });
});
