import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { createBudget, createItem } from "../budgets/test-support.js";
import { MAX_ITEM_DEPTH } from "./schemas.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const move = (id: string, payload: Record<string, unknown>) =>
  t.as(t.adminToken, { method: "POST", url: `/api/v1/budget-items/${id}/move`, payload });
const layout = async (budgetId: string) => {
  const res = await t.as(t.adminToken, {
    method: "GET",
    url: `/api/v1/budget-items?budget_id=${budgetId}&limit=1000`,
  });
  const rows = res.json().data as { code: string; position: number; parent_id: string | null; id: string }[];
  const codeOf = new Map(rows.map((r) => [r.id, r.code]));
  return rows.map((r) => `${r.parent_id ? codeOf.get(r.parent_id) : "-"}/${r.position}/${r.code}`);
};

async function sample() {
  const b = await createBudget(t, t.adminToken);
  const c1 = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter", code: "C1" });
  const c2 = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter", code: "C2" });
  const sub = await createItem(t, t.adminToken, {
    budget_id: b.id,
    kind: "chapter",
    code: "C1.1",
    parent_id: c1.id,
  });
  const a = await createItem(t, t.adminToken, {
    budget_id: b.id,
    code: "A",
    parent_id: c1.id,
    quantity: "1",
    unit_price: "4",
  });
  const bb = await createItem(t, t.adminToken, {
    budget_id: b.id,
    code: "B",
    parent_id: c1.id,
    quantity: "1",
    unit_price: "6",
  });
  const c = await createItem(t, t.adminToken, {
    budget_id: b.id,
    code: "C",
    parent_id: c2.id,
    quantity: "1",
    unit_price: "1",
  });
  return { b, c1, c2, sub, a, bb, c };
}

describe("POST /budget-items/{id}/move", () => {
  it("moves a node to another chapter at a position and renumbers both sibling lists", async () => {
    const s = await sample();
    const res = await move(s.a.id, { parent_id: s.c2.id, position: 0 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ parent_id: s.c2.id, position: 0 });
    expect(await layout(s.b.id)).toEqual(["-/0/C1", "C1/0/C1.1", "C1/1/B", "-/1/C2", "C2/0/A", "C2/1/C"]);
    const tree = (
      await t.as(t.adminToken, { method: "GET", url: `/api/v1/budget-items?budget_id=${s.b.id}&tree=true` })
    ).json();
    expect(tree.data.map((n: { amount: string }) => n.amount)).toEqual(["6.00", "5.00"]);
  });

  it("reorders within the same parent, appends by default and moves to the top level", async () => {
    const s = await sample();
    await move(s.bb.id, { parent_id: s.c1.id, position: 0 });
    expect(await layout(s.b.id)).toEqual(["-/0/C1", "C1/0/B", "C1/1/C1.1", "C1/2/A", "-/1/C2", "C2/0/C"]);
    await move(s.bb.id, { parent_id: s.c1.id });
    expect(await layout(s.b.id)).toEqual(["-/0/C1", "C1/0/C1.1", "C1/1/A", "C1/2/B", "-/1/C2", "C2/0/C"]);
    await move(s.sub.id, { parent_id: null, position: 1 });
    expect(await layout(s.b.id)).toEqual(["-/0/C1", "C1/0/A", "C1/1/B", "-/1/C1.1", "-/2/C2", "C2/0/C"]);
    await move(s.c1.id, { parent_id: s.c2.id, position: 5 });
    expect(await layout(s.b.id)).toEqual(["-/0/C1.1", "-/1/C2", "C2/0/C", "C2/1/C1", "C1/0/A", "C1/1/B"]);
  });

  it("refuses a parent that is not a chapter of the same budget, the node itself or a descendant", async () => {
    const s = await sample();
    const other = await createBudget(t, t.adminToken);
    const foreign = await createItem(t, t.adminToken, { budget_id: other.id, kind: "chapter" });
    const cases = [
      { parent_id: s.c1.id, id: s.c1.id, why: "itself" },
      { parent_id: s.sub.id, id: s.c1.id, why: "a descendant" },
      { parent_id: s.bb.id, id: s.a.id, why: "an item" },
      { parent_id: foreign.id, id: s.a.id, why: "another budget" },
      { parent_id: "0190a0b4-0000-7000-8000-000000000000", id: s.a.id, why: "unknown" },
    ];
    for (const c of cases) {
      const res = await move(c.id, { parent_id: c.parent_id });
      expect(res.statusCode, c.why).toBe(400);
      expect(res.json().errors[0].path).toBe("body.parent_id");
    }
    expect((await move(s.a.id, { parent_id: s.c2.id, position: -1 })).statusCode).toBe(400);
    expect((await move("0190a0b4-0000-7000-8000-000000000000", { parent_id: null })).statusCode).toBe(404);
    expect(await layout(s.b.id)).toEqual(["-/0/C1", "C1/0/C1.1", "C1/1/A", "C1/2/B", "-/1/C2", "C2/0/C"]);
  });

  it(`keeps the tree at most ${MAX_ITEM_DEPTH} levels deep`, async () => {
    const b = await createBudget(t, t.adminToken);
    let parent: string | null = null;
    const chain: string[] = [];
    for (let level = 1; level < MAX_ITEM_DEPTH; level++) {
      const chapter: { id: string } = await createItem(t, t.adminToken, {
        budget_id: b.id,
        kind: "chapter",
        parent_id: parent,
      });
      chain.push(chapter.id);
      parent = chapter.id;
    }
    await createItem(t, t.adminToken, { budget_id: b.id, parent_id: parent });
    const deepest = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budget-items",
      payload: { budget_id: b.id, code: "DEEP", kind: "chapter", parent_id: chain.at(-1) },
    });
    expect(deepest.statusCode).toBe(201);
    const deeper = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budget-items",
      payload: { budget_id: b.id, code: "DEEPER", parent_id: deepest.json().id },
    });
    expect(deeper.statusCode).toBe(400);
    const pair = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter" });
    await createItem(t, t.adminToken, { budget_id: b.id, parent_id: pair.id });
    expect((await move(pair.id, { parent_id: chain.at(-1) })).statusCode).toBe(400);
    expect((await move(pair.id, { parent_id: chain.at(-2) })).statusCode).toBe(200);
    const tree = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/budget-items?budget_id=${b.id}&tree=true`,
    });
    expect(tree.statusCode).toBe(200);
  });
});
