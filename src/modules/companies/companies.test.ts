import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";

let t: TestApp;
let companyId: string;
beforeAll(async () => {
  t = await createTestApp();
  companyId = await t.createCompany("Obras Norte SL", "B12345674");
});
afterAll(async () => {
  await t?.close();
});

describe("PUT /api/companies/{id}", () => {
  it.each([{}, { unknown_field: "x" }])(
    "with nothing to change (%j) is a 400 naming the rule",
    async (payload) => {
      const res = await t.as(t.adminToken, { method: "PUT", url: `/api/companies/${companyId}`, payload });
      const body = expectProblem(res, 400);
      expect(body.detail).toMatch(/at least one field is required/);
    },
  );

  it("with one field changes that field", async () => {
    const res = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/companies/${companyId}`,
      payload: { city: "Bilbao" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: companyId, city: "Bilbao", name: "Obras Norte SL" });
  });
});
