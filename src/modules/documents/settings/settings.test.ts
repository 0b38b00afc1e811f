import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { inTransaction } from "../../../platform/db/sql.js";
import { uniqueCif } from "../config-test-support.js";
import { ensureDocumentDefaults } from "../defaults.js";
import { settingsOf } from "../engine/config.js";
import { documentSettings } from "../tables.js";
import { upsertDocumentSettings } from "./repository.js";

let t: TestApp;
let companyA: string;
let companyB: string;
let editorA: TestUser;
let clerkA: TestUser;

const get = (companyId: string, token = t.adminToken) =>
  t.as(token, { method: "GET", url: `/api/document-settings/${companyId}` });
const put = (companyId: string, payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "PUT", url: `/api/document-settings/${companyId}`, payload });

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Settings A", uniqueCif());
  companyB = await t.createCompany("Settings B", uniqueCif());
  editorA = await t.userWith(["companies:editar"], { companyId: companyA });
  clerkA = await t.userWith([], { companyId: companyA });
});
afterAll(async () => {
  await t?.close();
});

describe("/api/document-settings/{company_id}", () => {
  it("reads the defaults and changes only the fields sent", async () => {
    const initial = await get(companyA);
    expect(initial.statusCode, initial.body).toBe(200);
    expect(initial.json()).toEqual({
      company_id: companyA,
      tax_regime: "general",
      auto_posting: true,
      sales_account: "700",
      purchases_account: "600",
      sales_returns_account: null,
      supplied_account: "555",
      updated_at: expect.any(String),
    });

    const changed = await put(companyA, {
      tax_regime: "recargo_equivalencia",
      auto_posting: false,
      sales_account: "705",
      sales_returns_account: "708",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      tax_regime: "recargo_equivalencia",
      auto_posting: false,
      sales_account: "705",
      purchases_account: "600",
      sales_returns_account: "708",
      supplied_account: "555",
    });
    expect((await get(companyA)).json()).toEqual(changed.json());

    const more = await put(companyA, {
      purchases_account: "6210",
      supplied_account: "4300",
      sales_returns_account: null,
    });
    expect(more.json()).toMatchObject({
      tax_regime: "recargo_equivalencia",
      sales_account: "705",
      purchases_account: "6210",
      sales_returns_account: null,
      supplied_account: "4300",
    });
    expect((await get(companyB)).json()).toMatchObject({ sales_account: "700", tax_regime: "general" });
  });

  it("refuses accounts that are not PGC codes of their group, and unknown regimes, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sales_account: "600" }, "body.sales_account"],
      [{ sales_account: "70" }, "body.sales_account"],
      [{ sales_account: "70500" }, "body.sales_account"],
      [{ sales_returns_account: "608" }, "body.sales_returns_account"],
      [{ purchases_account: "700" }, "body.purchases_account"],
      [{ purchases_account: "6a0" }, "body.purchases_account"],
      [{ supplied_account: "55" }, "body.supplied_account"],
      [{ tax_regime: "simplificado" }, "body.tax_regime"],
      [{ auto_posting: "yes" }, "body.auto_posting"],
    ];
    for (const [payload, path] of cases) {
      const problem = expectProblem(await put(companyB, payload), 400);
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(payload),
      ).toEqual([path]);
    }
    expectProblem(await put(companyB, {}), 400);
    expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/document-settings/not-a-uuid" }), 400);
  });

  it("is a 404 for an unknown company", async () => {
    expectProblem(await get(randomUUID()), 404);
    expectProblem(await put(randomUUID(), { auto_posting: false }), 404);
  });

  it("answers the defaults for a company without its row, without writing, and a change creates it", async () => {
    const companyId = await t.createCompany("Settings lost", uniqueCif());
    await t.db.delete(documentSettings).where(eq(documentSettings.companyId, companyId));
    const read = await get(companyId);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ company_id: companyId, sales_account: "700", auto_posting: true });
    expect(
      await t.db.select().from(documentSettings).where(eq(documentSettings.companyId, companyId)),
    ).toEqual([]);
    const written = await put(companyId, { supplied_account: "554" });
    expect(written.json()).toMatchObject({
      supplied_account: "554",
      sales_account: "700",
      purchases_account: "600",
    });
  });
});

describe("/api/document-settings access", () => {
  it("lets a signed-in caller read its own company's settings only", async () => {
    expect((await get(companyA, clerkA.token)).statusCode).toBe(200);
    expectProblem(await get(companyB, clerkA.token), 404);
  });

  it("needs companies:editar to change them, and never another company's", async () => {
    expectProblem(await put(companyA, { auto_posting: true }, clerkA.token), 403);
    expectProblem(await put(companyB, { auto_posting: false }, editorA.token), 404);
    expect((await get(companyB)).json().auto_posting).toBe(true);
    const own = await put(companyA, { auto_posting: true }, editorA.token);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().auto_posting).toBe(true);
  });
});

describe("the settings remembered in a transaction (ADR 047)", () => {
  it("are read again after the transaction writes them or creates their row", async () => {
    const companyId = await t.createCompany("Settings remembered", uniqueCif());
    await t.db.delete(documentSettings).where(eq(documentSettings.companyId, companyId));
    await inTransaction(t.db, async (tx) => {
      expect((await settingsOf(tx, companyId)).updatedAt).toEqual(new Date(0));
      await ensureDocumentDefaults(tx, companyId);
      expect((await settingsOf(tx, companyId)).updatedAt).not.toEqual(new Date(0));
      await upsertDocumentSettings(tx, companyId, { salesAccount: "705" });
      expect((await settingsOf(tx, companyId)).salesAccount).toBe("705");
    });
  });
});
