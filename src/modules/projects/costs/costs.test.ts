import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { insertBudget, insertItem, setBudgetEstado } from "../certifications/test-support.js";
import { activities } from "../tables.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, payload?: object) =>
  t.as(t.adminToken, { method, url: `/api/v1${url}`, payload });

async function budgetWithLinks() {
  const budget = await insertBudget(t.db);
  const item = await insertItem(t.db, budget.id, { code: "01.01", quantity: "10", unitPrice: "100" });
  const [activity] = await t.db
    .insert(activities)
    .values({ budgetId: budget.id, code: "A1", name: "Cimentación" })
    .returning();
  return { budget, item, activity };
}

const entry = (budgetId: string, extra: object = {}) => ({
  budget_id: budgetId,
  date: "2025-05-10",
  category: "material",
  supplier_name: "Hormigones del Ebro, S.A.",
  supplier_tax_id: "b-12345674",
  document_number: "FV-2025/0042",
  concept: "Hormigón HA-25/B/20/IIa",
  net_amount: "1234.56",
  vat_amount: "259.26",
  ...extra,
});

describe("cost entries", () => {
  it("creates, reads, updates and deletes an entry", async () => {
    const { budget, item, activity } = await budgetWithLinks();
    const created = await call(
      "POST",
      "/accounting",
      entry(budget.id, { budget_item_id: item.id, activity_id: activity.id }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      budget_id: budget.id,
      budget_item_id: item.id,
      activity_id: activity.id,
      supplier_tax_id: "B12345674",
      net_amount: "1234.56",
      vat_amount: "259.26",
      total_amount: "1493.82",
    });

    expect((await call("GET", `/accounting/${body.id}`)).json()).toEqual(body);
    const updated = await call("PUT", `/accounting/${body.id}`, {
      net_amount: "1000.10",
      budget_item_id: null,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      net_amount: "1000.10",
      budget_item_id: null,
      concept: body.concept,
    });

    expect((await call("DELETE", `/accounting/${body.id}`)).statusCode).toBe(204);
    expect((await call("GET", `/accounting/${body.id}`)).statusCode).toBe(404);
  });

  it("defaults vat_amount to 0 and leaves optional texts empty", async () => {
    const { budget } = await budgetWithLinks();
    const res = await call("POST", "/accounting", {
      budget_id: budget.id,
      date: "2025-05-10",
      category: "labour",
      net_amount: "-50",
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      vat_amount: "0.00",
      total_amount: "-50.00",
      supplier_tax_id: null,
      concept: "",
    });
  });

  it("refuses links to another budget and malformed input with 400", async () => {
    const { budget } = await budgetWithLinks();
    const other = await budgetWithLinks();
    const bad = [
      entry(budget.id, { budget_item_id: other.item.id }),
      entry(budget.id, { activity_id: other.activity.id }),
      entry(budget.id, { net_amount: 12.5 }),
      entry(budget.id, { net_amount: "1.005" }),
      entry(budget.id, { category: "comida" }),
      entry(budget.id, { supplier_tax_id: "B12345675" }),
      entry(budget.id, { date: "2025-02-30" }),
      entry("nope"),
    ];
    for (const payload of bad) {
      const res = await call("POST", "/accounting", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const created = (await call("POST", "/accounting", entry(budget.id))).json();
    const res = await call("PUT", `/accounting/${created.id}`, { budget_item_id: other.item.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe("body.budget_item_id");
    expect((await call("PUT", `/accounting/${created.id}`, {})).statusCode).toBe(400);
  });

  it("answers 404 for an unknown budget or entry and 400 for a non-UUID id", async () => {
    const unknown = "0190f5a0-0000-7000-8000-000000000000";
    expect((await call("POST", "/accounting", entry(unknown))).statusCode).toBe(404);
    expect((await call("GET", `/accounting/${unknown}`)).statusCode).toBe(404);
    expect((await call("PUT", `/accounting/${unknown}`, { concept: "x" })).statusCode).toBe(404);
    expect((await call("DELETE", `/accounting/${unknown}`)).statusCode).toBe(404);
    expect((await call("GET", "/accounting/123")).statusCode).toBe(400);
  });

  it("refuses every write on a finalized budget with 409", async () => {
    const { budget } = await budgetWithLinks();
    const created = (await call("POST", "/accounting", entry(budget.id))).json();
    await setBudgetEstado(t.db, budget.id, "finalizado");
    expect((await call("POST", "/accounting", entry(budget.id))).statusCode).toBe(409);
    expect((await call("PUT", `/accounting/${created.id}`, { concept: "x" })).statusCode).toBe(409);
    expect((await call("DELETE", `/accounting/${created.id}`)).statusCode).toBe(409);
    expect((await call("GET", `/accounting/${created.id}`)).statusCode).toBe(200);
  });
});

describe("listing cost entries", () => {
  it("filters by budget, category, dates and text, and pages", async () => {
    const { budget } = await budgetWithLinks();
    const rows = [
      {
        date: "2025-01-15",
        category: "material",
        supplier_name: "Ferralla Rioja",
        concept: "Acero B500S",
        document_number: "A-1",
      },
      {
        date: "2025-02-15",
        category: "labour",
        supplier_name: "Cuadrilla Pérez",
        concept: "Encofrado",
        document_number: "B-2",
      },
      {
        date: "2025-03-15",
        category: "material",
        supplier_name: "Áridos Sur",
        concept: "Grava 20 mm",
        document_number: "C-100%",
      },
    ];
    for (const r of rows)
      expect((await call("POST", "/accounting", entry(budget.id, r))).statusCode).toBe(201);
    await call("POST", "/accounting", entry((await budgetWithLinks()).budget.id));

    const codes = async (query: string) =>
      (await call("GET", `/accounting?budget_id=${budget.id}&${query}`))
        .json()
        .data.map((e: { document_number: string }) => e.document_number);
    expect(await codes("")).toEqual(["A-1", "B-2", "C-100%"]);
    expect(await codes("category=material")).toEqual(["A-1", "C-100%"]);
    expect(await codes("date_from=2025-02-01&date_to=2025-02-28")).toEqual(["B-2"]);
    expect(await codes("search=ferralla")).toEqual(["A-1"]);
    expect(await codes("search=encofrado")).toEqual(["B-2"]);
    expect(await codes("search=100%25")).toEqual(["C-100%"]);
    expect(await codes("search=_")).toEqual([]);
    const page = (await call("GET", `/accounting?budget_id=${budget.id}&limit=2&offset=2`)).json();
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(page.data).toHaveLength(1);
    expect((await call("GET", "/accounting?date_from=2025-13-01")).statusCode).toBe(400);
    expect((await call("GET", "/accounting?limit=1001")).statusCode).toBe(400);
  });
});
