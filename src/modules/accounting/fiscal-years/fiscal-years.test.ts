import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import type { Db } from "../../../platform/db/client.js";
import { inTransaction } from "../../../platform/db/sql.js";
import { ensureContactSubaccounts } from "../index.js";
import * as journals from "../journals/repository.js";
import { PGC_2007 } from "../pgc2007.js";
import {
  createCompany,
  createFiscalYear,
  createSubaccount,
  credit,
  debit,
  postEntry,
  serviceCtx,
} from "../test-support.js";
import * as repo from "./repository.js";

let t: TestApp;
let companyId: string;
let year: { id: string; code: string };

beforeAll(async () => {
  t = await createTestApp();
  companyId = await createCompany(t);
  year = await createFiscalYear(t, companyId, "2026");
});
afterAll(async () => {
  await t?.close();
});

const createYear = (payload: Record<string, unknown>) =>
  t.as(t.adminToken, {
    method: "POST",
    url: "/api/accounting/fiscal-years",
    payload: { company_id: companyId, ...payload },
  });

const setEstado = (id: string, estado: string) =>
  t.as(t.adminToken, {
    method: "PUT",
    url: `/api/accounting/fiscal-years/${id}/estado`,
    payload: { estado },
  });

describe("POST /api/accounting/fiscal-years", () => {
  it("creates an open year and loads the whole PGC 2007 chart into it", async () => {
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/accounting/fiscal-years/${year.id}` });
    expect(res.json()).toMatchObject({
      company_id: companyId,
      code: "2026",
      start_date: "2026-01-01",
      end_date: "2026-12-31",
      estado: "abierto",
      last_entry_number: 0,
    });
    const chart = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/accounting/accounts?fiscal_year_code=2026&company_id=${companyId}&limit=10000`,
    });
    expect(chart.statusCode).toBe(200);
    const body = chart.json();
    expect(body.total).toBe(PGC_2007.length);
    const codes = body.data.map((a: { code: string }) => a.code);
    for (const code of ["1", "9", "43", "430", "4300", "4720", "4751", "4770", "5720", "700"]) {
      expect(codes, code).toContain(code);
    }
    expect(codes).toEqual(PGC_2007.map((a) => a.code));
    expect(body.data.find((a: { code: string }) => a.code === "4770")).toMatchObject({
      name: "Hacienda Pública, IVA repercutido",
      parent_code: "477",
      level: 4,
      fiscal_year_code: "2026",
    });
  });

  it("searches the chart by code prefix or name", async () => {
    const search = async (text: string) =>
      (
        await t.as(t.adminToken, {
          method: "GET",
          url: `/api/accounting/accounts?fiscal_year_code=2026&search=${encodeURIComponent(text)}&limit=10000`,
        })
      ).json();
    const prefix = await search("477");
    expect(prefix.data.map((a: { code: string }) => a.code)).toEqual(["477", "4770"]);
    const byName = await search("iva repercutido");
    expect(byName.data.map((a: { code: string }) => a.code)).toEqual(["477", "4770"]);
  });

  it("refuses a duplicate code or overlapping dates with 409", async () => {
    const duplicate = await createYear({ code: "2026", start_date: "2030-01-01", end_date: "2030-12-31" });
    expect(duplicate.statusCode).toBe(409);
    for (const [start, end] of [
      ["2026-06-01", "2027-05-31"],
      ["2025-07-01", "2026-01-01"],
      ["2026-03-01", "2026-03-31"],
    ]) {
      const res = await createYear({ code: `X${start}`, start_date: start, end_date: end });
      expect(res.statusCode, `${start}..${end}`).toBe(409);
      expect(res.json().detail).toContain("overlap");
    }
    const adjacent = await createYear({ code: "2025", start_date: "2025-01-01", end_date: "2025-12-31" });
    expect(adjacent.statusCode).toBe(201);
  });

  it("lets two companies have the same year", async () => {
    const other = await createCompany(t);
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/accounting/fiscal-years",
      payload: { company_id: other, code: "2026", start_date: "2026-01-01", end_date: "2026-12-31" },
    });
    expect(res.statusCode).toBe(201);
  });

  it("refuses end before start, a year longer than 12 months and malformed dates with 400", async () => {
    for (const payload of [
      { code: "A", start_date: "2040-05-01", end_date: "2040-04-30" },
      { code: "B", start_date: "2040-01-01", end_date: "2041-01-01" },
      { code: "C", start_date: "2040-02-30", end_date: "2040-12-31" },
      { code: "", start_date: "2040-01-01", end_date: "2040-12-31" },
    ]) {
      const res = await createYear(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("requires company_id when the tenant has several companies", async () => {
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/accounting/fiscal-years",
      payload: { code: "2040", start_date: "2040-01-01", end_date: "2040-12-31" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe("company_id");
  });

  it("carries the previous year's customer and supplier subaccounts into a new year", async () => {
    await createSubaccount(t, companyId, "5720000001", "2026");
    await ensureContactSubaccounts(serviceCtx(t.ctx), {
      id: "0190f2a4-0000-7000-8000-0000000000c1",
      companyId,
      contactType: "both",
      name: "Cliente y proveedor SL",
    });
    const next = await createFiscalYear(t, companyId, "2027");
    const subaccounts = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/accounting/subaccounts?fiscal_year_code=2027&company_id=${companyId}`,
    });
    const rows = subaccounts.json().data;
    expect(rows.map((s: { code: string }) => s.code)).toEqual(["4000000001", "4300000001"]);
    expect(rows[0]).toMatchObject({
      fiscal_year_id: next.id,
      contact_id: "0190f2a4-0000-7000-8000-0000000000c1",
      name: "Cliente y proveedor SL",
      account_code: "4000",
    });
  });
});

describe("PUT /api/accounting/fiscal-years/{id}/estado", () => {
  it("closes a year (entries -> 409) and reopens it", async () => {
    await createSubaccount(t, companyId, "7000000001", "2026");
    const lines = [debit("5720000001", "10.00"), credit("7000000001", "10.00")];
    const closed = await setEstado(year.id, "cerrado");
    expect(closed.statusCode).toBe(200);
    expect(closed.json().estado).toBe("cerrado");

    const refused = await postEntry(t, { company_id: companyId, date: "2026-05-05", lines });
    expect(refused.statusCode).toBe(409);
    const subaccount = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/accounting/subaccounts",
      payload: { company_id: companyId, fiscal_year_code: "2026", code: "5720000002", name: "Bank 2" },
    });
    expect(subaccount.statusCode).toBe(409);

    const reopened = await setEstado(year.id, "abierto");
    expect(reopened.json().estado).toBe("abierto");
    const accepted = await postEntry(t, { company_id: companyId, date: "2026-05-05", lines });
    expect(accepted.statusCode).toBe(201);
  });

  it("refuses an unknown state with 400, a non-UUID id with 400 and an unknown year with 404", async () => {
    expect((await setEstado(year.id, "open")).statusCode).toBe(400);
    expect((await setEstado("2026", "cerrado")).statusCode).toBe(400);
    expect((await setEstado("0190f2a4-0000-7000-8000-000000000000", "cerrado")).statusCode).toBe(404);
  });
});

describe("GET /api/accounting/fiscal-years", () => {
  it("lists the years newest first and filters by estado and company", async () => {
    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/accounting/fiscal-years?company_id=${companyId}`,
    });
    const body = res.json();
    expect(body.data.map((y: { code: string }) => y.code)).toEqual(["2027", "2026", "2025"]);
    expect(body).toMatchObject({ total: 3, skip: 0, limit: 50 });
    const closed = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/accounting/fiscal-years?company_id=${companyId}&estado=cerrado`,
    });
    expect(closed.json().total).toBe(0);
  });
});

describe("years and journals remembered in a transaction (ADR 047)", () => {
  it("reads a year again after the transaction creates, numbers in or closes it", async () => {
    const company = await createCompany(t);
    const byCode = (tx: Db) => repo.findFiscalYearByCode(tx, company, "2031");
    const containingMay = (tx: Db) => repo.findOverlappingFiscalYear(tx, company, "2031-05-01", "2031-05-01");
    await inTransaction(t.db, async (tx) => {
      expect(await byCode(tx)).toBeUndefined();
      expect(await containingMay(tx)).toBeUndefined();
      const created = await repo.insertFiscalYear(tx, {
        companyId: company,
        code: "2031",
        startDate: "2031-01-01",
        endDate: "2031-12-31",
      });
      expect((await byCode(tx))?.id).toBe(created.id);
      expect((await containingMay(tx))?.id).toBe(created.id);
      expect(await repo.takeNextEntryNumber(tx, created.id)).toBe(1);
      expect(await repo.takeEntryNumbers(tx, created.id, 3)).toBe(2);
      expect((await byCode(tx))?.lastEntryNumber).toBe(4);
      await repo.updateFiscalYearState(tx, created.id, "cerrado");
      expect((await containingMay(tx))?.estado).toBe("cerrado");
    });
  });

  it("reads a journal again after the transaction creates it", async () => {
    const company = await createCompany(t);
    const journal = (code: string, name: string) => ({
      companyId: company,
      code,
      name,
      type: "general" as const,
    });
    await inTransaction(t.db, async (tx) => {
      expect(await journals.findJournalByCode(tx, company, "VEN")).toBeUndefined();
      const created = await journals.insertJournal(tx, journal("VEN", "Ventas"));
      expect((await journals.findJournalByCode(tx, company, "VEN"))?.id).toBe(created.id);
      expect(await journals.findJournalByCode(tx, company, "COM")).toBeUndefined();
      const missing = await journals.insertJournalIfMissing(tx, journal("COM", "Compras"));
      expect(missing?.code).toBe("COM");
      const again = await journals.insertJournalIfMissing(tx, journal("COM", "Otro"));
      expect(again).toEqual(missing);
    });
  });
});
