import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { insertBudget, insertItem } from "../certifications/test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Method = "GET" | "POST" | "PUT";
const call = async (method: Method, url: string, payload?: object) => {
  const res = await t.as(t.adminToken, { method, url: `/api/v1${url}`, payload });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
};

async function certification(budgetId: string, lines: [string, string][], estados: string[]) {
  const cert = await call("POST", "/certifications", {
    budget_id: budgetId,
    period_start: "2025-01-01",
    period_end: "2025-01-31",
    lines: lines.map(([budget_item_id, quantity_to_origin]) => ({ budget_item_id, quantity_to_origin })),
  });
  for (const estado of estados) await call("PUT", `/certifications/${cert.id}/estado`, { estado });
}

const cost = (budgetId: string, net: string, itemId: string | null = null) =>
  call("POST", "/accounting", {
    budget_id: budgetId,
    budget_item_id: itemId,
    date: "2025-01-20",
    category: "material",
    net_amount: net,
    vat_amount: "99.99",
  });

interface Node {
  code: string;
  children: Node[];
  [figure: string]: unknown;
}
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const figures = (n: Node) => {
  const { budgeted, certified, actual_cost, margin, deviation, deviation_pct } = n;
  return [budgeted, certified, actual_cost, margin, deviation, deviation_pct];
};

describe("GET /accounting/summary", () => {
  it("gives budgeted, certified, actual cost, margin and deviation per chapter and item, to the cent", async () => {
    const budget = await insertBudget(t.db);
    const c1 = await insertItem(t.db, budget.id, { code: "01", kind: "chapter", summary: "Cimentación" });
    const i11 = await insertItem(t.db, budget.id, {
      code: "01.01",
      parentId: c1.id,
      quantity: "20",
      unitPrice: "85.25",
    });
    const i12 = await insertItem(t.db, budget.id, {
      code: "01.02",
      parentId: c1.id,
      position: 1,
      quantity: "150.5",
      unitPrice: "1.235",
    });
    const c2 = await insertItem(t.db, budget.id, {
      code: "02",
      kind: "chapter",
      position: 1,
      summary: "Estructura",
    });
    const c21 = await insertItem(t.db, budget.id, { code: "02.1", kind: "chapter", parentId: c2.id });
    const i211 = await insertItem(t.db, budget.id, {
      code: "02.1.01",
      parentId: c21.id,
      quantity: "12.5",
      unitPrice: "310.4",
    });
    await insertItem(t.db, budget.id, {
      code: "02.02",
      parentId: c2.id,
      position: 1,
      quantity: "45",
      unitPrice: "22.333",
    });

    await certification(
      budget.id,
      [
        [i11.id, "20"],
        [i12.id, "100"],
      ],
      ["emitida", "validada"],
    );
    // 01.01 is not listed: validation carries its 20 forward.
    await certification(
      budget.id,
      [
        [i12.id, "150.5"],
        [i211.id, "5"],
      ],
      ["emitida", "validada"],
    );
    await certification(budget.id, [[i211.id, "10"]], ["emitida"]);

    await cost(budget.id, "800.00", i11.id);
    await cost(budget.id, "433.33", i11.id);
    await cost(budget.id, "200.10", i12.id);
    await cost(budget.id, "1600.00", i211.id);
    await cost(budget.id, "100.00", c2.id);
    await cost(budget.id, "350.25");
    await cost(budget.id, "49.75");
    await cost((await insertBudget(t.db)).id, "5000.00");

    const summary = await call("GET", `/accounting/summary?budget_id=${budget.id}`);
    expect(summary.certification_number).toBe(2);
    expect(summary.chapters.map((c: Node) => c.code)).toEqual(["01", "02"]);
    const byCode = Object.fromEntries(flatten(summary.chapters).map((n) => [n.code, figures(n)]));
    //                budgeted    certified   actual      margin      deviation    deviation_pct
    expect(byCode).toEqual({
      "01": ["1890.87", "1890.87", "1433.43", "457.44", "-457.44", "-24.19"],
      "01.01": ["1705.00", "1705.00", "1233.33", "471.67", "-471.67", "-27.66"],
      "01.02": ["185.87", "185.87", "200.10", "-14.23", "14.23", "7.66"],
      "02": ["4884.99", "1552.00", "1700.00", "-148.00", "-3184.99", "-65.20"],
      "02.1": ["3880.00", "1552.00", "1600.00", "-48.00", "-2280.00", "-58.76"],
      "02.1.01": ["3880.00", "1552.00", "1600.00", "-48.00", "-2280.00", "-58.76"],
      "02.02": ["1004.99", "0.00", "0.00", "0.00", "-1004.99", "-100.00"],
    });
    expect(summary.unassigned_cost).toBe("400.00");
    expect(summary.totals).toEqual({
      budgeted: "6775.86",
      certified: "3442.87",
      actual_cost: "3533.43",
      margin: "-90.56",
      deviation: "-3242.43",
      deviation_pct: "-47.85",
    });
  });

  it("answers null deviation_pct when nothing is budgeted", async () => {
    const budget = await insertBudget(t.db);
    await cost(budget.id, "10.00");
    const summary = await call("GET", `/accounting/summary?budget_id=${budget.id}`);
    expect(summary).toMatchObject({ chapters: [], unassigned_cost: "10.00", certification_number: null });
    expect(summary.totals).toEqual({
      budgeted: "0.00",
      certified: "0.00",
      actual_cost: "10.00",
      margin: "-10.00",
      deviation: "10.00",
      deviation_pct: null,
    });
  });

  it("answers 400 without a valid budget_id and 404 for an unknown budget", async () => {
    const get = (qs: string) => t.as(t.adminToken, { method: "GET", url: `/api/v1/accounting/summary${qs}` });
    expect((await get("")).statusCode).toBe(400);
    expect((await get("?budget_id=x")).statusCode).toBe(400);
    expect((await get("?budget_id=0190f5a0-0000-7000-8000-000000000000")).statusCode).toBe(404);
  });
});
