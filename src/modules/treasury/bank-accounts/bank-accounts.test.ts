import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { watchPgOverlaps } from "../../../../test/helpers/pg-overlap.js";
import { createCompany, createFiscalYear } from "../../accounting/test-support.js";
import { expectStatus } from "../../documents/test-support.js";
import { type BankAccountOut, createBankAccount, IBANS } from "../test-support.js";

let t: TestApp;
let companyId: string;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await createCompany(t, { name: "Bank accounts test" });
  await createFiscalYear(t, companyId, "2026");
});
afterAll(async () => {
  await t?.close();
});

const url = "/api/treasury/bank-accounts";

describe("bank accounts", () => {
  it("creating one sends its transaction's queries one at a time (its subaccount lookups once ran together)", async () => {
    const ownCompany = await createCompany(t, { name: "Bank accounts overlap test" });
    await createFiscalYear(t, ownCompany, "2026");
    const watch = watchPgOverlaps();
    try {
      await createBankAccount(t, ownCompany, { name: "Banco overlap", iban: IBANS[2] });
    } finally {
      watch.restore();
    }
    expect(watch.overlaps).toEqual([]);
  });

  it("creates an account with its IBAN normalized and its own 572 subaccount in the open years", async () => {
    const a = await createBankAccount(t, companyId, {
      name: "Banco A",
      iban: "es91 2100 0418 4502 0005 1332",
    });
    expect(a).toMatchObject({
      name: "Banco A",
      iban: "ES9121000418450200051332",
      iban_formatted: "ES91 2100 0418 4502 0005 1332",
      subaccount_code: "5720000001",
      is_active: true,
    });
    const b = await createBankAccount(t, companyId, { name: "Banco B", iban: IBANS[1], bic: "caixesbbxxx" });
    expect(b.subaccount_code).toBe("5720000002");
    expect(b).toMatchObject({ bic: "CAIXESBBXXX" });
    const subs = expectStatus<{ data: Array<{ code: string; name: string; fiscal_year_code: string }> }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/accounting/subaccounts?company_id=${companyId}&account_code=572`,
      }),
      200,
    );
    expect(subs.data.map((s) => [s.code, s.name])).toEqual([
      ["5720000001", "Banco A"],
      ["5720000002", "Banco B"],
    ]);
    // A fiscal year created later gets them when a payment posts there (postSourceEntry), and the
    // same IBAN twice in a company is a 409.
    const dup = await t.as(t.adminToken, {
      method: "POST",
      url,
      payload: { company_id: companyId, name: "Again", iban: IBANS[0] },
    });
    expect(dup.statusCode).toBe(409);
  });

  it("refuses a bad IBAN with a 400 naming the field, and a subaccount outside 572", async () => {
    for (const iban of ["ES9121000418450200051333", "ES91", "1234"]) {
      const res = await t.as(t.adminToken, {
        method: "POST",
        url,
        payload: { company_id: companyId, name: "X", iban },
      });
      expect(res.statusCode, iban).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain("body.iban");
    }
    const wrongSub = await t.as(t.adminToken, {
      method: "POST",
      url,
      payload: { company_id: companyId, name: "X", iban: IBANS[2], subaccount_code: "5700000001" },
    });
    expect(wrongSub.statusCode).toBe(400);
    const shortSub = await t.as(t.adminToken, {
      method: "POST",
      url,
      payload: { company_id: companyId, name: "X", iban: IBANS[2], subaccount_code: "57201" },
    });
    expect(shortSub.statusCode).toBe(400);
    expect(shortSub.json().errors[0].path).toBe("subaccount_code");
    const badPatch = await t.as(t.adminToken, {
      method: "POST",
      url,
      payload: { company_id: companyId, name: "X", iban: IBANS[2], subaccount_code: "5720000009" },
    });
    const created = expectStatus<BankAccountOut>(badPatch, 201);
    expect(created.subaccount_code).toBe("5720000009");
    const patch = await t.as(t.adminToken, {
      method: "PATCH",
      url: `${url}/${created.id}`,
      payload: { iban: "ES0000000000000000000000" },
    });
    expect(patch.statusCode).toBe(400);
  });

  it("lists, reads, updates and deletes; inactive ones only on request", async () => {
    const c = await createBankAccount(t, companyId, { name: "Banco C", iban: "DE89370400440532013000" });
    const renamed = expectStatus<BankAccountOut>(
      await t.as(t.adminToken, {
        method: "PATCH",
        url: `${url}/${c.id}`,
        payload: { name: "Banco C2", is_active: false },
      }),
      200,
    );
    expect(renamed).toMatchObject({ name: "Banco C2", is_active: false, subaccount_code: c.subaccount_code });
    const active = expectStatus<{ data: BankAccountOut[]; total: number }>(
      await t.as(t.adminToken, { method: "GET", url: `${url}?company_id=${companyId}` }),
      200,
    );
    expect(active.data.map((a) => a.id)).not.toContain(c.id);
    const all = expectStatus<{ data: BankAccountOut[]; total: number; skip: number; limit: number }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `${url}?company_id=${companyId}&include_inactive=true&search=c2`,
      }),
      200,
    );
    expect(all).toMatchObject({ total: 1, skip: 0, limit: 50 });
    expect(all.data[0].id).toBe(c.id);
    expect((await t.as(t.adminToken, { method: "DELETE", url: `${url}/${c.id}` })).statusCode).toBe(204);
    expect((await t.as(t.adminToken, { method: "GET", url: `${url}/${c.id}` })).statusCode).toBe(404);
  });

  it("keeps another company's accounts out of reach (404) and checks permissions", async () => {
    const other = await createCompany(t, { name: "Other company" });
    const theirs = await createBankAccount(t, other, { name: "Theirs", iban: IBANS[0] });
    const mine = await createBankAccount(t, companyId, { name: "Mine", iban: "GB82WEST12345698765432" });
    const restricted = await t.userWith(
      ["treasury:leer", "treasury:crear", "treasury:editar", "treasury:eliminar"],
      {
        companyId,
      },
    );
    const as = (method: "GET" | "PATCH" | "DELETE", path: string, payload?: object) =>
      t.as(restricted.token, { method, url: `${url}${path}`, payload });
    expect((await as("GET", `/${theirs.id}`)).statusCode).toBe(404);
    expect((await as("PATCH", `/${theirs.id}`, { name: "x" })).statusCode).toBe(404);
    expect((await as("DELETE", `/${theirs.id}`)).statusCode).toBe(404);
    expect((await as("GET", `/${mine.id}`)).statusCode).toBe(200);
    const list = expectStatus<{ data: BankAccountOut[] }>(await as("GET", "?include_inactive=true"), 200);
    expect(list.data.every((a) => a.company_id === companyId)).toBe(true);
    const create = await t.as(restricted.token, {
      method: "POST",
      url,
      payload: { company_id: other, name: "Sneaky", iban: IBANS[1] },
    });
    expect(create.statusCode).toBe(404);
    const reader = await t.userWith(["treasury:leer"]);
    const denied = await t.as(reader.token, {
      method: "POST",
      url,
      payload: { company_id: companyId, name: "X", iban: IBANS[2] },
    });
    expect(denied.statusCode).toBe(403);
  });
});
