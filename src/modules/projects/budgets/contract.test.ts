import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { insertBudget, setBudgetEstado } from "../certifications/test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const put = (id: string, payload: Record<string, unknown>) =>
  t.as(t.adminToken, { method: "PUT", url: `/api/v1/budgets/${id}`, payload });

describe("the contract data printed on certifications", () => {
  it("is empty on a new budget and set field by field, also while the budget is in execution", async () => {
    const created = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets",
      payload: { code: "CONTRATO-1", name: "Nave industrial", site_address: "Polígono Cantabria, parcela 7" },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      site_address: "Polígono Cantabria, parcela 7",
      owner_address: "",
      contract_amount: null,
      file_number: "",
      site_manager_name: "",
      contractor_signatory: "",
      owner_signatory: "",
    });
    const id = created.json().id;
    await setBudgetEstado(t.db, id, "en_ejecucion");
    const res = await put(id, {
      contract_amount: "125000.5",
      file_number: " EXP-7/2025 ",
      site_manager_name: "Pedro Ortiz, ingeniero de edificación",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      contract_amount: "125000.50",
      file_number: "EXP-7/2025",
      site_manager_name: "Pedro Ortiz, ingeniero de edificación",
      site_address: "Polígono Cantabria, parcela 7",
    });
    const cleared = await put(id, { contract_amount: null });
    expect(cleared.json().contract_amount).toBeNull();
  });

  it.each([
    [{ contract_amount: "-1" }, "body.contract_amount"],
    [{ contract_amount: 125000 }, "body.contract_amount"],
    [{ contract_amount: "12.345" }, "body.contract_amount"],
    [{ file_number: "x".repeat(51) }, "body.file_number"],
    [{ owner_signatory: "x".repeat(201) }, "body.owner_signatory"],
    [{ site_address: 7 }, "body.site_address"],
  ])("refuses %j with a 400 naming %s", async (payload, path) => {
    const budget = await insertBudget(t.db);
    const body = expectProblem(await put(budget.id, payload), 400);
    expect(body.errors?.map((e) => e.path)).toContain(path);
  });

  it("cannot change a finished budget (409)", async () => {
    const budget = await insertBudget(t.db, { estado: "finalizado" });
    expectProblem(await put(budget.id, { file_number: "EXP-1" }), 409);
  });
});
