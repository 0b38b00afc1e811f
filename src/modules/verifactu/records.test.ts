import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { inCtxTransaction } from "../../platform/http/context.js";
import { serviceCtx } from "../accounting/test-support.js";
import {
  type DocOut,
  expectStatus,
  issuedSalesInvoice,
  issueSalesInvoice,
  line,
} from "../documents/test-support.js";
import { aeatDate, altaHashInput, huella } from "./hash.js";
import { appendRecords, issuerOf } from "./service.js";
import { recordOf, recordsOf, setMode, verifactuFixture, verify } from "./test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof verifactuFixture>>;

beforeAll(async () => {
  t = await createTestApp({
    VERIFACTU_PRODUCER_NAME: "Cuadra Software, S.L.",
    VERIFACTU_PRODUCER_NIF: "B12345674",
  });
  fx = await verifactuFixture(t);
});
afterAll(async () => {
  await t?.close();
});

describe("VeriFactu settings", () => {
  it("are off by default, turn on, and cannot turn off once records exist", async () => {
    const other = await verifactuFixture(t, { on: false, name: "Sin VeriFactu, S.L." });
    const initial = expectStatus<{ mode: string; records: number }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/verifactu/settings?company_id=${other.companyId}`,
      }),
      200,
    );
    expect(initial).toMatchObject({ mode: "off", records: 0 });
    // Off: issuing creates no record.
    await issuedSalesInvoice(t, other.companyId, other.customer.id, [line("1", "100")]);
    expect((await recordsOf(t, other.companyId)).total).toBe(0);
    // On, then off again while there are no records: allowed.
    expect(await setMode(t, other.companyId, "verifactu")).toMatchObject({ mode: "verifactu", records: 0 });
    expect(await setMode(t, other.companyId, "off")).toMatchObject({ mode: "off" });
    await setMode(t, other.companyId, "verifactu");
    await issuedSalesInvoice(t, other.companyId, other.customer.id, [line("1", "100")]);
    const refused = await t.as(t.adminToken, {
      method: "PUT",
      url: "/api/verifactu/settings",
      payload: { company_id: other.companyId, mode: "off" },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/cannot be turned off/);
    const bad = await t.as(t.adminToken, {
      method: "PUT",
      url: "/api/verifactu/settings",
      payload: { company_id: other.companyId, mode: "sometimes" },
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().errors)).toContain("mode");
    // The log holds start, stop and start again.
    const events = expectStatus<{
      data: Array<{ kind: string; sequence: number; previous_hash: string; hash: string }>;
    }>(
      await t.as(t.adminToken, { method: "GET", url: `/api/verifactu/events?company_id=${other.companyId}` }),
      200,
    );
    expect(events.data.map((e) => e.kind)).toEqual(["start", "stop", "start"]);
    expect(events.data[1].previous_hash).toBe(events.data[0].hash);
  });
});

describe("registration records", () => {
  it("registers each issued invoice in the issuing transaction, chained to the previous record", async () => {
    const first = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [
      line("1", "100", "IVA21"),
      line("2", "10", "IVA4"),
    ]);
    const second = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("3", "33.33", "IVA10")]);
    const { data, total } = await recordsOf(t, fx.companyId);
    expect(total).toBe(2);
    const [a, b] = data;
    expect(a).toMatchObject({
      sequence: 1,
      record_type: "alta",
      document_id: first.id,
      invoice_number: first.code,
      invoice_date: "2026-03-10",
      invoice_type: "F1",
      cuota_total: "21.80",
      importe_total: "141.80",
      previous_id: null,
      previous_hash: "",
      submission: { estado: "pendiente", attempts: 0 },
    });
    expect(a.generated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(b).toMatchObject({
      sequence: 2,
      previous_id: a.id,
      previous_hash: a.hash,
      invoice_number: second.code,
    });
    expect(b.cuota_total).toBe("10.00");
    expect(b.importe_total).toBe("109.99");

    const detail = await recordOf(t, a.id);
    const expectedInput = altaHashInput({
      issuerNif: detail.issuer_nif as string,
      invoiceNumber: first.code,
      issueDate: aeatDate("2026-03-10"),
      invoiceType: "F1",
      cuotaTotal: "21.80",
      importeTotal: "141.80",
      previousHash: "",
      generatedAt: a.generated_at,
    });
    expect(detail.hash_input).toBe(expectedInput);
    expect(detail.hash).toBe(huella(expectedInput));
    expect(detail.details.breakdown).toEqual([
      {
        regime: "01",
        qualification: "S1",
        exemption: null,
        rate: "21.00",
        base: "100.00",
        vat: "21.00",
        re_rate: null,
        re: null,
      },
      {
        regime: "01",
        qualification: "S1",
        exemption: null,
        rate: "4.00",
        base: "20.00",
        vat: "0.80",
        re_rate: null,
        re: null,
      },
    ]);
    expect(detail.details.recipient).toMatchObject({
      name: "Cliente VeriFactu, S.L.",
      nif: fx.customer.tax_id,
    });
    expect(detail.details.software).toMatchObject({
      producer_name: "Cuadra Software, S.L.",
      producer_nif: "B12345674",
      id: "CU",
    });
    expect(detail.details.previous).toBeNull();
    const secondDetail = await recordOf(t, b.id);
    expect(secondDetail.details.previous).toEqual({
      issuer_nif: detail.issuer_nif,
      invoice_number: first.code,
      issue_date: "10-03-2026",
    });
  });

  it("registers exemptions, recargo de equivalencia, simplified and rectifying invoices with their types", async () => {
    const reCustomer = expectStatus<{ id: string }>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/clients",
        payload: {
          company_id: fx.companyId,
          contact_type: "customer",
          name: "Minorista en recargo",
          tax_id: "12345678Z",
          tax_regime: "recargo_equivalencia",
        },
      }),
      201,
    );
    const re = await issuedSalesInvoice(t, fx.companyId, reCustomer.id, [
      line("1", "100", "IVA21"),
      line("1", "50", "EXENTO"),
    ]);
    const reRecord = (await recordsOf(t, fx.companyId, `&document_id=${re.id}`)).data[0];
    expect(reRecord).toMatchObject({ cuota_total: "26.20", importe_total: "176.20" });
    const reDetail = await recordOf(t, reRecord.id);
    expect(reDetail.details.breakdown).toContainEqual(
      expect.objectContaining({
        qualification: "S1",
        rate: "21.00",
        base: "100.00",
        vat: "21.00",
        re_rate: "5.20",
        re: "5.20",
      }),
    );
    expect(reDetail.details.breakdown).toContainEqual(
      expect.objectContaining({ qualification: null, exemption: "E1", rate: null, base: "50.00", vat: null }),
    );

    const ticket = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("1", "10", "IVA21")],
      "2026-03-10",
      {
        series: "S",
      },
    );
    const ticketRecord = (await recordsOf(t, fx.companyId, `&document_id=${ticket.id}`)).data[0];
    expect(ticketRecord).toMatchObject({ invoice_type: "F2", cuota_total: "2.10", importe_total: "12.10" });
    expect((await recordOf(t, ticketRecord.id)).details.recipient).toBeNull();

    const original = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("2", "50", "IVA21")],
      "2026-03-11",
    );
    const draft = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/sales/invoices/${original.id}/rectify`,
        payload: { reason: "Devolución" },
      }),
      201,
    );
    const rectifying = expectStatus<DocOut>(await issueSalesInvoice(t, draft.id, "2026-03-12"), 200);
    const rRecord = (await recordsOf(t, fx.companyId, `&document_id=${rectifying.id}`)).data[0];
    expect(rRecord).toMatchObject({ invoice_type: "R1", cuota_total: "-21.00", importe_total: "-121.00" });
    expect((await recordOf(t, rRecord.id)).details.rectification).toEqual({
      type: "I",
      corrected: [{ number: original.code, issue_date: "11-03-2026" }],
      base: null,
      vat: null,
      re: null,
    });
    // Filters: by type, by invoice number, by dates.
    expect(
      (await recordsOf(t, fx.companyId, `&invoice_number=${original.code}`)).data.map((r) => r.document_id),
    ).toEqual([original.id]);
    expect(
      (await recordsOf(t, fx.companyId, "&from=2026-03-12&to=2026-03-12")).data.map((r) => r.document_id),
    ).toEqual([rectifying.id]);
  });

  it("registers nothing for purchase invoices", async () => {
    const before = (await recordsOf(t, fx.companyId)).total;
    const supplier = expectStatus<{ id: string }>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/clients",
        payload: {
          company_id: fx.companyId,
          contact_type: "supplier",
          name: "Proveedor",
          tax_id: "87654321X",
        },
      }),
      201,
    );
    const bill = expectStatus<{ id: string }>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/purchases/invoices",
        payload: {
          company_id: fx.companyId,
          supplier_id: supplier.id,
          supplier_number: "P-1",
          date: "2026-03-10",
          lines: [line("1", "100")],
        },
      }),
      201,
    );
    expectStatus(
      await t.as(t.adminToken, { method: "POST", url: `/api/purchases/invoices/${bill.id}/approve` }),
      200,
    );
    expect((await recordsOf(t, fx.companyId)).total).toBe(before);
  });
});

describe("cancellation", () => {
  it("cancels a record issued in error with a chained RegistroAnulacion, once", async () => {
    const invoice = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("1", "10")],
      "2026-03-20",
    );
    const alta = (await recordsOf(t, fx.companyId, `&document_id=${invoice.id}`)).data[0];
    const last = (await recordsOf(t, fx.companyId)).data.at(-1);
    expect(last?.id).toBe(alta.id);
    const res = await t.as(t.adminToken, { method: "POST", url: `/api/verifactu/records/${alta.id}/cancel` });
    const cancellation = expectStatus<typeof alta>(res, 201);
    expect(cancellation).toMatchObject({
      record_type: "anulacion",
      sequence: alta.sequence + 1,
      cancels_record_id: alta.id,
      previous_id: alta.id,
      previous_hash: alta.hash,
      invoice_number: alta.invoice_number,
      invoice_type: null,
      cuota_total: null,
    });
    expect(cancellation.hash_input).toBe(
      `IDEmisorFacturaAnulada=${cancellation.issuer_nif}&NumSerieFacturaAnulada=${alta.invoice_number}&FechaExpedicionFacturaAnulada=20-03-2026&Huella=${alta.hash}&FechaHoraHusoGenRegistro=${cancellation.generated_at}`,
    );
    expect(cancellation.hash).toBe(huella(cancellation.hash_input));
    expect((await recordOf(t, alta.id)).cancelled_by).toBe(cancellation.id);

    const again = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/verifactu/records/${alta.id}/cancel`,
    });
    expect(again.statusCode).toBe(409);
    const ofCancellation = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/verifactu/records/${cancellation.id}/cancel`,
    });
    expect(ofCancellation.statusCode).toBe(409);
    const unknown = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/verifactu/records/0190f2a4-0000-7000-8000-000000000000/cancel",
    });
    expect(unknown.statusCode).toBe(404);
    const notUuid = await t.as(t.adminToken, { method: "GET", url: "/api/verifactu/records/nope" });
    expect(notUuid.statusCode).toBe(400);
    expect((await verify(t, fx.companyId)).ok).toBe(true);
  });
});

describe("append-only records and chain verification", () => {
  it("refuses UPDATE and DELETE of a record in the database", async () => {
    const [record] = (await recordsOf(t, fx.companyId)).data;
    const refusal = async (statement: ReturnType<typeof sql>) => {
      const err = await t.db.execute(statement).then(
        () => null,
        (e: Error & { cause?: Error }) => e,
      );
      return String(err?.cause?.message ?? err?.message);
    };
    expect(
      await refusal(sql`update verifactu_records set cuota_total = '0.00' where id = ${record.id}`),
    ).toMatch(/verifactu_records is append-only: UPDATE refused/);
    expect(await refusal(sql`delete from verifactu_records where id = ${record.id}`)).toMatch(
      /DELETE refused/,
    );
    expect(await refusal(sql`delete from verifactu_events`)).toMatch(/verifactu_events is append-only/);
    expect(await refusal(sql`truncate verifactu_records cascade`)).toMatch(/append-only/);
  });

  it("verifies a sound chain, detects a tampered amount and a tampered link, and logs both", async () => {
    const tampered = await verifactuFixture(t, { name: "Manipulada, S.L." });
    for (const day of ["2026-04-01", "2026-04-02", "2026-04-03", "2026-04-04"])
      await issuedSalesInvoice(t, tampered.companyId, tampered.customer.id, [line("1", "100")], day);
    const sound = await verify(t, tampered.companyId);
    expect(sound).toMatchObject({
      ok: true,
      records: { checked: 4, first_break: null },
      events: { first_break: null },
    });

    const { data } = await recordsOf(t, tampered.companyId);
    const withTriggerOff = async (statement: ReturnType<typeof sql>) => {
      await t.db.execute(sql`alter table verifactu_records disable trigger verifactu_records_append_only`);
      try {
        await t.db.execute(statement);
      } finally {
        await t.db.execute(sql`alter table verifactu_records enable trigger verifactu_records_append_only`);
      }
    };
    await withTriggerOff(sql`update verifactu_records set importe_total = '1.00' where id = ${data[2].id}`);
    const broken = await verify(t, tampered.companyId);
    expect(broken.ok).toBe(false);
    expect(broken.records.checked).toBe(2);
    expect(broken.records.first_break).toMatchObject({
      sequence: 3,
      problem: "hash_mismatch",
      id: data[2].id,
    });

    // Put the amount back and rewrite a link instead: the break moves to the link.
    await withTriggerOff(
      sql`update verifactu_records set importe_total = ${data[2].importe_total} where id = ${data[2].id}`,
    );
    expect((await verify(t, tampered.companyId)).ok).toBe(true);
    await withTriggerOff(
      sql`update verifactu_records set previous_hash = ${data[0].hash} where id = ${data[3].id}`,
    );
    expect((await verify(t, tampered.companyId)).records.first_break).toMatchObject({
      sequence: 4,
      problem: "broken_link",
    });
    // A deleted tail record shows against the chain's head.
    await withTriggerOff(
      sql`update verifactu_records set previous_hash = ${data[2].hash} where id = ${data[3].id}`,
    );
    await withTriggerOff(sql`delete from verifactu_queue where record_id = ${data[3].id}`);
    await withTriggerOff(sql`delete from verifactu_records where id = ${data[3].id}`);
    expect((await verify(t, tampered.companyId)).records.first_break).toMatchObject({
      sequence: 4,
      problem: "head_mismatch",
    });

    const events = expectStatus<{
      data: Array<{ kind: string; event_type: string; detail: Record<string, unknown> }>;
    }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/verifactu/events?company_id=${tampered.companyId}&limit=100`,
      }),
      200,
    );
    expect(events.data.filter((e) => e.kind === "verification").map((e) => e.detail.ok)).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
    expect(events.data.filter((e) => e.kind === "anomaly")).toHaveLength(3);
    expect(events.data.find((e) => e.kind === "anomaly")?.event_type).toBe("04");
  });

  it("verifies a chain of 1,000 records across pages, and finds a break deep inside it", async () => {
    const big = await verifactuFixture(t, { name: "Mil facturas, S.L." });
    const invoice = await issuedSalesInvoice(t, big.companyId, big.customer.id, [line("1", "100")]);
    const ctx = serviceCtx(t.ctx);
    await appendMany(ctx, big.companyId, invoice.id, 999);
    const report = await verify(t, big.companyId);
    expect(report).toMatchObject({ ok: true, records: { checked: 1000, first_break: null } });
    const { data } = await recordsOf(t, big.companyId, "&skip=700&limit=1");
    await t.db.execute(sql`alter table verifactu_records disable trigger verifactu_records_append_only`);
    await t.db.execute(
      sql`update verifactu_records set generated_at = '2026-01-01T00:00:00+01:00' where id = ${data[0].id}`,
    );
    await t.db.execute(sql`alter table verifactu_records enable trigger verifactu_records_append_only`);
    expect((await verify(t, big.companyId)).records.first_break).toMatchObject({
      sequence: 701,
      problem: "hash_mismatch",
    });
  });
});

describe("access", () => {
  it("needs verifactu permissions and hides other companies' records", async () => {
    const [record] = (await recordsOf(t, fx.companyId)).data;
    const noPermission = await t.userWith(["sales:leer"]);
    expect(
      (await t.as(noPermission.token, { method: "GET", url: "/api/verifactu/records" })).statusCode,
    ).toBe(403);
    const reader = await t.userWith(["verifactu:leer"]);
    expect(
      (await t.as(reader.token, { method: "POST", url: `/api/verifactu/records/${record.id}/cancel` }))
        .statusCode,
    ).toBe(403);
    const other = await verifactuFixture(t, { name: "Otra, S.L." });
    const restricted = await t.userWith(["verifactu:leer", "verifactu:crear"], {
      companyId: other.companyId,
    });
    expect(
      (await t.as(restricted.token, { method: "GET", url: `/api/verifactu/records/${record.id}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.as(restricted.token, { method: "GET", url: `/api/verifactu/records/${record.id}/xml` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.as(restricted.token, { method: "POST", url: `/api/verifactu/records/${record.id}/cancel` }))
        .statusCode,
    ).toBe(404);
    const list = await t.as(restricted.token, {
      method: "GET",
      url: `/api/verifactu/records?company_id=${fx.companyId}`,
    });
    expect(list.json().total).toBe(0);
    const verifyOther = await t.as(restricted.token, {
      method: "GET",
      url: `/api/verifactu/verify?company_id=${fx.companyId}`,
    });
    expect(verifyOther.statusCode).toBe(404);
  });
});

/** Appends `n` records to a company's chain in one transaction (the same path issuing uses). */
async function appendMany(
  ctx: ReturnType<typeof serviceCtx>,
  companyId: string,
  documentId: string,
  n: number,
) {
  await inCtxTransaction(ctx, async (tx) => {
    const issuer = await issuerOf(tx, companyId);
    await appendRecords(
      tx,
      issuer,
      Array.from({ length: n }, (_, i) => ({
        recordType: "alta" as const,
        documentId,
        invoiceNumber: `CHAIN-${String(i + 1).padStart(4, "0")}`,
        invoiceDate: "2026-03-10",
        invoiceType: "F1",
        cuotaTotal: "21.00",
        importeTotal: "121.00",
        details: {
          breakdown: [{ regime: "01", qualification: "S1", rate: "21.00", base: "100.00", vat: "21.00" }],
        },
      })),
    );
  });
}
