import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import {
  createCompany,
  createFiscalYear,
  createSubaccount,
  credit,
  debit,
  postEntry,
} from "../test-support.js";

let t: TestApp;
let companyId: string;
let otherCompanyId: string;
/** A supplier of the company (it gets its own 400 subaccount) and one of another company. */
let contactId: string;
let otherContactId: string;

async function createSupplier(company: string, name: string) {
  const res = await t.as(t.adminToken, {
    method: "POST",
    url: "/api/clients",
    payload: { company_id: company, contact_type: "supplier", name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

beforeAll(async () => {
  t = await createTestApp();
  companyId = await createCompany(t);
  otherCompanyId = await createCompany(t);
  await createFiscalYear(t, companyId, "2026");
  contactId = await createSupplier(companyId, "Suministros Ebro");
  otherContactId = await createSupplier(otherCompanyId, "Ajena SA");
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: Record<string, unknown>) =>
  t.as(t.adminToken, {
    method: "POST",
    url: `/api/accounting${url}`,
    payload: { company_id: companyId, ...payload },
  });
const get = (url: string) => t.as(t.adminToken, { method: "GET", url: `/api/accounting${url}` });

describe("journals", () => {
  it("creates a journal (code upper-cased), refuses a duplicate code and an unknown type", async () => {
    const created = await post("/journals", { code: "ban", name: "Banco", type: "bank" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      company_id: companyId,
      code: "BAN",
      type: "bank",
      is_active: true,
    });
    expect((await post("/journals", { code: "BAN", name: "Otro", type: "bank" })).statusCode).toBe(409);
    expect((await post("/journals", { code: "X", name: "X", type: "cash" })).statusCode).toBe(400);

    const fetched = await get(`/journals/${created.json().id}`);
    expect(fetched.json()).toEqual(created.json());
    expect((await get("/journals/0190f2a4-0000-7000-8000-000000000000")).statusCode).toBe(404);
  });

  it("creates the general journal GEN the first time an entry names none", async () => {
    const before = await get(`/journals?company_id=${companyId}&search=GEN`);
    expect(before.json().total).toBe(0);
    await createSubaccount(t, companyId, "5720000001");
    await createSubaccount(t, companyId, "7050000001");
    const entry = await postEntry(t, {
      company_id: companyId,
      date: "2026-02-02",
      lines: [debit("5720000001", "1.00"), credit("7050000001", "1.00")],
    });
    expect(entry.statusCode).toBe(201);
    const after = await get(`/journals?company_id=${companyId}&type=general`);
    expect(after.json().data.map((j: { code: string; name: string }) => [j.code, j.name])).toEqual([
      ["GEN", "General"],
    ]);
  });
});

describe("subaccounts", () => {
  it("creates a subaccount under the most specific account of the year", async () => {
    const res = await post("/subaccounts", {
      fiscal_year_code: "2026",
      code: "4300000077",
      name: "Cliente varios",
      contact_id: contactId,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: "4300000077",
      account_code: "4300",
      fiscal_year_code: "2026",
      contact_id: contactId,
      is_active: true,
    });
    const bank = await post("/subaccounts", {
      fiscal_year_code: "2026",
      code: "1000000001",
      name: "Capital",
    });
    expect(bank.json().account_code).toBe("100");
    expect((await get(`/subaccounts/${res.json().id}`)).json()).toEqual(res.json());
  });

  it("refuses a code of the wrong length or not under an account with 400, a duplicate with 409", async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ code: "430000001" }, 400],
      [{ code: "43000000011" }, 400],
      [{ code: "1060000001" }, 400],
      [{ code: "43000000a1" }, 400],
      [{ code: "4300000077" }, 409],
      [{ code: "4300000078", fiscal_year_code: "1999" }, 404],
    ];
    for (const [payload, status] of cases) {
      const res = await post("/subaccounts", { fiscal_year_code: "2026", name: "X", ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
    }
  });

  it("refuses a contact_id that is not a contact of the company with a 400 naming the field", async () => {
    for (const contact of ["0190f2a4-0000-7000-8000-0000000000c7", otherContactId]) {
      const res = await post("/subaccounts", {
        fiscal_year_code: "2026",
        code: "4300000079",
        name: "Cliente ajeno",
        contact_id: contact,
      });
      const body = expectProblem(res, 400);
      expect(body.errors).toEqual([
        { path: "contact_id", message: "must be a contact of the subaccount's company" },
      ]);
    }
    const list = await get(`/subaccounts?fiscal_year_code=2026&company_id=${companyId}&search=ajeno`);
    expect(list.json().total).toBe(0);
  });

  it("lists by account prefix, contact and search", async () => {
    const list = async (query: string) =>
      (await get(`/subaccounts?fiscal_year_code=2026&company_id=${companyId}&${query}`)).json();
    expect((await list("account_code=43")).data.map((s: { code: string }) => s.code)).toEqual(["4300000077"]);
    expect((await list("search=varios")).total).toBe(1);
    expect((await list(`contact_id=${contactId}`)).data.map((s: { code: string }) => s.code)).toEqual([
      "4000000001",
      "4300000077",
    ]);
    expect((await list("account_code=5")).data.map((s: { code: string }) => s.code)).toEqual(["5720000001"]);
    const all = await list("limit=2&skip=1");
    expect(all).toMatchObject({ total: 5, skip: 1, limit: 2 });
    expect(all.data.map((s: { code: string }) => s.code)).toEqual(["4000000001", "4300000077"]);
  });
});
