import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { createCompany, createFiscalYear } from "../accounting/test-support.js";
import {
  approvedPurchaseInvoice,
  boxMapOf,
  createReturn,
  documentsFixture,
  draftReturn,
  expectStatus,
  issuedSalesInvoice,
  line,
  type ReturnOut,
  returnAction,
} from "./test-support.js";

/** The VAT books, the box map's rules, the 400s naming the field, and the company restriction. */

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;
let other: string;
let ret: ReturnOut;

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
  other = await createCompany(t, { name: "Otra empresa" });
  await createFiscalYear(t, other, "2026");
  await issuedSalesInvoice(
    t,
    fx.companyId,
    fx.customer.id,
    [line("2", "100", "IVA21", { irpf_code: "IRPF15" }), line("1", "50", "IVA10")],
    "2026-01-20",
  );
  await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "300", "IVA21")], "2026-02-03");
  ret = await draftReturn(t, fx.companyId, "303", "1T");
});
afterAll(async () => {
  await t?.close();
});

describe("VAT books", () => {
  it("lists the issued book, one row per invoice and rate, with the AEAT columns", async () => {
    const page = expectStatus<{ data: Array<Record<string, unknown>>; total: number }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/tax/vat-books/issued?company_id=${fx.companyId}&date_from=2026-01-01&date_to=2026-03-31`,
      }),
      200,
    );
    expect(page.total).toBe(2);
    expect(page.data.map((r) => [r.tipo_iva, r.base, r.cuota_iva, r.irpf_importe])).toEqual([
      ["10.00", "50.00", "5.00", "30.00"],
      ["21.00", "200.00", "42.00", null],
    ]);
    expect(page.data[0]).toMatchObject({
      ejercicio: 2026,
      periodo: "1T",
      tipo_factura: "F1",
      fecha_expedicion: "2026-01-20",
      serie: "A",
      nombre: "Cliente Uno, S.L.",
      clave_operacion: "01",
      calificacion: "S1",
      total: "267.00",
    });
    const received = expectStatus<{ data: Array<Record<string, unknown>> }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/tax/vat-books/received?company_id=${fx.companyId}`,
      }),
      200,
    );
    expect(received.data).toHaveLength(1);
    expect(received.data[0]).toMatchObject({
      base: "300.00",
      cuota_iva: "63.00",
      fecha_recepcion: expect.any(String),
    });
    const empty = expectStatus<{ total: number }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/tax/vat-books/issued?company_id=${fx.companyId}&date_from=2026-04-01`,
      }),
      200,
    );
    expect(empty.total).toBe(0);
  });

  it("exports the AEAT format as ;-separated CSV and as XLSX", async () => {
    const csv = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/tax/vat-books/issued?company_id=${fx.companyId}&format=csv`,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const [header, first] = csv.body.split("\r\n");
    expect(header.split(";")).toHaveLength(36);
    expect(header.startsWith("Ejercicio;Periodo;Actividad Código")).toBe(true);
    const cells = first.split(";");
    expect(cells[8]).toBe("20/01/2026");
    expect(cells[21]).toBe("50,00");
    expect(cells[22]).toBe("10,00");
    expect(cells[31]).toBe("30,00");

    const xlsx = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/tax/vat-books/received?company_id=${fx.companyId}&format=xlsx`,
    });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet("Recibidas");
    expect(sheet?.getRow(1).getCell(1).value).toBe("Ejercicio");
    expect(sheet?.getRow(2).getCell(28).value).toBe("300,00");
    expect(sheet?.rowCount).toBe(2);
  });

  it("refuses a range that ends before it starts (400 naming date_from)", async () => {
    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/tax/vat-books/issued?company_id=${fx.companyId}&date_from=2026-05-01&date_to=2026-04-01`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe("date_from");
  });
});

describe("box map", () => {
  it("is seeded with the AEAT defaults: RE 0.5 % to 168/170, credit notes to 14/15 and 40/41", async () => {
    const iva4 = await boxMapOf(t, fx.companyId, "IVA4");
    const sale = iva4.find((r) => r.model === "303" && r.direction === "sale" && !r.rectifying);
    expect(sale).toMatchObject({ base_box: "01", quota_box: "03", re_base_box: "168", re_quota_box: "170" });
    const saleCredit = iva4.find((r) => r.model === "303" && r.direction === "sale" && r.rectifying);
    expect(saleCredit).toMatchObject({
      base_box: "14",
      quota_box: "15",
      re_base_box: "25",
      re_quota_box: "26",
    });
    const purchaseCredit = iva4.find((r) => r.direction === "purchase" && r.rectifying);
    expect(purchaseCredit).toMatchObject({ side: "deductible", base_box: "40", quota_box: "41" });
    const ic = await boxMapOf(t, fx.companyId, "IC21");
    expect(
      ic.filter((r) => r.model === "303" && !r.rectifying).map((r) => [r.side, r.base_box, r.quota_box]),
    ).toEqual([
      ["accrued", "10", "11"],
      ["deductible", "36", "37"],
    ]);
    expect(ic.find((r) => r.model === "349" && !r.rectifying)?.base_box).toBe("A");
  });

  it("refuses a box the model has not, naming the field", async () => {
    const [row] = (await boxMapOf(t, fx.companyId, "IVA21")).filter((r) => r.model === "303");
    const res = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/tax/box-map/${row.id}`,
      payload: { quota_box: "999" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe("quota_box");
  });
});

describe("bad input names the field", () => {
  it("refuses an unknown model or period", async () => {
    const model = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/tax/returns",
      payload: { company_id: fx.companyId, model: "304", year: 2026, period: "1T" },
    });
    expect(model.statusCode).toBe(400);
    expect(model.json().errors[0].path).toMatch(/model$/);
    const period = await createReturn(t, fx.companyId, "303", "5T");
    expect(period.statusCode).toBe(400);
    expect(period.json().errors[0].path).toMatch(/period$/);
    const annual = await createReturn(t, fx.companyId, "390", "1T");
    expect(annual.statusCode).toBe(400);
    expect(annual.json().errors[0].path).toMatch(/period$/);
    const type = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/tax/returns/${ret.id}`,
      payload: { declaration_type: "I" }, // the result is negative: C, or a refund in 4T
    });
    expect(type.statusCode).toBe(400);
    expect(type.json().errors[0].path).toBe("declaration_type");
  });
});

describe("company restriction and permissions", () => {
  it("hides another company's returns, box map and books (404) on every route", async () => {
    const outsider = await t.userWith(["tax:leer", "tax:crear", "tax:editar", "admin:editar"], {
      companyId: other,
    });
    const as = (method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
      t.as(outsider.token, { method, url, ...(payload ? { payload } : {}) });
    for (const [method, url, payload] of [
      ["GET", `/api/tax/returns/${ret.id}`],
      ["PATCH", `/api/tax/returns/${ret.id}`, { manual_boxes: { "110": "1" } }],
      ["POST", `/api/tax/returns/${ret.id}/recompute`],
      ["POST", `/api/tax/returns/${ret.id}/confirm`],
      ["POST", `/api/tax/returns/${ret.id}/settle`],
      ["POST", `/api/tax/returns/${ret.id}/present`, {}],
      ["POST", `/api/tax/returns/${ret.id}/reopen`, { reason: "curiosidad" }],
      ["GET", `/api/tax/returns/${ret.id}/file`],
      ["GET", `/api/tax/returns/${ret.id}/check`],
      ["GET", `/api/tax/returns/${ret.id}/events`],
      ["GET", `/api/tax/returns/${ret.id}/boxes/07`],
      ["POST", "/api/tax/returns", { company_id: fx.companyId, model: "303", year: 2026, period: "2T" }],
      ["GET", `/api/tax/box-map?company_id=${fx.companyId}`],
      ["GET", `/api/tax/vat-books/issued?company_id=${fx.companyId}`],
      ["GET", `/api/tax/vat-books/received?company_id=${fx.companyId}`],
    ] as const) {
      const res = await as(method, url, payload);
      expect([url, res.statusCode]).toEqual([url, 404]);
    }
    const [row] = await boxMapOf(t, fx.companyId, "IVA21");
    expect((await as("PATCH", `/api/tax/box-map/${row.id}`, { base_box: "07" })).statusCode).toBe(404);
    const list = expectStatus<{ total: number }>(await as("GET", "/api/tax/returns"), 200);
    expect(list.total).toBe(0);
    // Its own company works.
    const own = await as("POST", "/api/tax/returns", {
      company_id: other,
      model: "303",
      year: 2026,
      period: "1T",
    });
    expect(own.statusCode).toBe(201);
  });

  it("requires tax:leer to read and tax:editar to confirm", async () => {
    const reader = await t.userWith(["tax:leer"]);
    expect((await t.as(reader.token, { method: "GET", url: `/api/tax/returns/${ret.id}` })).statusCode).toBe(
      200,
    );
    expect((await returnAction(t, ret.id, "confirm", undefined, reader.token)).statusCode).toBe(403);
    const nobody = await t.userWith(["sales:leer"]);
    expect((await t.as(nobody.token, { method: "GET", url: `/api/tax/returns/${ret.id}` })).statusCode).toBe(
      403,
    );
  });
});
