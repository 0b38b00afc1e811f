import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { insertBudget, insertItem } from "./test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Method = "GET" | "POST" | "PUT";
const call = (method: Method, url: string, payload?: object) =>
  t.as(t.adminToken, { method, url: `/api/v1${url}`, payload });

interface Line {
  code: string;
  [field: string]: unknown;
}

/**
 * Budget: 13% overheads, 6% profit, 2.5% discount, 21% VAT, 5% retention.
 * A: 100 x 12.3450 = 1234.50; B: 10 x 99.9950 = 999.95; C: 1 x 2.0050 = 2.01 (half-up).
 */
async function scenario() {
  const budget = await insertBudget(t.db, { discountPct: "2.5" });
  const chapter = await insertItem(t.db, budget.id, { code: "01", kind: "chapter" });
  const sub = await insertItem(t.db, budget.id, { code: "01.1", kind: "chapter", parentId: chapter.id });
  const a = await insertItem(t.db, budget.id, {
    code: "01.1.01",
    parentId: sub.id,
    quantity: "100",
    unitPrice: "12.345",
  });
  const b = await insertItem(t.db, budget.id, {
    code: "01.1.02",
    parentId: sub.id,
    position: 1,
    quantity: "10",
    unitPrice: "99.995",
  });
  const c = await insertItem(t.db, budget.id, { code: "02", quantity: "1", unitPrice: "2.005", position: 1 });
  return { budget, a, b, c };
}

async function certify(budgetId: string, lines: [string, string][], estados: string[]) {
  const res = await call("POST", "/certifications", {
    budget_id: budgetId,
    period_start: "2025-03-01",
    period_end: "2025-03-31",
    lines: lines.map(([id, q]) => ({ budget_item_id: id, quantity_to_origin: q })),
  });
  expect(res.statusCode, res.body).toBe(201);
  let out = res.json();
  for (const estado of estados) {
    const step = await call("PUT", `/certifications/${out.id}/estado`, { estado });
    expect(step.statusCode, step.body).toBe(200);
    out = step.json();
  }
  return out;
}

describe("certification figures through the API", () => {
  it("computes the first certification from zero", async () => {
    const { budget, a, b } = await scenario();
    const first = await certify(
      budget.id,
      [
        [a.id, "25.25"],
        [b.id, "4"],
      ],
      [],
    );
    expect(first.previous_number).toBeNull();
    expect(first.totals).toMatchObject({
      pem_to_origin: "711.69", // 311.71 + 399.98
      pem_previous: "0.00",
      pem_this_period: "711.69",
      overheads: "92.52",
      profit: "42.70",
      subtotal: "846.91",
      discount: "21.17",
      taxable_base: "825.74",
      vat: "173.41",
      total: "999.15",
      retention: "41.29",
      net_payable: "957.86",
    });
  });

  it("takes previous from the last validated certification and bills the difference", async () => {
    const { budget, a, b, c } = await scenario();
    await certify(
      budget.id,
      [
        [a.id, "25.25"],
        [b.id, "4"],
      ],
      ["emitida", "validada"],
    );
    const second = await certify(
      budget.id,
      [
        [a.id, "40.5"],
        [b.id, "12"],
        [c.id, "1"],
      ],
      [],
    );
    expect(second.number).toBe(2);
    expect(second.previous_number).toBe(1);
    const byCode = Object.fromEntries(second.lines.map((l: Line) => [l.code, l]));
    expect(second.lines.map((l: Line) => l.code)).toEqual(["01.1.01", "01.1.02", "02"]);
    expect(byCode["01.1.01"]).toMatchObject({
      budgeted_quantity: "100.000",
      unit_price: "12.3450",
      quantity_to_origin: "40.500",
      amount_to_origin: "499.97", // 499.9725
      quantity_previous: "25.250",
      amount_previous: "311.71", // 311.71125
      quantity_this_period: "15.250",
      amount_this_period: "188.26",
      exceeds_budget: false,
      carried_forward: false,
    });
    expect(byCode["01.1.02"]).toMatchObject({
      amount_to_origin: "1199.94",
      amount_previous: "399.98",
      amount_this_period: "799.96",
      exceeds_budget: true,
    });
    expect(byCode["02"]).toMatchObject({
      amount_to_origin: "2.01",
      amount_previous: "0.00",
      exceeds_budget: false,
    });
    expect(second.totals).toEqual({
      pem_to_origin: "1701.92",
      pem_previous: "711.69",
      pem_this_period: "990.23",
      overheads_pct: "13.00",
      overheads: "128.73", // 128.7299
      profit_pct: "6.00",
      profit: "59.41", // 59.4138
      subtotal: "1178.37",
      discount_pct: "2.50",
      discount: "29.46", // 29.45925
      taxable_base: "1148.91",
      vat_pct: "21.00",
      vat: "241.27", // 241.2711
      total: "1390.18",
      retention_pct: "5.00",
      retention: "57.45", // 57.4455
      net_payable: "1332.73",
    });
  });

  it("ignores certifications that are not validated when looking for the previous one", async () => {
    const { budget, a } = await scenario();
    await certify(budget.id, [[a.id, "10"]], ["emitida", "validada"]);
    await certify(budget.id, [[a.id, "20"]], ["emitida"]);
    const third = await certify(budget.id, [[a.id, "30"]], []);
    expect(third.previous_number).toBe(1);
    expect(third.lines[0]).toMatchObject({ quantity_previous: "10.000", quantity_this_period: "20.000" });
  });

  it("carries forward items the certification does not list, and freezes them on validation", async () => {
    const { budget, a, b } = await scenario();
    await certify(
      budget.id,
      [
        [a.id, "10"],
        [b.id, "2"],
      ],
      ["emitida", "validada"],
    );
    const second = await certify(budget.id, [[a.id, "15"]], []);
    const carried = second.lines.find((l: Line) => l.code === "01.1.02");
    expect(carried).toMatchObject({
      carried_forward: true,
      quantity_to_origin: "2.000",
      quantity_previous: "2.000",
      amount_this_period: "0.00",
    });
    expect(second.totals.pem_to_origin).toBe("385.17"); // 185.18 (15 x 12.345 = 185.175) + 199.99
    expect(second.totals.pem_this_period).toBe("61.73"); // 185.18 - 123.45

    await call("PUT", `/certifications/${second.id}/estado`, { estado: "emitida" });
    await call("PUT", `/certifications/${second.id}/estado`, { estado: "validada" });
    const third = await certify(budget.id, [[a.id, "15"]], []);
    expect(third.lines.find((l: Line) => l.code === "01.1.02")).toMatchObject({ quantity_previous: "2.000" });
    expect(third.totals.pem_previous).toBe("385.17");
    expect(third.totals.pem_this_period).toBe("0.00");
  });
});
