import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import type { Actor } from "../../../platform/auth/actor.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { getProduct, listProducts } from "./service.js";

let t: TestApp;
let companyA: string;
let companyB: string;

const post = (token: string, url: string, payload: Record<string, unknown>) =>
  t.as(token, { method: "POST", url, payload });

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Products A", "B12345674");
  companyB = await t.createCompany("Products B", "A58818501");
  for (const [company_id, code, name] of [
    [companyA, "MAT", "Materiales"],
    [companyA, "SRV", "Servicios"],
    [companyB, "OTR", "Otros"],
  ]) {
    expect((await post(t.adminToken, "/api/products/families", { company_id, code, name })).statusCode).toBe(
      201,
    );
  }
});
afterAll(async () => {
  await t?.close();
});

describe("/api/products CRUD", () => {
  it("creates, reads, updates and deactivates a product with money as decimal strings", async () => {
    const created = await post(t.adminToken, "/api/products", {
      company_id: companyA,
      reference: "CEM-25",
      description: "Cemento gris 25 kg",
      family_code: "MAT",
      sale_price: "1234.5",
      cost_price: "980",
      vat_rate: "10",
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json();
    expect(product).toMatchObject({
      company_id: companyA,
      reference: "CEM-25",
      family_code: "MAT",
      sale_price: "1234.50",
      cost_price: "980.00",
      vat_rate: "10",
      is_active: true,
    });
    expect((await t.as(t.adminToken, { method: "GET", url: `/api/products/${product.id}` })).json()).toEqual(
      product,
    );

    const updated = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/products/${product.id}`,
      payload: { sale_price: "0.10", family_code: null, vat_rate: "21" },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ sale_price: "0.10", family_code: null, vat_rate: "21" });

    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/products/${product.id}` })).statusCode,
    ).toBe(204);
    const list = await t.as(t.adminToken, { method: "GET", url: "/api/products?search=CEM-25" });
    expect(list.json().total).toBe(0);
    const all = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/products?search=CEM-25&include_inactive=true",
    });
    expect(all.json().data[0]).toMatchObject({ id: product.id, is_active: false });
  });

  it("defaults prices to 0.00 and VAT to 21", async () => {
    const res = await post(t.adminToken, "/api/products", {
      company_id: companyA,
      reference: "MIN",
      description: "x",
    });
    expect(res.json()).toMatchObject({
      sale_price: "0.00",
      cost_price: "0.00",
      vat_rate: "21",
      family_code: null,
    });
  });

  it("refuses a duplicate reference with 409, in create and update", async () => {
    const base = { company_id: companyA, description: "Ladrillo" };
    expect((await post(t.adminToken, "/api/products", { ...base, reference: "LAD" })).statusCode).toBe(201);
    expectProblem(await post(t.adminToken, "/api/products", { ...base, reference: "LAD" }), 409);
    const inB = await post(t.adminToken, "/api/products", {
      ...base,
      company_id: companyB,
      reference: "LAD",
    });
    expect(inB.statusCode).toBe(201);
    const other = (await post(t.adminToken, "/api/products", { ...base, reference: "LAD-2" })).json();
    expectProblem(
      await t.as(t.adminToken, {
        method: "PUT",
        url: `/api/products/${other.id}`,
        payload: { reference: "LAD" },
      }),
      409,
    );
  });

  it("rejects bad prices, VAT rates and families with 400", async () => {
    const base = { company_id: companyA, reference: "BAD", description: "x" };
    const cases: [Record<string, unknown>, string][] = [
      [{ sale_price: "-1.00" }, "sale_price"],
      [{ cost_price: "1.234" }, "cost_price"],
      [{ sale_price: 12.5 }, "sale_price"],
      [{ vat_rate: "7" }, "vat_rate"],
      [{ vat_rate: 21 }, "vat_rate"],
      [{ family_code: "NOPE" }, "family_code"],
      [{ family_code: "OTR" }, "family_code"],
    ];
    for (const [extra, field] of cases) {
      const problem = expectProblem(await post(t.adminToken, "/api/products", { ...base, ...extra }), 400);
      expect(
        problem.errors?.some((e) => e.path.includes(field)),
        JSON.stringify(problem),
      ).toBe(true);
    }
  });

  it("answers 400 for a non-UUID id and 404 for an unknown one", async () => {
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/products/123" }), 400);
    const unknown = "01900000-0000-7000-8000-000000000000";
    expectProblem(await t.as(t.adminToken, { method: "GET", url: `/api/products/${unknown}` }), 404);
    expectProblem(
      await t.as(t.adminToken, {
        method: "PUT",
        url: `/api/products/${unknown}`,
        payload: { description: "x" },
      }),
      404,
    );
    expectProblem(await t.as(t.adminToken, { method: "DELETE", url: `/api/products/${unknown}` }), 404);
  });
});

describe("/api/products list", () => {
  it("follows the list conventions and filters by search and family", async () => {
    for (let i = 1; i <= 3; i++)
      await post(t.adminToken, "/api/products", {
        company_id: companyB,
        reference: `TUB-${i}`,
        description: `Tubo de cobre ${i}`,
        family_code: "OTR",
      });
    const page = (
      await t.as(t.adminToken, { method: "GET", url: `/api/products?company_id=${companyB}` })
    ).json();
    expect(page).toMatchObject({ skip: 0, limit: 50 });
    expect(page.total).toBe(page.data.length);
    const second = (
      await t.as(t.adminToken, { method: "GET", url: `/api/products?company_id=${companyB}&skip=1&limit=1` })
    ).json();
    expect(second).toMatchObject({ skip: 1, limit: 1, total: page.total, data: [page.data[1]] });
    expect((await t.as(t.adminToken, { method: "GET", url: "/api/products?limit=10000" })).statusCode).toBe(
      200,
    );
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/products?limit=10001" }), 400);

    const byDescription = await t.as(t.adminToken, { method: "GET", url: "/api/products?search=cobre%202" });
    expect(byDescription.json().data.map((p: { reference: string }) => p.reference)).toEqual(["TUB-2"]);
    const byReference = await t.as(t.adminToken, { method: "GET", url: "/api/products?search=tub-" });
    expect(byReference.json().total).toBe(3);
    const byFamily = await t.as(t.adminToken, { method: "GET", url: "/api/products?family_code=OTR" });
    expect(byFamily.json().data.every((p: { family_code: string }) => p.family_code === "OTR")).toBe(true);
    expect(byFamily.json().total).toBe(3);
  });
});

describe("/api/products company restriction and permissions", () => {
  it("the list's prepared statement (one per filter shape) answers each company with its own rows only", async () => {
    const restricted = await t.userWith(["products:leer"], { companyId: companyA });
    const page = async (token: string, query: string) =>
      (await t.as(token, { method: "GET", url: `/api/products?${query}` })).json() as {
        total: number;
        data: { company_id: string }[];
      };
    // The same shape (a company, active only) with alternating companies and callers.
    for (let i = 0; i < 3; i++) {
      for (const company of [companyA, companyB]) {
        const listed = await page(t.adminToken, `company_id=${company}`);
        expect(listed.data.length).toBeGreaterThan(0);
        expect(listed.data.every((p) => p.company_id === company)).toBe(true);
      }
      const own = await page(restricted.token, "limit=10000");
      expect(own.data.length).toBeGreaterThan(0);
      expect(own.data.every((p) => p.company_id === companyA)).toBe(true);
      expect(await page(restricted.token, `company_id=${companyB}`)).toMatchObject({ total: 0, data: [] });
    }
  });

  it("hides another company's products from a restricted user", async () => {
    const theirs = (
      await post(t.adminToken, "/api/products", {
        company_id: companyB,
        reference: "SECRET",
        description: "x",
      })
    ).json();
    const user = await t.userWith(
      ["products:leer", "products:crear", "products:editar", "products:eliminar"],
      {
        companyId: companyA,
      },
    );
    expectProblem(await t.as(user.token, { method: "GET", url: `/api/products/${theirs.id}` }), 404);
    expectProblem(
      await t.as(user.token, {
        method: "PUT",
        url: `/api/products/${theirs.id}`,
        payload: { description: "y" },
      }),
      404,
    );
    expectProblem(await t.as(user.token, { method: "DELETE", url: `/api/products/${theirs.id}` }), 404);
    const list = (
      await t.as(user.token, { method: "GET", url: "/api/products?limit=10000&include_inactive=true" })
    ).json();
    expect(list.data.every((p: { company_id: string }) => p.company_id === companyA)).toBe(true);
    const adminList = (
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/products?company_id=${companyA}&limit=10000&include_inactive=true`,
      })
    ).json();
    expect(list.total).toBe(adminList.total);
    expect((await t.as(user.token, { method: "GET", url: "/api/products?search=SECRET" })).json().total).toBe(
      0,
    );
    expectProblem(
      await post(user.token, "/api/products", { company_id: companyB, reference: "X", description: "x" }),
      404,
    );
  });

  it("answers 403 on every route without the permission", async () => {
    const user = await t.userWith(["agents:leer"]);
    const id = "01900000-0000-7000-8000-000000000000";
    const calls = [
      { method: "GET" as const, url: "/api/products" },
      { method: "GET" as const, url: `/api/products/${id}` },
      { method: "POST" as const, url: "/api/products", payload: { reference: "X", description: "X" } },
      { method: "PUT" as const, url: `/api/products/${id}`, payload: { description: "X" } },
      { method: "DELETE" as const, url: `/api/products/${id}` },
    ];
    for (const call of calls) expectProblem(await t.as(user.token, call), 403);
  });
});

describe("products service (used by the MCP server)", () => {
  const ctxFor = (companyId: string | null): AuthedCtx => {
    const actor: Actor = {
      kind: "user",
      userId: "01900000-0000-7000-8000-000000000001",
      email: "service@example.com",
      fullName: "Service caller",
      permissions: new Set(["products:leer"]),
      roles: [],
      companyId,
    };
    return { db: t.db, tenantId: "default", actor };
  };

  it("finds a product by reference within the caller's companies", async () => {
    for (const company_id of [companyA, companyB])
      await post(t.adminToken, "/api/products", {
        company_id,
        reference: "SHARED-REF",
        description: company_id,
      });
    await expect(getProduct(ctxFor(null), { reference: "SHARED-REF" })).rejects.toMatchObject({
      status: 400,
    });
    expect((await getProduct(ctxFor(null), { reference: "SHARED-REF", companyId: companyB })).companyId).toBe(
      companyB,
    );
    expect((await getProduct(ctxFor(companyA), { reference: "SHARED-REF" })).companyId).toBe(companyA);
    await expect(getProduct(ctxFor(companyA), { reference: "NOWHERE" })).rejects.toMatchObject({
      status: 404,
    });
    const inactive = await listProducts(ctxFor(companyA), { isActive: false, limit: 50, offset: 0 });
    expect(inactive.rows.every((p) => !p.isActive && p.companyId === companyA)).toBe(true);
    expect(inactive.total).toBe(inactive.rows.length);
  });
});
