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

const get = (url: string) => t.as(t.adminToken, { method: "GET", url });

describe("items of a read-only budget", () => {
  for (const estado of ["finalizado", "cancelado"]) {
    it(`answers 409 to create, update, delete and move on a ${estado} budget`, async () => {
      const b = await createBudget(t, t.adminToken);
      const chapter = await createItem(t, t.adminToken, { budget_id: b.id, kind: "chapter" });
      const item = await createItem(t, t.adminToken, { budget_id: b.id, quantity: "1", unit_price: "2" });
      await bringBudgetTo(t, t.adminToken, b.id, estado);
      const calls = [
        { method: "POST", url: "/api/v1/budget-items", payload: { budget_id: b.id, code: "NEW" } },
        { method: "PUT", url: `/api/v1/budget-items/${item.id}`, payload: { quantity: "5" } },
        { method: "DELETE", url: `/api/v1/budget-items/${item.id}` },
        { method: "POST", url: `/api/v1/budget-items/${item.id}/move`, payload: { parent_id: chapter.id } },
      ] as const;
      for (const call of calls) {
        const res = await t.as(t.adminToken, call);
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(409);
      }
      expect((await get(`/api/v1/budget-items/${item.id}`)).json()).toMatchObject({
        quantity: "1.000",
        parent_id: null,
      });
    });
  }
});

describe("budget item permissions", () => {
  it("answers 403 on every item route without the permission", async () => {
    const b = await createBudget(t, t.adminToken);
    const item = await createItem(t, t.adminToken, { budget_id: b.id });
    const nobody = await t.userWith(["activities:leer", "activities:editar"]);
    const calls = [
      { method: "GET", url: `/api/v1/budget-items?budget_id=${b.id}` },
      { method: "GET", url: `/api/v1/budget-items/${item.id}` },
      { method: "POST", url: "/api/v1/budget-items", payload: { budget_id: b.id, code: "Z" } },
      { method: "PUT", url: `/api/v1/budget-items/${item.id}`, payload: { summary: "x" } },
      { method: "DELETE", url: `/api/v1/budget-items/${item.id}` },
      { method: "POST", url: `/api/v1/budget-items/${item.id}/move`, payload: { parent_id: null } },
    ] as const;
    for (const call of calls) {
      const res = await t.as(nobody.token, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
    }
    const reader = await t.userWith(["budgets:leer"]);
    expect((await t.as(reader.token, calls[1])).statusCode).toBe(200);
    expect((await t.as(reader.token, calls[4])).statusCode).toBe(403);
  });
});
