import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";
import { inTransaction } from "../../platform/db/sql.js";
import * as repo from "./repository.js";

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

describe("the company's row remembered in a transaction (ADR 047)", () => {
  it("is read once, and again after the transaction's own write to it", async () => {
    await inTransaction(t.db, async (tx) => {
      const first = await repo.findCompany(tx, companyId);
      expect(await repo.findCompany(tx, companyId)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      await repo.updateCompany(tx, companyId, { city: "Vitoria" });
      expect((await repo.findCompany(tx, companyId))?.city).toBe("Vitoria");
    });
  });

  it("forgets what a savepoint read once the savepoint rolls back", async () => {
    await repo.updateCompany(t.db, companyId, { city: "Bilbao" });
    await inTransaction(t.db, async (tx) => {
      expect((await repo.findCompany(tx, companyId))?.city).toBe("Bilbao");
      const undone = inTransaction(tx, async (savepoint) => {
        await repo.updateCompany(savepoint, companyId, { city: "Gasteiz" });
        expect((await repo.findCompany(savepoint, companyId))?.city).toBe("Gasteiz");
        throw new Error("rolled back");
      });
      await expect(undone).rejects.toThrow("rolled back");
      expect((await repo.findCompany(tx, companyId))?.city).toBe("Bilbao");
    });
  });

  it("is not remembered outside a transaction", async () => {
    expect((await repo.findCompany(t.db, companyId))?.city).toBe("Bilbao");
    await t.db.execute(sql`update companies set city = 'Donostia' where id = ${companyId}`);
    expect((await repo.findCompany(t.db, companyId))?.city).toBe("Donostia");
  });
});
