import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";

let t: TestApp;
let companyA: string;
let companyB: string;

const post = (token: string, url: string, payload: Record<string, unknown>) =>
  t.as(token, { method: "POST", url, payload });

async function createFamily(company_id: string, code: string, name: string) {
  const res = await post(t.adminToken, "/api/products/families", { company_id, code, name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; code: string; company_id: string };
}

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Families A", "B12345674");
  companyB = await t.createCompany("Families B", "A58818501");
});
afterAll(async () => {
  await t?.close();
});

describe("/api/products/families", () => {
  it("creates, lists, reads and updates families; a new code carries over to the products", async () => {
    await createFamily(companyA, "MAT", "Materiales");
    const srv = await createFamily(companyA, "SRV", "Servicios");
    const list = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/products/families?company_id=${companyA}`,
    });
    expect(list.json()).toMatchObject({ total: 2, skip: 0, limit: 50 });
    const product = (
      await post(t.adminToken, "/api/products", {
        company_id: companyA,
        reference: "HORA",
        description: "Hora de oficial",
        family_code: "SRV",
      })
    ).json();

    const clash = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/products/families/${srv.id}`,
      payload: { code: "MAT" },
    });
    expectProblem(clash, 409);
    const renamed = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/products/families/${srv.id}`,
      payload: { code: "SERV", name: "Servicios y mano de obra" },
    });
    expect(renamed.json()).toMatchObject({ code: "SERV", name: "Servicios y mano de obra" });
    const read = await t.as(t.adminToken, { method: "GET", url: `/api/products/${product.id}` });
    expect(read.json().family_code).toBe("SERV");
    const family = await t.as(t.adminToken, { method: "GET", url: `/api/products/families/${srv.id}` });
    expect(family.json().code).toBe("SERV");
  });

  it("refuses duplicates and bad input", async () => {
    await createFamily(companyB, "DUP", "Primera");
    expectProblem(
      await post(t.adminToken, "/api/products/families", { company_id: companyB, code: "DUP", name: "x" }),
      409,
    );
    expectProblem(
      await post(t.adminToken, "/api/products/families", { company_id: companyB, code: "", name: "x" }),
      400,
    );
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/products/families/nope" }), 400);
    const unknown = "01900000-0000-7000-8000-000000000000";
    expectProblem(await t.as(t.adminToken, { method: "GET", url: `/api/products/families/${unknown}` }), 404);
    expectProblem(
      await t.as(t.adminToken, {
        method: "PUT",
        url: `/api/products/families/${unknown}`,
        payload: { name: "x" },
      }),
      404,
    );
  });

  it("follows the list conventions and hides inactive families", async () => {
    const old = await createFamily(companyB, "OLD", "Antigua");
    await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/products/families/${old.id}`,
      payload: { is_active: false },
    });
    const active = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/products/families?company_id=${companyB}`,
    });
    expect(active.json().data.map((f: { code: string }) => f.code)).not.toContain("OLD");
    const all = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/products/families?company_id=${companyB}&include_inactive=true&skip=1&limit=1`,
    });
    expect(all.json()).toMatchObject({ skip: 1, limit: 1, total: 2 });
    const search = await t.as(t.adminToken, { method: "GET", url: "/api/products/families?search=primera" });
    expect(search.json().data.map((f: { code: string }) => f.code)).toEqual(["DUP"]);
    expect(
      (await t.as(t.adminToken, { method: "GET", url: "/api/products/families?limit=10000" })).statusCode,
    ).toBe(200);
    expectProblem(
      await t.as(t.adminToken, { method: "GET", url: "/api/products/families?limit=10001" }),
      400,
    );
  });
});

describe("OpenAPI document", () => {
  it("documents every route with its responses", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const expected: Record<string, string[]> = {
      "/api/products": ["get", "post"],
      "/api/products/{id}": ["delete", "get", "put"],
      "/api/products/families": ["get", "post"],
      "/api/products/families/{id}": ["get", "put"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(Object.keys(spec.paths[path] ?? {}).sort(), path).toEqual(methods);
      for (const method of methods)
        expect(Object.keys(spec.paths[path][method].responses), path).toContain("403");
    }
  });
});

describe("/api/products/families company restriction and permissions", () => {
  it("hides another company's families from a restricted user", async () => {
    const theirs = await createFamily(companyB, "SECRET", "Secreta");
    const user = await t.userWith(["products:leer", "products:crear", "products:editar"], {
      companyId: companyA,
    });
    const families = (
      await t.as(user.token, { method: "GET", url: "/api/products/families?include_inactive=true" })
    ).json();
    expect(families.data.every((f: { company_id: string }) => f.company_id === companyA)).toBe(true);
    expect(families.total).toBe(families.data.length);
    expectProblem(await t.as(user.token, { method: "GET", url: `/api/products/families/${theirs.id}` }), 404);
    expectProblem(
      await t.as(user.token, {
        method: "PUT",
        url: `/api/products/families/${theirs.id}`,
        payload: { name: "x" },
      }),
      404,
    );
    expectProblem(
      await post(user.token, "/api/products/families", { company_id: companyB, code: "N", name: "N" }),
      404,
    );
    const theirFamilyOnMyProduct = await post(user.token, "/api/products", {
      reference: "MINE",
      description: "x",
      family_code: "SECRET",
    });
    expectProblem(theirFamilyOnMyProduct, 400);
  });

  it("answers 403 on every route without the permission", async () => {
    const user = await t.userWith(["clients:leer"]);
    const id = "01900000-0000-7000-8000-000000000000";
    const calls = [
      { method: "GET" as const, url: "/api/products/families" },
      { method: "GET" as const, url: `/api/products/families/${id}` },
      { method: "POST" as const, url: "/api/products/families", payload: { code: "X", name: "X" } },
      { method: "PUT" as const, url: `/api/products/families/${id}`, payload: { name: "X" } },
    ];
    for (const call of calls) expectProblem(await t.as(user.token, call), 403);
  });
});
