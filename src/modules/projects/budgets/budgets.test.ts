import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { bringBudgetTo, createBudget, createItem, getBudget, uniqueCode } from "./test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const api = () => t;

describe("budgets CRUD", () => {
  it("creates a budget with the default percentages and zero totals", async () => {
    const code = uniqueCode();
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets",
      payload: {
        code,
        name: "Nave industrial",
        client_name: "Construcciones Peña SL",
        client_tax_id: "B12345674",
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      code,
      name: "Nave industrial",
      estado: "borrador",
      overheads_pct: "13.00",
      profit_pct: "6.00",
      discount_pct: "0.00",
      vat_pct: "21.00",
      retention_pct: "5.00",
      pem: "0.00",
      total: "0.00",
      client_tax_id: "B12345674",
    });
  });

  it("refuses a duplicate code with 409 and bad input with 400", async () => {
    const b = await createBudget(api(), t.adminToken);
    const dup = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets",
      payload: { code: b.code, name: "x" },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.headers["content-type"]).toContain("application/problem+json");
    const bad = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets",
      payload: {
        code: uniqueCode(),
        name: "x",
        vat_pct: "121",
        start_date: "2026-05-01",
        end_date: "2026-04-01",
      },
    });
    expect(bad.statusCode).toBe(400);
    const paths = bad.json().errors.map((e: { path: string }) => e.path);
    expect(paths).toContain("body.vat_pct");
    const badTax = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets",
      payload: { code: uniqueCode(), name: "x", client_tax_id: "B12345670" },
    });
    expect(badTax.statusCode).toBe(400);
  });

  it("answers 400 for a non-UUID id and 404 for an unknown one", async () => {
    const notUuid = await t.as(t.adminToken, { method: "GET", url: "/api/v1/budgets/123" });
    expect(notUuid.statusCode).toBe(400);
    const unknown = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/v1/budgets/0190a0b4-0000-7000-8000-000000000000",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().status).toBe(404);
  });

  it("lists with search and estado filters and pem computed per budget", async () => {
    const tag = uniqueCode("LIST");
    const a = await createBudget(api(), t.adminToken, { code: `${tag}-A`, name: "Reforma ático" });
    const b = await createBudget(api(), t.adminToken, { code: `${tag}-B`, name: "Piscina" });
    await createItem(api(), t.adminToken, { budget_id: a.id, quantity: "2", unit_price: "10.5" });
    await createItem(api(), t.adminToken, { budget_id: b.id, quantity: "3", unit_price: "1.25" });
    await bringBudgetTo(api(), t.adminToken, b.id, "cancelado");
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/v1/budgets?search=${tag}&limit=10` });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ total: 2, limit: 10, offset: 0 });
    expect(page.data.map((x: { pem: string }) => x.pem)).toEqual(["21.00", "3.75"]);
    const cancelled = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/budgets?search=${tag}&estado=cancelado`,
    });
    expect(cancelled.json().data.map((x: { code: string }) => x.code)).toEqual([`${tag}-B`]);
    const badFilter = await t.as(t.adminToken, { method: "GET", url: "/api/v1/budgets?estado=cerrado" });
    expect(badFilter.statusCode).toBe(400);
  });

  it("updates fields, keeps code unique and checks dates against the stored ones", async () => {
    const a = await createBudget(api(), t.adminToken, { start_date: "2026-03-01" });
    const b = await createBudget(api(), t.adminToken);
    const res = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/budgets/${a.id}`,
      payload: { name: "Rehabilitación fachada", discount_pct: "7.5" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Rehabilitación fachada", discount_pct: "7.50" });
    const clash = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/budgets/${a.id}`,
      payload: { code: b.code },
    });
    expect(clash.statusCode).toBe(409);
    const early = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/budgets/${a.id}`,
      payload: { end_date: "2026-02-01" },
    });
    expect(early.statusCode).toBe(400);
    const empty = await t.as(t.adminToken, { method: "PUT", url: `/api/v1/budgets/${a.id}`, payload: {} });
    expect(empty.statusCode).toBe(400);
  });

  it("deletes only borrador budgets, with their items", async () => {
    const draft = await createBudget(api(), t.adminToken);
    await createItem(api(), t.adminToken, { budget_id: draft.id, quantity: "1", unit_price: "1" });
    const del = await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/budgets/${draft.id}` });
    expect(del.statusCode).toBe(204);
    expect((await t.as(t.adminToken, { method: "GET", url: `/api/v1/budgets/${draft.id}` })).statusCode).toBe(
      404,
    );
    const approved = await createBudget(api(), t.adminToken);
    await bringBudgetTo(api(), t.adminToken, approved.id, "aprobado");
    const refused = await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/budgets/${approved.id}` });
    expect(refused.statusCode).toBe(409);
  });
});

describe("read-only budgets", () => {
  for (const estado of ["finalizado", "cancelado"]) {
    it(`answers 409 to update and delete of a ${estado} budget`, async () => {
      const b = await createBudget(api(), t.adminToken);
      await bringBudgetTo(api(), t.adminToken, b.id, estado);
      const update = await t.as(t.adminToken, {
        method: "PUT",
        url: `/api/v1/budgets/${b.id}`,
        payload: { name: "x" },
      });
      expect(update.statusCode).toBe(409);
      expect(update.json().estado).toBe(estado);
      const del = await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/budgets/${b.id}` });
      expect(del.statusCode).toBe(409);
      expect((await getBudget(api(), t.adminToken, b.id)).name).toBe(b.name);
    });
  }
});

describe("totals", () => {
  it("computes pem, pec, discounted, vat and total to the cent", async () => {
    const b = await createBudget(api(), t.adminToken, {
      overheads_pct: "13",
      profit_pct: "6",
      discount_pct: "2.5",
      vat_pct: "21",
    });
    const chapter = await createItem(api(), t.adminToken, {
      budget_id: b.id,
      kind: "chapter",
      summary: "Cimentación",
    });
    // 12.345 x 10.0001 = 123.4512345 -> 123.45; 7.5 x 3.3333 = 24.99975 -> 25.00; 0.333 x 0.0015 = 0.0004995 -> 0.00
    await createItem(api(), t.adminToken, {
      budget_id: b.id,
      parent_id: chapter.id,
      quantity: "12.345",
      unit_price: "10.0001",
    });
    await createItem(api(), t.adminToken, {
      budget_id: b.id,
      parent_id: chapter.id,
      quantity: "7.5",
      unit_price: "3.3333",
    });
    await createItem(api(), t.adminToken, { budget_id: b.id, quantity: "0.333", unit_price: "0.0015" });
    const totals = await getBudget(api(), t.adminToken, b.id);
    // pem 148.45; pec 148.45 x 1.19 = 176.6555 -> 176.66; discounted 176.66 x 0.975 = 172.2435 -> 172.24;
    // vat 172.24 x 0.21 = 36.1704 -> 36.17; total 208.41
    expect(totals).toMatchObject({
      pem: "148.45",
      pec: "176.66",
      discounted: "172.24",
      vat: "36.17",
      total: "208.41",
    });
  });
});

describe("permissions", () => {
  it("answers 403 on every budget route without the permission", async () => {
    const b = await createBudget(api(), t.adminToken);
    const nobody = await t.userWith(["activities:leer"]);
    const id = b.id;
    const calls = [
      { method: "GET", url: "/api/v1/budgets" },
      { method: "GET", url: `/api/v1/budgets/${id}` },
      { method: "POST", url: "/api/v1/budgets", payload: { code: uniqueCode(), name: "x" } },
      { method: "PUT", url: `/api/v1/budgets/${id}`, payload: { name: "x" } },
      { method: "DELETE", url: `/api/v1/budgets/${id}` },
      { method: "POST", url: `/api/v1/budgets/${id}/duplicate`, payload: {} },
      { method: "PUT", url: `/api/v1/budgets/${id}/estado`, payload: { estado: "cancelado" } },
      { method: "GET", url: `/api/v1/budgets/${id}/history` },
      { method: "GET", url: `/api/v1/budgets/${id}/export-bc3` },
      { method: "POST", url: "/api/v1/budgets/import-bc3" },
      { method: "POST", url: `/api/v1/budgets/${id}/import-bc3` },
    ] as const;
    for (const call of calls) {
      const res = await t.as(nobody.token, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
    }
    const reader = await t.userWith(["budgets:leer"]);
    expect((await t.as(reader.token, { method: "GET", url: `/api/v1/budgets/${id}` })).statusCode).toBe(200);
    const writer = await t.as(reader.token, {
      method: "PUT",
      url: `/api/v1/budgets/${id}`,
      payload: { name: "y" },
    });
    expect(writer.statusCode).toBe(403);
  });

  it("answers 401 without a token", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/budgets" });
    expect(res.statusCode).toBe(401);
  });
});
