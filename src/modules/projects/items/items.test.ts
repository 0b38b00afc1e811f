import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { createBudget, createItem, getBudget } from "../budgets/test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const UNKNOWN = "0190a0b4-0000-7000-8000-000000000000";
const get = (url: string) => t.as(t.adminToken, { method: "GET", url });

describe("budget item create and detail", () => {
  it("derives quantity from measurement lines and unit price from the decomposition", async () => {
    const b = await createBudget(t, t.adminToken);
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budget-items",
      payload: {
        budget_id: b.id,
        code: "E04HA",
        unit: "m3",
        summary: "Hormigón armado en losas",
        long_text: "Hormigón HA-25/B/20/IIa, vertido con bomba, vibrado y curado.",
        quantity: "1",
        measurements: [
          { label: "Losa planta 1ª", units: "1", length: "10.25", width: "8.4", height: "0.3" },
          { label: "Huecos escalera", units: "-1", length: "2.5", width: "1.2", height: "0.3" },
          { label: "Nota: medición según planos E-03" },
        ],
        decomposition: [
          {
            type: "labour",
            code: "O01OA030",
            unit: "h",
            summary: "Oficial primera",
            yield: "0.36",
            price: "19.88",
          },
          {
            type: "machinery",
            code: "M11HV120",
            unit: "h",
            summary: "Vibrador",
            yield: "0.3",
            price: "4.15",
          },
          {
            type: "material",
            code: "P01HA010",
            unit: "m3",
            summary: "Hormigón HA-25",
            yield: "1.05",
            price: "71.6",
          },
        ],
      },
    });
    expect(res.statusCode).toBe(201);
    const item = res.json();
    // 10.25 x 8.4 x 0.3 = 25.83 ; -2.5 x 1.2 x 0.3 = -0.9 ; heading 0 -> 24.930
    // 0.36 x 19.88 = 7.1568 ; 0.3 x 4.15 = 1.245 ; 1.05 x 71.6 = 75.18 -> 83.5818
    // 24.93 x 83.5818 = 2083.694274 -> 2083.69
    expect(item).toMatchObject({
      kind: "item",
      parent_id: null,
      position: 0,
      quantity: "24.930",
      unit_price: "83.5818",
      amount: "2083.69",
    });
    expect(item.measurements.map((m: { quantity: string }) => m.quantity)).toEqual([
      "25.830",
      "-0.900",
      "0.000",
    ]);
    expect(item.measurements[2]).toMatchObject({ label: "Nota: medición según planos E-03", units: null });
    expect(item.decomposition[0]).toMatchObject({ yield: "0.360000", price: "19.8800", cost: "7.1568" });
    const detail = await get(`/api/v1/budget-items/${item.id}`);
    expect(detail.json()).toEqual(item);
    expect((await getBudget(t, t.adminToken, b.id)).pem).toBe("2083.69");
  });

  it("creates chapters without prices and refuses prices on them", async () => {
    const b = await createBudget(t, t.adminToken);
    const chapter = await createItem(t, t.adminToken, {
      budget_id: b.id,
      kind: "chapter",
      summary: "Albañilería",
    });
    expect(chapter).toMatchObject({ kind: "chapter", quantity: null, unit_price: null, amount: "0.00" });
    const priced = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budget-items",
      payload: { budget_id: b.id, kind: "chapter", code: "C9", quantity: "2" },
    });
    expect(priced.statusCode).toBe(400);
    const update = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/budget-items/${chapter.id}`,
      payload: { unit_price: "3" },
    });
    expect(update.statusCode).toBe(400);
  });

  it("validates the parent, the code and the input", async () => {
    const b = await createBudget(t, t.adminToken);
    const other = await createBudget(t, t.adminToken);
    const item = await createItem(t, t.adminToken, {
      budget_id: b.id,
      code: "A1",
      quantity: "1",
      unit_price: "1",
    });
    const foreignChapter = await createItem(t, t.adminToken, { budget_id: other.id, kind: "chapter" });
    const post = (payload: Record<string, unknown>) =>
      t.as(t.adminToken, {
        method: "POST",
        url: "/api/v1/budget-items",
        payload: { budget_id: b.id, ...payload },
      });
    expect((await post({ code: "A2", parent_id: item.id })).statusCode).toBe(400);
    expect((await post({ code: "A2", parent_id: foreignChapter.id })).statusCode).toBe(400);
    expect((await post({ code: "A2", parent_id: UNKNOWN })).statusCode).toBe(400);
    expect((await post({ code: "A1" })).statusCode).toBe(409);
    expect((await post({ code: "A3", quantity: 1.5 })).statusCode).toBe(400);
    expect((await post({ code: "A3", quantity: "1.2345" })).statusCode).toBe(400);
    expect((await post({ code: "A3", unit_price: "1.23456" })).statusCode).toBe(400);
    const unknownBudget = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budget-items",
      payload: { budget_id: UNKNOWN, code: "A4" },
    });
    expect(unknownBudget.statusCode).toBe(404);
    expect((await get("/api/v1/budget-items/not-a-uuid")).statusCode).toBe(400);
    expect((await get(`/api/v1/budget-items/${UNKNOWN}`)).statusCode).toBe(404);
  });

  it("inserts at a position and renumbers the siblings", async () => {
    const b = await createBudget(t, t.adminToken);
    const codes = ["X1", "X2", "X3"];
    for (const code of codes) await createItem(t, t.adminToken, { budget_id: b.id, code });
    await createItem(t, t.adminToken, { budget_id: b.id, code: "X0", position: 0 });
    await createItem(t, t.adminToken, { budget_id: b.id, code: "X9", position: 99 });
    const list = (await get(`/api/v1/budget-items?budget_id=${b.id}`)).json();
    expect(list.data.map((i: { code: string; position: number }) => [i.code, i.position])).toEqual([
      ["X0", 0],
      ["X1", 1],
      ["X2", 2],
      ["X3", 3],
      ["X9", 4],
    ]);
  });
});

describe("budget item update", () => {
  it("recomputes the amount and guards derived values", async () => {
    const b = await createBudget(t, t.adminToken);
    const item = await createItem(t, t.adminToken, {
      budget_id: b.id,
      measurements: [{ label: "", units: "2", length: "3" }],
      unit_price: "1.5",
    });
    expect(item).toMatchObject({ quantity: "6.000", amount: "9.00" });
    const put = (payload: Record<string, unknown>) =>
      t.as(t.adminToken, { method: "PUT", url: `/api/v1/budget-items/${item.id}`, payload });
    const price = await put({ unit_price: "2.25", summary: "Solado de gres" });
    expect(price.json()).toMatchObject({
      quantity: "6.000",
      unit_price: "2.2500",
      amount: "13.50",
      summary: "Solado de gres",
    });
    expect((await put({ quantity: "10" })).statusCode).toBe(400);
    const manual = await put({ measurements: [], quantity: "10" });
    expect(manual.json()).toMatchObject({ quantity: "10.000", amount: "22.50", measurements: [] });
    const decomposed = await put({
      decomposition: [{ type: "other", code: "AUX", yield: "4", price: "0.5" }],
    });
    expect(decomposed.json()).toMatchObject({ unit_price: "2.0000", amount: "20.00" });
    expect((await put({ unit_price: "3" })).statusCode).toBe(400);
    expect((await getBudget(t, t.adminToken, b.id)).pem).toBe("20.00");
    const other = await createItem(t, t.adminToken, { budget_id: b.id });
    expect((await put({ code: other.code })).statusCode).toBe(409);
    expect((await put({})).statusCode).toBe(400);
  });
});

describe("budget item list", () => {
  it("lists flat in tree order with chapter amounts, filters, and nests with ?tree=true", async () => {
    const b = await createBudget(t, t.adminToken);
    const c1 = await createItem(t, t.adminToken, {
      budget_id: b.id,
      kind: "chapter",
      code: "01",
      summary: "Demoliciones",
    });
    const c2 = await createItem(t, t.adminToken, {
      budget_id: b.id,
      kind: "chapter",
      code: "02",
      summary: "Fachadas",
    });
    const c11 = await createItem(t, t.adminToken, {
      budget_id: b.id,
      kind: "chapter",
      code: "01.1",
      parent_id: c1.id,
    });
    await createItem(t, t.adminToken, {
      budget_id: b.id,
      code: "D1",
      parent_id: c11.id,
      quantity: "2",
      unit_price: "10",
    });
    await createItem(t, t.adminToken, {
      budget_id: b.id,
      code: "D2",
      parent_id: c1.id,
      quantity: "1",
      unit_price: "5.55",
    });
    await createItem(t, t.adminToken, {
      budget_id: b.id,
      code: "F1",
      parent_id: c2.id,
      quantity: "3",
      unit_price: "1.1",
    });

    const flat = (await get(`/api/v1/budget-items?budget_id=${b.id}`)).json();
    expect(flat.data.map((i: { code: string; amount: string }) => `${i.code}=${i.amount}`)).toEqual([
      "01=25.55",
      "01.1=20.00",
      "D1=20.00",
      "D2=5.55",
      "02=3.30",
      "F1=3.30",
    ]);
    expect(flat.data[0].children).toBeUndefined();
    const page = (await get(`/api/v1/budget-items?budget_id=${b.id}&limit=2&offset=2`)).json();
    expect(page).toMatchObject({ total: 6, limit: 2, offset: 2 });
    expect(page.data.map((i: { code: string }) => i.code)).toEqual(["D1", "D2"]);
    const children = (await get(`/api/v1/budget-items?budget_id=${b.id}&parent_id=${c1.id}`)).json();
    expect(children.data.map((i: { code: string }) => i.code)).toEqual(["01.1", "D2"]);
    const chapters = (await get(`/api/v1/budget-items?budget_id=${b.id}&kind=chapter&search=fach`)).json();
    expect(chapters.data.map((i: { code: string }) => i.code)).toEqual(["02"]);

    const tree = (await get(`/api/v1/budget-items?budget_id=${b.id}&tree=true`)).json();
    expect(tree.total).toBe(2);
    const [t1, t2] = tree.data;
    expect([t1.code, t1.amount, t2.code, t2.amount]).toEqual(["01", "25.55", "02", "3.30"]);
    expect(t1.children.map((c: { code: string }) => c.code)).toEqual(["01.1", "D2"]);
    expect(t1.children[0].children[0]).toMatchObject({ code: "D1", amount: "20.00", children: [] });

    expect((await get("/api/v1/budget-items")).statusCode).toBe(400);
    expect((await get(`/api/v1/budget-items?budget_id=${UNKNOWN}`)).statusCode).toBe(404);
  });
});

describe("budget item delete", () => {
  it("refuses a chapter with children unless cascade=true, and renumbers the siblings", async () => {
    const b = await createBudget(t, t.adminToken);
    const c1 = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter", code: "01" });
    const c2 = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter", code: "02" });
    const empty = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter", code: "03" });
    const sub = await createItem(t, t.adminToken, {
      budget_id: b.id,
      kind: "chapter",
      code: "01.1",
      parent_id: c1.id,
    });
    const deep = await createItem(t, t.adminToken, {
      budget_id: b.id,
      parent_id: sub.id,
      quantity: "1",
      unit_price: "7",
    });
    await createItem(t, t.adminToken, { budget_id: b.id, parent_id: c2.id, quantity: "1", unit_price: "3" });

    const refused = await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/budget-items/${c1.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().children).toBe(1);
    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/budget-items/${empty.id}` })).statusCode,
    ).toBe(204);
    const cascade = await t.as(t.adminToken, {
      method: "DELETE",
      url: `/api/v1/budget-items/${c1.id}?cascade=true`,
    });
    expect(cascade.statusCode).toBe(204);
    expect((await get(`/api/v1/budget-items/${deep.id}`)).statusCode).toBe(404);
    const left = (await get(`/api/v1/budget-items?budget_id=${b.id}`)).json();
    expect(left.data.map((i: { code: string; position: number }) => [i.code, i.position])).toEqual([
      ["02", 0],
      [expect.any(String), 0],
    ]);
    expect((await getBudget(t, t.adminToken, b.id)).pem).toBe("3.00");
    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/budget-items/${c1.id}` })).statusCode,
    ).toBe(404);
  });
});
