import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { queryOne, queryRows } from "../../platform/db/sql.js";
import { loadProjectsDemo } from "./demo.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = async (url: string) => {
  const res = await t.as(t.adminToken, { method: "GET", url: `/api/v1${url}` });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

describe("loadProjectsDemo", () => {
  it("loads the demo building once and leaves it alone the second time", async () => {
    const first = await loadProjectsDemo(t.db, { userId: null });
    expect(first.created).toBe(true);
    const second = await loadProjectsDemo(t.db, { userId: null });
    expect(second).toEqual({ created: false, budgetId: first.budgetId });

    const counts = await queryOne<Record<string, number>>(
      t.db,
      sql`select
            (select count(*)::int from budgets where code = 'DEMO-EDIFICIO') as budgets,
            (select count(*)::int from budget_items where budget_id = ${first.budgetId} and kind = 'chapter') as chapters,
            (select count(*)::int from budget_items where budget_id = ${first.budgetId} and kind = 'item') as items,
            (select count(*)::int from activities where budget_id = ${first.budgetId}) as activities,
            (select count(*)::int from activity_items ai join activities a on a.id = ai.activity_id
              where a.budget_id = ${first.budgetId}) as activity_links,
            (select count(*)::int from cost_entries where budget_id = ${first.budgetId}) as cost_entries,
            (select count(distinct category)::int from cost_entries where budget_id = ${first.budgetId}) as categories`,
    );
    expect(counts).toEqual({
      budgets: 1,
      chapters: 8,
      items: 60,
      activities: 16,
      activity_links: 60,
      cost_entries: 40,
      categories: 5,
    });
  });

  it("derives every item quantity from its measurement lines and its amount from quantity x price", async () => {
    const { budgetId } = await loadProjectsDemo(t.db, { userId: null });
    const mismatches = await queryRows<{ code: string }>(
      t.db,
      sql`select i.code
            from budget_items i
            join budget_item_measurements m on m.item_id = i.id
           where i.budget_id = ${budgetId}
           group by i.id, i.code, i.quantity, i.unit_price, i.amount
          having round(sum(coalesce(m.units, 1) * coalesce(m.length, 1) * coalesce(m.width, 1)
                           * coalesce(m.height, 1)), 3) <> i.quantity
              or round(i.quantity * i.unit_price, 2) <> i.amount`,
    );
    expect(mismatches).toEqual([]);
    const unmeasured = await queryOne<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from budget_items i where i.budget_id = ${budgetId} and i.kind = 'item'
            and not exists (select 1 from budget_item_measurements m where m.item_id = i.id)`,
    );
    expect(unmeasured?.n).toBe(0);
  });

  it("shows a summary consistent with the data: budgeted = pem, certified = certification 2, costs = entries", async () => {
    const { budgetId } = await loadProjectsDemo(t.db, { userId: null });
    const figures = await queryOne<{ pem: string; cost: string }>(
      t.db,
      sql`select (select sum(amount)::text from budget_items where budget_id = ${budgetId}) as pem,
                 (select sum(net_amount)::text from cost_entries where budget_id = ${budgetId}) as cost`,
    );
    const certs = await get(`/certifications?budget_id=${budgetId}`);
    expect(certs.data.map((c: { number: number; estado: string }) => [c.number, c.estado])).toEqual([
      [1, "validada"],
      [2, "validada"],
      [3, "emitida"],
    ]);
    const second = await get(`/certifications/${certs.data[1].id}`);
    const third = await get(`/certifications/${certs.data[2].id}`);
    expect(third.previous_number).toBe(2);
    expect(third.totals.pem_previous).toBe(second.totals.pem_to_origin);

    const summary = await get(`/accounting/summary?budget_id=${budgetId}`);
    expect(summary.certification_number).toBe(2);
    expect(summary.chapters).toHaveLength(8);
    expect(summary.totals.budgeted).toBe(figures?.pem);
    expect(summary.totals.certified).toBe(second.totals.pem_to_origin);
    expect(summary.totals.actual_cost).toBe(figures?.cost);
    expect(summary.unassigned_cost).toBe("13632.85");
    expect(second.validated_at).toBe("2025-03-31T12:00:00.000Z");
  });
});
