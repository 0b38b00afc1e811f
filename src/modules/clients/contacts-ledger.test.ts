import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";

let t: TestApp;
let company: string;
let companyWithoutYear: string;

async function createContact(payload: Record<string, unknown>) {
  const res = await t.as(t.adminToken, { method: "POST", url: "/api/clients", payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string };
}

async function subaccountsOf(contactId: string, companyId = company) {
  const res = await t.as(t.adminToken, {
    method: "GET",
    url: `/api/accounting/subaccounts?company_id=${companyId}&contact_id=${contactId}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { code: string; name: string; fiscal_year_code: string }[])
    .map((s) => `${s.fiscal_year_code}:${s.code}:${s.name}`)
    .sort();
}

beforeAll(async () => {
  t = await createTestApp();
  company = await t.createCompany("Ledger", "B12345674");
  companyWithoutYear = await t.createCompany("No year", "A58818501");
  const year = await t.as(t.adminToken, {
    method: "POST",
    url: "/api/accounting/fiscal-years",
    payload: { company_id: company, code: "2026", start_date: "2026-01-01", end_date: "2026-12-31" },
  });
  expect(year.statusCode, year.body).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe("contact subaccounts", () => {
  it("gives customers a 430 and suppliers a 400 subaccount in the open fiscal year", async () => {
    const customer = await createContact({
      company_id: company,
      contact_type: "customer",
      name: "Cliente Uno",
    });
    expect(await subaccountsOf(customer.id)).toEqual(["2026:4300000001:Cliente Uno"]);
    const second = await createContact({
      company_id: company,
      contact_type: "customer",
      name: "Cliente Dos",
    });
    expect(await subaccountsOf(second.id)).toEqual(["2026:4300000002:Cliente Dos"]);
    const supplier = await createContact({
      company_id: company,
      contact_type: "supplier",
      name: "Proveedor Uno",
    });
    expect(await subaccountsOf(supplier.id)).toEqual(["2026:4000000001:Proveedor Uno"]);
    const both = await createContact({ company_id: company, contact_type: "both", name: "Mixto" });
    expect(await subaccountsOf(both.id)).toEqual(["2026:4000000002:Mixto", "2026:4300000003:Mixto"]);
  });

  it("adds the missing subaccount when a contact's type changes", async () => {
    const contact = await createContact({
      company_id: company,
      contact_type: "supplier",
      name: "Ahora también cliente",
    });
    const [supplierAccount] = await subaccountsOf(contact.id);
    const res = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/clients/${contact.id}`,
      payload: { contact_type: "both" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await subaccountsOf(contact.id);
    expect(after).toHaveLength(2);
    expect(after).toContain(supplierAccount);
    expect(after.some((s) => s.startsWith("2026:430"))).toBe(true);
  });

  it("creates the contact without subaccounts when the company has no open fiscal year", async () => {
    const contact = await createContact({
      company_id: companyWithoutYear,
      contact_type: "customer",
      name: "Sin ejercicio",
    });
    expect(await subaccountsOf(contact.id, companyWithoutYear)).toEqual([]);
  });

  it("creates nothing when the subaccount cannot be created: contact and ledger share one transaction", async () => {
    const full = await t.createCompany("Full ledger", "A28015865");
    const year = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/accounting/fiscal-years",
      payload: { company_id: full, code: "2026", start_date: "2026-01-01", end_date: "2026-12-31" },
    });
    expect(year.statusCode, year.body).toBe(201);
    const last = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/accounting/subaccounts",
      payload: { company_id: full, fiscal_year_code: "2026", code: "4309999999", name: "Último cliente" },
    });
    expect(last.statusCode, last.body).toBe(201);

    const refused = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/clients",
      payload: { company_id: full, contact_type: "customer", name: "Sin hueco", tax_id: "12345678Z" },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    const listed = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/clients?company_id=${full}&include_inactive=true`,
    });
    expect(listed.json().total).toBe(0);

    const supplier = await createContact({
      company_id: full,
      contact_type: "supplier",
      name: "Sí cabe",
      tax_id: "12345678Z",
    });
    expect(supplier).toMatchObject({ code: "C00001", tax_id: "12345678Z" });
  });
});
