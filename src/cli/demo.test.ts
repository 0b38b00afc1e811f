import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import type { Actor } from "../platform/auth/actor.js";
import type { AuthedCtx } from "../platform/http/context.js";
import { validateSpanishTaxId } from "../platform/tax-id.js";
import { loadEnterpriseDemo } from "./demo.js";

let t: TestApp;

function adminCtx(): AuthedCtx {
  const actor: Actor = {
    kind: "user",
    userId: "01900000-0000-7000-8000-000000000002",
    email: "demo@example.com",
    fullName: "Demo loader",
    permissions: new Set(),
    roles: [],
    companyId: null,
  };
  return { db: t.db, tenantId: "default", actor };
}

async function listAll(path: string, companyId: string) {
  const res = await t.as(t.adminToken, {
    method: "GET",
    url: `${path}?company_id=${companyId}&include_inactive=true&limit=10000`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Record<string, string | null>[]; total: number };
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("loadEnterpriseDemo", () => {
  it("creates the demo company with agents, contacts, families and products, once", async () => {
    const first = await loadEnterpriseDemo(adminCtx());
    expect(first.created).toBe(true);
    const company = await t.as(t.adminToken, { method: "GET", url: `/api/companies/${first.companyId}` });
    expect(company.json()).toMatchObject({ name: "Construcciones Demo, S.L.", tax_id: "B12345674" });

    expect((await listAll("/api/agents", first.companyId)).total).toBe(5);
    expect((await listAll("/api/products/families", first.companyId)).total).toBe(4);
    const products = await listAll("/api/products", first.companyId);
    expect(products.total).toBe(100);
    expect(new Set(products.data.map((p) => p.family_code))).toEqual(new Set(["MAT", "HER", "ELE", "SRV"]));
    expect(products.data.every((p) => /^\d+\.\d{2}$/.test(p.sale_price ?? ""))).toBe(true);

    const contacts = await listAll("/api/clients", first.companyId);
    expect(contacts.total).toBe(50);
    const taxIds = contacts.data.map((c) => c.tax_id ?? "");
    expect(new Set(taxIds).size).toBe(50);
    // Every contact has a valid Spanish NIF or CIF but the German machinery supplier (an EU VAT number).
    const foreign = contacts.data.filter((c) => c.country !== "ES");
    expect(foreign.map((c) => [c.country, c.tax_id])).toEqual([["DE", "DE811907980"]]);
    for (const c of contacts.data)
      if (c.country === "ES") expect(validateSpanishTaxId(c.tax_id ?? "").valid, c.tax_id ?? "").toBe(true);
    const types = contacts.data.map((c) => c.contact_type);
    expect(types.filter((x) => x === "customer")).toHaveLength(30);
    expect(types.filter((x) => x === "supplier")).toHaveLength(15);
    expect(types.filter((x) => x === "both")).toHaveLength(5);
    expect(contacts.data.some((c) => c.agent_id !== null)).toBe(true);

    const again = await loadEnterpriseDemo(adminCtx());
    expect(again).toEqual({ created: false, companyId: first.companyId });
    expect((await listAll("/api/clients", first.companyId)).total).toBe(50);
    expect((await listAll("/api/products", first.companyId)).total).toBe(100);
  }, 120_000);
});
