import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { insertBudget, insertItem } from "./test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A budget with one item (100 x 10,00) and certification 1 of 40 units in April. */
async function draft(budgetValues: Parameters<typeof insertBudget>[1] = {}) {
  const budget = await insertBudget(t.db, budgetValues);
  const item = await insertItem(t.db, budget.id, { code: "01", quantity: "100", unitPrice: "10" });
  const res = await t.as(t.adminToken, {
    method: "POST",
    url: "/api/v1/certifications",
    payload: {
      budget_id: budget.id,
      period_start: "2025-04-01",
      period_end: "2025-04-30",
      lines: [{ budget_item_id: item.id, quantity_to_origin: "40" }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { budget, id: res.json().id as string };
}

const patch = (id: string, payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "PATCH", url: `/api/v1/certifications/${id}`, payload });
const setEstado = (id: string, estado: string) =>
  t.as(t.adminToken, { method: "PUT", url: `/api/v1/certifications/${id}/estado`, payload: { estado } });

describe("PATCH /certifications/{id}", () => {
  it("sets the issue place and date and its own retention, which the totals apply", async () => {
    const { id } = await draft({ retentionPct: "5" });
    const before = await t.as(t.adminToken, { method: "GET", url: `/api/v1/certifications/${id}` });
    expect(before.json()).toMatchObject({ issue_place: "", issue_date: null, retention_pct: null });
    // 400,00 + 13 % + 6 % = 476,00 base; 21 % VAT 99,96; total 575,96.
    expect(before.json().totals).toMatchObject({
      taxable_base: "476.00",
      retention_pct: "5.00",
      retention: "23.80",
    });

    const res = await patch(id, { issue_place: " Logroño ", issue_date: "2025-04-30", retention_pct: "10" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      issue_place: "Logroño",
      issue_date: "2025-04-30",
      retention_pct: "10.00",
    });
    expect(res.json().totals).toMatchObject({
      total: "575.96",
      retention_pct: "10.00",
      retention: "47.60",
      net_payable: "528.36",
    });

    const back = await patch(id, { retention_pct: null });
    expect(back.json()).toMatchObject({ issue_place: "Logroño", retention_pct: null });
    expect(back.json().totals).toMatchObject({ retention_pct: "5.00", net_payable: "552.16" });
  });

  it.each([
    [{}, "body"],
    [{ issue_date: "2025-02-30" }, "body.issue_date"],
    [{ issue_date: "2025-03-31" }, "body.issue_date"],
    [{ retention_pct: "101" }, "body.retention_pct"],
    [{ retention_pct: "-1" }, "body.retention_pct"],
    [{ retention_pct: 5 }, "body.retention_pct"],
    [{ issue_place: "x".repeat(101) }, "body.issue_place"],
  ])("refuses %j with a 400 naming %s", async (payload, path) => {
    const { id } = await draft();
    const body = expectProblem(await patch(id, payload), 400);
    if (path === "body") expect(body.detail).toMatch(/at least one field/);
    else expect(body.errors?.map((e) => e.path)).toContain(path);
  });

  it("changes the issue data once issued but not the retention; nothing once validated (409)", async () => {
    const { id } = await draft();
    expect((await setEstado(id, "emitida")).statusCode).toBe(200);
    expect((await patch(id, { issue_date: "2025-05-02" })).statusCode).toBe(200);
    expectProblem(await patch(id, { retention_pct: "3" }), 409);
    expect((await setEstado(id, "validada")).statusCode).toBe(200);
    expectProblem(await patch(id, { issue_place: "Haro" }), 409);
  });

  it("needs certifications:editar; another company's certification is a 404", async () => {
    const companyA = await t.createCompany("Obras A", "B26123455");
    const companyB = await t.createCompany("Obras B", "B12345674");
    const { id } = await draft({ companyId: companyA });
    const reader = await t.userWith(["certifications:leer"]);
    expectProblem(await patch(id, { issue_place: "Haro" }, reader.token), 403);
    const other = await t.userWith(["certifications:leer", "certifications:editar"], { companyId: companyB });
    expectProblem(await patch(id, { issue_place: "Haro" }, other.token), 404);
    expectProblem(await patch("0190f5a0-0000-7000-8000-000000000000", { issue_place: "Haro" }), 404);
  });
});
