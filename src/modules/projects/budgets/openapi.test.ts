import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ROUTES: [string, string][] = [
  ["get", "/api/v1/budgets"],
  ["post", "/api/v1/budgets"],
  ["get", "/api/v1/budgets/{budget_id}"],
  ["put", "/api/v1/budgets/{budget_id}"],
  ["delete", "/api/v1/budgets/{budget_id}"],
  ["post", "/api/v1/budgets/{budget_id}/duplicate"],
  ["put", "/api/v1/budgets/{budget_id}/estado"],
  ["get", "/api/v1/budgets/{budget_id}/history"],
  ["post", "/api/v1/budgets/import-bc3"],
  ["post", "/api/v1/budgets/{budget_id}/import-bc3"],
  ["get", "/api/v1/budgets/{budget_id}/export-bc3"],
  ["get", "/api/v1/budget-items"],
  ["post", "/api/v1/budget-items"],
  ["get", "/api/v1/budget-items/{id}"],
  ["put", "/api/v1/budget-items/{id}"],
  ["delete", "/api/v1/budget-items/{id}"],
  ["post", "/api/v1/budget-items/{id}/move"],
  ["get", "/api/v1/activities"],
  ["post", "/api/v1/activities"],
  ["get", "/api/v1/activities/{id}"],
  ["put", "/api/v1/activities/{id}"],
  ["delete", "/api/v1/activities/{id}"],
  ["put", "/api/v1/activities/{id}/estado"],
];

describe("/api/v1/openapi.json", () => {
  it("documents every budget, item, activity and BC3 route with its responses", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const [method, path] of ROUTES) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["401", "403"]));
      expect(op.description).toMatch(/Requires permission `(budgets|activities):\w+`/);
    }
    expect(doc.paths["/api/v1/budgets/import-bc3"].post.responses).toHaveProperty("413");
    const exported = doc.paths["/api/v1/budgets/{budget_id}/export-bc3"].get.responses["200"];
    expect(exported.content).toHaveProperty("application/octet-stream");
    // The nested tree is spelled out level by level: its only reference is the shared Problem component.
    const refs = JSON.stringify(doc.paths["/api/v1/budget-items"]).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(new Set(refs)).toEqual(new Set(['"$ref":"#/components/schemas/Problem"']));
  });
});
