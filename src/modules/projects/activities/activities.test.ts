import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { bringBudgetTo, createBudget, createItem } from "../budgets/test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const UNKNOWN = "0190a0b4-0000-7000-8000-000000000000";
let seq = 0;
const post = (payload: Record<string, unknown>) =>
  t.as(t.adminToken, {
    method: "POST",
    url: "/api/v1/activities",
    payload: { code: `ACT-${++seq}`, name: "Encofrado", ...payload },
  });
const put = (id: string, payload: Record<string, unknown>) =>
  t.as(t.adminToken, { method: "PUT", url: `/api/v1/activities/${id}`, payload });
const setEstado = (id: string, estado: string) =>
  t.as(t.adminToken, { method: "PUT", url: `/api/v1/activities/${id}/estado`, payload: { estado } });

/** Chapter 01 (A 100.00 + sub-chapter 01.1 with B 50.25) and item C 10.00 at the top level. */
async function budgetWithItems() {
  const b = await createBudget(t, t.adminToken);
  const chapter = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter" });
  const sub = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter", parent_id: chapter.id });
  const a = await createItem(t, t.adminToken, {
    budget_id: b.id,
    parent_id: chapter.id,
    quantity: "10",
    unit_price: "10",
  });
  const bItem = await createItem(t, t.adminToken, {
    budget_id: b.id,
    parent_id: sub.id,
    quantity: "5",
    unit_price: "10.05",
  });
  const c = await createItem(t, t.adminToken, { budget_id: b.id, quantity: "1", unit_price: "10" });
  return { b, chapter, sub, a, bItem, c };
}

describe("activities", () => {
  it("creates an activity with linked items, planned and earned value", async () => {
    const s = await budgetWithItems();
    const user = await t.userWith(["activities:leer"]);
    const res = await post({
      budget_id: s.b.id,
      name: "Estructura planta baja",
      planned_start: "2026-03-01",
      planned_end: "2026-04-15",
      progress_pct: "37.5",
      responsible_user_id: user.id,
      budget_item_ids: [s.chapter.id, s.a.id, s.c.id],
    });
    expect(res.statusCode).toBe(201);
    // Chapter 01 covers A and B (150.25), A linked again counts once, C adds 10.00 -> 160.25
    // earned 160.25 x 37.5% = 60.09375 -> 60.09
    expect(res.json()).toMatchObject({
      estado: "pendiente",
      progress_pct: "37.50",
      responsible_user_id: user.id,
      planned_value: "160.25",
      earned_value: "60.09",
      planned_start: "2026-03-01",
      actual_start: null,
    });
    expect(res.json().budget_item_ids.sort()).toEqual([s.chapter.id, s.a.id, s.c.id].sort());
    const detail = await t.as(t.adminToken, { method: "GET", url: `/api/v1/activities/${res.json().id}` });
    expect(detail.json()).toEqual(res.json());
  });

  it("validates items, responsible user, dates and code", async () => {
    const s = await budgetWithItems();
    const other = await budgetWithItems();
    const foreign = await post({ budget_id: s.b.id, budget_item_ids: [s.a.id, other.a.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([
      { path: "body.budget_item_ids.1", message: "is not an item of this budget" },
    ]);
    expect((await post({ budget_id: s.b.id, budget_item_ids: [UNKNOWN] })).statusCode).toBe(400);
    const user = await post({ budget_id: s.b.id, responsible_user_id: UNKNOWN });
    expect(user.statusCode).toBe(400);
    expect(user.json().errors[0].path).toBe("body.responsible_user_id");
    expect(
      (await post({ budget_id: s.b.id, planned_start: "2026-05-01", planned_end: "2026-04-01" })).statusCode,
    ).toBe(400);
    expect((await post({ budget_id: s.b.id, progress_pct: "100.01" })).statusCode).toBe(400);
    expect((await post({ budget_id: UNKNOWN })).statusCode).toBe(404);
    const first = await post({ budget_id: s.b.id, code: "DUP" });
    expect(first.statusCode).toBe(201);
    expect((await post({ budget_id: s.b.id, code: "DUP" })).statusCode).toBe(409);
    expect((await post({ budget_id: other.b.id, code: "DUP" })).statusCode).toBe(201);
  });

  it("updates fields and replaces links; values follow the item amounts", async () => {
    const s = await budgetWithItems();
    const created = (await post({ budget_id: s.b.id, budget_item_ids: [s.a.id], progress_pct: "50" })).json();
    expect(created).toMatchObject({ planned_value: "100.00", earned_value: "50.00" });
    const updated = await put(created.id, { budget_item_ids: [s.sub.id, s.c.id], progress_pct: "33.33" });
    expect(updated.statusCode).toBe(200);
    // 50.25 + 10.00 = 60.25 ; x 33.33% = 20.081325 -> 20.08
    expect(updated.json()).toMatchObject({ planned_value: "60.25", earned_value: "20.08" });
    await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/budget-items/${s.c.id}`,
      payload: { quantity: "2" },
    });
    const after = (
      await t.as(t.adminToken, { method: "GET", url: `/api/v1/activities/${created.id}` })
    ).json();
    expect(after.planned_value).toBe("70.25");
    const late = await put(created.id, { planned_start: "2026-06-01", planned_end: "2026-05-01" });
    expect(late.statusCode).toBe(400);
    expect((await put(created.id, { planned_start: "2026-06-01" })).statusCode).toBe(200);
    expect((await put(created.id, { planned_end: "2026-05-31" })).statusCode).toBe(400);
    expect((await put(created.id, { budget_item_ids: [] })).json()).toMatchObject({
      budget_item_ids: [],
      planned_value: "0.00",
    });
    expect((await put(UNKNOWN, { name: "x" })).statusCode).toBe(404);
  });

  it("lists with budget and estado filters", async () => {
    const s = await budgetWithItems();
    const one = (await post({ budget_id: s.b.id, name: "Replanteo" })).json();
    const two = (await post({ budget_id: s.b.id, name: "Excavación" })).json();
    await setEstado(two.id, "en_curso");
    const all = (
      await t.as(t.adminToken, { method: "GET", url: `/api/v1/activities?budget_id=${s.b.id}` })
    ).json();
    expect(all.data.map((a: { id: string }) => a.id)).toEqual([one.id, two.id]);
    expect(all.total).toBe(2);
    const running = (
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/v1/activities?budget_id=${s.b.id}&estado=en_curso`,
      })
    ).json();
    expect(running.data.map((a: { id: string }) => a.id)).toEqual([two.id]);
    const search = (
      await t.as(t.adminToken, { method: "GET", url: `/api/v1/activities?budget_id=${s.b.id}&search=replan` })
    ).json();
    expect(search.data.map((a: { id: string }) => a.id)).toEqual([one.id]);
  });

  it("moves through its states and refuses the others with 409 listing the allowed ones", async () => {
    const s = await budgetWithItems();
    const a = (await post({ budget_id: s.b.id, budget_item_ids: [s.c.id], progress_pct: "20" })).json();
    const skip = await setEstado(a.id, "completada");
    expect(skip.statusCode).toBe(409);
    expect(skip.json()).toMatchObject({ estado: "pendiente", allowed: ["en_curso"] });
    const started = await setEstado(a.id, "en_curso");
    expect(started.statusCode).toBe(200);
    expect(started.json().actual_start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const back = await setEstado(a.id, "pendiente");
    expect(back.json()).toMatchObject({ status: 409, allowed: ["completada"] });
    const done = await setEstado(a.id, "completada");
    expect(done.json()).toMatchObject({
      estado: "completada",
      progress_pct: "100.00",
      earned_value: "10.00",
    });
    expect(done.json().actual_end).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await setEstado(a.id, "pendiente")).json()).toMatchObject({ status: 409, allowed: ["en_curso"] });
    const reopened = await setEstado(a.id, "en_curso");
    expect(reopened.json()).toMatchObject({ estado: "en_curso", actual_end: null });
    expect((await setEstado(a.id, "en_curso")).statusCode).toBe(409);
    expect((await setEstado(a.id, "cerrada")).statusCode).toBe(400);
  });

  it("deletes an activity", async () => {
    const s = await budgetWithItems();
    const a = (await post({ budget_id: s.b.id, budget_item_ids: [s.a.id] })).json();
    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/activities/${a.id}` })).statusCode,
    ).toBe(204);
    expect((await t.as(t.adminToken, { method: "GET", url: `/api/v1/activities/${a.id}` })).statusCode).toBe(
      404,
    );
    expect(
      (await t.as(t.adminToken, { method: "GET", url: `/api/v1/budget-items/${s.a.id}` })).statusCode,
    ).toBe(200);
  });
});

describe("activities of a read-only budget", () => {
  for (const estado of ["finalizado", "cancelado"]) {
    it(`answers 409 to create, update, estado and delete on a ${estado} budget`, async () => {
      const s = await budgetWithItems();
      const a = (await post({ budget_id: s.b.id })).json();
      await bringBudgetTo(t, t.adminToken, s.b.id, estado);
      expect((await post({ budget_id: s.b.id })).statusCode).toBe(409);
      expect((await put(a.id, { name: "x" })).statusCode).toBe(409);
      expect((await setEstado(a.id, "en_curso")).statusCode).toBe(409);
      expect(
        (await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/activities/${a.id}` })).statusCode,
      ).toBe(409);
      const still = await t.as(t.adminToken, { method: "GET", url: `/api/v1/activities/${a.id}` });
      expect(still.json()).toMatchObject({ estado: "pendiente", name: a.name });
    });
  }
});

describe("activity permissions", () => {
  it("answers 403 on every activity route without the permission", async () => {
    const s = await budgetWithItems();
    const a = (await post({ budget_id: s.b.id })).json();
    const nobody = await t.userWith(["budgets:leer", "budgets:editar"]);
    const calls = [
      { method: "GET", url: "/api/v1/activities" },
      { method: "GET", url: `/api/v1/activities/${a.id}` },
      { method: "POST", url: "/api/v1/activities", payload: { budget_id: s.b.id, code: "Z", name: "Z" } },
      { method: "PUT", url: `/api/v1/activities/${a.id}`, payload: { name: "x" } },
      { method: "DELETE", url: `/api/v1/activities/${a.id}` },
      { method: "PUT", url: `/api/v1/activities/${a.id}/estado`, payload: { estado: "en_curso" } },
    ] as const;
    for (const call of calls) {
      const res = await t.as(nobody.token, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
    }
    const reader = await t.userWith(["activities:leer"]);
    expect((await t.as(reader.token, calls[1])).statusCode).toBe(200);
    expect((await t.as(reader.token, calls[5])).statusCode).toBe(403);
  });
});
