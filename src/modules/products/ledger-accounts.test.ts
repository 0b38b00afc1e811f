import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";
import { AppError } from "../../platform/http/errors.js";
import { assertLedgerAccounts } from "./ledger-accounts.js";

let t: TestApp;
let companyId: string;

const call = (method: "POST" | "PUT", url: string, payload: Record<string, unknown>) =>
  t.as(t.adminToken, { method, url, payload });

beforeAll(async () => {
  t = await createTestApp();
  companyId = await t.createCompany("Accounts", "B12345674");
});
afterAll(async () => {
  await t?.close();
});

describe("ledger accounts of products and families", () => {
  it("default to none, and are stored, read back, changed and cleared", async () => {
    const family = await call("POST", "/api/products/families", {
      company_id: companyId,
      code: "SERV",
      name: "Servicios",
      sales_account: "705",
      purchases_account: "6070",
    });
    expect(family.statusCode, family.body).toBe(201);
    expect(family.json()).toMatchObject({ sales_account: "705", purchases_account: "6070" });
    const changedFamily = await call("PUT", `/api/products/families/${family.json().id}`, {
      sales_account: null,
      purchases_account: "621",
    });
    expect(changedFamily.json()).toMatchObject({ sales_account: null, purchases_account: "621" });

    const plain = await call("POST", "/api/products", {
      company_id: companyId,
      reference: "P0",
      description: "Sin",
    });
    expect(plain.json()).toMatchObject({ sales_account: null, purchases_account: null });

    const product = await call("POST", "/api/products", {
      company_id: companyId,
      reference: "P1",
      description: "Mano de obra",
      family_code: "SERV",
      sales_account: "7051",
      purchases_account: "601",
    });
    expect(product.statusCode, product.body).toBe(201);
    expect(product.json()).toMatchObject({ sales_account: "7051", purchases_account: "601" });
    const read = await t.as(t.adminToken, { method: "GET", url: `/api/products/${product.json().id}` });
    expect(read.json()).toEqual(product.json());
    const cleared = await call("PUT", `/api/products/${product.json().id}`, { sales_account: null });
    expect(cleared.json()).toMatchObject({ sales_account: null, purchases_account: "601" });
    const renamed = await call("PUT", `/api/products/${product.json().id}`, {
      description: "Mano de obra oficial",
    });
    expect(renamed.json()).toMatchObject({ sales_account: null, purchases_account: "601" });
  });

  it("refuses codes that are not 3-4 digit PGC accounts of their group, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sales_account: "600" }, "body.sales_account"],
      [{ sales_account: "70" }, "body.sales_account"],
      [{ sales_account: "70000" }, "body.sales_account"],
      [{ sales_account: "7a0" }, "body.sales_account"],
      [{ purchases_account: "700" }, "body.purchases_account"],
      [{ purchases_account: "4000" }, "body.purchases_account"],
      [{ purchases_account: 600 }, "body.purchases_account"],
    ];
    const family = (
      await call("POST", "/api/products/families", { company_id: companyId, code: "F2", name: "F2" })
    ).json();
    const product = (
      await call("POST", "/api/products", { company_id: companyId, reference: "P2", description: "P2" })
    ).json();
    for (const [payload, path] of cases) {
      const label = JSON.stringify(payload);
      for (const res of [
        await call("POST", "/api/products", {
          company_id: companyId,
          reference: "PX",
          description: "X",
          ...payload,
        }),
        await call("PUT", `/api/products/${product.id}`, payload),
        await call("POST", "/api/products/families", {
          company_id: companyId,
          code: "FX",
          name: "X",
          ...payload,
        }),
        await call("PUT", `/api/products/families/${family.id}`, payload),
      ]) {
        expect(
          expectProblem(res, 400).errors?.map((e) => e.path),
          label,
        ).toEqual([path]);
      }
    }
  });

  it("are checked by the services too", () => {
    expect(() => assertLedgerAccounts({ salesAccount: "705", purchasesAccount: null })).not.toThrow();
    expect(() => assertLedgerAccounts({})).not.toThrow();
    try {
      assertLedgerAccounts({ salesAccount: "629", purchasesAccount: "7" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).options.errors?.map((x) => x.path)).toEqual([
        "sales_account",
        "purchases_account",
      ]);
    }
  });
});
