import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { bringBudgetTo, createBudget, createItem, uniqueCode } from "./test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const tree = async (budgetId: string) =>
  (
    await t.as(t.adminToken, { method: "GET", url: `/api/v1/budget-items?budget_id=${budgetId}&tree=true` })
  ).json();
const detail = async (id: string) =>
  (await t.as(t.adminToken, { method: "GET", url: `/api/v1/budget-items/${id}` })).json();

/** The parts of a node that a copy must reproduce (ids, budget and timestamps differ). */
type Node = {
  code: string;
  kind: string;
  position: number;
  summary: string;
  quantity: string | null;
  unit_price: string | null;
  amount: string;
  children: Node[];
};
const shape = (n: Node): unknown => ({
  code: n.code,
  kind: n.kind,
  position: n.position,
  summary: n.summary,
  quantity: n.quantity,
  unit_price: n.unit_price,
  amount: n.amount,
  children: n.children.map(shape),
});

describe("POST /budgets/{id}/duplicate", () => {
  it("deep-copies the tree, measurements and decompositions into a new borrador budget", async () => {
    const source = await createBudget(t, t.adminToken, {
      discount_pct: "3",
      client_name: "Ayuntamiento de Soria",
    });
    const chapter = await createItem(t, t.adminToken, {
      budget_id: source.id,
      kind: "chapter",
      code: "01",
      summary: "Estructura",
    });
    const sub = await createItem(t, t.adminToken, {
      budget_id: source.id,
      kind: "chapter",
      code: "01.01",
      parent_id: chapter.id,
    });
    const measured = await createItem(t, t.adminToken, {
      budget_id: source.id,
      parent_id: sub.id,
      code: "E01",
      summary: "Hormigón HA-25",
      measurements: [
        { label: "Zapatas", units: "4", length: "1.5", width: "1.5", height: "0.6" },
        { label: "Riostras", length: "12.3", width: "0.4", height: "0.5" },
      ],
      decomposition: [
        { type: "labour", code: "MO01", summary: "Oficial 1ª", yield: "0.35", price: "19.8" },
        { type: "material", code: "MT01", summary: "Hormigón", yield: "1.05", price: "72.4" },
      ],
    });
    await createItem(t, t.adminToken, { budget_id: source.id, code: "E02", quantity: "3", unit_price: "10" });
    await bringBudgetTo(t, t.adminToken, source.id, "aprobado");

    const res = await t.as(t.adminToken, { method: "POST", url: `/api/v1/budgets/${source.id}/duplicate` });
    expect(res.statusCode).toBe(201);
    const copy = res.json();
    expect(copy).toMatchObject({
      code: `${source.code}-COPIA`,
      name: `${source.name} (copia)`,
      estado: "borrador",
      discount_pct: "3.00",
      client_name: "Ayuntamiento de Soria",
      // (4 x 1.5 x 1.5 x 0.6 + 12.3 x 0.4 x 0.5) x (0.35 x 19.8 + 1.05 x 72.4) = 7.86 x 82.95 = 651.99; + 30.00
      pem: "681.99",
    });
    const [original, copied] = [await tree(source.id), await tree(copy.id)];
    expect(copied.data.map(shape)).toEqual(original.data.map(shape));
    expect(
      (await t.as(t.adminToken, { method: "GET", url: `/api/v1/budgets/${source.id}` })).json().pem,
    ).toBe("681.99");

    const copiedItem = copied.data[0].children[0].children[0];
    expect(copiedItem.id).not.toBe(measured.id);
    const [a, b] = [await detail(measured.id), await detail(copiedItem.id)];
    expect(b.measurements).toEqual(a.measurements);
    expect(b.decomposition).toEqual(a.decomposition);
    expect(b.budget_id).toBe(copy.id);
    expect(copiedItem.parent_id).toBe(copied.data[0].children[0].id);
  });

  it("numbers further copies -COPIA-2, -COPIA-3 and accepts a code and name", async () => {
    const source = await createBudget(t, t.adminToken);
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.as(t.adminToken, {
        method: "POST",
        url: `/api/v1/budgets/${source.id}/duplicate`,
        payload: {},
      });
      codes.push(res.json().code);
    }
    expect(codes).toEqual([`${source.code}-COPIA`, `${source.code}-COPIA-2`, `${source.code}-COPIA-3`]);
    const code = uniqueCode("NUEVO");
    const named = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/v1/budgets/${source.id}/duplicate`,
      payload: { code, name: "Variante B" },
    });
    expect(named.json()).toMatchObject({ code, name: "Variante B" });
    const clash = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/v1/budgets/${source.id}/duplicate`,
      payload: { code: source.code },
    });
    expect(clash.statusCode).toBe(409);
  });

  it("copies a finalizado budget too, and 404s for an unknown one", async () => {
    const source = await createBudget(t, t.adminToken);
    await bringBudgetTo(t, t.adminToken, source.id, "finalizado");
    const res = await t.as(t.adminToken, { method: "POST", url: `/api/v1/budgets/${source.id}/duplicate` });
    expect(res.statusCode).toBe(201);
    expect(res.json().estado).toBe("borrador");
    const unknown = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets/0190a0b4-0000-7000-8000-000000000000/duplicate",
    });
    expect(unknown.statusCode).toBe(404);
  });
});
